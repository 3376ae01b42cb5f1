package graph

import (
	"bytes"
	"sort"
)

// Search is an index for substring queries over a frozen graph: for each
// node, in document order (by file, then position), its name, id and
// literal string property values in lower case, packed in one array. A
// query is one pass of bytes.Index over that array, so it costs a few
// hundred microseconds however many nodes the project has.
type Search struct {
	// Order lists node indexes in document order.
	Order []int32
	text  []byte
	// For the k-th node in Order: name is text[at[k]:idAt[k]-1], id
	// text[idAt[k]:propAt[k]-1], literal values text[propAt[k]:at[k+1]-1];
	// each part ends with a NUL byte, so no match spans two parts.
	at, idAt, propAt []int32
}

// Search returns the graph's search index, built on first use.
func (g *Graph) Search() *Search {
	g.searchOnce.Do(func() { g.search = buildSearch(g) })
	return g.search
}

func buildSearch(g *Graph) *Search {
	n := g.Len()
	s := &Search{Order: make([]int32, n), at: make([]int32, n+1), idAt: make([]int32, n), propAt: make([]int32, n)}
	for i := range s.Order {
		s.Order[i] = int32(i)
	}
	sort.SliceStable(s.Order, func(a, b int) bool {
		x, y := g.At(s.Order[a]), g.At(s.Order[b])
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Pos < y.Pos
	})
	size := 0
	for i := range int32(g.Len()) {
		size += len(g.At(i).Name) + len(g.At(i).ID) + 8
	}
	s.text = make([]byte, 0, size)
	for k, i := range s.Order {
		nd := g.At(i)
		s.at[k] = int32(len(s.text))
		s.text = append(append(s.text, bytes.ToLower([]byte(nd.Name))...), 0)
		s.idAt[k] = int32(len(s.text))
		s.text = append(append(s.text, bytes.ToLower([]byte(nd.ID))...), 0)
		s.propAt[k] = int32(len(s.text))
		for _, p := range nd.Props {
			if v, ok := p.Value.(string); ok && p.Literal {
				s.text = append(append(s.text, bytes.ToLower([]byte(v))...), 0)
			}
		}
	}
	s.at[n] = int32(len(s.text))
	return s
}

// match reports which parts of the k-th node in document order contain q.
func (s *Search) match(k int, q []byte) (name, id, value bool) {
	name = bytes.Contains(s.text[s.at[k]:s.idAt[k]], q)
	id = bytes.Contains(s.text[s.idAt[k]:s.propAt[k]], q)
	value = bytes.Contains(s.text[s.propAt[k]:s.at[k+1]], q)
	return
}

// Find calls fn, in document order, for every node whose name, id or a
// literal string property value contains the lower-case query q, saying
// which of them do. An empty q matches every node by name.
func (s *Search) Find(q []byte, fn func(node int32, name, id, value bool)) {
	if len(q) == 0 {
		for _, i := range s.Order {
			fn(i, true, false, false)
		}
		return
	}
	if bytes.IndexByte(q, 0) >= 0 {
		return // no part contains a NUL byte
	}
	for off := 0; off < len(s.text); {
		j := bytes.Index(s.text[off:], q)
		if j < 0 {
			return
		}
		// The node whose parts hold the match: the last start at or before it.
		k := sort.Search(len(s.Order), func(k int) bool { return int(s.at[k+1]) > off+j })
		if name, id, value := s.match(k, q); name || id || value {
			fn(s.Order[k], name, id, value)
		}
		off = int(s.at[k+1])
	}
}
