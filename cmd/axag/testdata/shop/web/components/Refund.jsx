import React from "react";

export function Refund({ order, onRefund }) {
  return (
    <div axag-scope="tenant" axag-tenant-boundary="strict" axag-required-roles='["staff"]'>
      <button
        onClick={() => onRefund(order.id, order.total)}
        axag-intent="order.refund"
        axag-action-type="write"
        axag-description="Refund an order"
        axag-risk-level="critical"
        axag-idempotent="false"
        axag-confirmation-required="true"
        axag-approval-required="true"
        axag-approval-roles='["finance_manager"]'
        axag-required-roles='["staff", "support"]'
        axag-required-parameters='[{"name": "id", "type": "string", "pattern": "^ord_[a-z0-9]+$"}, {"name": "amount", "type": "number", "min": 0.01, "max": 10000}]'
        axag-preconditions='["the order is paid"]'
        axag-postconditions='["the order is refunded"]'
        axag-side-effects='["moves money back to the customer", "emails the customer"]'
      >
        Refund
      </button>
    </div>
  );
}
