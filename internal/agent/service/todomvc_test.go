package service_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/service"
)

// The nodes of examples/todomvc these tests read: two derived values, the
// All filter link (class bound to an if-expression), the todo list (a
// literal class and an item_class lambda) and the new-todo field
// (autofocus).
const (
	tmLinkAll = "element:Todos/view/0/1/0/1/1/0"
	tmList    = "element:Todos/view/0/1/0/0/1"
	tmNewTodo = "element:Todos/view/0/0/1"
)

// openTodoMVC serves a copy of examples/todomvc and opens it; every
// answer do reads is validated against the published schemas.
func openTodoMVC(t *testing.T) (s *service.Service, dir, ws, snap string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "todomvc")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "examples", "todomvc"))); err != nil {
		t.Fatal(err)
	}
	s, err := newService(t, service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	o := doOK(t, s, v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+dir+`"}]}}`)
	expect(t, o, "snapshot.semantic_state", "validated")
	expect(t, o, "result.projects.0.semantic_state", "validated")
	return s, dir, o.str("workspace"), o.str("snapshot.id")
}

// doOK is do for a request that must succeed.
func doOK(t *testing.T, s *service.Service, req string) obj {
	t.Helper()
	o := do(t, s, req)
	if o["error"] != nil {
		t.Fatalf("%s\nanswered %s", req, jsonOf(o["error"]))
	}
	return o
}

// edgeSet lists edges as "direction kind node" (node.get) or
// "from kind to" (graph.query), sorted.
func edgeSet(l []any, node bool) []string {
	var out []string
	for _, e := range l {
		e := obj(e.(map[string]any))
		if node {
			out = append(out, e.str("direction")+" "+e.str("kind")+" "+e.str("node"))
		} else {
			out = append(out, e.str("from")+" "+e.str("kind")+" "+e.str("to"))
		}
	}
	slices.Sort(out)
	return out
}

