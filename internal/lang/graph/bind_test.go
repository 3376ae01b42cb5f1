package graph

import (
	"fmt"
	"slices"
	"testing"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// bindGraph is a component Row with props item and on_pick, whose Button
// triggers on_pick, and a page's instance Row(item: sel, on_pick: || pick(sel))
// on line 2 of page.acore.
func bindGraph() *Graph {
	g := New(8)
	add := func(id, kind, path string, line int32) int32 {
		i, _ := g.Add(Node{ID: id, Kind: kind, Name: id, Path: path, Line: line, Column: 1})
		return i
	}
	item := add("prop:Row.item", KindProp, "row.acore", 1)
	pick := add("prop:Row.on_pick", KindProp, "row.acore", 1)
	button := add("element:Row/view/0", KindElement, "row.acore", 2)
	sel := add("state:Page.sel", KindState, "page.acore", 1)
	act := add("action:Page.pick", KindAction, "page.acore", 1)
	inst := add("element:Page/view/0", KindElement, "page.acore", 2)
	// "  Row(item: sel, on_pick: || pick(sel))", from offset 5: item's value at column
	// 13, on_pick's at 28.
	g.At(inst).Props = []Property{{Name: "item", ValuePos: 17, ValueEnd: 20}, {Name: "on_pick", ValuePos: 32, ValueEnd: 45}}
	g.AddEdge(button, pick, EdgeTriggers, Resolved)
	g.AddArgEdge(inst, sel, EdgeReads, Resolved, 1)
	g.AddArgEdge(inst, item, EdgeBinds, Resolved, 1)
	g.AddArgEdge(inst, act, EdgeTriggers, Resolved, 2)
	g.AddArgEdge(inst, sel, EdgeReads, Resolved, 2)
	g.AddArgEdge(inst, sel, EdgeReads, Resolved, 2) // a repeat, dropped
	g.AddArgEdge(inst, pick, EdgeBinds, Resolved, 2)
	g.Freeze()
	src := []byte("page\n  Row(item: sel, on_pick: || pick(sel))\n")
	g.SetFiles([]*syntax.File{{Path: "page.acore", Src: src, Lines: []int32{0, 5}}, {Path: "row.acore", Src: []byte("x\n")}})
	return g
}

func dumpEdges(g *Graph) []string {
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

// TestBind: each prop has its argument's relations, once each, written
// at the argument; an instance's relations from two arguments are kept
// apart; the encoding keeps them.
func TestBind(t *testing.T) {
	g := bindGraph()
	want := []string{
		"prop:Row.item reads state:Page.sel at page.acore:2:13 via element:Page/view/0",
		"prop:Row.on_pick triggers action:Page.pick at page.acore:2:28 via element:Page/view/0",
		"prop:Row.on_pick reads state:Page.sel at page.acore:2:28 via element:Page/view/0",
		"element:Row/view/0 triggers prop:Row.on_pick at row.acore:2:1",
		"element:Page/view/0 reads state:Page.sel at page.acore:2:13",
		"element:Page/view/0 binds prop:Row.item at page.acore:2:13",
		"element:Page/view/0 triggers action:Page.pick at page.acore:2:28",
		"element:Page/view/0 reads state:Page.sel at page.acore:2:28",
		"element:Page/view/0 binds prop:Row.on_pick at page.acore:2:28",
	}
	if got := dumpEdges(g); !slices.Equal(got, want) {
		t.Errorf("edges:\n%q\nwant\n%q", got, want)
	}
	if g.Recorded() != 6 || len(g.Edges) != 9 {
		t.Errorf("%d edges recorded of %d", g.Recorded(), len(g.Edges))
	}
	// The walk from the Button reaches the action through the prop.
	b, _ := g.Lookup("element:Row/view/0")
	a, _ := g.Lookup("action:Page.pick")
	paths, cut := g.Paths([]int32{b}, []int32{a}, map[string]bool{EdgeTriggers: true}, map[string]bool{Resolved: true}, 2, 10)
	if len(paths) != 1 || len(paths[0].Nodes) != 3 || cut != "" {
		t.Errorf("paths %v, cut %q", paths, cut)
	}
	if _, _, cut := g.Walk([]int32{b}, false, nil, nil, 1); !slices.Equal(cut, []int32{1}) {
		t.Errorf("a walk of depth 1 from the Button stops at %v, want the prop", cut)
	}
	enc, err := g.Encode(nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Decode(enc, []*syntax.File{{Path: "page.acore", Src: []byte("page\n  Row(item: sel, on_pick: || pick(sel))\n")}, {Path: "row.acore", Src: []byte("x\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := dumpEdges(d); !slices.Equal(got, want) {
		t.Errorf("decoded edges (files without line starts):\n%q\nwant\n%q", got, want)
	}
}
