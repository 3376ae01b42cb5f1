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
// orders them), the depth of each node reached, and the nodes reached at
// maxDepth that have edges the bound kept the walk from following (nil
// when the walk met every edge it could reach).
func (g *Graph) Walk(start []int32, incoming bool, kinds, layers map[string]bool, maxDepth int) ([]Step, map[int32]int, []int32) {
	depthOf := map[int32]int{}
	for _, s := range start {
		depthOf[s] = 0
	}
	frontier := append([]int32(nil), start...)
	var steps []Step
	seenEdge := map[int32]bool{}
	follow := func(n int32, each func(ei int32)) {
		list := g.Out(n)
		if incoming {
			list = g.In(n)
		}
		for _, ei := range list {
			e := &g.Edges[ei]
			if kinds != nil && !kinds[e.Kind()] || layers != nil && !layers[e.Layer()] || seenEdge[ei] {
				continue
			}
			each(ei)
		}
	}
	d := 1
	for ; d <= maxDepth && len(frontier) > 0; d++ {
		var level []int32
		for _, n := range frontier {
			follow(n, func(ei int32) {
				seenEdge[ei] = true
				level = append(level, ei)
			})
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
	var cut []int32
	for _, n := range frontier {
		more := false
		follow(n, func(int32) { more = true })
		if more {
			cut = append(cut, n)
		}
	}
	return steps, depthOf, cut
}

// Path is a path of a graph: its nodes, and the edges between them.
type Path struct {
	Nodes []int32
	Edges []int32
}

// The bounds Paths reports when it may have left paths out.
const (
	CutDepth = "max_depth"
	CutCount = "max_items"
	CutQueue = "path_search"
)

// pathQueueMax bounds the partial paths Paths holds: a graph with many
// cycles has more simple paths than an answer could list.
const pathQueueMax = 100000

// Paths returns up to max shortest-first simple paths from any start to
// any end along outgoing edges of the given kinds and layers, at most
// maxDepth long. A path ends at the first end it meets. The second result
// names the bound that may have left paths out (CutDepth, CutCount or
// CutQueue), or is "" when the paths are all there are; at the depth
// bound, a partial path counts only if an end can be reached from its
// last node.
func (g *Graph) Paths(from, to []int32, kinds, layers map[string]bool, maxDepth, max int) ([]Path, string) {
	ends := map[int32]bool{}
	for _, t := range to {
		ends[t] = true
	}
	follows := func(e *Edge) bool { return kinds[e.Kind()] && layers[e.Layer()] }
	var out []Path
	queue := []Path{}
	for _, f := range from {
		queue = append(queue, Path{Nodes: []int32{f}})
	}
	var reachesEnd map[int32]bool
	cut := ""
	for len(queue) > 0 {
		if len(out) == max {
			return out, CutCount
		}
		p := queue[0]
		queue = queue[1:]
		last := p.Nodes[len(p.Nodes)-1]
		if len(p.Nodes) > 1 && ends[last] {
			out = append(out, p)
			continue
		}
		if len(p.Edges) >= maxDepth {
			if cut == "" {
				if reachesEnd == nil {
					reachesEnd = g.reaching(to, follows)
				}
				for _, ei := range g.Out(last) {
					if e := &g.Edges[ei]; follows(e) && reachesEnd[e.To] && !slices.Contains(p.Nodes, e.To) {
						cut = CutDepth
						break
					}
				}
			}
			continue
		}
		for _, ei := range g.Out(last) {
			e := &g.Edges[ei]
			if !follows(e) || slices.Contains(p.Nodes, e.To) {
				continue
			}
			np := Path{Nodes: append(append([]int32(nil), p.Nodes...), e.To), Edges: append(append([]int32(nil), p.Edges...), ei)}
			queue = append(queue, np)
		}
		if len(queue) > pathQueueMax {
			return out, CutQueue
		}
	}
	return out, cut
}

// reaching returns the nodes from which an edge that follows accepts
// leads, in any number of steps, to one of the ends (the ends included).
func (g *Graph) reaching(ends []int32, follows func(*Edge) bool) map[int32]bool {
	seen := map[int32]bool{}
	queue := append([]int32(nil), ends...)
	for _, t := range ends {
		seen[t] = true
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, ei := range g.In(n) {
			if e := &g.Edges[ei]; follows(e) && !seen[e.From] {
				seen[e.From] = true
				queue = append(queue, e.From)
			}
		}
	}
	return seen
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
