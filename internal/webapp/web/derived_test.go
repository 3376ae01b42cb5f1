package web

import (
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// derivedSource uses each expression form of Acore 1.1 in derived values
// that follow a list state.
const derivedSource = `module derived

app Derived { route "/" => Home }

model Todo {
  id: Int
  title: String
  completed: Bool
  note: String?
}

page Home {
  state todos: [Todo] = []
  state draft: String = ""
  let remaining = todos.count(|t| !t.completed)
  let summary = remaining + (if remaining == 1 then " item left" else " items left")
  let newest = (todos.last ?? Todo(id: 0, title: "none", completed: false)).title
  let top = todos.sort_by(|t| t.title).reverse().take(1).map(|t| t.title.upper())
  let second = todos[1]
  let any_done = todos.any(|t| t.completed) && !todos.all(|t| t.completed)
  let found = todos.find(|t| t.title.starts_with("call") && t.title.contains(" ")) != null
  let tag = "<b>" + draft.trim().lower().replace(" ", "-") + "</b>"
  let price = (remaining * 1.25).fixed(2)
  let words = draft.split(" ").count

  action add() {
    todos = todos + [Todo(id: todos.count + 1, title: draft.trim(), completed: false)]
    draft = ""
  }

  action complete_first() {
    todos = todos.map(|t| if t.id == 1 then t.with(completed: true) else t)
  }

  view {
    Input(value: draft, on_submit: add)
    Button("Complete first", on_press: complete_first)
    Text(summary)
    Text("newest: " + newest)
    Text("top: " + (top.first ?? "-"))
    Text("second: " + (second ?? Todo(id: 0, title: "-", completed: false)).title)
    Text("mixed: " + any_done + ", found: " + found)
    Text("tag: " + tag)
    Text("price: " + price + ", words: " + words)
  }
}
`

// TestDerivedValuesInChromium: derived values follow the list state they
// read as it changes through actions, and every expression form of 1.1
// gives in the browser what docs/language.md says; a string holding
// markup stays text.
func TestDerivedValuesInChromium(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(derivedSource), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	files := build(t, dir).Files
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		data, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(filepath.Ext(name)))
		w.Write(data)
	}))
	defer srv.Close()
	p := browsertest.New(t)
	p.Navigate(srv.URL + "/")
	p.WaitText("0 items left")
	for _, s := range []string{"newest: none", "top: -", "second: -", "mixed: false, found: false", "tag: <b></b>", "price: 0.00, words: 1"} {
		p.WaitText(s)
	}

	p.Type("input", "Buy Milk\n")
	p.WaitText("1 item left")
	for _, s := range []string{"newest: Buy Milk", "top: BUY MILK", "second: -", "price: 1.25"} {
		p.WaitText(s)
	}

	p.Type("input", "  call mom ")
	p.WaitText("tag: <b>call-mom</b>")
	p.WaitText("words: 5")
	p.Type("input", "\n")
	p.WaitText("2 items left")
	for _, s := range []string{"newest: call mom", "top: CALL MOM", "second: call mom", "mixed: false, found: true", "price: 2.50"} {
		p.WaitText(s)
	}

	p.ClickText("button", "Complete first")
	p.WaitText("1 item left")
	p.WaitText("mixed: true, found: true")
	if n := p.Count("b"); n != 0 {
		t.Errorf("a string with markup made %d <b> elements; strings are text", n)
	}
	if ex := p.Exceptions(); len(ex) > 0 {
		t.Errorf("exceptions: %v", ex)
	}
}
