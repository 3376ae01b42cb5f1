package service_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/agent/service"
)

// openReadingList serves a copy of examples/reading-list and opens it.
func openReadingList(t *testing.T) (s *service.Service, dir, ws, snap string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "reading-list")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "examples", "reading-list"))); err != nil {
		t.Fatal(err)
	}
	s, err := newService(t, service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	o := do(t, s, v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+dir+`"}]}}`)
	return s, dir, o.str("workspace"), o.str("snapshot.id")
}

// A prop's default is part of its component's signature: changing it
// changes the component as the operation asked, which change.inspect
// must not report as an unexpected change.
func TestPropDefaultIsNoUnexpectedChange(t *testing.T) {
	s, _, ws, snap := openReadingList(t)
	o := do(t, s, propose(ws, snap, "default-1",
		`{"kind": "set_property", "node": "prop:PageTitle.subtitle", "property": "default", "old_value": "", "new_value": "More to read"}`))
	cand := o.str("result.candidate.id")
	if cand == "" {
		t.Fatalf("not proposed: %v", o["error"])
	}
	o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "include": ["semantic_diff"]}}`)
	seen := map[string]bool{}
	for _, e := range o.list("result.semantic_diff") {
		e := obj(e.(map[string]any))
		seen[e.str("node")] = true
		if e.get("expected") != true {
			t.Errorf("%s is %s with expected: false", e.str("node"), e.str("change"))
		}
	}
	if !seen["prop:PageTitle.subtitle"] || !seen["component:PageTitle"] {
		t.Errorf("semantic_diff %v misses the prop or its component", o.get("result.semantic_diff"))
	}
	o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`"}}`)
	for _, r := range o.list("result.risks") {
		if r := obj(r.(map[string]any)); r.str("kind") == "unexpected_change" {
			t.Errorf("risk %s", r.str("detail"))
		}
	}
}
