package schema

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzValidateRequest: any JSON value gets an answer without a panic, and
// a failure always says what is wrong.
func FuzzValidateRequest(f *testing.F) {
	files, _ := filepath.Glob("testdata/requests/*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"protocol": "axiom-agent-semantic/v1", "operation": "change.propose", "params": {"operations": [{"kind": "list_element", "op": 1, "0": {"a.b": []}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decode(data)
		if err != nil {
			return
		}
		if fe := ValidateRequest(v); fe != nil && fe.Message == "" {
			t.Errorf("failure without a message: %+v", fe)
		}
		sameAsFile(t, "fuzzed request", v)
		if m, ok := v.(map[string]any); ok {
			if op, ok := m["operation"].(string); ok {
				if fe := ValidateParams(op, m["params"]); fe != nil && fe.Message == "" {
					t.Errorf("params failure without a message: %+v", fe)
				}
			}
		}
	})
}
