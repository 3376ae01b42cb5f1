package graph

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// searchGraph is a small graph whose nodes are added out of document
// order: a.acore holds a page, b.acore a component, c/x.acore a module.
func searchGraph() *Graph {
	g := New(9)
	for _, n := range []Node{
		{ID: "page:Home", Kind: KindPage, Name: "Home", Path: "a.acore", Pos: 10},
		{ID: "element:Home/view/0", Kind: KindElement, Name: "Button", Path: "a.acore", Pos: 40, Owner: "page:Home",
			Props: []Property{{Name: "label", Value: "Add Task", Literal: true}}},
		{ID: "element:Home/view/1", Kind: KindElement, Name: "Input", Path: "a.acore", Pos: 30, Owner: "page:Home",
			Props: []Property{{Name: "placeholder", Value: "Add a task", Literal: true}, {Name: "value", Value: "draft"}}},
		{ID: "state:Home.draft", Kind: KindState, Name: "draft", Path: "a.acore", Pos: 20, Owner: "page:Home",
			Props: []Property{{Name: "initial", Value: "", Literal: true}}},
		{ID: "component:Card", Kind: KindComponent, Name: "Card", Path: "b.acore", Pos: 5},
		{ID: "element:Card/view/0", Kind: KindElement, Name: "Text", Path: "b.acore", Pos: 15, Owner: "component:Card",
			Props: []Property{{Name: "text", Value: "ÄNDERN", Literal: true}}},
		{ID: "state:Card.open", Kind: KindState, Name: "Open", Path: "b.acore", Pos: 10, Owner: "component:Card",
			Props: []Property{{Name: "initial", Value: false, Literal: true}}},
		{ID: "module:x", Kind: KindModule, Name: "gen.x", Path: "c/x.acore"},
		// At the Button's position: after it, in index order.
		{ID: "element:Home/view/2", Kind: KindElement, Name: "Text", Path: "a.acore", Pos: 40, Owner: "page:Home",
			Props: []Property{{Name: "text", Value: "TEXT", Literal: true}}},
	} {
		g.Add(n)
	}
	g.Freeze()
	return g
}

