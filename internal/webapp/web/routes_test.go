package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
)

// TestCodegenRoutes compiles an app with hash routing, route arguments
// and parameters, and looks for the JavaScript each must become.
func TestCodegenRoutes(t *testing.T) {
	dir := t.TempDir()
	src := `module m

app Shelf(routing: "hash") {
  route "/" => Books(filter: "all")
  route "/active" => Books(filter: "active")
  route "/books/:id/:page" => Book
}

page Books(filter: String, size: Int = 10) {
  state pick: String = "b1"
  action open() {
    navigate("/books/:id/:page", id: pick, page: size)
    navigate("/active")
  }
  view {
    Text(filter)
    Link("All", to: "/")
    Link("First", to: "/books/:id/:page", id: pick, page: 1)
    Link("Query", to: "/active?x=1")
    Link("Any", to: pick)
  }
}

page Book(id: String, page: Int) {
  view { Text(id + page) }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	out := build(t, dir)
	js := string(out.Files["app.js"])
	for _, want := range []string{
		// Routes in order, with their literal arguments and Int parameters.
		`const R=[["/",P_Books,{filter:"all"}],["/active",P_Books,{filter:"active"}],["/books/:id/:page",P_Book,{},["page"]]];`,
		// The runtime routes on the fragment only.
		`addEventListener("hashchange",`,
		// Page parameters read the route's signal P; a default fills in.
		"function P_Books(w,P){",
		"const $filter=()=>P().filter;",
		"const $size=()=>P().size??10;",
		"const $id=()=>P().id;",
		// Typed navigation fills the path.
		`nav(pth("/books/:id/:page",{id:$pick(),page:$size()}));nav("/active");`,
		// Links: #/path, statically when literal; filled and checked by rh otherwise.
		`at(v3,"href",()=>"#"+pth("/books/:id/:page",{id:$pick(),page:1}),rh)`,
		`at(v5,"href",()=>"#"+$pick(),rh)`,
	} {
		if !strings.Contains(js, want) {
			t.Errorf("app.js lacks %s", want)
		}
	}
	if strings.Contains(js, `"popstate"`) {
		t.Errorf("app.js of a hash-routed app listens to popstate")
	}
	html := string(out.Files["index.html"])
	for _, want := range []string{`href="#/"`, `href="#/active?x=1"`} {
		if !strings.Contains(js+html, want) {
			t.Errorf("the build lacks %s", want)
		}
	}
	if got := strings.Join(out.Routes, " "); got != "/ /active /books/:id/:page" {
		t.Errorf("Output.Routes %q", got)
	}
}

func TestMatchRoute(t *testing.T) {
	routes := []string{"/", "/about", "/books/:id", "/a/:x/b"}
	for p, want := range map[string]bool{
		"/": true, "/about": true, "/about/": true, "/books/war.and.peace": true, "/books/": false,
		"/books/1/2": false, "/a/q.r/b": true, "/a/q/c": false, "/logo.png": false,
	} {
		if got := MatchRoute(routes, p); got != want {
			t.Errorf("MatchRoute(%q) = %v, want %v", p, got, want)
		}
	}
}
