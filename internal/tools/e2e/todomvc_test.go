package e2e

import (
	"fmt"
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

// The suite's three titles (tastejs/todomvc cypress/e2e/spec.cy.js).
const (
	todoOne   = "buy some cheese"
	todoTwo   = "feed the cat"
	todoThree = "book a doctors appointment"
)

// todoMVC runs the checks of TodoMVC's cypress suite in the order of its
// contexts, on one page whose todos carry over from check to check (the
// suite starts each test afresh; here each check's set-up is the state the
// previous ones left, written out where it matters).
func todoMVC(t *testing.T, url string) {
	p := browsertest.New(t)
	p.Navigate(url + "/")
	p.WaitSelector(".new-todo")
	labels := func() string {
		var s string
		p.Eval(`[...document.querySelectorAll(".todo-list li label")].map(l => l.textContent).join("|")`, &s)
		return s
	}
	waitLabels := func(want ...string) {
		t.Helper()
		p.WaitFor("the list "+strings.Join(want, "|"), `[...document.querySelectorAll(".todo-list li label")].map(l => l.textContent).join("|") === `+browsertest.JSString(strings.Join(want, "|")))
	}
	count := func(want string) {
		t.Helper()
		p.WaitFor("the count "+want, `(() => { const c = document.querySelector(".todo-count"); return c && c.textContent === `+browsertest.JSString(want)+` && c.querySelector("strong") !== null; })()`)
	}
	// stored waits until localStorage holds n todos, each with exactly the
	// keys id, title and completed, done of them completed, and the titles
	// in order.
	stored := func(done int, titles ...string) {
		t.Helper()
		p.WaitFor(fmt.Sprintf("localStorage to hold %q, %d completed", titles, done), `(() => {
			const l = JSON.parse(localStorage.getItem("todos-acore") || "[]");
			return l.every(x => Object.keys(x).sort().join() === "completed,id,title")
				&& l.map(x => x.title).join("|") === `+browsertest.JSString(strings.Join(titles, "|"))+`
				&& l.filter(x => x.completed).length === `+fmt.Sprint(done)+`; })()`)
	}
	// classes says which items have the class c, as "yny".
	classes := func(c string) string {
		var s string
		p.Eval(`[...document.querySelectorAll(".todo-list li")].map(li => li.classList.contains(`+browsertest.JSString(c)+`) ? "y" : "n").join("")`, &s)
		return s
	}
	waitClasses := func(c, want string) {
		t.Helper()
		p.WaitFor("the items' ."+c+" to be "+want, `[...document.querySelectorAll(".todo-list li")].map(li => li.classList.contains(`+browsertest.JSString(c)+`) ? "y" : "n").join("") === `+browsertest.JSString(want))
	}
	toggleAll := func(want bool) {
		t.Helper()
		p.WaitFor(fmt.Sprintf("toggle-all checked %v", want), `document.querySelector(".toggle-all").checked === `+fmt.Sprint(want))
	}
	// visible is Chromium's own answer, counting visibility: hidden.
	visible := func(sel string) bool {
		t.Helper()
		var v bool
		p.Eval(`(() => { const e = document.querySelector(`+browsertest.JSString(sel)+`); return e !== null && e.checkVisibility({visibilityProperty: true}); })()`, &v)
		return v
	}
	selected := func(link string) {
		t.Helper()
		p.WaitFor(link+" selected", `(() => { const s = [...document.querySelectorAll(".filters a.selected")]; return s.length === 1 && s[0].textContent === `+browsertest.JSString(link)+`; })()`)
	}
	clearField := func(sel string) {
		p.Eval(`(() => { const e = document.querySelector(`+browsertest.JSString(sel)+`); e.value = ""; e.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, nil)
	}
	const edit = ".todo-list li.editing .edit"

	// When page is initially opened: the new-todo field has the focus.
	p.WaitFor("the new todo field to have the focus", `document.activeElement === document.querySelector(".new-todo")`)

	// No todos: no items, .main and .footer hidden.
	if p.Count(".todo-list li") != 0 || visible(".main") || visible(".footer") {
		t.Errorf("with no todos, items, .main or .footer are shown")
	}

	// New todo: Enter appends it at the bottom, trimmed, and clears the
	// field; a blank one adds nothing; .main and .footer appear.
	p.Type(".new-todo", todoOne+"\r")
	waitLabels(todoOne)
	if v := p.Value(".new-todo"); v != "" {
		t.Errorf("the field holds %q after Enter", v)
	}
	count("1 item left")
	p.Type(".new-todo", "    "+todoTwo+"    \r")
	p.Type(".new-todo", "   \r")
	p.Type(".new-todo", todoThree+"\r")
	waitLabels(todoOne, todoTwo, todoThree)
	count("3 items left")
	stored(0, todoOne, todoTwo, todoThree)
	if !visible(".main") || !visible(".footer") {
		t.Errorf("with todos, .main or .footer is hidden")
	}
	selected("All")

	// Item: marking and un-marking complete toggles li.completed on that
	// item only; Clear completed shows with its text while one is done.
	p.Click(".todo-list li:nth-child(1) .toggle")
	waitClasses("completed", "ynn")
	count("2 items left")
	stored(1, todoOne, todoTwo, todoThree)
	p.WaitFor("Clear completed", `(() => { const b = document.querySelector(".clear-completed"); return b && b.textContent === "Clear completed"; })()`)
	p.Click(".todo-list li:nth-child(2) .toggle")
	waitClasses("completed", "yyn")
	p.Click(".todo-list li:nth-child(1) .toggle")
	p.Click(".todo-list li:nth-child(2) .toggle")
	waitClasses("completed", "nnn")
	stored(0, todoOne, todoTwo, todoThree)
	p.WaitFor("Clear completed to be hidden", `document.querySelector(".clear-completed") === null`)

	// Mark all as completed, clear it again; the checkbox follows the items.
	toggleAll(false)
	p.Click(".toggle-all")
	waitClasses("completed", "yyy")
	count("0 items left")
	toggleAll(true)
	stored(3, todoOne, todoTwo, todoThree)
	p.Click(".todo-list li:nth-child(1) .toggle")
	toggleAll(false)
	p.Click(".todo-list li:nth-child(1) .toggle")
	toggleAll(true)
	p.Click(".toggle-all")
	waitClasses("completed", "nnn")
	toggleAll(false)
	stored(0, todoOne, todoTwo, todoThree)

	// Editing: a double-click on the label gives its li .editing and an
	// edit field with the title that takes the focus, hiding the item's
	// toggle and label.
	p.DoubleClick(".todo-list li:nth-child(2) label")
	waitClasses("editing", "nyn")
	p.WaitFor("the edit field to have the focus", `document.activeElement === document.querySelector(`+browsertest.JSString(edit)+`)`)
	if v := p.Value(edit); v != todoTwo {
		t.Errorf("the edit field holds %q", v)
	}
	if visible(".todo-list li:nth-child(2) .toggle") || visible(".todo-list li:nth-child(2) label") {
		t.Errorf("the editing item's toggle or label is shown")
	}
	if !visible(".todo-list li:nth-child(1) .toggle") || !visible(".todo-list li:nth-child(1) label") {
		t.Errorf("another item's toggle or label is hidden while one is edited")
	}
	// Escape leaves editing and discards the change.
	clearField(edit)
	p.Type(edit, "foo")
	p.Press(edit, "\x1b")
	waitClasses("editing", "nnn")
	waitLabels(todoOne, todoTwo, todoThree)
	stored(0, todoOne, todoTwo, todoThree)
	// Enter saves the edit, trimmed.
	p.DoubleClick(".todo-list li:nth-child(2) label")
	clearField(edit)
	p.Type(edit, "    buy some sausages    \r")
	waitLabels(todoOne, "buy some sausages", todoThree)
	waitClasses("editing", "nnn")
	stored(0, todoOne, "buy some sausages", todoThree)
	// Blur saves the edit too.
	p.DoubleClick(".todo-list li:nth-child(2) label")
	p.WaitFor("the edit field to have the focus", `document.activeElement === document.querySelector(`+browsertest.JSString(edit)+`)`)
	clearField(edit)
	p.Type(edit, todoTwo)
	p.Eval(`document.querySelector(`+browsertest.JSString(edit)+`).blur(), true`, nil)
	waitLabels(todoOne, todoTwo, todoThree)
	waitClasses("editing", "nnn")
	stored(0, todoOne, todoTwo, todoThree)
	// An empty title removes the item.
	p.DoubleClick(".todo-list li:nth-child(2) label")
	clearField(edit)
	p.Press(edit, "\r")
	waitLabels(todoOne, todoThree)
	stored(0, todoOne, todoThree)
	// Editing is not persisted.
	p.DoubleClick(".todo-list li:nth-child(1) label")
	waitClasses("editing", "yn")
	p.Reload()
	waitLabels(todoOne, todoThree)
	if c := classes("editing"); c != "nn" {
		t.Errorf("after a reload the items' .editing are %s", c)
	}

	// Counter: it follows the number of active todos.
	p.Type(".new-todo", todoTwo+"\r")
	waitLabels(todoOne, todoThree, todoTwo)
	count("3 items left")

	// Routing: the filters show their items, select their link, follow the
	// back button, and an item changed under a filter leaves it.
	p.Click(".todo-list li:nth-child(2) .toggle")
	stored(1, todoOne, todoThree, todoTwo)
	p.ClickText(".filters a", "Active")
	waitLabels(todoOne, todoTwo)
	p.WaitFor("the hash #/active", `location.hash === "#/active"`)
	selected("Active")
	p.ClickText(".filters a", "Completed")
	waitLabels(todoThree)
	p.WaitFor("the hash #/completed", `location.hash === "#/completed"`)
	selected("Completed")
	p.Back()
	waitLabels(todoOne, todoTwo)
	selected("Active")
	p.Back()
	waitLabels(todoOne, todoThree, todoTwo)
	selected("All")
	p.ClickText(".filters a", "Active")
	waitLabels(todoOne, todoTwo) // the filter shown before the toggle is clicked
	p.Click(".todo-list li:nth-child(1) .toggle")
	waitLabels(todoTwo)
	count("1 item left")
	// The filter is kept across a reload.
	p.Reload()
	waitLabels(todoTwo)
	selected("Active")
	p.ClickText(".filters a", "All")
	waitLabels(todoOne, todoThree, todoTwo)
	p.WaitFor("the hash #/", `location.hash === "#/"`)

	// Persistence: the todos and their completed state survive a reload.
	p.Reload()
	waitLabels(todoOne, todoThree, todoTwo)
	waitClasses("completed", "yyn")

	// Hovering an item shows its remove button, which removes it.
	if visible(".todo-list li:nth-child(3) .destroy") {
		t.Errorf("the remove button is shown without hovering")
	}
	p.Hover(".todo-list li:nth-child(3)")
	p.WaitFor("the remove button on hover", `document.querySelector(".todo-list li:nth-child(3) .destroy").checkVisibility({visibilityProperty: true})`)
	p.Click(".todo-list li:nth-child(3) .destroy")
	waitLabels(todoOne, todoThree)
	stored(2, todoOne, todoThree)

	// Clear completed removes the completed items and hides itself; with
	// every item gone, .main and .footer hide and the mark-all checkbox is
	// clear for the next todo.
	toggleAll(true)
	p.Click(".clear-completed")
	p.WaitFor("no items", `document.querySelectorAll(".todo-list li").length === 0`)
	if visible(".main") || visible(".footer") || visible(".clear-completed") {
		t.Errorf("after clearing every item, .main, .footer or Clear completed is shown")
	}
	stored(0)
	p.Type(".new-todo", todoOne+"\r")
	waitLabels(todoOne)
	toggleAll(false)
	p.Type(".new-todo", todoTwo+"\r")
	p.Click(".todo-list li:nth-child(1) .toggle")
	p.Click(".clear-completed")
	waitLabels(todoTwo)
	p.WaitFor("Clear completed to be hidden", `document.querySelector(".clear-completed") === null`)
	toggleAll(false)

	if os.Getenv("ACORE_SCREENSHOTS") == "1" && strings.HasPrefix(url, "http") {
		p.Type(".new-todo", "write the docs\r")
		p.Type(".new-todo", "ship it\r")
		p.Click(".todo-list li:nth-child(2) .toggle")
		waitLabels(todoTwo, "write the docs", "ship it")
		p.Screenshot(filepath.Join("..", "..", "..", "docs", "screenshots", "todomvc.png"))
	}
	if ex := p.Exceptions(); len(ex) > 0 {
		t.Errorf("exceptions in the page: %q (labels %s)", ex, labels())
	}
}
