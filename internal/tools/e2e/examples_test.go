package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesCheck: every committed example compiles to validated with no
// error (the unsigned development contracts' AC503 warnings are expected)
// and has an up-to-date lock; the reading list keeps its AXAG facts at the
// full level with no finding at all (--strict fails on warnings too).
func TestExamplesCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		level string // the AXAG level the example must reach; "" = not checked
	}{
		{"task-app", ""},
		{"reading-list", "full"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "..", "examples", c.name)
			var report struct {
				SemanticState string `json:"semantic_state"`
				Status        string `json:"status"`
				Errors        int    `json:"errors"`
				Diagnostics   []struct {
					Code string `json:"code"`
				} `json:"diagnostics"`
			}
			out := axiom(t, 0, "check", dir, "--json")
			if err := json.Unmarshal([]byte(out), &report); err != nil {
				t.Fatalf("axiom check --json: %v\n%s", err, out)
			}
			if report.SemanticState != "validated" || report.Status != "ready" || report.Errors != 0 {
				t.Errorf("axiom check: %s", out)
			}
			for _, d := range report.Diagnostics {
				if d.Code != "AC503" {
					t.Errorf("diagnostic %s besides the unsigned-contract warnings: %s", d.Code, out)
				}
			}
			if c.level == "" {
				return
			}
			out = command(t, 0, bin.axag, "validate", dir, "--level", c.level, "--strict")
			if !strings.Contains(out, "conformance "+c.level) || !strings.Contains(out, "0 errors, 0 warnings") {
				t.Errorf("axag validate --level %s --strict: %s", c.level, out)
			}
		})
	}
}
