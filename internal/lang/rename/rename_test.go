package rename_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/refs"
	"github.com/axiomcore/acore/internal/lang/rename"
)

// small is a project with a page, a component and an action with a
// parameter and a lambda, where names can clash and be captured.
var small = map[string]string{
	"main.acore": `module shop

use component Card from "./card"

app Shop {
  route "/" => Home
}

page Home {
  state draft: String = ""
  state items: [String] = []
  state count: Int = 0

  action add(title: String) {
    items = [title, draft]
    count = count + 1
  }

  view {
    Input(value: draft, on_change: || add(title: draft))
    List(items: items, key: |i| i) { item => Card(label: item + draft) }
  }
}
`,
	"card.acore": `module card

component Card(label: String) {
  view { Text(label) }
}
`,
}

// published is a project whose contract has no local source once
// prepared: its artifact is the backend's.
var published = map[string]string{
	"main.acore": `module shop

use contract Books from "books"

app Shop {
  route "/" => Home
}

page Home {
  query books = Books.list_books()

  view {
    List(items: books.data, key: |b| b.id) { b => Text(b.title) }
  }
}
`,
	"contracts/books.axiom": `contract Books audience "web" {
  model Book {
    id: String
    title: String
  }

  query list_books(): [Book]
}
`,
}

// nav navigates to a page with a parameter.
var nav = map[string]string{
	"main.acore": `module shop

app Shop {
  route "/" => Home
  route "/items/:id" => Item
}

page Home {
  action open() {
    navigate("/items/:id", id: "a")
  }

  view { Button("Open", on_press: open) }
}

page Item(id: String) {
  view { Text(id) }
}
`,
}

