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
// index in g of each index frag gave out. The fragment's nodes become a
// page of g as they are; frag must not be used after.
func (g *Graph) Append(frag *Graph) func(int32) int32 {
	f := frag.frag
	n0 := int32(g.n)
	var at []int32 // set only when an id repeats
	for k := range f.nodes {
		// One map operation a node: ids are new but for a repeat, which
		// keeps the first node as Add does.
		id := f.nodes[k].ID
		before := len(g.byID)
		g.byID[id] = n0 + int32(k)
		if len(g.byID) == before {
			at = g.appendEach(f.nodes, k)
			break
		}
		f.nodes[k].Index = n0 + int32(k)
	}
	if at == nil && len(f.nodes) > 0 {
		g.addPage(f.nodes)
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
	for _, e := range frag.Edges {
		e.From, e.To = index(e.From), index(e.To)
		g.Edges = append(g.Edges, e)
	}
	return index
}

// appendEach adds nodes one by one, as Add does, once the id of nodes[k]
// turned out to repeat: nodes[:k] already have their ids mapped to the
// next indexes, and the repeat's entry must map to its first node again.
func (g *Graph) appendEach(nodes []Node, k int) []int32 {
	n0 := int32(g.n)
	id := nodes[k].ID
	first := int32(-1)
	for j := range k {
		if nodes[j].ID == id {
			first = n0 + int32(j)
			break
		}
	}
	if first < 0 {
		first = g.first(id)
	}
	g.byID[id] = first
	at := make([]int32, len(nodes))
	for j := range k {
		at[j] = g.push(nodes[j])
	}
	at[k] = first
	for j := k + 1; j < len(nodes); j++ {
		n := nodes[j]
		if i, ok := g.byID[n.ID]; ok {
			at[j] = i
			continue
		}
		at[j] = g.push(n)
		g.byID[n.ID] = at[j]
	}
	return at
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
