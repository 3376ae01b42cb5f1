package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
)

// TestAppFeatures: the generator finds each runtime feature an app has
// (assets.Features), so that the runtime keeps its code, for both forms
// of app.js; an app without the feature does not ship its code.
func TestAppFeatures(t *testing.T) {
	const plain = "module m\napp A { route \"/\" => Home }\npage Home { view { Text(\"hi\") } }\n"
	cases := []struct {
		name, src, marker string
	}{
		{"route parameter of a String", "module m\napp A { route \"/\" => Home\n  route \"/b/:id\" => B }\npage Home { view { Text(\"hi\") } }\npage B(id: String) { view { Text(id) } }\n", "decodeURIComponent"},
		{"route argument", "module m\napp A { route \"/\" => Home(x: \"a\") }\npage Home(x: String) { view { Text(x) } }\n", "decodeURIComponent"},
		{"link", "module m\napp A { route \"/\" => Home\n  route \"/b\" => B }\npage Home { view { Link(\"B\", to: \"/b\") } }\npage B { view { Text(\"b\") } }\n", "pushState"},
		{"hash routing", "module m\napp A(routing: \"hash\") { route \"/\" => Home }\npage Home { view { Text(\"hi\") } }\n", `"hashchange"`},
		{"empty text", "module m\napp A { route \"/\" => Home }\npage Home {\n  state xs: [String] = []\n  view { List(items: xs, key: |x| x, empty_text: \"none\") { x => Text(x) } }\n}\n", `"ac-empty"`},
		{"rows with effects", "module m\napp A { route \"/\" => Home }\npage Home {\n  state xs: [String] = []\n  state n: Int = 0\n  view { List(items: xs, key: |x| x) { x => Text(x + n) } }\n}\n", ".bs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, src := range []string{c.src, plain} {
				want := src == c.src
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				if _, err := prepare.Run(dir); err != nil {
					t.Fatal(err)
				}
				for _, min := range []bool{false, true} {
					out, err := Build(dir, Options{Minify: min})
					if err != nil || out.Failed {
						t.Fatalf("build: %v %v", err, out.Diagnostics)
					}
					if got := strings.Contains(string(out.Files["app.js"]), c.marker); got != want {
						t.Errorf("minified %v, the feature's app %v: app.js has %s = %v", min, want, c.marker, got)
					}
				}
			}
		})
	}
}
