package service_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/service"
)

// A prop used in three files is renamed over the service: node.edits
// offers the rename with the current name, change.propose rewrites the
// three files in one candidate with the id_map of the prop, and
// change.apply writes them. Every answer is checked against the
// published schemas (do).
func TestRenameOverService(t *testing.T) {
	s, dir, ws, snap := openReadingList(t)
	o := do(t, s, v1+`"operation": "node.edits", "snapshot": "`+snap+`", "workspace": "`+ws+`", "params": {"nodes": ["prop:PageTitle.subtitle"], "kinds": ["rename"]}}`)
	opts := o.list("result.nodes.0.options")
	if len(opts) != 1 {
		t.Fatalf("rename options %v", o.get("result"))
	}
	opt := obj(opts[0].(map[string]any))
	if opt.str("kind") != "rename" || opt.str("text") != "subtitle" {
		t.Fatalf("option %v", opt)
	}
	op := `{"kind": "rename", "node": "prop:PageTitle.subtitle", "old_name": "subtitle", "new_name": "caption",
		"option": {"option_id": "` + opt.str("option_id") + `", "fingerprint": "` + opt.str("fingerprint") + `"}}`
	o = do(t, s, v1+`"operation": "edit.plan", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "params": {"operations": [`+op+`]}}`)
	expect(t, o, "result.outcome", "supported")
	expect(t, o, "result.id_map.0.new_id", "prop:PageTitle.caption")
	o = do(t, s, propose(ws, snap, "rename-subtitle-1", op))
	cand := o.str("result.candidate.id")
	if cand == "" {
		t.Fatalf("not proposed: %v", o["error"])
	}
	if got := filePaths(o); got != "components/page_title.acore,main.acore,pages/about.acore" {
		t.Errorf("files %s", got)
	}
	expect(t, o, "result.operations.0.kind", "rename")
	expect(t, o, "result.id_map.0.old_id", "prop:PageTitle.subtitle")
	expect(t, o, "result.id_map.0.new_id", "prop:PageTitle.caption")
	expect(t, o, "result.id_map.0.relation", "exact")
	expect(t, o, "result.id_map.0.basis", "renamed")
	o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "include": ["semantic_diff", "risks"]}}`)
	for _, e := range o.list("result.semantic_diff") {
		if e := obj(e.(map[string]any)); e.get("expected") != true {
			t.Errorf("semantic_diff: %s %s with expected: false", e.str("node"), e.str("change"))
		}
	}
	for _, r := range o.list("result.risks") {
		t.Logf("risk %v", r)
	}
	applyRename(t, s, ws, cand, "prop:PageTitle.caption", dir, "subtitle", map[string]string{
		"components/page_title.acore": "caption: String = \"\"",
		"main.acore":                  `caption: "Books to read, by title."`,
		"pages/about.acore":           `caption: "An example of the Acore web target."`,
	})
}

// applyRename applies candidate cand of a rename to newID and holds each
// file to hold its text and not the old name.
func applyRename(t *testing.T, s *service.Service, ws, cand, newID, dir, old string, want map[string]string) {
	t.Helper()
	o := do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-`+cand+`", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")
	expect(t, o, "result.receipt.id_map.0.new_id", newID)
	for path, text := range want {
		b, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), text) || strings.Contains(string(b), old) {
			t.Errorf("%s after the apply:\n%s", path, b)
		}
	}
}

// filePaths are the paths of a change.propose answer's files, joined by
// commas.
func filePaths(o obj) string {
	var files []string
	for _, f := range o.list("result.files") {
		files = append(files, obj(f.(map[string]any)).str("path"))
	}
	return strings.Join(files, ",")
}

// The refusals of a rename on the wire: code, reason and the message
// that names the clash.
func TestRenameRefusedOverService(t *testing.T) {
	s, _, ws, snap := openReadingList(t)
	for _, c := range []struct {
		name, op, code, reason, msg string
	}{
		{"name taken", `{"kind": "rename", "node": "prop:PageTitle.subtitle", "old_name": "subtitle", "new_name": "title"}`,
			"invalid_arguments", "name_taken", "component:PageTitle already has prop title (components/page_title.acore:4)"},
		{"old name", `{"kind": "rename", "node": "prop:PageTitle.subtitle", "old_name": "caption", "new_name": "note"}`,
			"precondition_failed", "old_value_mismatch", "prop:PageTitle.subtitle is named subtitle, not caption"},
		{"invalid name", `{"kind": "rename", "node": "component:PageTitle", "old_name": "PageTitle", "new_name": "9lives"}`,
			"invalid_arguments", "invalid_name", `"9lives" is not an identifier`},
		{"not offered", `{"kind": "rename", "node": "element:Home/view/0", "old_name": "Column", "new_name": "Row"}`,
			"unsupported_operation", "edit_not_offered", "rename is not offered for element:Home/view/0"},
		{"unknown field", `{"kind": "rename", "node": "prop:PageTitle.subtitle", "old_name": "subtitle", "new_name": "caption", "scope": "all"}`,
			"invalid_arguments", "schema", "scope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := do(t, s, propose(ws, snap, "rename-refused-"+strings.ReplaceAll(c.name, " ", "-"), c.op))
			expect(t, o, "error.code", c.code)
			expect(t, o, "error.reason", c.reason)
			if m := o.str("error.message"); !strings.Contains(m, c.msg) {
				t.Errorf("message %q does not contain %q", m, c.msg)
			}
		})
	}
}

// A route is added over the service after the app's last route, the
// app's node.edits option offering it, and applied; an unknown page is
// refused with its reason.
func TestRouteOverService(t *testing.T) {
	s, dir, ws, snap := openReadingList(t)
	o := do(t, s, v1+`"operation": "node.edits", "snapshot": "`+snap+`", "workspace": "`+ws+`", "params": {"nodes": ["app:ReadingList", "route:/about"], "kinds": ["route"]}}`)
	expect(t, o, "result.nodes.0.options.0.kind", "route")
	expect(t, o, "result.nodes.0.options.0.ops.0", "add")
	expect(t, o, "result.nodes.1.options.0.text", `route "/about" => About`)
	o = do(t, s, propose(ws, snap, "route-add-1", `{"kind": "route", "op": "add", "path": "/read/:id", "page": "BookPage"}`))
	cand := o.str("result.candidate.id")
	if cand == "" {
		t.Fatalf("not proposed: %v", o["error"])
	}
	expect(t, o, "result.operations.0.created", "route:/read/:id")
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-route-add-1", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")
	b, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "  route \"/books/:id\" => BookPage\n  route \"/read/:id\" => BookPage\n}") {
		t.Errorf("main.acore after the apply:\n%s", b)
	}
	snap = o.str("result.receipt.result_snapshot")
	o = do(t, s, propose(ws, snap, "route-add-2", `{"kind": "route", "op": "add", "path": "/stats", "page": "Stats"}`))
	expect(t, o, "error.code", "invalid_arguments")
	expect(t, o, "error.reason", "route_page_unknown")
	o = do(t, s, propose(ws, snap, "route-add-3", `{"kind": "route", "op": "add", "path": "/stats", "page": "Home", "args": {"x": [1]}}`))
	expect(t, o, "error.code", "invalid_arguments")
	expect(t, o, "error.reason", "schema")
}

// A model field is renamed over the service: a module's model's field
// (TodoMVC's Todo.title, kept under @persist, which change.inspect names
// as a persisted_shape risk) and a local contract's (reading-list's
// Books.Book.title, renamed in the contract source and its artifact with
// the lock re-prepared, and applied). Every answer is checked against the
// published schemas (do).
func TestFieldRenameOverService(t *testing.T) {
	t.Run("module model under @persist", func(t *testing.T) {
		s, _, ws, snap := openTodoMVC(t)
		o := do(t, s, v1+`"operation": "node.edits", "snapshot": "`+snap+`", "workspace": "`+ws+`", "params": {"nodes": ["field:Todo.title"], "kinds": ["rename"]}}`)
		expect(t, o, "result.nodes.0.options.0.kind", "rename")
		expect(t, o, "result.nodes.0.options.0.text", "title")
		o = do(t, s, propose(ws, snap, "rename-field-1", `{"kind": "rename", "node": "field:Todo.title", "old_name": "title", "new_name": "text"}`))
		cand := o.str("result.candidate.id")
		if cand == "" {
			t.Fatalf("not proposed: %v", o["error"])
		}
		expect(t, o, "result.id_map.0.old_id", "field:Todo.title")
		expect(t, o, "result.id_map.0.new_id", "field:Todo.text")
		o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`"}}`)
		var kinds []string
		for _, r := range o.list("result.risks") {
			r := obj(r.(map[string]any))
			kinds = append(kinds, r.str("kind"))
			if r.str("kind") == "persisted_shape" && (r.str("node") != "state:Todos.todos" || !strings.Contains(r.str("detail"), `@persist("todos-acore")`) || !strings.Contains(r.str("detail"), "field:Todo.title")) {
				t.Errorf("risk %v", r)
			}
		}
		if !slices.Contains(kinds, "persisted_shape") {
			t.Errorf("risks %v, want a persisted_shape: %s", kinds, jsonOf(o))
		}
		o = do(t, s, propose(ws, snap, "rename-field-2", `{"kind": "rename", "node": "field:Todo.title", "old_name": "title", "new_name": "completed"}`))
		expect(t, o, "error.code", "invalid_arguments")
		expect(t, o, "error.reason", "name_taken")
		expect(t, o, "error.message", "model Todo already has field completed (main.acore:14)")
	})
	t.Run("local contract", func(t *testing.T) {
		s, dir, ws, snap := openReadingList(t)
		o := do(t, s, propose(ws, snap, "rename-contract-field-1", `{"kind": "rename", "node": "field:Books.Book.title", "old_name": "title", "new_name": "name"}`))
		cand := o.str("result.candidate.id")
		if cand == "" {
			t.Fatalf("not proposed: %v", o["error"])
		}
		if got := filePaths(o); got != ".axiom/dev/contracts/books.axiom,.axiom/ui.lock,components/book_row.acore,contracts/books.axiom,pages/book.acore" {
			t.Errorf("files %s", got)
		}
		applyRename(t, s, ws, cand, "field:Books.Book.name", dir, "book.title", map[string]string{
			"contracts/books.axiom":     "    name: String\n",
			"components/book_row.acore": "Link(book.name,",
			"pages/book.acore":          "Text(book.name,",
		})
		// The applied project is consistent: its snapshot validates.
		o = do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "latest", "params": {}}`)
		expect(t, o, "snapshot.semantic_state", "validated")
	})
}
