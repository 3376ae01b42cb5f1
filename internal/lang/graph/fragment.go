package graph

import "slices"

// A fragment is a graph of nodes and edges made apart from a graph under
// construction, so that parts of a project can be checked in parallel: its
// nodes get indexes with fragFlag set, it reads (but never changes) the
// nodes its parent has, and Append adds it to the parent, which must not
// have changed meanwhile except by earlier Appends.

// fragFlag marks the index of a fragment's own node.
const fragFlag = 1 << 30

// A fragment keeps its nodes in pages of pageSize, which become pages of
// the parent as they are: a page never moves once begun, and only the
// last one has room to spare (Freeze trims it), where one slice sized by
// an estimate kept a third of its room unused.
type fragment struct {
	parent *Graph
	pages  [][]Node
	n      int
	// hashes[i] is the id table's hash of node i's id, taken as the node
	// is made (its id is then in this goroutine's cache): Append maps the
	// ids one after another, and reading each id again there was most of
	// its time.
	hashes []uint64
}

// Fragment returns an empty fragment of g with room for about n nodes.
// A fragment's nodes are not found by Lookup, which looks in g: the
// checker looks up only declarations, which g has, and a fragment's ids
// are new (Append gives a repeated id the index of its first node).
func (g *Graph) Fragment(n int) *Graph {
	// About two edges a node, as for New.
	return &Graph{frag: &fragment{parent: g, pages: make([][]Node, 0, n/pageSize+1), hashes: make([]uint64, 0, n)}, Edges: make([]Edge, 0, 2*n)}
}

func (f *fragment) add(n Node) (int32, bool) {
	i := int32(f.n) | fragFlag
	n.Index = i
	last := len(f.pages) - 1
	if last < 0 || len(f.pages[last]) == pageSize {
		f.pages = append(f.pages, make([]Node, 0, pageSize))
		last++
	}
	f.pages[last] = append(f.pages[last], n)
	f.hashes = append(f.hashes, f.parent.byID.hash(n.ID))
	f.n++
	return i, true
}

// at returns the fragment's node i, without its flag.
func (f *fragment) at(i int32) *Node { return &f.pages[i>>pageBits][i&(pageSize-1)] }

// Append adds the fragment frag's nodes and edges to g and returns the
// index in g of each index frag gave out. The fragment's pages of nodes
// become pages of g as they are; frag must not be used after.
func (g *Graph) Append(frag *Graph) func(int32) int32 {
	f := frag.frag
	n0, p0 := int32(g.n), len(g.pages)
	// The nodes take the next indexes unless an id repeats: the pages go
	// in first, so that the id table reads their ids.
	for _, page := range f.pages {
		for k := range page {
			page[k].Index = int32(g.n + k)
		}
		g.addPage(page)
	}
	var at []int32 // set only when an id repeats
	g.byID.grow(g, f.n)
	for k := range int32(f.n) {
		if _, fresh := g.byID.putHashed(g, f.hashes[k], func() string { return g.At(n0 + k).ID }, n0+k); !fresh {
			at = g.appendEach(f, n0, p0, k)
			break
		}
	}
	index := func(i int32) int32 {
		switch {
		case i < 0 || i&fragFlag == 0:
			return i
		case at != nil:
			return at[i&^fragFlag]
		}
		return n0 + i&^fragFlag
	}
	m := len(g.Edges)
	g.Edges = slices.Grow(g.Edges, len(frag.Edges))[:m+len(frag.Edges)]
	if at == nil {
		// The usual case, without a call per end: a fragment's own nodes
		// move by n0, the parent's stay.
		for j, e := range frag.Edges {
			if e.From >= 0 && e.From&fragFlag != 0 {
				e.From = n0 + e.From&^fragFlag
			}
			if e.To >= 0 && e.To&fragFlag != 0 {
				e.To = n0 + e.To&^fragFlag
			}
			g.Edges[m+j] = e
		}
		return index
	}
	for j, e := range frag.Edges {
		e.From, e.To = index(e.From), index(e.To)
		g.Edges[m+j] = e
	}
	return index
}

// appendEach adds the nodes of f one by one, as Add does, once the id of
// its node k turned out to repeat: its pages come out of g again, and
// its nodes before k, whose ids are mapped to the indexes n0+j, are
// pushed to get them.
func (g *Graph) appendEach(f *fragment, n0 int32, p0 int, k int32) []int32 {
	g.pages, g.starts, g.n = g.pages[:p0], g.starts[:p0], int(n0)
	g.dir = g.dir[:(g.n+pageSize-1)>>pageBits]
	at := make([]int32, f.n)
	for j := range int32(f.n) {
		n := f.at(j)
		if j >= k {
			if i, fresh := g.byID.put(g, n.ID, int32(g.n)); !fresh {
				at[j] = i
				continue
			}
		}
		at[j] = g.push(*n)
	}
	return at
}
