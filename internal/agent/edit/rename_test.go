package edit

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// example opens a copy of examples/<name> on disk, with files replaced by
// edit(src) (a file that does not exist is created with edit("")),
// prepared again when a contract source is among them, and requires it to
// compile.
func example(t *testing.T, name string, edit map[string]func(string) string) *project.Project {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "examples", name))); err != nil {
		t.Fatal(err)
	}
	contracts := false
	for path, f := range edit {
		b, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, path), []byte(f(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
		contracts = contracts || strings.HasPrefix(path, "contracts/")
	}
	if contracts {
		if _, err := prepare.Run(dir); err != nil {
			t.Fatal(err)
		}
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Result.State != "validated" {
		t.Fatalf("%s is %s: %s", name, p.Result.State, firstError(p.Result))
	}
	return p
}

// withExtern gives reading-list's About page an extern action it triggers.
var withExtern = map[string]func(string) string{"pages/about.acore": func(s string) string {
	s = strings.Replace(s, "page About {", "extern action share(text: String) from \"native:share\"\n\npage About {", 1)
	return strings.Replace(s, "if books.pending", "Button(\"Share\", on_press: || share(\"the list\"))\n      if books.pending", 1)
}}

func renameOp(node, oldName, newName string) string {
	return fmt.Sprintf(`{"kind":"rename","node":%s,"old_name":%s,"new_name":%s}`, q(node), q(oldName), q(newName))
}

// renameGolden is a result as its golden holds it: the batch's id_map and
// each changed file in full.
func renameGolden(r *Result) string {
	var b strings.Builder
	b.WriteString("id_map:\n")
	for _, e := range r.IDMap {
		to := "-"
		if e.NewID != nil {
			to = *e.NewID
		}
		fmt.Fprintf(&b, "  %s -> %s (%s)\n", *e.OldID, to, e.Change)
	}
	fmt.Fprintf(&b, "touched: %s\nowners: %s\n", strings.Join(r.Touched, "; "), strings.Join(r.Owners, ", "))
	writeFiles(&b, "--- %s\n%s", r.Files)
	return b.String()
}

// TestRename renames one declaration of each renamable kind and holds the
// rewritten files and the id_map to goldens.
func TestRename(t *testing.T) {
	for _, c := range []struct {
		name, example   string
		edit            map[string]func(string) string
		node, old, newN string
		wantIDs         []string // old->new entries the id_map must hold
		wantFiles       []string
	}{
		{"prop", "reading-list", nil, "prop:PageTitle.subtitle", "subtitle", "caption",
			[]string{"prop:PageTitle.subtitle->prop:PageTitle.caption"},
			[]string{"components/page_title.acore", "main.acore", "pages/about.acore"}},
		{"component", "reading-list", nil, "component:PageTitle", "PageTitle", "TitleBlock",
			[]string{"component:PageTitle->component:TitleBlock", "prop:PageTitle.subtitle->prop:TitleBlock.subtitle",
				"import:pages/about.acore#PageTitle->import:pages/about.acore#TitleBlock"},
			[]string{"components/page_title.acore", "main.acore", "pages/about.acore", "pages/add.acore"}},
		{"page", "reading-list", nil, "page:About", "About", "Colophon",
			[]string{"page:About->page:Colophon"}, []string{"main.acore", "pages/about.acore"}},
		{"state", "reading-list", nil, "state:Home.order", "order", "sort_order",
			[]string{"state:Home.order->state:Home.sort_order"}, []string{"main.acore"}},
		{"query", "reading-list", nil, "query:Home.books", "books", "shelf",
			[]string{"query:Home.books->query:Home.shelf"}, []string{"main.acore"}},
		{"mutation", "reading-list", nil, "mutation:Home.remove", "remove", "drop",
			[]string{"mutation:Home.remove->mutation:Home.drop"}, []string{"main.acore"}},
		{"action", "reading-list", nil, "action:Home.reverse", "reverse", "flip",
			[]string{"action:Home.reverse->action:Home.flip"}, []string{"main.acore"}},
		{"let", "todomvc", nil, "let:Todos.all_done", "all_done", "everything_done",
			[]string{"let:Todos.all_done->let:Todos.everything_done"}, []string{"main.acore"}},
		{"model", "todomvc", nil, "model:Todo", "Todo", "Item",
			[]string{"model:Todo->model:Item"}, []string{"main.acore"}},
		{"route", "reading-list", nil, "route:/books/:id", "/books/:id", "/book/:id",
			[]string{"route:/books/:id->route:/book/:id"}, []string{"components/book_row.acore", "main.acore"}},
		{"route_nav", "reading-list", nil, "route:/about", "/about", "/colophon",
			[]string{"route:/about->route:/colophon"}, []string{"components/nav_bar.acore", "main.acore"}},
		{"extern", "reading-list", withExtern, "extension:share", "share", "share_text",
			[]string{"extension:share->extension:share_text"}, []string{"pages/about.acore"}},
		// A page's parameter: its route's :segment (and the route's id),
		// the Link's path and label, its uses.
		{"page_param", "reading-list", nil, "prop:BookPage.id", "id", "book_id",
			[]string{"prop:BookPage.id->prop:BookPage.book_id", "route:/books/:id->route:/books/:book_id"},
			[]string{"components/book_row.acore", "main.acore", "pages/book.acore"}},
		{"field", "todomvc", nil, "field:Todo.title", "title", "text",
			[]string{"field:Todo.title->field:Todo.text"}, []string{"main.acore"}},
		// A local contract's field: its source, its artifact and the lock.
		{"contract_field", "reading-list", nil, "field:Books.Book.title", "title", "name",
			[]string{"field:Books.Book.title->field:Books.Book.name"},
			[]string{".axiom/dev/contracts/books.axiom", ".axiom/ui.lock", "components/book_row.acore", "contracts/books.axiom", "pages/book.acore"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := example(t, c.example, c.edit)
			r := mustApply(t, p, renameOp(c.node, c.old, c.newN))
			if r.Project == nil || r.Project.Result.State != "validated" {
				t.Fatalf("the renamed project does not compile")
			}
			var files []string
			for f := range r.Files {
				files = append(files, f)
			}
			sort.Strings(files)
			if strings.Join(files, ",") != strings.Join(c.wantFiles, ",") {
				t.Errorf("files %v, want %v", files, c.wantFiles)
			}
			have := map[string]bool{}
			for _, e := range r.IDMap {
				if e.NewID != nil {
					have[*e.OldID+"->"+*e.NewID] = true
				} else {
					t.Errorf("id_map removes %s: a rename removes nothing", *e.OldID)
				}
			}
			for _, w := range c.wantIDs {
				if !have[w] {
					t.Errorf("id_map lacks %s: %s", w, jsonText(r.IDMap))
				}
			}
			// Completeness: every base id the final graph lacks is mapped.
			g, fg := p.Result.Graph, r.Project.Result.Graph
			for k := range int32(g.Len()) {
				id := g.At(k).ID
				if _, ok := fg.Lookup(id); ok {
					continue
				}
				if !mappedFrom(r.IDMap, id) {
					t.Errorf("%s is gone and id_map does not say where", id)
				}
			}
			if len(r.Operations) != 1 || r.Operations[0].Kind != "rename" {
				t.Errorf("outcomes %s", jsonText(r.Operations))
			} else if r.Files[r.Operations[0].Path] == nil || strings.HasPrefix(r.Operations[0].Path, ".axiom/") {
				// The declaration's file, a local contract's source for its
				// field, not the artifact.
				t.Errorf("the outcome's path %s is not a file the rename wrote", r.Operations[0].Path)
			}
			goldenFile(t, filepath.Join("testdata", "rename", c.name+".golden"), renameGolden(r))
		})
	}
}

func mappedFrom(m []IDMapEntry, id string) bool {
	for _, e := range m {
		if *e.OldID == id {
			return true
		}
	}
	return false
}

// goldenFile compares got with the golden file at path, or rewrites it
// with -update.
func goldenFile(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -args -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestRenameRefused holds each refusal to its code, reason and message.
func TestRenameRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		op     string
		kind   Kind
		reason reason.Reason
		msg    string
	}{
		{"old name", renameOp("prop:PageTitle.subtitle", "caption", "heading"), Precondition, reason.OldValueMismatch,
			"prop:PageTitle.subtitle is named subtitle, not caption"},
		{"taken prop", renameOp("prop:PageTitle.subtitle", "subtitle", "title"), Invalid, reason.NameTaken,
			"component:PageTitle already has prop title"},
		{"taken component", renameOp("component:PageTitle", "PageTitle", "NavBar"), Invalid, reason.NameTaken,
			"the project already has component NavBar"},
		{"taken across kinds", renameOp("page:About", "About", "BookRow"), Invalid, reason.NameTaken,
			"the project already has component BookRow"},
		{"taken member", renameOp("state:Home.order", "order", "books"), Invalid, reason.NameTaken,
			"page:Home already has query books"},
		{"taken route", renameOp("route:/about", "/about", "/add"), Invalid, reason.NameTaken,
			`the app already has a route "/add"`},
		{"not a route path", renameOp("route:/about", "/about", "about us"), Invalid, reason.Schema,
			`new_name: "about us" is not a route path`},
		{"not an identifier", renameOp("state:Home.order", "order", "sort-order"), Invalid, reason.InvalidName,
			`"sort-order" is not an identifier`},
		{"reserved", renameOp("state:Home.order", "order", "navigate"), Invalid, reason.InvalidName, "navigate is reserved"},
		{"same name", renameOp("state:Home.order", "order", "order"), Invalid, reason.InvalidName, "already called order"},
		{"taken page parameter", renameOp("prop:BookPage.id", "id", "books"), Invalid, reason.NameTaken,
			"page:BookPage already has query books"},
		{"contract model", renameOp("model:Books.Book", "Book", "Volume"), ReadOnly, reason.None,
			"which the project does not author"},
		{"taken field", renameOp("field:Books.Book.title", "title", "author"), Invalid, reason.NameTaken,
			"model Book already has field author (.axiom/dev/contracts/books.axiom:6)"},
		{"element", renameOp("element:Home/view/0", "Column", "Row"), Unsupported, reason.EditNotOffered,
			"this is an element"},
		{"unknown node", renameOp("prop:PageTitle.nothing", "nothing", "x"), NotFound, reason.NodeUnknown, "not a node of the base"},
		{"stale option", `{"kind":"rename","node":"state:Home.order","old_name":"order","new_name":"o2","option":{"option_id":"o","fingerprint":"beef"}}`,
			Precondition, reason.OptionStale, "not the current option"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := example(t, "reading-list", nil)
			_, e := run(t, p, c.op)
			if e == nil {
				t.Fatal("accepted")
			}
			if e.Kind != c.kind || e.Reason != c.reason || !strings.Contains(e.Message, c.msg) {
				t.Errorf("got %s %v: %s\nwant %s %v containing %q", e.Kind, e.Reason, e.Message, c.kind, c.reason, c.msg)
			}
		})
	}
}

