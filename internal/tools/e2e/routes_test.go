package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// TestReadingListBookPage: a book's title in the list is a Link to the
// route /books/:id with the book's id in its href; a click shows the
// book's page, which loads the book by its id, without reloading; back
// and forward move between the list and the page; a deep link and a
// reload of /books/<id> show the page (axiom dev serves index.html for
// it), and an id of no book says so. With ACORE_SCREENSHOTS=1 it rewrites
// docs/screenshots/reading-list-book.png.
func TestReadingListBookPage(t *testing.T) {
	dir := copyExample(t, "reading-list")
	d := startDev(t, dir)
	p := browsertest.New(t)
	p.SetViewport(800, 600)
	p.Navigate(d.URL)
	p.WaitText("No books yet.")
	p.Eval(`window.__sameDocument = true`, nil)
	addBook(t, p, "Middlemarch", "George Eliot")
	addBook(t, p, "Beloved", "Toni Morrison")
	waitItems(t, p, "Beloved", "Middlemarch")

	link := row("Middlemarch") + `.querySelector("a")`
	var href string
	p.Eval(link+`.getAttribute("href")`, &href)
	if !strings.HasPrefix(href, "/books/") || len(href) <= len("/books/") {
		t.Fatalf("the title's link has href %q, want /books/<id>", href)
	}
	p.ClickJS("the title Middlemarch", link)
	waitPath(p, href)
	p.WaitText("by George Eliot")
	if text := p.Text(); strings.Contains(text, "Beloved") {
		t.Errorf("the book's page shows another book: %q", text)
	}
	if shot := os.Getenv(ScreenshotsEnv); shot == "1" {
		p.Screenshot(filepath.Join("..", "..", "..", "docs", "screenshots", "reading-list-book.png"))
	}

	p.Back()
	waitPath(p, "/")
	p.WaitFor("the list again", row("Beloved"))
	p.Eval(`history.forward()`, nil)
	waitPath(p, href)
	p.WaitText("by George Eliot")
	var same bool
	if p.Eval(`window.__sameDocument === true`, &same); !same {
		t.Error("the link, back or forward reloaded the page")
	}

	// From one book's page to another's through the list: the page shown
	// follows the id.
	p.ClickText("a", "Back to the list")
	waitPath(p, "/")
	p.ClickJS("the title Beloved", row("Beloved")+`.querySelector("a")`)
	p.WaitText("by Toni Morrison")

	p.Navigate(d.URL + href)
	p.WaitText("by George Eliot")
	p.Reload()
	p.WaitText("by George Eliot")
	p.Navigate(d.URL + "/books/no-such-id")
	p.WaitText("There is no book no-such-id.")
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}

// routesApp is an app with hash routing: literal route arguments give one
// page its filter, an Int route parameter is matched only by an integer,
// and navigate() fills a parameter from a state.
const routesApp = `module m

app Routes(routing: "hash") {
  route "/" => Items(filter: "all")
  route "/active" => Items(filter: "active")
  route "/items/:n" => Item
}

page Items(filter: String) {
  state typed: String = ""
  state pick: Int = 41
  action open() {
    pick = pick + 1
    navigate("/items/:n", n: pick)
  }
  view {
    Text("Filter: " + filter)
    Input(value: typed, placeholder: "kept")
    Link("All", to: "/")
    Link("Active", to: "/active")
    Link("Item 7", to: "/items/:n", n: 7)
    Button("Open", on_press: open)
  }
}

page Item(n: Int) {
  view {
    Text("Item " + (n + 1 - 1))
    Link("Home", to: "/")
  }
}
`

// TestRoutingHashBrowser drives routesApp: hrefs are #/path, a click
// changes only the fragment, both routes of Items keep its page (a typed
// value stays) and set filter, an Int parameter reaches the page as a
// number, a segment that is no integer is not found, and back and forward
// follow the fragments.
func TestRoutingHashBrowser(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "routes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(routesApp), 0o644); err != nil {
		t.Fatal(err)
	}
	axiom(t, 0, "prepare", dir)
	d := startDev(t, dir)
	p := browsertest.New(t)
	p.Navigate(d.URL)
	p.WaitText("Filter: all")
	p.Eval(`window.__sameDocument = true`, nil)
	for text, want := range map[string]string{"All": "#/", "Active": "#/active", "Item 7": "#/items/7"} {
		var href string
		p.Eval(`[...document.querySelectorAll("a")].find(a => a.textContent === `+browsertest.JSString(text)+`).getAttribute("href")`, &href)
		if href != want {
			t.Errorf("the link %s has href %q, want %q", text, href, want)
		}
	}
	p.Type(`input[placeholder="kept"]`, "draft")
	p.ClickText("a", "Active")
	p.WaitText("Filter: active")
	hash := func() string {
		var h string
		p.Eval(`location.pathname + location.hash`, &h)
		return h
	}
	if h := hash(); h != "/#/active" {
		t.Errorf("after the Active link the URL is %q, want /#/active", h)
	}
	if v := p.Value(`input[placeholder="kept"]`); v != "draft" {
		t.Errorf("another route of the same page lost its state: the field holds %q", v)
	}
	p.ClickText("a", "Item 7")
	p.WaitText("Item 7")
	p.Back()
	p.WaitText("Filter: active")
	p.Back()
	p.WaitText("Filter: all")
	p.Eval(`history.forward()`, nil)
	p.WaitText("Filter: active")
	p.ClickText("button", "Open")
	p.WaitText("Item 42")
	if h := hash(); h != "/#/items/42" {
		t.Errorf("navigate() led to %q, want /#/items/42", h)
	}
	var same bool
	if p.Eval(`window.__sameDocument === true`, &same); !same {
		t.Error("hash routing reloaded the page")
	}
	p.Navigate(d.URL + "/#/items/x7")
	p.WaitFor("a not-found page", `/not found/i.test(document.body.innerText)`)
	if v, _ := p.Attr(`main a`, "href"); v != "#/" {
		t.Errorf("the not-found page links to %q, want #/", v)
	}
	p.Navigate(d.URL + "/#/items/-3")
	p.WaitText("Item -3")
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}
