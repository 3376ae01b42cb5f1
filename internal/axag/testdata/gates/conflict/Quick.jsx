export function Quick() {
  return <button axag-intent="order.refund" axag-action-type="write" axag-risk-level="low"
                 axag-idempotent="false" axag-description="Quick refund">Refund</button>;
}
