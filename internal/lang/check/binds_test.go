package check_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
)

var bindSources = map[string]string{
	"main.acore": `module app.main

use component Item from "./row"

app A { route "/" => Home }

page Home {
  state s: String = ""
  action go() { s = "x" }
  view { Item(label: "a", on_go: go) }
}
`,
	"row.acore": `module app.row

component Item(label: String, on_go: Action) {
  view { Button(label, on_press: on_go) }
}
`,
}

func bindEdges(g *graph.Graph) []string {
	var out []string
	for i := range int32(g.Len()) {
		for _, ei := range g.Out(i) {
			e := &g.Edges[ei]
			s := g.EdgeSite(ei)
			line := fmt.Sprintf("%s %s %s at %s:%d:%d", g.At(e.From).ID, e.Kind(), g.At(e.To).ID, s.Path, s.Line, s.Column)
			if v, ok := g.Via(ei); ok {
				line += " via " + g.At(v).ID
			}
			out = append(out, line)
		}
	}
	return out
}

// TestBinds: an instance binds each prop it passes, at the argument, and
// the prop has what the argument triggers; a recheck of the page that
// moves the arguments gives the edges and sites a whole compile does.
func TestBinds(t *testing.T) {
	in, _ := infoInput(bindSources)
	base := check.Check(in)
	if base.State != check.StateValidated {
		t.Fatalf("%s: %v", base.State, base.Diagnostics)
	}
	edges := bindEdges(base.Graph)
	for _, want := range []string{
		"element:Home/view/0 binds prop:Item.label at main.acore:10:22",
		"element:Home/view/0 binds prop:Item.on_go at main.acore:10:34",
		"element:Home/view/0 triggers action:Home.go at main.acore:10:34",
		"prop:Item.on_go triggers action:Home.go at main.acore:10:34 via element:Home/view/0",
		"element:Item/view/0 triggers prop:Item.on_go at row.acore:4:10",
	} {
		if !slices.Contains(edges, want) {
			t.Errorf("no edge %q in\n%s", want, strings.Join(edges, "\n"))
		}
	}
	edited := map[string]string{"main.acore": strings.Replace(bindSources["main.acore"], `label: "a"`, `label: "abc"`, 1), "row.acore": bindSources["row.acore"]}
	in2, _ := infoInput(edited)
	re := check.Recheck(base, in2, []string{"main.acore"})
	if re == nil {
		t.Fatal("a changed literal needs a whole compile")
	}
	in3, _ := infoInput(edited)
	whole := check.Check(in3)
	if got, want := bindEdges(re.Graph), bindEdges(whole.Graph); !slices.Equal(got, want) {
		t.Errorf("recheck:\n%s\nwhole:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Contains(bindEdges(re.Graph), "prop:Item.on_go triggers action:Home.go at main.acore:10:36 via element:Home/view/0") {
		t.Errorf("the bound edge's site does not follow the argument:\n%s", strings.Join(bindEdges(re.Graph), "\n"))
	}
}