func TestTodoMVCReads(t *testing.T) {
	s, _, ws, snap := openTodoMVC(t)
	at := `"workspace": "` + ws + `", "snapshot": "` + snap + `", `

	finds := []struct {
		params string
		want   []string
	}{
		{`{"query": "", "kind": "let", "limit": 50}`, []string{"let:Todos.active", "let:Todos.completed", "let:Todos.shown", "let:Todos.all_done"}},
		{`{"query": "all_done", "limit": 50}`, []string{"let:Todos.all_done"}},
		{`{"query": "todo-list", "limit": 50}`, []string{tmList}},
		{`{"query": "new-todo", "limit": 50}`, []string{tmNewTodo}},
	}
	for _, c := range finds {
		o := doOK(t, s, v1+`"operation": "node.find", `+at+`"params": `+c.params+`}`)
		var got []string
		for _, n := range o.list("result.nodes") {
			got = append(got, obj(n.(map[string]any)).str("id"))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("node.find %s: %v, want %v\n%s", c.params, got, c.want, jsonOf(o))
		}
	}

	gets := []struct {
		node, kind string
		props      []string // name=value:editable
		edges      []string
	}{
		{"let:Todos.active", "let",
			[]string{"type=[Todo]:false", "value=todos.filter(|t| !t.completed):false"},
			[]string{"outgoing declared_in page:Todos", "outgoing reads field:Todo.completed", "outgoing reads state:Todos.todos", "outgoing uses_type model:Todo"}},
		{"let:Todos.all_done", "let",
			[]string{"type=Bool:false", "value=!todos.is_empty && active.is_empty:false"},
			[]string{"outgoing declared_in page:Todos", "outgoing reads let:Todos.active", "outgoing reads state:Todos.todos"}},
		{tmLinkAll, "element",
			[]string{"label=All:true", "to=/:true", `class=if filter == "all" then "selected" else "":false`},
			[]string{"outgoing child_of element:Todos/view/0/1/0/1/1", "outgoing navigates_to route:/", "outgoing reads prop:Todos.filter"}},
		{tmList, "element",
			[]string{"items=shown:false", "key=|t| t.id:false", "class=todo-list:true",
				`item_class=|t| (if t.completed then "completed" else "") + (if editing == t.id then " editing" else ""):false`},
			[]string{"outgoing child_of element:Todos/view/0/1/0/0", "outgoing reads field:Todo.completed", "outgoing reads field:Todo.id", "outgoing reads let:Todos.shown", "outgoing reads state:Todos.editing"}},
		{"field:Todo.title", "field", nil, []string{"outgoing declared_in model:Todo"}},
	}
	for _, c := range gets {
		o := doOK(t, s, v1+`"operation": "node.get", `+at+`"params": {"nodes": ["`+c.node+`"]}}`)
		expect(t, o, "result.nodes.0.node.kind", c.kind)
		var props []string
		for _, p := range o.list("result.nodes.0.properties") {
			p := obj(p.(map[string]any))
			props = append(props, fmt.Sprintf("%s=%v:%v", p.str("name"), p.get("value"), p.get("editable")))
		}
		if !slices.Equal(props, c.props) {
			t.Errorf("node.get %s properties:\n%q\nwant\n%q", c.node, props, c.props)
		}
		if got := edgeSet(o.list("result.nodes.0.edges"), true); !slices.Equal(got, c.edges) {
			t.Errorf("node.get %s edges:\n%q\nwant\n%q", c.node, got, c.edges)
		}
	}

	queries := []struct {
		from, mode string
		want       []string
	}{
		{"let:Todos.all_done", "dependencies", []string{"let:Todos.all_done reads let:Todos.active", "let:Todos.all_done reads state:Todos.todos"}},
		{"let:Todos.active", "dependents", []string{
			"action:Todos.clear_completed reads let:Todos.active",
			"element:Todos/view/0/1/0/1/0/0 reads let:Todos.active",
			"element:Todos/view/0/1/0/1/0/1 reads let:Todos.active",
			"let:Todos.all_done reads let:Todos.active",
			"let:Todos.shown reads let:Todos.active"}},
		{"let:Todos.shown", "dependencies", []string{
			"let:Todos.shown reads let:Todos.active", "let:Todos.shown reads let:Todos.completed",
			"let:Todos.shown reads prop:Todos.filter", "let:Todos.shown reads state:Todos.todos"}},
		{tmLinkAll, "dependencies", []string{tmLinkAll + " navigates_to route:/", tmLinkAll + " reads prop:Todos.filter"}},
		// A field's dependents are where the checker proved it is read
		// (t.title) and written (a record's or with's label).
		{"field:Todo.title", "dependents", []string{"action:Todos.add writes field:Todo.title",
			"action:Todos.save writes field:Todo.title", "element:Todos/view/0/1/0/0/1/0/1 reads field:Todo.title"}},
	}
	for _, c := range queries {
		o := doOK(t, s, v1+`"operation": "graph.query", `+at+`"params": {"from": ["`+c.from+`"], "mode": "`+c.mode+`"}}`)
		if got := edgeSet(o.list("result.edges"), false); !slices.Equal(got, c.want) {
			t.Errorf("graph.query %s %s:\n%q\nwant\n%q", c.mode, c.from, got, c.want)
		}
		if n := len(o.list("result.boundaries")); n != 0 {
			t.Errorf("graph.query %s %s: %d boundaries", c.mode, c.from, n)
		}
	}

	edits := []struct {
		node string
		want []string // kind:property(ops|states)
	}{
		// A let others read is not removable.
		{"let:Todos.active", []string{"declaration:(create update)", "rename:"}},
		// An expression-valued class is bound, not set, as a literal one is.
		{tmLinkAll, []string{"set_property:label", "set_property:to", "bind_property:label", "bind_property:to",
			"bind_property:class", "list_element:(remove insert)"}},
		// The List's properties it does not write are offered to add.
		{tmList, []string{"set_property:class", "bind_property:class", "list_element:(remove insert)",
			"set_property:list_type", "set_property:span_count", "set_property:scroll_orientation", "set_property:empty_text"}},
	}
	for _, c := range edits {
		o := doOK(t, s, v1+`"operation": "node.edits", `+at+`"params": {"nodes": ["`+c.node+`"]}}`)
		var got []string
		for _, op := range o.list("result.nodes.0.options") {
			op := obj(op.(map[string]any))
			k := op.str("kind") + ":" + op.str("property")
			if ops := op.list("ops"); ops != nil {
				k += fmt.Sprint(ops)
			}
			got = append(got, strings.NewReplacer("[", "(", "]", ")").Replace(k))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("node.edits %s:\n%q\nwant\n%q", c.node, got, c.want)
		}
	}

	o := doOK(t, s, v1+`"operation": "check.run", `+at+`"params": {"files": [], "checks": ["compile", "axag"]}}`)
	expect(t, o, "result.ok", true)
	if n := len(o.list("result.checks")); n != 2 {
		t.Errorf("check.run answered %d checks, want 2", n)
	}
	for _, c := range o.list("result.checks") {
		c := obj(c.(map[string]any))
		if c.str("status") != "passed" {
			t.Errorf("check.run %s: %s", c.str("name"), jsonOf(c))
		}
	}
}

