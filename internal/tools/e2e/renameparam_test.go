package e2e

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// TestRenamedPageParameterRoutes renames the book page's parameter id to
// book_id through acore-semantic-mcp (change.propose, change.apply), which
// rewrites the parameter, its uses, the route's :id segment and the
// list's Link; the built app, in Chromium, still routes: a deep link to
// /books/<id> shows that book alone (the parameter reaches the page's
// query), the list's link leads to it, and an id of no book is named on
// the page.
func TestRenamedPageParameterRoutes(t *testing.T) {
	root := copyExample(t, "reading-list")
	a := startAgent(t, root)
	a.begin("rename a page parameter")
	open := a.call("workspace.open", map[string]any{"snapshot": "latest"}, map[string]any{"roots": []any{map[string]any{"path": root}}})
	a.ws, _ = dig(open, "workspace").(string)
	a.head, _ = dig(open, "snapshot", "id").(string)
	opt := option(t, a.read("node.edits", map[string]any{"nodes": []string{"prop:BookPage.id"}, "kinds": []string{"rename"}}), "rename")
	proposed := a.propose("rename-book-id", []map[string]any{{"kind": "rename", "node": "prop:BookPage.id",
		"old_name": opt["text"], "new_name": "book_id", "option": optionRef(opt)}})
	if !hasIDMap(proposed, "prop:BookPage.id", "prop:BookPage.book_id") {
		t.Errorf("the rename's id_map lacks prop:BookPage.id -> prop:BookPage.book_id: %v", dig(proposed, "result", "id_map"))
	}
	a.apply(proposed)
	// The rename reached every place that routes to the page; without
	// these the browser below would test the old names.
	for f, want := range map[string]string{
		"main.acore":                `route "/books/:book_id" => BookPage`,
		"components/book_row.acore": `Link(book.title, to: "/books/:book_id", book_id: book.id)`,
		"pages/book.acore":          `page BookPage(book_id: String)`,
	} {
		if got := readFile(t, root, f); !strings.Contains(got, want) {
			t.Errorf("%s after the rename lacks %s:\n%s", f, want, got)
		}
	}
	if got := readFile(t, root, "pages/book.acore"); !strings.Contains(got, "Books.list_books(id: book_id)") {
		t.Errorf("the query's argument is not the renamed parameter (the operation's own label id stays):\n%s", got)
	}

	backend := httptest.NewServer(&booksBackend{})
	defer backend.Close()
	site := buildAndServe(t, root, backend.URL)
	p := browsertest.New(t)

	// A deep link: the route matches and hands the page its parameter,
	// which filters the backend's two books to one.
	p.Navigate(site.URL + "/books/b2")
	p.WaitText("by Jane Austen")
	if text := p.Text(); !strings.Contains(text, "Emma") || strings.Contains(text, "Beloved") {
		t.Errorf("/books/b2 shows %q, want the book Emma alone", text)
	}

	// From the list, the title's Link fills the renamed segment.
	p.Navigate(site.URL + "/")
	p.WaitFor("the book Beloved in the list", row("Beloved"))
	link := row("Beloved") + `.querySelector("a")`
	var href string
	p.Eval(link+`.getAttribute("href")`, &href)
	if href != "/books/b1" {
		t.Fatalf("the title's link has href %q, want /books/b1", href)
	}
	p.ClickJS("the title Beloved", link)
	waitPath(p, "/books/b1")
	p.WaitText("by Toni Morrison")
	if text := p.Text(); strings.Contains(text, "Emma") {
		t.Errorf("/books/b1 by the link shows %q, want the book Beloved alone", text)
	}

	p.Navigate(site.URL + "/books/nope")
	p.WaitText("There is no book nope.")
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
	a.report()
}
