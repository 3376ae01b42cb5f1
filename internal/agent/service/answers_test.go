package service_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	for i, ce := range catalog.All() {
		want := map[string]string{"List": "item_template", "Text": "runs", "View": "elements", "Button": "none"}[ce.Name]
		if want != "" {
			expect(t, o, fmt.Sprintf("result.languages.0.elements.%d.children", i), want)
		}
	}
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

// change.propose and change.inspect list the diagnostics the base does
// not have, once, and count the rest: reading-list's four AC503 warnings
// are in every compile of a session.
func TestProposeListsNewDiagnosticsOnce(t *testing.T) {
	s, _, ws, snap := openReadingList(t)
	inBase := map[string]any{"reason": "in_base", "count": 5.0, "errors": 0.0, "warnings": 5.0}
	inResult := map[string]any{"reason": "in_result", "count": 1.0, "errors": 0.0, "warnings": 1.0}
	cases := []struct {
		name, op string
		listed   []string // codes of result.diagnostics
		omitted  []any    // result.diagnostics_omitted
		check    []any    // checks.0.diagnostics_omitted
	}{
		{"no new diagnostic",
			`{"kind": "set_property", "node": "prop:PageTitle.subtitle", "property": "default", "old_value": "", "new_value": "More"}`,
			nil, []any{inBase}, []any{inBase}},
		{"an unused import",
			`{"kind": "import", "op": "add", "path": "pages/about.acore", "import_kind": "component", "symbol": "BookRow", "from": "../components/book_row"}`,
			[]string{"AC215"}, []any{inBase}, []any{inBase, inResult}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := do(t, s, propose(ws, snap, fmt.Sprintf("diag-%d", i), tc.op))
			if o["error"] != nil {
				t.Fatalf("refused: %v", o["error"])
			}
			var codes []string
			for _, d := range o.list("result.diagnostics") {
				codes = append(codes, obj(d.(map[string]any)).str("code"))
			}
			if strings.Join(codes, " ") != strings.Join(tc.listed, " ") {
				t.Errorf("diagnostics listed %v, want %v", codes, tc.listed)
			}
			same(t, "diagnostics_omitted", o.get("result.diagnostics_omitted"), mustJSON(t, tc.omitted))
			expect(t, o, "result.checks.0.check", "compile")
			same(t, "compile check diagnostics", o.get("result.checks.0.diagnostics"), `[]`)
			same(t, "compile check diagnostics_omitted", o.get("result.checks.0.diagnostics_omitted"), mustJSON(t, tc.check))

			cand := o.str("result.candidate.id")
			o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "include": ["checks"]}}`)
			same(t, "inspect's compile check diagnostics_omitted", o.get("result.checks.0.diagnostics_omitted"), `[`+mustJSON(t, inBase)+`]`)
			if got := len(o.list("result.checks.0.diagnostics")); got != len(tc.listed) {
				t.Errorf("inspect's compile check lists %d diagnostics, want %d", got, len(tc.listed))
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
