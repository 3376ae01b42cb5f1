package service_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/graph"
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

// capabilities lists the language of each profile it lists: every
// catalog element with every property, and the graph's kinds; a profiles
// filter without acore-ui lists none.
func TestCapabilitiesLanguages(t *testing.T) {
	s, _ := taskApp(t)
	o := do(t, s, v1+`"operation": "capabilities", "params": {}}`)
	expect(t, o, "result.languages.0.profile", "acore-ui")
	expect(t, o, "result.languages.0.catalog_version", catalog.Version)
	els := o.list("result.languages.0.elements")
	if len(els) != len(catalog.All()) {
		t.Fatalf("%d elements, the catalog has %d", len(els), len(catalog.All()))
	}
	for i, ce := range catalog.All() {
		e := obj(els[i].(map[string]any))
		if e.str("name") != ce.Name || len(e.list("properties")) != len(ce.Props) {
			t.Errorf("element %d is %s with %d properties, want %s with %d", i, e.str("name"), len(e.list("properties")), ce.Name, len(ce.Props))
		}
	}
	expect(t, o, "result.languages.0.elements.15.children", "item_template") // List
	if got := len(o.list("result.languages.0.edge_kinds")); got != len(graph.EdgeKinds) {
		t.Errorf("%d edge kinds, want %d", got, len(graph.EdgeKinds))
	}
	if got := len(o.list("result.languages.0.node_kinds")); got != len(graph.Kinds) {
		t.Errorf("%d node kinds, want %d", got, len(graph.Kinds))
	}
	o = do(t, s, v1+`"operation": "capabilities", "params": {"profiles": ["acore-backend"]}}`)
	if l := o.get("result.languages"); l == nil || len(o.list("result.languages")) != 0 {
		t.Errorf("languages %v for a filter without acore-ui", l)
	}
}
