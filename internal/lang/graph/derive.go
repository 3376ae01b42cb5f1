package graph

import (
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/lang/syntax"
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
	// claimed marks base nodes re-created so far, by index; count
	// counts them.
	claimed bitset
	count   int
	// owned marks the pages this graph copied from its base.
	owned []bool
	// extra holds nodes the base does not have; any makes Finish fail.
	extra  []Node
	failed string
}

// Derive starts a graph over the frozen graph base in which the checker
// re-creates every node and edge of the files at paths. Nodes of other
// files are read from base and must not be changed.
func Derive(base *Graph, paths []string) *Graph {
	p := &patch{base: base, paths: map[string]bool{}, claimed: make(bitset, base.n/64+1), owned: make([]bool, len(base.pages))}
	// The edges the files had, to size the derived graph's: a recheck
	// mostly re-creates them.
	m := 0
	for _, path := range paths {
		p.paths[path] = true
		for _, i := range base.NodesIn(path) {
			m += len(base.Out(i))
		}
	}
	return &Graph{pages: slices.Clone(base.pages), starts: base.starts, dir: base.dir, n: base.n, byID: base.byID, patch: p,
		Edges: make([]Edge, 0, m+m/8)}
}

// bitset is a set of node indexes.
type bitset []uint64

func (b bitset) has(i int32) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b bitset) set(i int32)      { b[i>>6] |= 1 << (i & 63) }

func (p *patch) fail(why string) {
	if p.failed == "" {
		p.failed = why
	}
}

func (p *patch) add(g *Graph, n Node) (int32, bool) {
	i, ok := p.base.byID.get(p.base, n.ID)
	switch {
	case !p.paths[n.Path]:
		p.fail("a node outside the re-created files: " + n.ID)
	case !ok:
		p.fail("a new node: " + n.ID)
	case p.claimed.has(i):
		return i, false
	case p.base.At(i).Path != n.Path || p.base.At(i).Kind != n.Kind:
		p.fail("a node moved to another file or kind: " + n.ID)
	default:
		p.claimed.set(i)
		p.count++
		page, off := g.loc(i)
		if !p.owned[page] {
			p.owned[page] = true
			g.pages[page] = slices.Clone(g.pages[page])
		}
		n.Index = i
		g.pages[page][off] = n
		return i, true
	}
	n.Index = int32(g.n + len(p.extra))
	p.extra = append(p.extra, n)
	return n.Index, true
}

