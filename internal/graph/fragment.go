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

// Fragment returns an empty fragment of g with room for about n nodes.
// A fragment's nodes are not found by Lookup, which looks in g: the
// checker looks up only declarations, which g has, and a fragment's ids
// are new (Append gives a repeated id the index of its first node).
func (g *Graph) Fragment(n int) *Graph {
	return &Graph{frag: &fragment{parent: g, nodes: make([]Node, 0, n)}}
}

func (f *fragment) add(n Node) (int32, bool) {
	i := int32(len(f.nodes)) | fragFlag
	n.Index = i
	f.nodes = append(f.nodes, n)
	return i, true
}

// Append adds the fragment frag's nodes and edges to g and returns the
// index in g of each index frag gave out.
func (g *Graph) Append(frag *Graph) func(int32) int32 {
	f := frag.frag
	at := make([]int32, len(f.nodes))
	for k, n := range f.nodes {
		// One map operation a node, not Add's two: ids are new but for
		// a repeat, which keeps the first node as Add does.
		before := len(g.byID)
		g.byID[n.ID] = int32(g.n)
		if len(g.byID) == before {
			at[k] = g.first(n.ID)
			g.byID[n.ID] = at[k]
			continue
		}
		at[k] = g.push(n)
	}
	index := func(i int32) int32 {
		if i >= 0 && i&fragFlag != 0 {
			return at[i&^fragFlag]
		}
		return i
	}
	for _, e := range frag.Edges {
		e.From, e.To = index(e.From), index(e.To)
		g.Edges = append(g.Edges, e)
	}
	return index
}

// first returns the index of the first node with id.
func (g *Graph) first(id string) int32 {
	for i := range int32(g.n) {
		if g.At(i).ID == id {
			return i
		}
	}
	return -1
}
