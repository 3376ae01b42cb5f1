package service_test

import (
	"testing"
)

// Error answers name, in their next actions' params, the nodes and
// candidate the agent needs for the next request (checkSchema holds each
// params to its operation's request schema).
func TestNextActionParams(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	insertNope := `{"kind": "list_element", "op": "insert", "anchor": "element:Home/view/0/1", "position": "after",
		"old_text": "Button(label: \"Add\", on_press: submit)", "element": "Nope(x: 1)"}`
	o := do(t, s, propose(ws, snap, "nope-1", insertNope))
	expect(t, o, "error.reason", "candidate_errors")
	same(t, "compile_failed next_actions", o.get("error.next_actions"), `[{"operation": "node.edits",
		"reason": "Read the edits the nodes accept, fix the operation at operation_index and propose again",
		"params": {"nodes": ["element:Home/view/0/1"]}}]`)

	o = do(t, s, propose(ws, snap, "add-1", setLabel("Add", "Add task")))
	cand := o.str("result.candidate.id")
	applyByHand(t, s, dir, cand)
	for _, req := range []string{
		v1 + `"operation": "change.discard", "workspace": "` + ws + `", "params": {"candidate": "` + cand + `"}}`,
		v1 + `"operation": "change.apply", "workspace": "` + ws + `", "request_id": "other", "params": {"candidate": "` + cand + `", "expected_candidate_version": 1}}`,
	} {
		o = do(t, s, req)
		expect(t, o, "error.reason", "candidate_applied")
		expect(t, o, "error.next_actions.0.operation", "change.inspect")
		expect(t, o, "error.next_actions.0.params.candidate", cand)
		expect(t, o, "error.next_actions.1.operation", "changes.since")
		expect(t, o, "error.next_actions.1.params.since", snap)
	}
}
