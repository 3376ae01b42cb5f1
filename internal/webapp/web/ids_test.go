package web

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// The live page's node ids and button types, which app.js leaves to the
// runtime's h (create): the ids of a page, of a component shown in it and
// of a conditional's branch, in document order, each also in index.html,
// and every button of type "button", in both forms of app.js.
func TestLiveNodeIDs(t *testing.T) {
	const src = `module m

app A(theme: "none") { route "/" => Home }

component Badge(label: String) {
  state n: Int = 0
  view {
    Row {
      Text(label, class: "b")
      Button("+", class: "bx", on_press: || { n = n + 1 })
    }
  }
}

page Home {
  state on: Bool = true
  view {
    View(class: "top") {
      Heading("T")
      Badge(label: "one")
      if on { Button("Off", class: "off", on_press: || { on = false }) } else { Text("none") }
    }
  }
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	shown := []string{
		"element:Home/view/0", "element:Home/view/0/0", "element:Home/view/0/1",
		"element:Badge/view/0", "element:Badge/view/0/0", "element:Badge/view/0/1",
		"conditional:Home/view/0/2", "element:Home/view/0/2/0/0",
	}
	afterOff := slices.Concat(shown[:len(shown)-1], []string{"element:Home/view/0/2/1/0"})
	for _, min := range []bool{false, true} {
		t.Run(fmt.Sprintf("minified=%v", min), func(t *testing.T) {
			out, err := Build(dir, Options{Minify: min})
			if err != nil || out.Failed {
				t.Fatalf("build: %v %v", err, out.Diagnostics)
			}
			var static []string
			for _, m := range regexp.MustCompile(`data-acore-id="([^"]*)"`).FindAllStringSubmatch(string(out.Files["index.html"]), -1) {
				static = append(static, m[1])
			}
			srv := serveBuild(t, out.Files, nil)
			p := browsertest.New(t)
			p.Navigate(srv.URL + "/")
			p.WaitText("Off")
			ids := func() []string {
				var got []string
				p.Eval(`[...document.querySelectorAll("#app [data-acore-id]")].map(e => e.getAttribute("data-acore-id"))`, &got)
				return got
			}
			for i, want := range [][]string{shown, afterOff} {
				got := ids()
				if !slices.Equal(got, want) {
					t.Errorf("live node ids:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				for _, id := range got {
					if !slices.Contains(static, id) {
						t.Errorf("live node id %s is not in index.html", id)
					}
				}
				var types []string
				p.Eval(`[...document.querySelectorAll("#app button")].map(b => b.getAttribute("type"))`, &types)
				if len(types) == 0 || slices.ContainsFunc(types, func(s string) bool { return s != "button" }) {
					t.Errorf("button types %q, want all \"button\"", types)
				}
				if i == 0 {
					p.Click(".off")
					p.WaitText("none")
				}
			}
		})
	}
}
