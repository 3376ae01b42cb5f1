package service_test

import (
	"testing"
)

// The reference's flow with the real change.apply: the apply, its replay,
// the discard of a second candidate on the applied snapshot, and
// stale_snapshot for an edit on the snapshot from before the apply.
func TestReferenceEditFlowWithApply(t *testing.T) {
	s, _, ws, snap := openTaskApp(t)
	o := do(t, s, propose(ws, snap, "rename-add-1", setLabel("Add", "Add task")))
	cand, candSnap := o.str("result.candidate.id"), o.str("result.candidate.snapshot")
	apply := v1 + `"operation": "change.apply", "workspace": "` + ws + `", "request_id": "apply-rename-add-1", "params": {"candidate": "` + cand + `", "expected_candidate_version": 1, "require_checks": ["compile"]}}`
	o = do(t, s, apply)
	expect(t, o, "result.receipt.outcome", "applied")
	expect(t, o, "result.receipt.base_snapshot", snap)
	expect(t, o, "result.receipt.result_snapshot", candSnap)
	expect(t, o, "result.receipt.files.0.before_sha256", mainBefore)
	expect(t, o, "result.receipt.files.0.after_sha256", mainAfter)
	expect(t, o, "result.replayed", false)
	o = do(t, s, apply)
	expect(t, o, "result.replayed", true)

	// The applied candidate cannot be discarded or extended.
	o = do(t, s, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`"}}`)
	expect(t, o, "error.reason", "candidate_applied")
	expect(t, o, "error.retryable", "none")

	o = do(t, s, propose(ws, candSnap, "placeholder-1",
		`{"kind": "set_property", "node": "element:Home/view/0/0", "property": "placeholder", "old_value": "Add a task", "new_value": "New task"}`))
	second := o.str("result.candidate.id")
	expect(t, o, "result.candidate.base_snapshot", candSnap)
	o = do(t, s, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "`+second+`", "expected_candidate_version": 1}}`)
	expect(t, o, "result.candidate.state", "discarded")
	expect(t, o, "result.released", true)

	o = do(t, s, propose(ws, snap, "rename-add-2", setLabel("Add", "Add item")))
	expect(t, o, "error.code", "stale_snapshot")
	expect(t, o, "error.reason", "base_not_head")
	expect(t, o, "error.message", "base_snapshot "+snap+" is not the current snapshot of the workspace ("+candSnap+") and the files this request changes differ there")
	expect(t, o, "snapshot.id", candSnap)
}
