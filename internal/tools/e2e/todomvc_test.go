package e2e

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// TestTodoMVC drives examples/todomvc through the checks of TodoMVC's own
// suite (tastejs/todomvc app-spec.md and its cypress tests), with the
// markup they select, served by `axiom dev` and by a static build.
func TestTodoMVC(t *testing.T) {
	dir := copyExample(t, "todomvc")
	t.Run("dev", func(t *testing.T) {
		d := startDev(t, dir)
		todoMVC(t, d.URL)
	})
	t.Run("static", func(t *testing.T) {
		out := t.TempDir()
		axiom(t, 0, "build", dir, "--out", out)
		site := httptest.NewServer(staticServer(out))
		defer site.Close()
		todoMVC(t, site.URL)
		// The spec's size: the page, its script and styles, uncompressed.
		total := 0
		for _, f := range []string{"index.html", "app.js", "app.css", "styles.css"} {
			data, err := os.ReadFile(filepath.Join(out, f))
			if err != nil {
				t.Fatal(err)
			}
			total += len(data)
		}
		t.Logf("index.html + app.js + app.css + styles.css: %d bytes", total)
		if total > 25*1024 {
			t.Errorf("the web output is %d bytes, over 25 KiB", total)
		}
	})
}

func todoMVC(t *testing.T, url string) {
	p := browsertest.New(t)
	p.Navigate(url + "/")
	p.WaitSelector(".new-todo")
	labels := func() string {
		var s string
		p.Eval(`[...document.querySelectorAll(".todo-list li label")].map(l => l.textContent).join("|")`, &s)
		return s
	}
	waitLabels := func(want string) {
		t.Helper()
		p.WaitFor("the list "+want, `[...document.querySelectorAll(".todo-list li label")].map(l => l.textContent).join("|") === `+browsertest.JSString(want))
	}
	count := func(want string) {
		t.Helper()
		p.WaitFor("the count "+want, `(() => { const c = document.querySelector(".todo-count"); return c && c.textContent === `+browsertest.JSString(want)+` && c.querySelector("strong") !== null; })()`)
	}

	// No todos: main and footer are hidden; the new-todo field has the focus.
	if p.Count(".main") != 0 || p.Count(".footer") != 0 {
		t.Errorf("with no todos, .main and .footer are shown")
	}
	p.WaitFor("the new todo field to have the focus", `document.activeElement === document.querySelector(".new-todo")`)

	// New todo: Enter adds it trimmed and clears the field; blank adds none.
	p.Type(".new-todo", "buy some cheese\r")
	p.Type(".new-todo", "  feed the cat  \r")
	p.Type(".new-todo", "   \r")
	waitLabels("buy some cheese|feed the cat")
	if v := p.Value(".new-todo"); v != "" {
		t.Errorf("the field holds %q after Enter", v)
	}
	count("2 items left")

	// Mark as complete: the item gets .completed; the counter says 1 item.
	p.Click(".todo-list li:nth-child(1) .toggle")
	p.WaitSelector(".todo-list li.completed")
	count("1 item left")
	p.WaitSelector(".clear-completed")

	// Routing: #/active and #/completed show their items, the link is selected.
	p.ClickText(".filters a", "Active")
	waitLabels("feed the cat")
	p.WaitFor("the hash #/active", `location.hash === "#/active"`)
	p.WaitFor("Active selected", `document.querySelector(".filters a.selected").textContent === "Active"`)
	p.ClickText(".filters a", "Completed")
	waitLabels("buy some cheese")
	p.Back()
	waitLabels("feed the cat")
	p.ClickText(".filters a", "All")
	waitLabels("buy some cheese|feed the cat")

	// Editing: a double-click shows the edit field with the title; Enter
	// saves it trimmed, Escape cancels, an empty title removes the item.
	p.DoubleClick(".todo-list li:nth-child(2) label")
	p.WaitSelector(".todo-list li.editing .edit")
	if v := p.Value(".todo-list li.editing .edit"); v != "feed the cat" {
		t.Errorf("the edit field holds %q", v)
	}
	p.Eval(`(() => { const e = document.querySelector(".todo-list li.editing .edit"); e.value = ""; e.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, nil)
	p.Type(".todo-list li.editing .edit", "  feed the dog  \r")
	waitLabels("buy some cheese|feed the dog")
	p.DoubleClick(".todo-list li:nth-child(2) label")
	p.Type(".todo-list li.editing .edit", " and more")
	p.Press(".todo-list li.editing .edit", "\x1b")
	p.WaitFor("editing to end", `document.querySelector(".todo-list li.editing") === null`)
	waitLabels("buy some cheese|feed the dog")

	// Persistence: the todos survive a reload.
	p.Reload()
	waitLabels("buy some cheese|feed the dog")
	p.WaitSelector(".todo-list li.completed")

	// Mark all as complete, then clear completed: nothing is left.
	p.Click(".toggle-all")
	p.WaitFor("every item completed", `document.querySelectorAll(".todo-list li.completed").length === 2`)
	count("0 items left")
	p.Click(".toggle-all")
	p.WaitFor("every item active", `document.querySelectorAll(".todo-list li.completed").length === 0`)
	p.Click(".todo-list li:nth-child(1) .toggle")
	p.Click(".clear-completed")
	waitLabels("feed the dog")
	p.WaitFor("clear completed to be hidden", `document.querySelector(".clear-completed") === null`)

	if os.Getenv("ACORE_SCREENSHOTS") == "1" && strings.HasPrefix(url, "http") {
		p.Type(".new-todo", "write the docs\r")
		p.Type(".new-todo", "ship it\r")
		p.Click(".todo-list li:nth-child(2) .toggle")
		waitLabels("feed the dog|write the docs|ship it")
		p.Screenshot(filepath.Join("..", "..", "..", "docs", "screenshots", "todomvc.png"))
	}
	if ex := p.Exceptions(); len(ex) > 0 {
		t.Errorf("exceptions in the page: %q (labels %s)", ex, labels())
	}
}