func (p *patch) lookup(g *Graph, id string) (int32, bool) {
	if i, ok := p.base.byID.get(p.base, id); ok {
		if !p.paths[p.base.At(i).Path] || p.claimed.has(i) {
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
		want += int32(len(base.NodesIn(path)))
	}
	if int32(p.count) != want {
		return "a node of the base is gone"
	}
	g.Changed = make([]int32, 0, p.count)
	for w, word := range p.claimed {
		for ; word != 0; word &= word - 1 {
			g.Changed = append(g.Changed, int32(w*64+bits.TrailingZeros64(word)))
		}
	}
	// The edges: each re-created node's, as Freeze keeps them (the first
	// of each target and kind, in order), must be its edges in the base.
	// They are grouped by the rank of their source in Changed, not by
	// node, which would cost two slices of the whole graph's size.
	rank := make([]int32, len(g.Edges))
	for k := range g.Edges {
		r, ok := slices.BinarySearch(g.Changed, g.Edges[k].From)
		if !ok {
			return "an edge from a node outside the re-created files"
		}
		rank[k] = int32(r)
	}
	at, out := rows(len(g.Changed), len(g.Edges), func(k int) int32 { return rank[k] })
	recorded := int32(base.Recorded())
	for r, i := range g.Changed {
		row, have := out[at[r]:at[r+1]], base.Out(i)
		// The bound edges, last in the row, follow from the recorded ones:
		// when those are the same, so are they.
		for len(have) > 0 && have[len(have)-1] >= recorded {
			have = have[:len(have)-1]
		}
		k := 0
	next:
		for j, ei := range row {
			e := &g.Edges[ei]
			for _, ej := range row[:j] {
				if d := &g.Edges[ej]; d.To == e.To && d.kind == e.kind && d.arg == e.arg {
					continue next // a repeat, which Freeze drops
				}
			}
			if k == len(have) {
				return "the edges changed"
			}
			if b := &base.Edges[have[k]]; b.To != e.To || b.kind != e.kind || b.layer != e.layer || b.arg != e.arg {
				return "the edges changed"
			}
			k++
		}
		if k != len(have) {
			return "the edges changed"
		}
	}
	g.Edges, g.out, g.in, g.outAt, g.inAt, g.via = base.Edges, base.out, base.in, base.outAt, base.inAt, base.via
	g.seed = seedFor(base, g.Changed)
	g.setFiles(files)
	// Versions: the base's, except on the pages of re-created nodes, whose
	// text may have changed even where their node did not.
	g.versions = make([]atomic.Pointer[versionPage], len(g.pages))
	for k, owned := range p.owned {
		var bp *versionPage
		if k < len(base.versions) {
			bp = base.versions[k].Load()
		}
		if !owned {
			g.versions[k].Store(bp)
			continue
		}
		g.shareSame(base, k)
		if bp == nil {
			continue
		}
		page := new(versionPage)
		for j := range g.pages[k] {
			if i := base.starts[k] + int32(j); !p.claimed.has(i) {
				page[j].Store(bp[j].Load())
			}
		}
		g.versions[k].Store(page)
	}
	// Nodes have the base's indexes and files.
	g.perPath = base.perPathIndex()
	g.perPathOnce.Do(func() {})
	g.patch = nil
	return ""
}

// shareSame makes the re-created nodes of page k that equal the base's
// share the base's strings and properties, and the page itself when all
// of them do, so that a derived graph keeps only what changed.
func (g *Graph) shareSame(base *Graph, k int) {
	page, bp := g.pages[k], base.pages[k]
	all := true
	for j := range page {
		if i := base.starts[k] + int32(j); g.patch.claimed.has(i) {
			if sameNode(&page[j], &bp[j]) {
				page[j] = bp[j]
			} else {
				all = false
			}
		}
	}
	if all {
		g.pages[k] = bp
	}
}

func sameNode(a, b *Node) bool {
	if a.ID != b.ID || a.Kind != b.Kind || a.Name != b.Name || a.Path != b.Path || a.Pos != b.Pos || a.End != b.End ||
		a.Line != b.Line || a.Column != b.Column || a.Owner != b.Owner || a.Signature != b.Signature ||
		a.SigPos != b.SigPos || a.SigEnd != b.SigEnd || a.Foreign != b.Foreign || len(a.Props) != len(b.Props) {
		return false
	}
	for i := range a.Props {
		x, y := &a.Props[i], &b.Props[i]
		if x.Name != y.Name || x.Type != y.Type || x.Editable != y.Editable || x.Literal != y.Literal ||
			x.ValuePos != y.ValuePos || x.ValueEnd != y.ValueEnd || !sameValue(x.Value, y.Value) {
			return false
		}
	}
	return true
}

// sameValue compares property values, which are scalars.
func sameValue(a, b any) bool {
	switch a.(type) {
	case nil, string, bool, float64, int64, int:
		return a == b
	}
	return false
}

// NodesIn returns the indexes of the nodes of the file at path, in
// index order.
func (g *Graph) NodesIn(path string) []int32 {
	g.perPathOnce.Do(func() {
		g.perPath = map[string][]int32{}
		for i := range int32(g.n) {
			p := g.At(i).Path
			g.perPath[p] = append(g.perPath[p], i)
		}
	})
	return g.perPath[path]
}

func (g *Graph) perPathIndex() map[string][]int32 {
	g.NodesIn("")
	return g.perPath
}
