package graph

import (
	"fmt"
	"sync"
	"testing"

	"github.com/axiomcore/acore/internal/lang/syntax"
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

// TestLookupTable adds far more nodes than New was told, one by one and
// by fragments, with repeated ids, and finds every id, before and after
// Freeze shrinks the table, and none of the ids it does not have.
func TestLookupTable(t *testing.T) {
	g := New(4)
	var want []string
	for i := range 3000 {
		id := fmt.Sprint("n", i)
		if _, fresh := g.Add(Node{ID: id}); fresh {
			want = append(want, id)
		}
		if i%7 == 0 {
			if j, fresh := g.Add(Node{ID: fmt.Sprint("n", i/2)}); fresh || g.At(j).ID != fmt.Sprint("n", i/2) {
				t.Fatalf("repeat of n%d: index %d, fresh %v", i/2, j, fresh)
			}
		}
		if i%1000 == 999 {
			fr := g.Fragment(10)
			for j := range 700 {
				id := fmt.Sprint("f", i, "-", j)
				fr.Add(Node{ID: id})
				want = append(want, id)
			}
			g.Append(fr)
		}
	}
	check := func(when string) {
		t.Helper()
		if g.Len() != len(want) {
			t.Fatalf("%s: %d nodes, want %d", when, g.Len(), len(want))
		}
		for i, id := range want {
			if j, ok := g.Lookup(id); !ok || j != int32(i) {
				t.Fatalf("%s: Lookup(%s) = %d, %v; want %d", when, id, j, ok, i)
			}
			if _, ok := g.Lookup(id + "x"); ok {
				t.Fatalf("%s: Lookup(%sx) found a node", when, id)
			}
		}
		for _, id := range []string{"", "n", "n3000", "f999-700", "f1000-0"} {
			if j, ok := g.Lookup(id); ok {
				t.Fatalf("%s: Lookup(%q) = %d", when, id, j)
			}
		}
	}
	check("built")
	before := len(g.byID.slots)
	g.Freeze()
	check("frozen")
	if len(g.byID.slots) > before || g.byID.count != len(want) {
		t.Errorf("%d slots for %d ids, %d before Freeze", len(g.byID.slots), g.byID.count, before)
	}
	// A table sized for far more ids shrinks.
	h := New(100000)
	h.Add(Node{ID: "a"})
	h.Freeze()
	if len(h.byID.slots) > 16 {
		t.Errorf("%d slots for one id", len(h.byID.slots))
	}
	if i, ok := h.Lookup("a"); !ok || i != 0 {
		t.Errorf("Lookup(a) = %d, %v", i, ok)
	}
}

// deriveBase is a frozen graph of three files, a.acore's nodes spread
// over several pages between b.acore's, with edges.
func deriveBase() *Graph {
	g := New(0)
	for i := range 1000 {
		path := "b.acore"
		if i%3 == 0 {
			path = "a.acore"
		}
		g.Add(Node{ID: fmt.Sprint("n", i), Kind: KindElement, Name: "E", Path: path, Pos: int32(i)})
	}
	g.Add(Node{ID: "c", Kind: KindModule, Path: "c.acore"})
	for i := range int32(999) {
		g.AddEdge(i, i+1, EdgeChildOf, Declared)
		if i%5 == 0 {
			g.AddEdge(i, 1000, EdgeDeclaredIn, Declared)
		}
	}
	g.Freeze()
	g.SetFiles(nil)
	return g
}

// rederive derives base over a.acore, re-creating its nodes with name
// and its edges, and edit applied before Finish.
func rederive(base *Graph, name string, edit func(g *Graph)) (*Graph, string) {
	g := Derive(base, []string{"a.acore"})
	for i := int32(0); i < 1000; i += 3 {
		n := *base.At(i)
		n.Name = name
		if j, fresh := g.Add(n); !fresh || j != i {
			return g, fmt.Sprintf("Add(%s) = %d, %v", n.ID, j, fresh)
		}
		for _, ei := range base.Out(i) {
			e := base.Edges[ei]
			g.AddEdge(e.From, e.To, e.Kind(), e.Layer())
			g.AddEdge(e.From, e.To, e.Kind(), Resolved) // a repeat, which Freeze would drop
		}
	}
	if edit != nil {
		edit(g)
	}
	return g, g.Finish(nil)
}

func TestDerive(t *testing.T) {
	base := deriveBase()
	g, why := rederive(base, "F", nil)
	if why != "" {
		t.Fatal(why)
	}
	if len(g.Changed) != 334 || g.Changed[1] != 3 {
		t.Fatalf("changed %d nodes: %v", len(g.Changed), g.Changed[:2])
	}
	for i := range int32(base.Len()) {
		id := base.At(i).ID
		if j, ok := g.Lookup(id); !ok || j != i || g.At(j).ID != id {
			t.Fatalf("derived Lookup(%s) = %d, %v", id, j, ok)
		}
		name := "E"
		if i%3 == 0 && i < 1000 {
			name = "F"
		}
		if g.At(i).Name != name && base.At(i).Kind == KindElement {
			t.Fatalf("node %s named %s", id, g.At(i).Name)
		}
		if base.At(i).Name != "E" && base.At(i).Kind == KindElement {
			t.Fatalf("the base's node %s changed", id)
		}
		if len(g.Out(i)) != len(base.Out(i)) {
			t.Fatalf("node %s has %d edges", id, len(g.Out(i)))
		}
	}
	if _, ok := g.Lookup("n1000"); ok {
		t.Error("derived Lookup of a missing id")
	}
	// Nodes that come back the same share the base's pages.
	if same, why := rederive(base, "E", nil); why != "" || &same.pages[0][0] != &base.pages[0][0] {
		t.Errorf("the same nodes: %q, page shared %v", why, &same.pages[0][0] == &base.pages[0][0])
	}
	for _, tc := range []struct {
		edit func(g *Graph)
		want string
	}{
		{func(g *Graph) { g.AddEdge(3, 1000, EdgeReads, Resolved) }, "the edges changed"},
		{func(g *Graph) { g.AddEdge(1, 2, EdgeReads, Resolved) }, "an edge from a node outside the re-created files"},
		{func(g *Graph) { g.Add(Node{ID: "new", Path: "a.acore"}) }, "a new node: new"},
		{func(g *Graph) { g.Add(Node{ID: "n1", Kind: KindElement, Path: "b.acore"}) }, "a node outside the re-created files: n1"},
		{func(g *Graph) { g.Add(Node{ID: "n1", Kind: KindElement, Path: "a.acore"}) }, "a node moved to another file or kind: n1"},
	} {
		if _, why := rederive(base, "F", tc.edit); why != tc.want {
			t.Errorf("Finish = %q, want %q", why, tc.want)
		}
	}
	// A node without its edges.
	g = Derive(base, []string{"a.acore"})
	for i := int32(0); i < 1000; i += 3 {
		g.Add(*base.At(i))
	}
	if why := g.Finish(nil); why != "the edges changed" {
		t.Errorf("Finish without edges = %q", why)
	}
}

// TestVersions reads versions concurrently, and over a derived graph whose
// re-created file has new text at the same spans: its nodes' versions are
// new, the other nodes' are the base's.
func TestVersions(t *testing.T) {
	a1 := &syntax.File{Path: "a.acore", Src: make([]byte, 600)}
	a2 := &syntax.File{Path: "a.acore", Src: make([]byte, 600)}
	b := &syntax.File{Path: "b.acore", Src: make([]byte, 600)}
	for i := range a1.Src {
		a1.Src[i], a2.Src[i], b.Src[i] = 'a', 'A', 'b'
	}
	base := New(0)
	for i := range int32(600) {
		path := "b.acore"
		if i%2 == 0 {
			path = "a.acore"
		}
		base.Add(Node{ID: fmt.Sprint("n", i), Kind: KindElement, Path: path, Pos: i, End: i + 1})
	}
	base.Freeze()
	base.SetFiles([]*syntax.File{a1, b})
	want := func(n *Node, f *syntax.File) string { return Fingerprint(n.Kind, n.Name, n.Path, f.Src[n.Pos:n.End]) }
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range int32(300) {
				base.Version(base.At(i))
			}
		})
	}
	wg.Wait()
	// Even nodes are in a.acore, in its text a.
	fileOf := func(i int32, a *syntax.File) *syntax.File {
		if i%2 == 0 {
			return a
		}
		return b
	}
	for i := range int32(600) {
		if n := base.At(i); base.Version(n) != want(n, fileOf(i, a1)) {
			t.Fatalf("base version of %s", n.ID)
		}
	}
	g := Derive(base, []string{"a.acore"})
	for i := int32(0); i < 600; i += 2 {
		g.Add(*base.At(i))
	}
	if why := g.Finish([]*syntax.File{a2, b}); why != "" {
		t.Fatal(why)
	}
	for i := range int32(600) {
		n := g.At(i)
		if g.Version(n) != want(n, fileOf(i, a2)) {
			t.Fatalf("derived version of %s", n.ID)
		}
		if v := base.Version(base.At(i)); i%2 == 0 && v != want(n, a1) {
			t.Fatalf("base version of %s after the derivation", n.ID)
		}
	}
}

// BenchmarkLookup looks up every id of a graph the size of the bounds
// project's, and as many ids it does not have.
func BenchmarkLookup(b *testing.B) {
	g := New(0)
	var ids, missing []string
	for i := range 86000 {
		id := fmt.Sprintf("element:P%d_%d/view/%d/%d", i%64, i/64%8, i/512, i%7)
		if _, fresh := g.Add(Node{ID: id}); fresh {
			ids = append(ids, id)
			missing = append(missing, id+"/x")
		}
	}
	g.Freeze()
	b.ResetTimer()
	for b.Loop() {
		for k, id := range ids {
			if _, ok := g.Lookup(id); !ok {
				b.Fatal(id)
			}
			if _, ok := g.Lookup(missing[k]); ok {
				b.Fatal(missing[k])
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2*len(ids)), "ns/lookup")
}
