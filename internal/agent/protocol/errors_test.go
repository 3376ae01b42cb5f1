package protocol

import (
	"encoding/json"
	"testing"

	"github.com/axiomcore/acore/internal/lang/reason"
)

// TestCompileFailedShape: every compile_failed has its reason, the
// diagnostics (an empty list, never null), at least one next action, and
// details.repair exactly for a repair regression.
func TestCompileFailedShape(t *testing.T) {
	diags := []Diagnostic{{Code: "AC209", Severity: "error", Path: "main.acore", Line: 3, Column: 5, Message: "Nope is no element or component"}}
	repair := map[string]any{"base_errors": 1, "result_errors": 1}
	tests := []struct {
		reason    reason.Reason
		diags     []Diagnostic
		repair    any
		next      string
		hasRepair bool
	}{
		{reason.NotValidated, nil, nil, "project.overview", false},
		{reason.CandidateErrors, diags, nil, "node.edits", false},
		{reason.RepairRegression, diags, repair, "project.overview", true},
	}
	for _, tt := range tests {
		e := CompileFailed(tt.reason, tt.diags, tt.repair, "%d errors", len(tt.diags))
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var wire struct {
			Code        string          `json:"code"`
			Reason      string          `json:"reason"`
			Diagnostics json.RawMessage `json:"diagnostics"`
			Retryable   string          `json:"retryable"`
			NextActions []NextAction    `json:"next_actions"`
			Details     map[string]any  `json:"details"`
		}
		if err := json.Unmarshal(b, &wire); err != nil {
			t.Fatal(err)
		}
		var ds []Diagnostic
		_ = json.Unmarshal(wire.Diagnostics, &ds)
		if wire.Code != reason.CodeCompileFailed.String() || wire.Reason != tt.reason.String() || wire.Retryable != RetryNone ||
			string(wire.Diagnostics) == "null" || len(ds) != len(tt.diags) {
			t.Errorf("%s: %s", tt.reason, b)
		}
		if len(wire.NextActions) == 0 || wire.NextActions[0].Operation != tt.next {
			t.Errorf("%s: next actions %+v", tt.reason, wire.NextActions)
		}
		if _, ok := wire.Details["repair"]; ok != tt.hasRepair {
			t.Errorf("%s: details %v", tt.reason, wire.Details)
		}
	}
}

// JSONDepth counts nesting outside strings only.
func TestJSONDepth(t *testing.T) {
	for raw, want := range map[string]int{`{}`: 1, `{"a":[[1]]}`: 3, `{"a":"[[[{"}`: 1, `{"a":"\"[["}`: 1, `1`: 0} {
		if got := JSONDepth([]byte(raw)); got != want {
			t.Errorf("JSONDepth(%s) = %d, want %d", raw, got, want)
		}
	}
}
