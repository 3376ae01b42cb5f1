export const Reports = () => (
  <section axag-scope="tenant" axag-tenant-boundary="strict" axag-required-roles='["staff"]'>
    <button axag-intent="report.export" axag-action-type="read" axag-description="Export the sales report as CSV"
      axag-risk-level="low" axag-async="true"
      axag-required-parameters='[{"name": "month", "type": "string", "format": "date"}]'
      axag-postconditions='["a download link is sent"]' axag-side-effects='["emails a download link"]'
      axag-approval-required="false">Export</button>
  </section>
);
