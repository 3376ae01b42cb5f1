type Props = { id: string; onCancel: (id: string) => void };

export function CancelOrder({ id, onCancel }: Props) {
  return (
    <div axag-scope="tenant" axag-tenant-boundary="strict" axag-required-roles='["staff"]'>
      <button onClick={() => onCancel(id)}
        axag-intent="order.cancel" axag-action-type="write" axag-description="Cancel an order that has not shipped"
        axag-risk-level="high" axag-idempotent="true" axag-confirmation-required="true"
        axag-required-parameters='[{"name": "id", "type": "string", "pattern": "^ord_[a-z0-9]+$"}]'
        axag-preconditions='["the order has not shipped"]' axag-postconditions='["the order is cancelled"]'
        axag-side-effects='["releases the reserved stock"]' axag-approval-required="false">Cancel</button>
    </div>
  );
}
