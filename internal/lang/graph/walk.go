package graph

import (
	"slices"
	"sort"
)

// Step is an edge a walk met, at the depth it was met.
type Step struct {
	Edge  int32
	Depth int
}

// Walk follows edges breadth first from the start nodes, incoming or
// outgoing, of the given kinds and layers (nil: all), up to maxDepth. It
// returns the edges met in a stable order (by depth, then as SortEdges
// orders them) and the depth of each node reached.
func (g *Graph) Walk(start []int32, incoming bool, kinds, layers map[string]bool, maxDepth int) ([]Step, map[int32]int) {
	depthOf := map[int32]int{}
	for _, s := range start {
		depthOf[s] = 0
	}
	frontier := append([]int32(nil), start...)
	var steps []Step
	seenEdge := map[int32]bool{}
	for d := 1; d <= maxDepth && len(frontier) > 0; d++ {
		var level []int32
		for _, n := range frontier {
			list := g.Out(n)
			if incoming {
				list = g.In(n)
			}
			for _, ei := range list {
				e := &g.Edges[ei]
				if kinds != nil && !kinds[e.Kind()] || layers != nil && !layers[e.Layer()] || seenEdge[ei] {
					continue
				}
				seenEdge[ei] = true
				level = append(level, ei)
			}
		}
		g.SortEdges(level)
		var next []int32
		for _, ei := range level {
			e := &g.Edges[ei]
			other := e.To
			if incoming {
				other = e.From
			}
			steps = append(steps, Step{ei, d})
			if _, seen := depthOf[other]; !seen {
				depthOf[other] = d
				next = append(next, other)
			}
		}
		frontier = next
	}
	return steps, depthOf
}

// Path is a path of a graph: its nodes, and the edges between them.
type Path struct {
	Nodes []int32
	Edges []int32
}

// Paths returns up to max shortest-first simple paths from any start to
// any end along outgoing edges of the given kinds and layers, at most
// maxDepth long.
func (g *Graph) Paths(from, to []int32, kinds, layers map[string]bool, maxDepth, max int) []Path {
	ends := map[int32]bool{}
	for _, t := range to {
		ends[t] = true
	}
	var out []Path
	queue := []Path{}
	for _, f := range from {
		queue = append(queue, Path{Nodes: []int32{f}})
	}
	for len(queue) > 0 && len(out) < max {
		p := queue[0]
		queue = queue[1:]
		last := p.Nodes[len(p.Nodes)-1]
		if len(p.Nodes) > 1 && ends[last] {
			out = append(out, p)
			continue
		}
		if len(p.Edges) >= maxDepth {
			continue
		}
		for _, ei := range g.Out(last) {
			e := &g.Edges[ei]
			if !kinds[e.Kind()] || !layers[e.Layer()] || slices.Contains(p.Nodes, e.To) {
				continue
			}
			np := Path{Nodes: append(append([]int32(nil), p.Nodes...), e.To), Edges: append(append([]int32(nil), p.Edges...), ei)}
			queue = append(queue, np)
		}
		if len(queue) > 100000 {
			break
		}
	}
	return out
}

// edgeRank orders edge kinds as the profile lists them.
func edgeRank(kind string) int {
	for i, k := range EdgeKinds {
		if k == kind {
			return i
		}
	}
	return len(EdgeKinds)
}

// SortEdges orders edges stably by kind, as the profile lists kinds, then
// by the site of their source node.
func (g *Graph) SortEdges(es []int32) {
	sort.SliceStable(es, func(a, b int) bool {
		x, y := &g.Edges[es[a]], &g.Edges[es[b]]
		if rx, ry := edgeRank(x.Kind()), edgeRank(y.Kind()); rx != ry {
			return rx < ry
		}
		xs, ys := g.At(x.From), g.At(y.From)
		if xs.Path != ys.Path {
			return xs.Path < ys.Path
		}
		if xs.Line != ys.Line {
			return xs.Line < ys.Line
		}
		return xs.Column < ys.Column
	})
}
