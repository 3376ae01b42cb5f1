package e2e

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// row is a JavaScript expression for the list item that contains text.
func row(text string) string {
	return `[...document.querySelectorAll("li")].find(li => li.textContent.includes(` + browsertest.JSString(text) + `))`
}

// waitPath waits until location.pathname is want.
func waitPath(p *browsertest.Page, want string) {
	p.WaitFor("the path "+want, `location.pathname === `+browsertest.JSString(want))
}

// addBook goes to the form through the nav bar's Link, fills it in and
// saves: the save action navigates back to the list.
func addBook(t *testing.T, p *browsertest.Page, title, author string) {
	t.Helper()
	p.ClickText("a", "Add a book")
	waitPath(p, "/add")
	p.Type(`input[placeholder="Title"]`, title)
	p.Type(`input[placeholder="Author"]`, author)
	p.ClickText("button", "Save")
	waitPath(p, "/")
	p.WaitFor("the book "+title+" in the list", row(title))
}

// TestReadingListPages: Link and navigate() change the URL without
// reloading the page, the back button goes back, deep links work on load
// and on reload, an unknown path shows a not-found page, the form creates
// exactly one book per save, and markup typed into it stays text.
func TestReadingListPages(t *testing.T) {
	dir := copyExample(t, "reading-list")
	d := startDev(t, dir)
	p := browsertest.New(t)
	p.Navigate(d.URL)
	p.WaitText("Reading list")
	p.WaitText("No books yet.")
	// A full page load would drop this property; client-side navigation
	// keeps it.
	p.Eval(`window.__sameDocument = true`, nil)

	addBook(t, p, "Dune", "Frank Herbert")
	waitItems(t, p, "Dune")
	const evil, evilAuthor = `<b>bold</b><script>window.__pwned=1</script>`, `<i onmouseover="x()">A</i>`
	addBook(t, p, evil, evilAuthor)
	waitItems(t, p, evil, "Dune")
	if n := p.Count("li b, li i, li script"); n != 0 {
		t.Errorf("a title written as markup made %d elements", n)
	}
	if text := p.Text(); !strings.Contains(text, "by "+evilAuthor) {
		t.Errorf("the author written as markup is not shown as text: %q", text)
	}

	p.ClickText("a", "About")
	waitPath(p, "/about")
	p.WaitText("The list holds 2 books.")
	if v, ok := p.Attr(`a[href="/about"]`, "href"); !ok || v != "/about" {
		t.Errorf("the About link's href is %q", v)
	}
	p.Back()
	waitPath(p, "/")
	p.WaitText("Reading list")
	var same bool
	if p.Eval(`window.__sameDocument === true`, &same); !same {
		t.Error("Link, navigate() or the back button reloaded the page")
	}

	// Deep links: a fresh load of each path shows its page, and so does a
	// reload there.
	p.Navigate(d.URL + "/about")
	p.WaitText("The list holds 2 books.")
	p.Reload()
	p.WaitText("The list holds 2 books.")
	p.Navigate(d.URL + "/add")
	p.WaitSelector(`input[placeholder="Title"]`)

	p.Navigate(d.URL + "/no/such/page")
	p.WaitFor("a not-found page", `/not found/i.test(document.body.innerText)`)
	if text := p.Text(); strings.Contains(text, "Reading list") || strings.Contains(text, "The list holds") {
		t.Errorf("an unknown path shows a page of the app: %q", text)
	}
	var nf struct{ H1, P, A string }
	p.Eval(`({H1: document.querySelector("main h1").textContent, P: document.querySelector("main p").textContent,
		A: document.querySelector("main a").textContent})`, &nf)
	if want := (struct{ H1, P, A string }{"Page not found", "There is no page at /no/such/page.", "Go to the home page"}); nf != want {
		t.Errorf("the not-found page says %+v, want %+v", nf, want)
	}
	var pwned bool
	if p.Eval(`window.__pwned === 1`, &pwned); pwned {
		t.Error("a title written as markup ran its script")
	}
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}