// TestRenameBatch renames a prop, then, by its new id's handle, sets a
// property of an instance whose id the rename did not change, in one
// batch: later operations see the renamed state.
func TestRenameBatch(t *testing.T) {
	p := example(t, "reading-list", nil)
	r := mustApply(t, p,
		`{"kind":"rename","node":"prop:PageTitle.subtitle","old_name":"subtitle","new_name":"caption","handle":"p"}`,
		`{"kind":"rename","node":{"handle":"p"},"old_name":"caption","new_name":"note"}`)
	if got := string(r.Files["components/page_title.acore"]); !strings.Contains(got, "note: String") || strings.Contains(got, "caption: String") {
		t.Errorf("page_title.acore:\n%s", got)
	}
	if len(r.IDMap) == 0 || *r.IDMap[0].OldID == "" {
		t.Fatalf("id_map %s", jsonText(r.IDMap))
	}
	if !hasEntry(r.IDMap, "prop:PageTitle.subtitle", "prop:PageTitle.note") {
		t.Errorf("composed id_map %s lacks subtitle -> note", jsonText(r.IDMap))
	}
}

func hasEntry(m []IDMapEntry, from, to string) bool {
	for _, e := range m {
		if *e.OldID == from && e.NewID != nil && *e.NewID == to {
			return true
		}
	}
	return false
}
