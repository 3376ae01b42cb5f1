package service

import (
	"encoding/json"
	"testing"

	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// editError gives the engine's errors the wire's shapes: the reference's
// old_value_mismatch, and a compile error's one compile_failed shape.
func TestEditError(t *testing.T) {
	zero := 0
	tests := []struct {
		name  string
		in    *edit.Error
		nodes []string
		want  string
	}{
		{"the reference's old_value_mismatch", &edit.Error{Kind: edit.Precondition, Reason: reason.OldValueMismatch, Message: `label is "Add", expected "Create"`,
			OperationIndex: &zero, Node: "element:Home/view/0/1", Property: "label", Next: edit.Reread, NextNode: "element:Home/view/0/1"}, []string{"element:Home/view/0/1"},
			`{"code":"precondition_failed","reason":"old_value_mismatch","message":"label is \"Add\", expected \"Create\"","operation_index":0,` +
				`"target":{"node":"element:Home/view/0/1","property":"label"},"diagnostics":[],"retryable":"after_refresh",` +
				`"next_actions":[{"operation":"node.get","reason":"Re-read the node and rebuild the operation","params":{"nodes":["element:Home/view/0/1"]}}]}`},
		{"still referenced", &edit.Error{Kind: edit.Unsupported, Reason: reason.StillReferenced, Message: "m", Node: "state:Home.x",
			Details: map[string]any{"referenced_by": []string{"a"}}, Next: edit.ListReferences, NextNode: "state:Home.x"}, nil,
			`{"code":"unsupported_operation","reason":"still_referenced","message":"m","target":{"node":"state:Home.x"},"diagnostics":[],"retryable":"none",` +
				`"next_actions":[{"operation":"graph.query","reason":"List the references to remove first","params":{"from":["state:Home.x"],"mode":"references"}}],` +
				`"details":{"referenced_by":["a"]}}`},
		{"read_only_origin, a code without a reason", &edit.Error{Kind: edit.ReadOnly, Message: "m", Node: "contract_operation:Tasks.list_tasks", OperationIndex: &zero}, nil,
			`{"code":"read_only_origin","message":"m","operation_index":0,"target":{"node":"contract_operation:Tasks.list_tasks"},"diagnostics":[],` +
				`"retryable":"none","next_actions":[]}`},
		{"candidate errors", &edit.Error{Kind: edit.Compile, Reason: reason.CandidateErrors, Message: "m", OperationIndex: &zero,
			Diagnostics: []diag.Diagnostic{{Code: "AC101", Severity: diag.Error, Path: "main.acore", Line: 1, Column: 2, Message: "bad"}}}, []string{"element:Home/view/0/1", "state:Home.draft"},
			`{"code":"compile_failed","reason":"candidate_errors","message":"m","operation_index":0,` +
				`"diagnostics":[{"code":"AC101","severity":"error","path":"main.acore","line":1,"column":2,"message":"bad"}],"retryable":"none",` +
				`"next_actions":[{"operation":"node.edits","reason":"Read the edits the nodes accept, fix the operation at operation_index and propose again",` +
				`"params":{"nodes":["element:Home/view/0/1","state:Home.draft"]}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := json.Marshal(editError(tt.in, tt.nodes))
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