// TestReadingListKeyedList: reversing the sort re-orders the list by
// moving its items (each item keeps its DOM node, and the focused Delete
// button keeps the focus), and a Delete button deletes its own book only.
// The Delete buttons, inside a component and reached through its Action
// prop, carry the book.delete action's AXAG facts.
func TestReadingListKeyedList(t *testing.T) {
	dir := copyExample(t, "reading-list")
	d := startDev(t, dir)
	p := browsertest.New(t)
	p.Navigate(d.URL)
	p.WaitText("No books yet.")
	addBook(t, p, "Dune", "Frank Herbert")
	addBook(t, p, "Emma", "Jane Austen")
	addBook(t, p, "Beloved", "Toni Morrison")
	waitItems(t, p, "Beloved", "Dune", "Emma")

	manifest := fetchManifest(t, d.URL+"/.well-known/axag-manifest.json")
	for _, title := range []string{"Beloved", "Dune", "Emma"} {
		checkAXAGAttributes(t, p, "the Delete button of "+title, row(title)+`.querySelector("button")`, manifest["book.delete"])
	}
	p.ClickText("a", "Add a book")
	waitPath(p, "/add")
	p.WaitSelector(`input[placeholder="Title"]`)
	checkAXAGAttributes(t, p, "the Save button", `[...document.querySelectorAll("button")].find(b => b.textContent.trim() === "Save")`, manifest["book.create"])
	p.Back()
	waitItems(t, p, "Beloved", "Dune", "Emma")

	// Mark every item's node and focus Emma's Delete button, then reverse
	// the order with a click that does not move the focus.
	p.Eval(`(() => {
		document.querySelectorAll("li").forEach(li => { li.__title = li.textContent; });
		const b = `+row("Emma")+`.querySelector("button");
		b.__focused = true;
		b.focus();
	})()`, nil)
	p.WaitText("A to Z")
	p.Eval(`[...document.querySelectorAll("button")].find(b => b.textContent.trim() === "Reverse order").click()`, nil)
	waitItems(t, p, "Emma", "Dune", "Beloved")
	p.WaitText("Z to A")
	var kept struct {
		Focus bool `json:"focus"`
		Nodes bool `json:"nodes"`
	}
	p.Eval(`({focus: document.activeElement.__focused === true,
		nodes: [...document.querySelectorAll("li")].every(li => li.__title === li.textContent)})`, &kept)
	if !kept.Focus {
		t.Error("the focused Delete button lost the focus when the list was re-ordered")
	}
	if !kept.Nodes {
		t.Error("re-ordering the list replaced item nodes instead of moving them")
	}

	p.ClickJS("the Delete button of Dune", row("Dune")+`.querySelector("button")`)
	waitItems(t, p, "Emma", "Beloved")
	p.Eval(`[...document.querySelectorAll("li")].every(li => li.__title === li.textContent)`, &kept.Nodes)
	if !kept.Nodes {
		t.Error("deleting a book replaced the other items' nodes")
	}
	// book.delete declares confirmation_required: the page asks before it
	// deletes, as its axag-confirmation-required attribute promises.
	if d := p.Dialogs(); len(d) != 1 || d[0] != "confirm: Delete: are you sure?" {
		t.Errorf("dialogs on delete: %q, want one confirm naming the button", d)
	}
	p.Reload()
	waitItems(t, p, "Beloved", "Emma")
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}

// TestReadingListBackendError: a built reading list whose backend fails
// shows the failure's message from the wire format's error body.
func TestReadingListBackendError(t *testing.T) {
	dir := copyExample(t, "reading-list")
	be := &fakeBackend{fail: true}
	backend := httptest.NewServer(be)
	defer backend.Close()
	site := buildAndServe(t, dir, backend.URL)
	p := browsertest.New(t)
	p.Navigate(site.URL)
	p.WaitText("Could not load books: database is down")
	reqs, bad := be.log()
	if len(bad) > 0 {
		t.Errorf("requests outside the wire format: %q", bad)
	}
	if len(reqs) == 0 || reqs[0] != `/books/list_books {"sort":"title","id":null}` {
		t.Errorf("backend requests %q, want list_books with {\"sort\":\"title\",\"id\":null} first", reqs)
	}
	// A deep link served by the static server's fallback.
	p.Navigate(site.URL + "/about")
	p.WaitText("An example of the Acore web target.")
}