func TestSearchQueryFilters(t *testing.T) {
	g := searchGraph()
	s := g.Search()
	if got := fmt.Sprint(s.Order); got != "[0 3 2 1 8 4 6 5 7]" {
		t.Fatalf("order %s", got)
	}
	all := "page:Home name, state:Home.draft name, element:Home/view/1 name, element:Home/view/0 name, element:Home/view/2 name, " +
		"component:Card name, state:Card.open name, element:Card/view/0 name, module:x name"
	for _, tc := range []struct {
		name, q string
		f       Filter
		want    string
	}{
		{"empty query: every node by name", "", Filter{}, all},
		{"empty query, kind", "", Filter{Kind: KindElement}, "element:Home/view/1 name, element:Home/view/0 name, element:Home/view/2 name, element:Card/view/0 name"},
		{"empty query, path", "", Filter{Path: "b.acore"}, "component:Card name, state:Card.open name, element:Card/view/0 name"},
		{"empty query, owner", "", Filter{Owner: "page:Home"}, "state:Home.draft name, element:Home/view/1 name, element:Home/view/0 name, element:Home/view/2 name"},
		{"empty query, kind and owner", "", Filter{Kind: KindState, Owner: "component:Card"}, "state:Card.open name"},
		{"empty query, kind and path", "", Filter{Kind: KindElement, Path: "b.acore"}, "element:Card/view/0 name"},
		{"empty query, owner in another file", "", Filter{Owner: "page:Home", Path: "b.acore"}, ""},
		{"empty query, kind of the next file's first node", "", Filter{Kind: KindComponent, Path: "a.acore"}, ""},
		{"kind of the next file's first node", "card", Filter{Kind: KindComponent, Path: "a.acore"}, ""},
		{"unknown kind", "", Filter{Kind: "nope"}, ""},
		{"unknown path", "a", Filter{Path: "nope.acore"}, ""},
		{"unknown owner", "add", Filter{Owner: "page:Nope"}, ""},
		{"literal values", "add", Filter{}, "element:Home/view/1 property_value, element:Home/view/0 property_value"},
		{"literal values, other kind", "add", Filter{Kind: KindState}, ""},
		{"literal values, kind and owner", "task", Filter{Kind: KindElement, Owner: "page:Home"}, "element:Home/view/1 property_value, element:Home/view/0 property_value"},
		{"name and value", "text", Filter{}, "element:Home/view/2 name property_value, element:Card/view/0 name"},
		{"name and id", "draft", Filter{}, "state:Home.draft name id"},
		{"id", "home", Filter{}, "page:Home name id, state:Home.draft id, element:Home/view/1 id, element:Home/view/0 id, element:Home/view/2 id"},
		{"id, two bytes, path", "w/", Filter{Path: "a.acore"}, "element:Home/view/1 id, element:Home/view/0 id, element:Home/view/2 id"},
		{"one byte, kind", "x", Filter{Kind: KindElement}, "element:Home/view/2 name property_value, element:Card/view/0 name"},
		{"one byte, path", "x", Filter{Path: "c/x.acore"}, "module:x name id"},
		{"lower-cased non-ASCII value", "ändern", Filter{}, "element:Card/view/0 property_value"},
		{"not a string literal", "false", Filter{}, ""},
		{"across two parts", "buttonelement", Filter{}, ""},
		{"across two nodes", "page:homedraft", Filter{}, ""},
		{"NUL", "home\x00", Filter{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			s.Query([]byte(tc.q), tc.f, func(i int32, name, id, value bool) {
				got = append(got, strings.TrimSpace(g.At(i).ID+reasonsOf(name, id, value)))
			})
			if strings.Join(got, ", ") != tc.want {
				t.Errorf("Query(%q, %+v)\n got %s\nwant %s", tc.q, tc.f, strings.Join(got, ", "), tc.want)
			}
			if tc.f == (Filter{}) {
				var found []string
				s.Find([]byte(tc.q), func(i int32, name, id, value bool) {
					found = append(found, strings.TrimSpace(g.At(i).ID+reasonsOf(name, id, value)))
				})
				if !slices.Equal(found, got) {
					t.Errorf("Find(%q) = %v, Query without a filter %v", tc.q, found, got)
				}
			}
		})
	}
}

func reasonsOf(name, id, value bool) string {
	out := ""
	for _, r := range []struct {
		on  bool
		why string
	}{{name, "name"}, {id, "id"}, {value, "property_value"}} {
		if r.on {
			out += " " + r.why
		}
	}
	return out
}

// bigSearchGraph is a graph large enough for every way of answering a query
// to be chosen: kinds and owners both common and rare, names and values
// from a small vocabulary, so short queries match many nodes and long ones
// few.
func bigSearchGraph() *Graph {
	r := rand.New(rand.NewPCG(1, 2))
	kinds := []string{KindElement, KindElement, KindElement, KindElement, KindState, KindState, KindAction, KindPage}
	g := New(3000)
	for i := range 3000 {
		file := r.IntN(7)
		owner := fmt.Sprintf("page:P%d_%d", file, r.IntN(6))
		kind := kinds[r.IntN(len(kinds))]
		if r.IntN(50) == 0 {
			kind = KindQuery // rare
		}
		if r.IntN(100) == 0 {
			owner = "component:Rare"
		}
		g.Add(Node{ID: fmt.Sprintf("%s:%s/%s/%d", kind, owner, searchWord(r), i), Kind: kind, Name: searchWord(r) + searchWord(r),
			Path: fmt.Sprintf("f%d.acore", file), Pos: int32(r.IntN(400)), Owner: owner, Props: searchProps(r, i)})
	}
	g.Freeze()
	return g
}

