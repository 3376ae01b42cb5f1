package project_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
)

// cardApp is a project whose page places children into a component of
// another module.
var cardApp = map[string]string{
	"main.acore": `module app.main

use component Card from "./card"

app A { route "/" => Home }

page Home {
  view {
    Text("before")
    Card(title: "t") { Text("inside") }
  }
}
`,
	"card.acore": `module app.card

component Card(title: String) {
  view {
    Section {
      Heading(title)
      if title.is_empty { Text("untitled") } else { Children }
    }
  }
}
`,
}

func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fills lists the fills edges of g as "from -> to".
func fills(g *graph.Graph) []string {
	var out []string
	for i := range int32(g.Len()) {
		for _, ei := range g.Out(i) {
			if e := &g.Edges[ei]; e.Kind() == graph.EdgeFills {
				out = append(out, g.At(i).ID+" -> "+g.At(e.To).ID+" ("+e.Layer()+")")
			}
		}
	}
	return out
}

// TestFillsEdge: an instance's children block records fills to the
// component's Children element, across modules, whether the modules are
// checked on one core or two, and after a recheck of either module.
func TestFillsEdge(t *testing.T) {
	want := "element:Home/view/1 -> element:Card/view/0/1/1/0 (resolved)"
	p, err := project.Open(writeProject(t, cardApp))
	if err != nil {
		t.Fatal(err)
	}
	if p.Result.State != "validated" {
		t.Fatalf("state %s: %v", p.Result.State, p.Result.Diagnostics)
	}
	if got := strings.Join(fills(p.Result.Graph), "\n"); got != want {
		t.Errorf("fills edges:\n%s\nwant %s", got, want)
	}
	n, _ := p.Result.Graph.Node("element:Home/view/1/0")
	if n == nil || n.Name != "Text" {
		t.Errorf("the instance's child has no node of its own: %v", n)
	}
	prev := runtime.GOMAXPROCS(1)
	one := project.Compile(p.Inputs)
	runtime.GOMAXPROCS(prev)
	sameCompile(t, "one core against two", one, p)

	in := p.Inputs
	for _, edit := range []map[string][]byte{
		{"main.acore": []byte(strings.Replace(cardApp["main.acore"], `Text("inside")`, `Text("in")`, 1))},
		{"card.acore": []byte(strings.Replace(cardApp["card.acore"], `Text("untitled")`, `Text("none")`, 1))},
		// The placeholder moves: the page's fills edge follows it.
		{"card.acore": []byte(strings.Replace(cardApp["card.acore"], `Heading(title)`, `Children`, 1))},
	} {
		next := withSources(in, edit)
		got := project.CompileFrom(p, next)
		sameCompile(t, "recheck", got, project.Compile(next))
	}
}