func TestRename(t *testing.T) {
	for _, c := range []struct {
		name       string
		example    string            // a directory of examples/, else files, else small
		files      map[string]string // prepared, then contracts/ removed when published is set
		published  bool
		path, at   string // the name at the first occurrence of at in path
		new        string
		reason     string            // the refusal, or "" for a rename
		edits      int               // identifiers rewritten
		prepared   []string          // paths re-prepared besides the edited ones
		wantInFile map[string]string // after the rename, a file holds this
	}{
		{name: "prop passed in three files", example: "reading-list", path: "components/page_title.acore", at: "subtitle", new: "caption", edits: 5,
			wantInFile: map[string]string{"main.acore": `caption: "Books to read, by title."`, "pages/about.acore": `caption: "An example`, "components/page_title.acore": `Text(caption, style: "caption")`}},
		{name: "state", path: "main.acore", at: "draft", new: "text", edits: 5,
			wantInFile: map[string]string{"main.acore": "Card(label: item + text)"}},
		{name: "component and its use line", path: "card.acore", at: "Card", new: "Tile", edits: 3,
			wantInFile: map[string]string{"main.acore": `use component Tile from "./card"`, "card.acore": "component Tile(label"}},
		{name: "page and its route", path: "main.acore", at: "Home {", new: "Start", edits: 2,
			wantInFile: map[string]string{"main.acore": `route "/" => Start`}},
		{name: "parameter", path: "main.acore", at: "title: String", new: "name", edits: 3,
			wantInFile: map[string]string{"main.acore": "items = [name, draft]"}},
		{name: "a member already called so", path: "main.acore", at: "draft", new: "items", reason: rename.NameTaken},
		{name: "captured by a local", path: "main.acore", at: "draft", new: "item", reason: rename.NameTaken},
		{name: "captured by a parameter", path: "main.acore", at: "draft", new: "title", reason: rename.NameTaken},
		{name: "a component already called so", path: "card.acore", at: "Card", new: "Home", reason: rename.NameTaken},
		{name: "not an identifier", path: "main.acore", at: "draft", new: "1st", reason: rename.InvalidName},
		{name: "reserved", path: "main.acore", at: "draft", new: "null", reason: rename.InvalidName},
		{name: "same name", path: "main.acore", at: "draft", new: "draft", reason: rename.InvalidName},
		{name: "contract operation", example: "reading-list", path: "main.acore", at: "list_books", new: "books", reason: rename.NotRenamable},
		{name: "model field: declaration, record and with labels, member accesses", example: "todomvc", path: "main.acore", at: "title: String", new: "text", edits: 5,
			wantInFile: map[string]string{"main.acore": "Todo(id: next_id, text: draft.trim(), completed: false)"}},
		{name: "model field renamed at a use", example: "todomvc", path: "main.acore", at: "title, on_double_press", new: "text", edits: 5,
			wantInFile: map[string]string{"main.acore": "Label(t.text, on_double_press: || edit(t.id, t.text))"}},
		{name: "model field: an action's parameter of the same name is another name", example: "todomvc", path: "main.acore", at: "title: String", new: "text", edits: 5,
			wantInFile: map[string]string{"main.acore": "action edit(id: Int, title: String) {"}},
		{name: "model field: with label", example: "todomvc", path: "main.acore", at: "title: String", new: "text", edits: 5,
			wantInFile: map[string]string{"main.acore": "t.with(text: edit_text.trim())"}},
		{name: "model field taken by another field", example: "todomvc", path: "main.acore", at: "title: String", new: "completed", reason: rename.NameTaken},
		{name: "model field to the name of a model's method", example: "todomvc", path: "main.acore", at: "title: String", new: "with", reason: rename.InvalidName},
		{name: "model field to a reserved word", example: "todomvc", path: "main.acore", at: "title: String", new: "true", reason: rename.InvalidName},
		{name: "field of a local contract, in its source and artifact", example: "reading-list", path: ".axiom/dev/contracts/books.axiom", at: "title: String", new: "name", edits: 4,
			prepared: []string{".axiom/ui.lock"},
			wantInFile: map[string]string{"contracts/books.axiom": "    name: String\n", ".axiom/dev/contracts/books.axiom": "    name: String\n",
				"components/book_row.acore": `Link(book.name, to: "/books/:id", id: book.id)`, "pages/book.acore": `Text(book.name, style: "title")`}},
		{name: "field of a local contract: an operation's parameter of the same name is another name", example: "reading-list", path: "components/book_row.acore", at: "title, to:", new: "name", edits: 4,
			prepared:   []string{".axiom/ui.lock"},
			wantInFile: map[string]string{"contracts/books.axiom": "mutation create_book(title: String, author: String): Book", "pages/add.acore": "Books.create_book(title: title, author: author)"}},
		{name: "field of a local contract taken", example: "reading-list", path: "pages/book.acore", at: "title, style", new: "author", reason: rename.NameTaken},
		{name: "page parameter: its routes' segments, the links' paths and labels, its uses", example: "reading-list", path: "pages/book.acore", at: "id: String", new: "book_id", edits: 6,
			wantInFile: map[string]string{"main.acore": `route "/books/:book_id" => BookPage`, "components/book_row.acore": `Link(book.title, to: "/books/:book_id", book_id: book.id)`,
				"pages/book.acore": `query books = Books.list_books(id: book_id)`}},
		{name: "page parameter renamed at a route segment", example: "reading-list", path: "main.acore", at: "id\" => BookPage", new: "book_id", edits: 6,
			wantInFile: map[string]string{"pages/book.acore": `"There is no book " + book_id + "."`}},
		{name: "page parameter given by route arguments", example: "todomvc", path: "main.acore", at: "filter: String", new: "view", edits: 9,
			wantInFile: map[string]string{"main.acore": `route "/active" => Todos(view: "active")`}},
		{name: "page parameter named by navigate()", files: nav, path: "main.acore", at: "id: String)", new: "item_id", edits: 5,
			wantInFile: map[string]string{"main.acore": `navigate("/items/:item_id", item_id: "a")`}},
		{name: "page parameter taken by a member", example: "reading-list", path: "pages/book.acore", at: "id: String", new: "books", reason: rename.NameTaken},
		{name: "field of a published contract", files: published, published: true, path: "main.acore", at: "title)", new: "name", reason: rename.NotRenamable},
		{name: "element", path: "main.acore", at: "Input", new: "Field", reason: rename.NotRenamable},
	} {
		t.Run(c.name, func(t *testing.T) {
			var in *load.Inputs
			var err error
			switch {
			case c.example != "":
				in, err = load.Load(filepath.Join("..", "..", "..", "examples", c.example))
			case c.files != nil:
				root := write(t, c.files)
				if c.published {
					if err := os.RemoveAll(filepath.Join(root, "contracts")); err != nil {
						t.Fatal(err)
					}
				}
				in, err = load.Load(root)
			default:
				in, err = load.Load(write(t, small))
			}
			if err != nil {
				t.Fatal(err)
			}
			ix := refs.Build(project.Compile(in))
			src := string(in.Data(c.path))
			off := strings.Index(src, c.at)
			if off < 0 {
				t.Fatalf("%q is not in %s", c.at, c.path)
			}
			at, _ := ix.At(c.path, off+1)
			plan, err := rename.Rename(ix, at.Obj, c.new)
			if c.reason != "" {
				var r *rename.Refusal
				if !errors.As(err, &r) || r.Reason != c.reason {
					t.Fatalf("rename to %s: %v, want a refusal %s", c.new, err, c.reason)
				}
				t.Logf("refused: %v", err)
				return
			}
			if err != nil {
				t.Fatalf("rename to %s: %v", c.new, err)
			}
			if len(plan.Edits) != c.edits {
				t.Errorf("%d edits, want %d: %v", len(plan.Edits), c.edits, plan.Edits)
			}
			if !slices.Equal(plan.Prepared, c.prepared) {
				t.Errorf("prepared %v, want %v", plan.Prepared, c.prepared)
			}
			for _, d := range plan.Candidate.Result.Diagnostics {
				if d.Severity == diag.Error {
					t.Errorf("the candidate has an error: %v", d)
				}
			}
			for path, want := range c.wantInFile {
				if got := string(plan.Candidate.Inputs.Data(path)); !strings.Contains(got, want) {
					t.Errorf("%s after the rename:\n%s\nwant it to hold %q", path, got, want)
				}
			}
			// The renamed declaration is named exactly where the edits are;
			// a contract's source is not compiled, its artifact is.
			n := 0
			for _, e := range plan.Edits {
				if strings.HasPrefix(e.Path, "contracts/") {
					n++
				}
			}
			for o, rs := range refs.Build(plan.Candidate).Refs {
				if o.Name == c.new && o.Kind == at.Obj.Kind {
					n += len(rs)
				}
			}
			if n != c.edits {
				t.Errorf("the candidate names %s %d times, want %d", c.new, n, c.edits)
			}
		})
	}
}

