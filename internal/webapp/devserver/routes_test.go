package devserver

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRouteParams: a path of a route with a parameter is the page
// even when the parameter holds a dot, which other paths with an
// extension are not.
func TestServeRouteParams(t *testing.T) {
	root := newApp(t)
	main := filepath.Join(root, "main.acore")
	src := readFile(t, main)
	old := []byte(`app TasksApp { route "/" => Home }`)
	if !bytes.Contains(src, old) {
		t.Fatalf("the scaffold's main.acore has no %s", old)
	}
	src = bytes.Replace(src, old, []byte("app TasksApp {\n  route \"/\" => Home\n  route \"/books/:id\" => Book\n}"), 1)
	src = append(src, "\npage Book(id: String) {\n  view { Text(\"Book \" + id) }\n}\n"...)
	writeFile(t, main, src)
	d := start(t, root)
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/books/war.and.peace", 200},
		{"/books/42/", 200},
		{"/books/a.png/x.png", 404},
		{"/cover.png", 404},
	} {
		res := do(t, "GET", d.url+tc.path, nil)
		if res.status != tc.status {
			t.Errorf("GET %s: %d, want %d", tc.path, res.status, tc.status)
			continue
		}
		if tc.status == 200 && !strings.Contains(string(res.body), `data-acore-routes="/books/:id"`) {
			t.Errorf("GET %s: not the app's index.html:\n%s", tc.path, res.body)
		}
	}
}
