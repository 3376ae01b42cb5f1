package service_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// FuzzHandle feeds arbitrary bytes to the request decoder: every input
// gets exactly one JSON object back, never a panic.
func FuzzHandle(f *testing.F) {
	for _, seed := range []string{
		`{"protocol": "axiom-agent-semantic/v1", "operation": "capabilities", "params": {}}`,
		`{"protocol": "axiom-agent-semantic/v1", "operation": "node.find", "snapshot": "latest", "params": {"query": "Add", "kind": "element", "limit": 10}}`,
		`{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "snapshot": "latest", "params": {"nodes": ["element:Home/view/0/1"], "projection": "full", "include": ["incoming", "edits"]}}`,
		`{"protocol": "axiom-agent-semantic/v1", "operation": "graph.query", "snapshot": "latest", "params": {"from": ["state:Home.draft"], "mode": "paths", "to": ["page:Home"], "transitive": true}}`,
		`{"protocol": "axiom-agent-semantic/v1", "operation": "impact.analyze", "snapshot": "latest", "limits": {"max_depth": 16, "max_nodes": 1}, "params": {"targets": ["page:Home"], "direction": "both"}}`,
		`{"protocol": "axiom-agent-semantic/v1", "operation": "project.overview", "snapshot": "latest", "limits": {"max_items": 1}, "params": {"cursor": "ov1:x:y:1"}}`,
		`{"protocol": "axiom-agent-semantic/v2"}`, `[]`, `{}`, `null`, `{"protocol": 1}`, `{"protocol": "axiom-agent-semantic/v1", "operation": "node.find", "params": null}`,
	} {
		f.Add([]byte(seed))
	}
	dir := filepath.Join(f.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		f.Fatal(err)
	}
	s, err := newService(f, service.Config{Root: dir})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, req []byte) {
		out := s.Handle(context.Background(), req)
		var o map[string]any
		if err := json.Unmarshal(out, &o); err != nil {
			t.Fatalf("answer is not a JSON object: %v: %s", err, out)
		}
		if _, ok := o["error"]; !ok {
			if _, ok := o["result"]; !ok {
				t.Fatalf("answer has neither result nor error: %s", out)
			}
		}
		if e, ok := o["error"].(map[string]any); ok && e["code"] == "internal" {
			t.Fatalf("internal error: %s", out)
		}
	})
}