var searchWords = []string{"Add", "task", "Title", "item", "ÄRGER", "view", "submit", "Draft", "price", "x", "ab", "abc", "b_1"}

func searchWord(r *rand.Rand) string { return searchWords[r.IntN(len(searchWords))] }

func searchProps(r *rand.Rand, i int) []Property {
	var props []Property
	for range r.IntN(3) {
		props = append(props, Property{Name: "p", Value: searchWord(r) + " " + searchWord(r), Literal: r.IntN(4) > 0})
	}
	if r.IntN(5) == 0 {
		props = append(props, Property{Name: "n", Value: float64(i), Literal: true})
	}
	return props
}

// TestSearchQueryAgainstBruteForce compares every way a query is answered
// (the nodes of a kind or owner, a trigram list, a scan of the text) with
// a check of each node.
func TestSearchQueryAgainstBruteForce(t *testing.T) {
	g := bigSearchGraph()
	s := g.Search()
	if matched := checkSearch(t, g, s); matched < 10000 {
		t.Errorf("only %d matches in all: the graph is too small to test the index", matched)
	}
}

// checkSearch compares s, g's index, with a check of each node of g for
// many queries and filters, and returns the number of matches.
func checkSearch(t *testing.T, g *Graph, s *Search) int {
	t.Helper()
	// The reference order: by file, then position, then index.
	order := make([]int32, g.Len())
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		x, y := g.At(a), g.At(b)
		if c := strings.Compare(x.Path, y.Path); c != 0 {
			return c
		}
		return int(x.Pos) - int(y.Pos)
	})
	if !slices.Equal(order, s.Order) {
		t.Fatal("Order is not by file, then position, then index")
	}
	brute := func(q []byte, f Filter) []string {
		var out []string
		for _, i := range order {
			n := g.At(i)
			if f.Kind != "" && n.Kind != f.Kind || f.Path != "" && n.Path != f.Path || f.Owner != "" && n.Owner != f.Owner {
				continue
			}
			if len(q) == 0 {
				out = append(out, fmt.Sprint(i, " name"))
				continue
			}
			name := bytes.Contains(bytes.ToLower([]byte(n.Name)), q)
			id := bytes.Contains(bytes.ToLower([]byte(n.ID)), q)
			value := false
			for _, p := range n.Props {
				if v, ok := p.Value.(string); ok && p.Literal && bytes.Contains(bytes.ToLower([]byte(v)), q) {
					value = true
				}
			}
			if name || id || value {
				out = append(out, fmt.Sprint(i, reasonsOf(name, id, value)))
			}
		}
		return out
	}
	queries := []string{"", "a", "x", "_", "ä", "ab", "b_", "/", "abc", "add", "task", "addtask", "title", "ärger", "äRGER",
		"element:page:p3_2", "page:p3_2/", "state:", "view/1", "1", "12", "123", "price item", "submit draft", "zzz", "query:", "fresh", "resh"}
	filters := []Filter{{}, {Kind: KindElement}, {Kind: KindQuery}, {Kind: KindPage}, {Path: "f3.acore"}, {Path: "f0.acore", Kind: KindQuery},
		{Owner: "page:P3_2"}, {Owner: "component:Rare"}, {Owner: "page:P3_2", Kind: KindState}, {Owner: "page:P3_2", Path: "f4.acore"},
		{Owner: "page:P3_2", Path: "f3.acore", Kind: KindElement}}
	matched := 0
	for _, q := range queries {
		for _, f := range filters {
			want := brute([]byte(q), f)
			matched += len(want)
			var got []string
			s.Query([]byte(q), f, func(i int32, name, id, value bool) { got = append(got, fmt.Sprint(i, reasonsOf(name, id, value))) })
			if !slices.Equal(got, want) {
				t.Errorf("Query(%q, %+v): %d matches, want %d\n got %.300v\nwant %.300v", q, f, len(got), len(want), got, want)
			}
			if q == "" || f.Owner != "" || f.Kind != "" || s.over != nil {
				continue
			}
			// The scan, whichever way Query chose.
			lo, hi := int32(0), int32(len(s.Order))
			if f.Path != "" {
				lo, hi = s.paths[f.Path][0], s.paths[f.Path][1]
			}
			got = nil
			s.scan([]byte(q), lo, hi, func(int32) bool { return true }, func(k int32, name, id, value bool) {
				got = append(got, fmt.Sprint(s.Order[k], reasonsOf(name, id, value)))
			})
			if !slices.Equal(got, want) {
				t.Errorf("scan(%q, %+v): %d matches, want %d", q, f, len(got), len(want))
			}
		}
	}
	return matched
}