func write(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := prepare.Run(root); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	return root
}

// Every declaration of the examples that can be renamed is renamed to a
// fresh name without a refusal: a reference the checker does not record
// would leave the old name behind and the candidate would not compile.
func TestRenameEveryDeclaration(t *testing.T) {
	for _, ex := range []string{"task-app", "reading-list"} {
		in, err := load.Load(filepath.Join("..", "..", "..", "examples", ex))
		if err != nil {
			t.Fatal(err)
		}
		ix := refs.Build(project.Compile(in))
		n := 0
		for o := range ix.Refs {
			if rename.Renamable(ix, o) != nil {
				continue
			}
			n++
			plan, err := rename.Rename(ix, o, o.Name+"_x")
			if err != nil {
				t.Errorf("%s: rename %s %s: %v", ex, o.Kind, o.Name, err)
				continue
			}
			sources := 0
			for _, e := range plan.Edits {
				if strings.HasPrefix(e.Path, "contracts/") {
					sources++ // a local contract's field, in its source too
				}
			}
			if len(plan.Edits)-sources != len(ix.Refs[o]) {
				t.Errorf("%s: rename %s %s: %d edits for %d references", ex, o.Kind, o.Name, len(plan.Edits), len(ix.Refs[o]))
			}
		}
		if n < 5 {
			t.Errorf("%s: only %d declarations to rename", ex, n)
		}
		t.Logf("%s: %d declarations renamed", ex, n)
	}
}
