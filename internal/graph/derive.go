package graph

import (
	"slices"

	"github.com/axiomcore/acore/internal/syntax"
)

// A derived graph re-creates the nodes and edges of a few files over a
// frozen base graph. When the files' nodes keep their ids and kinds and
// their edges stay the same, the derived graph shares everything with its
// base except the pages of the re-created nodes: an edit that changes a
// literal costs the nodes of one file, not a new graph.

// patch is the state of a graph while it is derived.
type patch struct {
	base  *Graph
	paths map[string]bool
	// claimed marks base nodes re-created so far, by index.
	claimed map[int32]bool
	// owned marks the pages this graph copied from its base.
	owned map[int32]bool
	// extra holds nodes the base does not have; any makes Finish fail.
	extra  []Node
	failed string
}

// Derive starts a graph over the frozen graph base in which the checker
// re-creates every node and edge of the files at paths. Nodes of other
// files are read from base and must not be changed.
func Derive(base *Graph, paths []string) *Graph {
	p := &patch{base: base, paths: map[string]bool{}, claimed: map[int32]bool{}, owned: map[int32]bool{}}
	for _, path := range paths {
		p.paths[path] = true
	}
	return &Graph{pages: slices.Clone(base.pages), n: base.n, byID: base.byID, patch: p}
}

func (p *patch) fail(why string) {
	if p.failed == "" {
		p.failed = why
	}
}

func (p *patch) add(g *Graph, n Node) (int32, bool) {
	i, ok := p.base.byID[n.ID]
	switch {
	case !p.paths[n.Path]:
		p.fail("a node outside the re-created files: " + n.ID)
	case !ok:
		p.fail("a new node: " + n.ID)
	case p.claimed[i]:
		return i, false
	case p.base.At(i).Path != n.Path || p.base.At(i).Kind != n.Kind:
		p.fail("a node moved to another file or kind: " + n.ID)
	default:
		p.claimed[i] = true
		page := i >> pageBits
		if !p.owned[page] {
			p.owned[page] = true
			g.pages[page] = slices.Clone(g.pages[page])
		}
		n.Index = i
		g.pages[page][i&(pageSize-1)] = n
		return i, true
	}
	n.Index = int32(g.n + len(p.extra))
	p.extra = append(p.extra, n)
	return n.Index, true
}

func (p *patch) lookup(g *Graph, id string) (int32, bool) {
	if i, ok := p.base.byID[id]; ok {
		if !p.paths[p.base.At(i).Path] || p.claimed[i] {
			return i, true
		}
	}
	for k := range p.extra {
		if p.extra[k].ID == id {
			return p.extra[k].Index, true
		}
	}
	return 0, false
}

// Finish ends a derivation. When the re-created files have the same nodes
// (ids and kinds) and edges as in the base, it freezes the graph, sharing
// the base's edges and indexes, and returns "". Otherwise it returns why
// not, and the graph must not be used: the files need a whole compile.
func (g *Graph) Finish(files []*syntax.File) string {
	p := g.patch
	if p.failed != "" {
		return p.failed
	}
	base := p.base
	want := int32(0)
	for path := range p.paths {
		want += base.nodesIn(path)
	}
	if int32(len(p.claimed)) != want {
		return "a node of the base is gone"
	}
	// The edges: as Freeze keeps them, the first of each source, target
	// and kind, which must be the base's edges of the same sources.
	type key struct {
		from, to int32
		kind     string
	}
	seen := make(map[key]string, len(g.Edges))
	for _, e := range g.Edges {
		if !p.claimed[e.From] {
			return "an edge from a node outside the re-created files"
		}
		k := key{e.From, e.To, e.Kind}
		if _, dup := seen[k]; !dup {
			seen[k] = e.Layer
		}
	}
	n := 0
	for i := range p.claimed {
		for _, ei := range base.Out(i) {
			e := &base.Edges[ei]
			if l, ok := seen[key{e.From, e.To, e.Kind}]; !ok || l != e.Layer {
				return "the edges changed"
			}
			n++
		}
	}
	if n != len(seen) {
		return "the edges changed"
	}
	g.Edges, g.out, g.in, g.outAt, g.inAt = base.Edges, base.out, base.in, base.outAt, base.inAt
	g.SetFiles(files)
	for i := range g.versions {
		if !p.claimed[int32(i)] {
			g.versions[i].Store(base.versions[i].Load())
		}
	}
	g.From = base
	g.Changed = make([]int32, 0, len(p.claimed))
	for i := range p.claimed {
		g.Changed = append(g.Changed, i)
	}
	slices.Sort(g.Changed)
	g.patch = nil
	return ""
}

// nodesIn counts the nodes of the file at path.
func (g *Graph) nodesIn(path string) int32 {
	g.perPathOnce.Do(func() {
		g.perPath = map[string]int32{}
		for _, page := range g.pages {
			for k := range page {
				g.perPath[page[k].Path]++
			}
		}
	})
	return g.perPath[path]
}