// redo derives a graph from base over the file path, re-creating its
// nodes through edit, and fails the test unless Finish accepts it.
func redo(t *testing.T, base *Graph, path string, edit func(n *Node)) *Graph {
	t.Helper()
	g := Derive(base, []string{path})
	for i := range int32(base.Len()) {
		if n := *base.At(i); n.Path == path {
			edit(&n)
			g.Add(n)
		}
	}
	if why := g.Finish(nil); why != "" {
		t.Fatalf("Finish: %s", why)
	}
	return g
}

// TestDerivedSearch checks the indexes of derived graphs, derived from
// their bases' (new names and values, found by words their bases' nodes
// did not have), and built whole where they cannot be.
func TestDerivedSearch(t *testing.T) {
	base := bigSearchGraph()
	r := rand.New(rand.NewPCG(3, 4))
	fresh := func(n *Node) {
		if r.IntN(8) == 0 {
			n.Name = "Fresh" + searchWord(r)
		}
		if r.IntN(8) == 0 {
			n.Props = append(searchProps(r, int(n.Index)), Property{Name: "v", Value: "fresh " + searchWord(r), Literal: true})
		}
	}
	g1 := redo(t, base, "f3.acore", fresh)
	// base has no index yet: g1 builds its own.
	if s := g1.Search(); s.over != nil {
		t.Error("a graph derived from one without an index derived its index")
	}
	base.Search()
	g2 := redo(t, base, "f3.acore", fresh)
	s2 := g2.Search()
	if s2.over == nil || len(s2.over.texts) == 0 {
		t.Fatal("the index of a graph derived from one with an index was not derived")
	}
	checkSearch(t, g2, s2)
	// From a derived index, and from a graph that only has a seed.
	g3 := redo(t, g2, "f5.acore", fresh)
	g4 := redo(t, g3, "f3.acore", fresh)
	for _, g := range []*Graph{g4, g3} {
		s := g.Search()
		if s.over == nil || s.over.root != base.Search() {
			t.Fatal("a chain of derived graphs did not derive its index from the first whole one")
		}
		checkSearch(t, g, s)
	}
	if got := len(g4.Search().over.changed); got != len(base.NodesIn("f3.acore"))+len(base.NodesIn("f5.acore")) {
		t.Errorf("g4's index knows %d re-created nodes, want those of f3 and f5", got)
	}
	// Nodes that change their order within a file: a whole index.
	g5 := redo(t, g2, "f4.acore", func(n *Node) { n.Pos = 400 - n.Pos })
	if s := g5.Search(); s.over != nil {
		t.Error("nodes in a new order got a derived index")
	} else {
		checkSearch(t, g5, s)
	}
	// More than half the nodes re-created, or the text of more than an
	// eighth changed: a whole index.
	g6 := redo(t, redo(t, redo(t, g2, "f1.acore", fresh), "f2.acore", fresh), "f6.acore", fresh)
	rename := func(n *Node) { n.Name = "Renamed" }
	g7 := redo(t, g2, "f6.acore", rename)
	for _, g := range []*Graph{g6, g7} {
		if s := g.Search(); s.over != nil {
			t.Errorf("an index derived over %d re-created nodes and %d changed texts", len(s.over.changed), len(s.over.texts))
		} else {
			checkSearch(t, g, s)
		}
	}
}

