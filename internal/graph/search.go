package graph

import (
	"bytes"
	"sort"
)

// Search is an index for substring queries over a frozen graph: nodes in
// document order (by file, then position), and for each node its name, id
// and literal string property values in lower case, packed in one array
// so that a query over every node reads a few megabytes sequentially
// instead of chasing each node's strings.
type Search struct {
	// Order lists node indexes in document order.
	Order []int32
	text  []byte
	// For node i: name is text[at[i]:idAt[i]], id text[idAt[i]:propAt[i]],
	// literal values text[propAt[i]:at[i+1]] (separated by NUL bytes).
	at, idAt, propAt []int32
}

// Search returns the graph's search index, built on first use.
func (g *Graph) Search() *Search {
	g.searchOnce.Do(func() { g.search = buildSearch(g) })
	return g.search
}

func buildSearch(g *Graph) *Search {
	n := len(g.Nodes)
	s := &Search{Order: make([]int32, n), at: make([]int32, n+1), idAt: make([]int32, n), propAt: make([]int32, n)}
	size := 0
	for i := range g.Nodes {
		size += len(g.Nodes[i].Name) + len(g.Nodes[i].ID) + 8
	}
	s.text = make([]byte, 0, size)
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		s.Order[i] = int32(i)
		s.at[i] = int32(len(s.text))
		s.text = append(s.text, bytes.ToLower([]byte(nd.Name))...)
		s.idAt[i] = int32(len(s.text))
		s.text = append(s.text, bytes.ToLower([]byte(nd.ID))...)
		s.propAt[i] = int32(len(s.text))
		for _, p := range nd.Props {
			if v, ok := p.Value.(string); ok && p.Literal {
				s.text = append(s.text, 0)
				s.text = append(s.text, bytes.ToLower([]byte(v))...)
			}
		}
	}
	s.at[n] = int32(len(s.text))
	sort.SliceStable(s.Order, func(a, b int) bool {
		x, y := &g.Nodes[s.Order[a]], &g.Nodes[s.Order[b]]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Pos < y.Pos
	})
	return s
}

// Match reports which parts of node i contain the lower-case query q:
// its name, its id, a literal string property value.
func (s *Search) Match(i int32, q []byte) (name, id, value bool) {
	name = bytes.Contains(s.text[s.at[i]:s.idAt[i]], q)
	id = bytes.Contains(s.text[s.idAt[i]:s.propAt[i]], q)
	if s.propAt[i] < s.at[i+1] {
		value = bytes.Contains(s.text[s.propAt[i]:s.at[i+1]], q)
	}
	return
}
