package graph

import (
	"fmt"
	"testing"
)

func TestFreezeKeepsOrderAndDropsRepeats(t *testing.T) {
	g := New(4)
	for _, id := range []string{"a", "b", "c"} {
		g.Add(Node{ID: id})
	}
	if _, fresh := g.Add(Node{ID: "a"}); fresh {
		t.Error("a node added twice")
	}
	g.AddEdge(0, 1, EdgeReads, Declared)
	g.AddEdge(2, 1, EdgeWrites, Resolved)
	g.AddEdge(0, 2, EdgeCalls, Resolved)
	g.AddEdge(0, 1, EdgeReads, Resolved) // repeat: dropped, the first kept
	g.AddEdge(0, 1, EdgeWrites, Declared)
	g.Freeze()
	row := func(list []int32) string {
		s := ""
		for _, ei := range list {
			e := g.Edges[ei]
			s += fmt.Sprintf("%s>%s:%s@%s ", g.At(e.From).ID, g.At(e.To).ID, e.Kind(), e.Layer())
		}
		return s
	}
	if got := row(g.Out(0)); got != "a>b:reads@declared a>c:calls@resolved a>b:writes@declared " {
		t.Errorf("out(a) = %s", got)
	}
	if got := row(g.In(1)); got != "a>b:reads@declared c>b:writes@resolved a>b:writes@declared " {
		t.Errorf("in(b) = %s", got)
	}
	if len(g.Edges) != 4 || len(g.Out(1)) != 0 {
		t.Errorf("%d edges", len(g.Edges))
	}
}

func TestSearchMatchesInDocumentOrder(t *testing.T) {
	g := New(4)
	g.Add(Node{ID: "element:B/view/0", Name: "Button", Path: "b.acore", Pos: 10, Props: []Property{{Name: "label", Value: "Add Task", Literal: true}}})
	g.Add(Node{ID: "element:A/view/0", Name: "Text", Path: "a.acore", Pos: 50, Props: []Property{{Name: "text", Value: "add", Literal: false}}})
	g.Add(Node{ID: "page:ADDRESS", Name: "Address", Path: "a.acore", Pos: 5})
	g.Freeze()
	s := g.Search()
	if got := fmt.Sprint(s.Order); got != "[2 1 0]" {
		t.Errorf("order %s", got)
	}
	var got []string
	s.Find([]byte("add"), func(i int32, name, id, value bool) {
		got = append(got, fmt.Sprint(g.At(i).ID, name, id, value))
	})
	// Document order: page:ADDRESS (a.acore:5) before the Button (b.acore);
	// the Text's "add" is not a literal.
	if fmt.Sprint(got) != "[page:ADDRESStrue true false element:B/view/0false false true]" {
		t.Errorf("Find(add) = %v", got)
	}
	got = nil
	s.Find([]byte("view/0"), func(i int32, name, id, value bool) { got = append(got, g.At(i).ID) })
	if fmt.Sprint(got) != "[element:A/view/0 element:B/view/0]" {
		t.Errorf("Find(view/0) = %v", got)
	}
	got = nil
	s.Find([]byte("x\x00"), func(i int32, name, id, value bool) { got = append(got, g.At(i).ID) })
	s.Find([]byte("textadd"), func(i int32, name, id, value bool) { got = append(got, g.At(i).ID) })
	if len(got) != 0 {
		t.Errorf("matches across parts or with NUL: %v", got)
	}
}

// TestFragmentAppend appends two fragments, with ids the graph has and
// an id repeated, as Add would have added their nodes one by one.
func TestFragmentAppend(t *testing.T) {
	g := New(4)
	g.Add(Node{ID: "a"})
	f1, f2 := g.Fragment(2), g.Fragment(2)
	b, _ := f1.Add(Node{ID: "b"})
	a, _ := f1.Add(Node{ID: "a"})
	f1.AddEdge(b, a, EdgeReads, Resolved)
	c, _ := f2.Add(Node{ID: "c"})
	b2, _ := f2.Add(Node{ID: "b"})
	f2.AddEdge(c, b2, EdgeCalls, Resolved)
	if f1.At(b).ID != "b" || f1.At(0).ID != "a" {
		t.Fatalf("a fragment reads its nodes and its parent's")
	}
	i1, i2 := g.Append(f1), g.Append(f2)
	var ids []string
	for i := range int32(g.Len()) {
		ids = append(ids, g.At(i).ID)
	}
	if fmt.Sprint(ids) != "[a b c]" || i1(a) != 0 || i1(b) != 1 || i2(c) != 2 || i2(b2) != 1 {
		t.Fatalf("nodes %v, indexes a=%d b=%d c=%d b again=%d", ids, i1(a), i1(b), i2(c), i2(b2))
	}
	for id, want := range map[string]int32{"a": 0, "b": 1, "c": 2} {
		if i, ok := g.Lookup(id); !ok || i != want {
			t.Errorf("Lookup(%s) = %d, %v; want %d", id, i, ok, want)
		}
	}
	g.Freeze()
	var edges []string
	for _, e := range g.Edges {
		edges = append(edges, g.At(e.From).ID+">"+g.At(e.To).ID+":"+e.Kind())
	}
	if fmt.Sprint(edges) != "[b>a:reads c>b:calls]" {
		t.Errorf("edges %v", edges)
	}
}

// TestFragmentPages appends fragments as pages after nodes added one by
// one, with a repeat inside a fragment, and reads every node back.
func TestFragmentPages(t *testing.T) {
	g := New(4)
	var want []string
	add := func(id string) {
		if _, fresh := g.Add(Node{ID: id}); fresh {
			want = append(want, id)
		}
	}
	for i := range 300 {
		add(fmt.Sprint("d", i))
	}
	for f := range 3 {
		fr := g.Fragment(0)
		for i := range 200 + 100*f {
			fr.Add(Node{ID: fmt.Sprint("f", f, "-", i)})
			want = append(want, fmt.Sprint("f", f, "-", i))
		}
		if f == 1 {
			fr.Add(Node{ID: "f1-7"}) // a repeat: keeps the first
		}
		index := g.Append(fr)
		if f == 1 && index(fragFlag|300) != 300+200+7 {
			t.Errorf("the repeat maps to %d", index(fragFlag|300))
		}
	}
	add("last")
	if g.Len() != len(want) {
		t.Fatalf("%d nodes, want %d", g.Len(), len(want))
	}
	for i := range int32(g.Len()) {
		if n := g.At(i); n.ID != want[i] || n.Index != i {
			t.Fatalf("node %d is %s (index %d), want %s", i, n.ID, n.Index, want[i])
		}
		if j, ok := g.Lookup(want[i]); !ok || j != i {
			t.Fatalf("Lookup(%s) = %d, %v", want[i], j, ok)
		}
	}
}
