package service_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/prepare"
)

// TestNodeGetRoutes: node.get shows what Acore 1.1's routing records, on
// a project written to disk: a route's parameter and literal argument, the
// app's routing and theme, a Link's route argument as its property, and the page
// parameter as a prop node; node.edits offers set_property on the
// literals.
func TestNodeGetRoutes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shelf")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := `module shelf

app Shelf(routing: "hash", theme: "none") {
  route "/" => Books(filter: "all")
  route "/books/:id" => Book
}

page Books(filter: String) {
  view { Link("First", to: "/books/:id", id: "b1") }
}

page Book(id: String) {
  view { Text("Book " + id) }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	s, err := newService(t, service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	o := do(t, s, v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+dir+`"}]}}`)
	env := `"workspace": "` + o.str("workspace") + `", "snapshot": "latest", `
	o = do(t, s, v1+`"operation": "node.get", `+env+`"params": {"nodes": ["route:/books/:id", "route:/", "app:Shelf", "element:Books/view/0", "prop:Book.id"]}}`)
	expect(t, o, "result.nodes.0.properties.1.name", "param.id")
	expect(t, o, "result.nodes.0.properties.1.value", "String")
	expect(t, o, "result.nodes.0.properties.1.editable", false)
	expect(t, o, "result.nodes.1.properties.1.name", "arg.filter")
	expect(t, o, "result.nodes.1.properties.1.value", "all")
	expect(t, o, "result.nodes.1.properties.1.editable", true)
	expect(t, o, "result.nodes.2.properties.0.name", "routing")
	expect(t, o, "result.nodes.2.properties.0.value", "hash")
	expect(t, o, "result.nodes.2.properties.1.name", "theme")
	expect(t, o, "result.nodes.2.properties.1.value", "none")
	expect(t, o, "result.nodes.3.properties.2.name", "id")
	expect(t, o, "result.nodes.3.properties.2.value", "b1")
	expect(t, o, "result.nodes.3.edges.1.kind", "navigates_to")
	expect(t, o, "result.nodes.3.edges.1.node", "route:/books/:id")
	expect(t, o, "result.nodes.4.node.kind", "prop")

	o = do(t, s, v1+`"operation": "node.edits", `+env+`"params": {"nodes": ["route:/", "app:Shelf", "element:Books/view/0"]}}`)
	for _, w := range []struct {
		node int
		want string
	}{{0, "arg.filter"}, {1, "routing"}, {1, "theme"}, {2, "id"}} {
		want := w.want
		found := false
		for _, e := range o.list("result.nodes." + string(rune('0'+w.node)) + ".options") {
			if m, ok := e.(map[string]any); ok && m["kind"] == "set_property" && m["property"] == want {
				found = true
			}
		}
		if !found {
			t.Errorf("node.edits offers no set_property of %s: %s", want, jsonOf(o["result"]))
		}
	}
}
