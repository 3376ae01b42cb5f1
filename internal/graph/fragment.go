package graph

// A fragment is a graph of nodes and edges made apart from a graph under
// construction, so that parts of a project can be checked in parallel: its
// nodes get indexes with fragFlag set, it reads (but never changes) the
// nodes its parent has, and Append adds it to the parent, which must not
// have changed meanwhile except by earlier Appends.

// fragFlag marks the index of a fragment's own node.
const fragFlag = 1 << 30

type fragment struct {
	parent *Graph
	nodes  []Node
}

// Fragment returns an empty fragment of g.
func (g *Graph) Fragment() *Graph {
	return &Graph{byID: map[string]int32{}, frag: &fragment{parent: g}}
}

func (f *fragment) add(g *Graph, n Node) (int32, bool) {
	if i, ok := f.parent.byID[n.ID]; ok {
		return i, false
	}
	if i, ok := g.byID[n.ID]; ok {
		return i, false
	}
	i := int32(len(f.nodes)) | fragFlag
	n.Index = i
	f.nodes = append(f.nodes, n)
	g.byID[n.ID] = i
	return i, true
}

// Append adds the fragment frag's nodes and edges to g and returns the
// index in g of each index frag gave out.
func (g *Graph) Append(frag *Graph) func(int32) int32 {
	f := frag.frag
	at := make([]int32, len(f.nodes))
	for k, n := range f.nodes {
		at[k], _ = g.Add(n)
	}
	index := func(i int32) int32 {
		if i >= 0 && i&fragFlag != 0 {
			return at[i&^fragFlag]
		}
		return i
	}
	for _, e := range frag.Edges {
		e.From, e.To = index(e.From), index(e.To)
		g.AddEdge(e)
	}
	return index
}