// TestTodoMVCChangeApply proposes and applies an edit of a 1.1 construct
// on a fresh copy each, then reads the file, the node and check.run on
// the applied snapshot.
func TestTodoMVCChangeApply(t *testing.T) {
	cases := []struct {
		name, op, node, prop string
		want                 any    // the property's value after
		text                 string // in main.acore after
	}{
		{"autofocus off", `{"kind": "set_property", "node": "` + tmNewTodo + `", "property": "autofocus", "old_value": true, "new_value": false}`,
			tmNewTodo, "autofocus", false, `class: "new-todo", autofocus: false, on_submit: add`},
		{"literal class", `{"kind": "set_property", "node": "` + tmList + `", "property": "class", "old_value": "todo-list", "new_value": "todo-list wide"}`,
			tmList, "class", "todo-list wide", `class: "todo-list wide", item_class:`},
		{"bind an if-expression class", `{"kind": "bind_property", "node": "` + tmLinkAll + `", "property": "class", "old_value": "if filter == \"all\" then \"selected\" else \"\"", "target": "state:Todos.draft"}`,
			tmLinkAll, "class", "draft", `Link("All", to: "/", class: draft)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, dir, ws, snap := openTodoMVC(t)
			o := doOK(t, s, propose(ws, snap, "todomvc-1", c.op))
			cand, candSnap := o.str("result.candidate.id"), o.str("result.candidate.snapshot")
			if cand == "" {
				t.Fatalf("change.propose: %s", jsonOf(o))
			}
			o = doOK(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-todomvc-1", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
			expect(t, o, "result.receipt.outcome", "applied")
			src, err := os.ReadFile(filepath.Join(dir, "main.acore"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), c.text) {
				t.Errorf("main.acore lacks %q after the apply", c.text)
			}
			o = doOK(t, s, v1+`"operation": "node.get", "workspace": "`+ws+`", "snapshot": "`+candSnap+`", "params": {"nodes": ["`+c.node+`"]}}`)
			found := false
			for _, p := range o.list("result.nodes.0.properties") {
				p := obj(p.(map[string]any))
				if p.str("name") == c.prop {
					found = true
					if p.get("value") != c.want {
						t.Errorf("%s = %#v after the apply, want %#v", c.prop, p.get("value"), c.want)
					}
				}
			}
			if !found {
				t.Errorf("no property %s after the apply", c.prop)
			}
			o = doOK(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "`+candSnap+`", "params": {"files": [], "checks": ["compile"]}}`)
			expect(t, o, "result.ok", true)
			expect(t, o, "result.checks.0.status", "passed")
		})
	}
}
