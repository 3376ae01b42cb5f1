package graph

import (
	"bytes"
	"unicode/utf8"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// A component instance passes each prop an argument: the instance
// records a binds edge to the prop, and the argument's reads, triggers
// and other relations as its own edges marked with the argument (Edge.arg).
// A value or handler crosses the component boundary there, so the prop
// has the argument's relations too: bind adds them to the prop as bound
// edges, written at the argument, with the instance as their via. A walk
// from the Button inside a component that triggers an Action prop then
// reaches the action each instance passes, and a walk back from the
// action reaches the prop, through plain edges.

// bind appends the bound edges and indexes them: for each binds edge
// from instance E to prop P, an edge from P of the kind, layer and
// target of each edge of E's same argument, unless P already has one of
// that kind to that target (an edge is kept once, at its first site).
// The rows of edges by source and target are made again when there are
// any.
func (g *Graph) bind() {
	type key struct {
		from, to int32
		kind     uint8
	}
	var seen map[key]bool
	var bound []Edge
	var via []int32
	for _, b := range g.Edges {
		if b.kind != codeBinds || b.arg == 0 {
			continue
		}
		for _, ei := range g.Out(b.From) {
			e := g.Edges[ei]
			if e.arg != b.arg || e.kind == codeBinds {
				continue
			}
			if seen == nil {
				seen = map[key]bool{}
			}
			k := key{b.To, e.To, e.kind}
			if seen[k] || g.hasEdge(b.To, e.To, e.kind) {
				continue
			}
			seen[k] = true
			bound = append(bound, Edge{From: b.To, To: e.To, kind: e.kind, layer: e.layer, arg: e.arg})
			via = append(via, b.From)
		}
	}
	if len(bound) == 0 {
		return
	}
	g.Edges = append(g.Edges, bound...)
	g.via = via
	g.outAt, g.out = rows(g.n, len(g.Edges), func(i int) int32 { return g.Edges[i].From })
	g.inAt, g.in = rows(g.n, len(g.Edges), func(i int) int32 { return g.Edges[i].To })
}

var codeBinds = code(EdgeKinds, EdgeBinds)

// hasEdge reports whether node from has an edge of kind to node to.
func (g *Graph) hasEdge(from, to int32, kind uint8) bool {
	for _, ei := range g.Out(from) {
		if e := &g.Edges[ei]; e.To == to && e.kind == kind {
			return true
		}
	}
	return false
}

// Via returns, for a bound edge, the component instance whose argument
// gives the prop the edge.
func (g *Graph) Via(ei int32) (int32, bool) {
	k := int(ei) - (len(g.Edges) - len(g.via))
	if k < 0 {
		return 0, false
	}
	return g.via[k], true
}

// Recorded is the number of edges the checker recorded (after repeats
// are dropped): the bound edges follow them.
func (g *Graph) Recorded() int { return len(g.Edges) - len(g.via) }

// EdgeSite is where edge ei is written: the argument it comes from, for
// an edge of a component instance's argument and a bound edge; otherwise
// its source node's identifying token.
func (g *Graph) EdgeSite(ei int32) Location {
	e := &g.Edges[ei]
	at := e.From
	if v, ok := g.Via(ei); ok {
		at = v
	}
	n := g.At(at)
	if e.arg > 0 && int(e.arg) <= len(n.Props) {
		if f := g.files[n.Path]; f != nil && n.Props[e.arg-1].ValuePos >= 0 {
			line, col := position(f, int(n.Props[e.arg-1].ValuePos))
			return Location{n.Path, line, col}
		}
	}
	return Location{n.Path, int(n.Line), int(n.Column)}
}

// position is the line and column of offset off of f, as f.Position
// gives them. The files of a graph read from the compile cache are only
// source text, without their line starts: there the lines are counted.
func position(f *syntax.File, off int) (int, int) {
	if len(f.Lines) > 0 {
		p := f.Position(off)
		return p.Line, p.Column
	}
	off = min(off, len(f.Src))
	start := bytes.LastIndexByte(f.Src[:off], '\n') + 1
	return bytes.Count(f.Src[:start], []byte{'\n'}) + 1, utf8.RuneCount(f.Src[start:off]) + 1
}
