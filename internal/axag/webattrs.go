package axag

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// WebAttributes returns the axag-* attributes that describe a on a web
// page, as name, value pairs in a fixed order, in the names and formats
// ScanWeb reads back: strings as they are, booleans as true or false,
// lists and parameters as JSON (parameters as the objects of the 1.1.0
// manifest). Only the fields a gives are written. Scope, tenant boundary
// and required roles are written on the element itself, so that nothing
// depends on the scanner's inheritance from ancestors. The element
// selector and the source location have no attribute: the scanner takes
// them from the page.
func WebAttributes(a Action) []string {
	out := []string{"axag-intent", a.Intent}
	str := func(name, v string) {
		if v != "" {
			out = append(out, name, v)
		}
	}
	boolean := func(name string, v *bool) {
		if v != nil {
			out = append(out, name, strconv.FormatBool(*v))
		}
	}
	list := func(name string, v []string) {
		if v != nil {
			out = append(out, name, attrJSON(v))
		}
	}
	str("axag-entity", a.Entity)
	str("axag-action-type", a.ActionType)
	str("axag-description", a.Description)
	str("axag-operation-id", a.OperationID)
	str("axag-risk-level", a.RiskLevel)
	boolean("axag-idempotent", a.Idempotent)
	boolean("axag-confirmation-required", a.ConfirmationRequired)
	boolean("axag-approval-required", a.ApprovalRequired)
	list("axag-approval-roles", a.ApprovalRoles)
	list("axag-required-roles", a.RequiredRoles)
	str("axag-scope", a.Scope)
	str("axag-tenant-boundary", a.TenantBoundary)
	list("axag-preconditions", a.Preconditions)
	list("axag-postconditions", a.Postconditions)
	list("axag-side-effects", a.SideEffects)
	boolean("axag-async", a.Async)
	req, opt := params110(a.Parameters)
	if req != nil {
		out = append(out, "axag-required-parameters", attrJSON(req))
	}
	if opt != nil {
		out = append(out, "axag-optional-parameters", attrJSON(opt))
	}
	return out
}

// attrJSON writes v as JSON that can stand in an HTML attribute quoted
// with ' without character references: <, > and & are escaped by
// encoding/json, ' as \u0027.
func attrJSON(v any) string {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(v)
	return strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), "'", `\u0027`)
}