// TestGramsInParts: the postings built in parts, as on several cores,
// are the bytes of one pass over all positions, for graphs whose parts
// share buckets, leave some empty, and repeat a trigram within a node.
func TestGramsInParts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"add", "task", "button", "text", "ändern", "a", "ab", "list", "row", "zz"}
	for _, n := range []int{1, 2, 5, 100, 3000} {
		g := New(n)
		for i := range n {
			var name strings.Builder
			for range 1 + r.IntN(4) {
				name.WriteString(words[r.IntN(len(words))])
			}
			g.Add(Node{ID: fmt.Sprintf("element:P%d/view/%d", i%7, i), Kind: KindElement, Name: name.String(), Path: fmt.Sprintf("f%d.acore", i%3), Pos: int32(i),
				Props: []Property{{Name: "label", Value: strings.Repeat(words[r.IntN(len(words))], 1+r.IntN(3)), Literal: true}}})
		}
		g.Freeze()
		s := buildSearch(g)
		one := &Search{Order: s.Order, at: s.at, text: s.text}
		one.buildGramsIn(1)
		for _, parts := range []int{2, 3, 7} {
			if parts > n {
				continue
			}
			p := &Search{Order: s.Order, at: s.at, text: s.text}
			p.buildGramsIn(parts)
			if !slices.Equal(p.gramAt, one.gramAt) || !bytes.Equal(p.gramPost, one.gramPost) {
				t.Errorf("%d nodes in %d parts: postings differ from one pass (%d bytes against %d)", n, parts, len(p.gramPost), len(one.gramPost))
			}
		}
	}
}

// TestEncodeKeepsIndex: encoding a graph that has no search index yet
// builds the graph's own, which its queries then use, rather than one
// for the encoding alone.
func TestEncodeKeepsIndex(t *testing.T) {
	g := searchGraph()
	if g.search.Load() != nil {
		t.Fatal("a frozen graph has an index before any query")
	}
	if _, err := g.Encode(nil); err != nil {
		t.Fatal(err)
	}
	s := g.search.Load()
	if s == nil {
		t.Fatal("Encode built an index the graph does not keep")
	}
	if g.Search() != s {
		t.Error("the first query built a second index")
	}
}

// TestDecodedIndexIsRead: a decoded graph reads its search index from the
// encoding when a query first needs it, not before, and builds one when
// what it reads does not hold.
func TestDecodedIndexIsRead(t *testing.T) {
	g := searchGraph()
	b, err := g.Encode(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := g.Search()
	query := func(g *Graph) string {
		var out strings.Builder
		for _, q := range []string{"", "a", "add", "label"} {
			g.Search().Query([]byte(q), Filter{}, func(i int32, name, id, value bool) { fmt.Fprintln(&out, q, i, name, id, value) })
		}
		return out.String()
	}
	d, err := Decode(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.search.Load() != nil {
		t.Error("Decode read the index before a query")
	}
	if s := d.decodedSearch(); s == nil || !slices.Equal(s.Order, want.Order) || !bytes.Equal(s.text, want.text) || !bytes.Equal(s.gramPost, want.gramPost) {
		t.Fatal("the encoded index does not read back")
	}
	if got, exp := query(d), query(g); got != exp {
		t.Errorf("queries of the decoded graph differ:\n%s\nwant\n%s", got, exp)
	}
	// The index's last bytes cut off: Decode does not read them, and the
	// first query builds an index instead.
	cut, err := Decode(b[:len(b)-3], nil)
	if err != nil {
		t.Fatal(err)
	}
	if cut.decodedSearch() != nil {
		t.Fatal("a cut index read as whole")
	}
	if got, exp := query(cut), query(g); got != exp {
		t.Errorf("queries with a built index differ:\n%s\nwant\n%s", got, exp)
	}
}
