// Package graph is the node graph of a compiled project: nodes with stable
// ids and versions, their properties, and typed edges in two fact layers.
// It is plain data built once by the checker and read concurrently after.
package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Node kinds.
const (
	KindModule         = "module"
	KindApp            = "app"
	KindRoute          = "route"
	KindPage           = "page"
	KindComponent      = "component"
	KindProp           = "prop"
	KindModel          = "model"
	KindState          = "state"
	KindLet            = "let"
	KindQuery          = "query"
	KindMutation       = "mutation"
	KindAction         = "action"
	KindElement        = "element"
	KindConditional    = "conditional"
	KindContractImport = "contract_import"
	KindOperation      = "contract_operation"
	KindImport         = "import"
	KindExtension      = "extension"
	// KindField is a field of a model: field:Todo.title for a module's
	// model, field:Books.Book.title for a contract's.
	KindField = "field"
)

// Kinds lists every node kind, in the order docs present them.
var Kinds = []string{KindModule, KindApp, KindRoute, KindPage, KindComponent, KindProp, KindModel, KindField,
	KindState, KindLet, KindQuery, KindMutation, KindAction, KindElement, KindConditional, KindContractImport, KindOperation,
	KindImport, KindExtension}

// Edge kinds. The first six are the profile's default dependency
// relations.
const (
	EdgeReads       = "reads"
	EdgeWrites      = "writes"
	EdgeTriggers    = "triggers"
	EdgeCalls       = "calls"
	EdgeInvokes     = "invokes"
	EdgeNavigatesTo = "navigates_to"
	EdgeBinds       = "binds"
	EdgeRenders     = "renders"
	EdgeUsesType    = "uses_type"
	EdgeChildOf     = "child_of"
	EdgeDeclaredIn  = "declared_in"
	EdgeImports     = "imports"
	// EdgeFills goes from a component's instance to the Children
	// placeholder of the component's view, where its children go.
	EdgeFills = "fills"
)

// DependencyKinds are the edges graph.query follows when none are named.
var DependencyKinds = []string{EdgeReads, EdgeWrites, EdgeTriggers, EdgeCalls, EdgeInvokes, EdgeNavigatesTo}

// EdgeKinds lists every edge kind.
var EdgeKinds = []string{EdgeReads, EdgeWrites, EdgeTriggers, EdgeCalls, EdgeInvokes, EdgeNavigatesTo, EdgeBinds,
	EdgeRenders, EdgeUsesType, EdgeChildOf, EdgeDeclaredIn, EdgeImports, EdgeFills}

// Fact layers: declared facts are read off the syntax, resolved facts
// need name resolution.
const (
	Declared = "declared"
	Resolved = "resolved"
)

// Property is one property of a node.
type Property struct {
	Name string
	Type string
	// Value is the JSON value: a string, float64/int64, bool or nil for a
	// literal; the source text (an identifier's name) otherwise.
	Value    any
	Editable bool
	// Literal reports an authored literal scalar; ValuePos/ValueEnd are the
	// value's bytes in the node's file (-1 when the value is not authored).
	Literal  bool
	ValuePos int32
	ValueEnd int32
}

// Node is one node of the graph.
type Node struct {
	ID   string
	Kind string
	Name string
	Path string // project-relative file of the authored declaration
	// Pos and End are the node's tight span in Path. Offsets and
	// positions are 32-bit, as files are far smaller than 2 GiB: a large
	// project has about a hundred thousand nodes.
	Pos, End int32
	// Line and Column locate the node's identifying token (its name).
	Line, Column int32
	Owner        string // the page or component that owns it, or ""
	Props        []Property
	// Signature is a one-line summary of the declaration when it is not
	// simply source text; otherwise SigPos and SigEnd delimit the source it
	// is read from, on demand (see Graph.Signature).
	Signature      string
	SigPos, SigEnd int32
	// Index is the node's index in its graph (Graph.At).
	Index int32
	// Foreign marks a node whose implementation the compiler cannot see;
	// walks report it as a boundary.
	Foreign bool
}

// Edge is one relation between two nodes. It is written at the source
// node's identifying token, or at an argument of a component instance
// (see Graph.EdgeSite). Its kind and layer are kept as small codes: a
// large project has hundreds of thousands of edges.
type Edge struct {
	From, To    int32
	kind, layer uint8
	// arg is set on an edge a component instance's argument records: the
	// argument's index in the instance node's properties, plus one. It
	// fits the padding the two codes leave.
	arg uint16
}

// Kind returns the edge's kind, one of EdgeKinds.
func (e Edge) Kind() string { return EdgeKinds[e.kind] }

// Layer returns the edge's fact layer, Declared or Resolved.
func (e Edge) Layer() string { return layers[e.layer] }

var layers = [...]string{Declared, Resolved}

// code returns the index of s in list; s must be in it.
func code(list []string, s string) uint8 {
	for i, x := range list {
		if x == s {
			return uint8(i)
		}
	}
	panic("graph: unknown edge kind or layer " + s)
}

// Graph holds nodes in creation order and edges with indexes both ways.
// It is built with Add and AddEdge, then frozen by Freeze, after which it
// is read-only and safe for concurrent use.
//
// Nodes live in pages, so that a graph derived from another (Derive)
// copies only the pages whose nodes an edit re-created and shares the
// rest, with the edges, their indexes and the id table. Nodes added one
// by one fill pages of pageSize; a fragment's pages of nodes become pages
// of the graph as they are (Append), without a copy.
type Graph struct {
	pages [][]Node
	// starts[k] is the index of pages[k][0]; dir[b] is the page that
	// holds index b*pageSize, from which At walks to its page.
	starts []int32
	dir    []int32
	n      int
	Edges  []Edge
	byID   *idTable
	// Edge indexes by source and by target, in insertion order, as
	// compressed rows: out[outAt[i]:outAt[i+1]] are node i's edges.
	out, in     []int32
	outAt, inAt []int32
	files       map[string]*syntax.File
	// versions caches node versions, computed on first use: most nodes of
	// a large project are never asked for, and hashing each node's text
	// (which contains its children's) at compile time costs more than the
	// rest of the graph. They are paged as the nodes are, and a page of
	// them is allocated when one of its nodes is first asked for.
	versions []atomic.Pointer[versionPage]

	searchOnce sync.Once
	search     atomic.Pointer[Search]
	// seed, set by Finish, is what the index of a derived graph can be
	// derived from (see Search); it is never changed.
	seed *searchSeed

	perPathOnce sync.Once
	perPath     map[string][]int32

	// lazy is set on a graph read by Decode: its pages are decoded when
	// a node of theirs is first read.
	lazy *lazyNodes
	// patch is set while the graph is being derived from a base, frag
	// while it is a fragment of another.
	patch *patch
	frag  *fragment
	// via holds, for each bound edge (see bind), the instance whose
	// argument it comes from; the bound edges are the last len(via).
	via []int32
	// Changed lists the nodes a derived graph re-created, in index order;
	// it is nil for a graph built whole. A derived graph keeps no pointer
	// to its base, so a chain of edits does not keep every earlier graph.
	Changed []int32
}

// New returns an empty graph with room for about n nodes, so that large
// projects do not pay for repeated growth of the node slice.
func New(n int) *Graph {
	return &Graph{pages: make([][]Node, 0, n/pageSize+1), starts: make([]int32, 0, n/pageSize+1), dir: make([]int32, 0, n/pageSize+1),
		Edges: make([]Edge, 0, 2*n), byID: newIDTable(n)}
}

// pageBits sets the size of the pages nodes are added to, and of
// the blocks of indexes dir maps: 256 nodes, about 40 KB, so that a
// derived graph copies little beyond the nodes it re-creates.
const (
	pageBits = 8
	pageSize = 1 << pageBits
)

// Len returns the number of nodes.
func (g *Graph) Len() int {
	if g.patch != nil {
		return g.n + len(g.patch.extra)
	}
	return g.n
}

// At returns node i. The node may be changed only while the graph is
// being built.
func (g *Graph) At(i int32) *Node {
	if g.frag != nil {
		if i&fragFlag != 0 {
			return g.frag.at(i &^ fragFlag)
		}
		return g.frag.parent.At(i)
	}
	if int(i) >= g.n && g.patch != nil {
		return &g.patch.extra[int(i)-g.n]
	}
	if g.lazy != nil {
		return &g.lazy.page(g, int(i>>pageBits))[i&(pageSize-1)]
	}
	k, off := g.loc(i)
	return &g.pages[k][off]
}

// loc returns the page of node i and its offset there.
func (g *Graph) loc(i int32) (int, int32) {
	if g.lazy != nil {
		// Every page of a decoded graph but the last is full.
		return int(i >> pageBits), i & (pageSize - 1)
	}
	k := int(g.dir[i>>pageBits])
	for i-g.starts[k] >= int32(len(g.pages[k])) {
		k++
	}
	return k, i - g.starts[k]
}

// addPage appends page, whose nodes have the next indexes, and maps the
// blocks of indexes it begins.
func (g *Graph) addPage(page []Node) {
	g.pages = append(g.pages, page)
	g.starts = append(g.starts, int32(g.n))
	g.n += len(page)
	g.mapBlocks()
}

// mapBlocks extends dir to every block of indexes that has begun.
func (g *Graph) mapBlocks() {
	for len(g.dir)<<pageBits < g.n {
		b := int32(len(g.dir) << pageBits)
		k := len(g.pages) - 1
		for g.starts[k] > b {
			k--
		}
		g.dir = append(g.dir, int32(k))
	}
}

// Fingerprint is a node version: the SHA-256 of its kind, name, file and
// authored text.
func Fingerprint(kind, name, path string, text []byte) string {
	h := sha256.New()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(text)
	return hex.EncodeToString(h.Sum(nil))
}

// Add appends n and returns its index. A node whose id already exists is
// not added; the existing index is returned with false.
func (g *Graph) Add(n Node) (int32, bool) {
	if g.patch != nil {
		return g.patch.add(g, n)
	}
	if g.frag != nil {
		return g.frag.add(n)
	}
	if i, fresh := g.byID.put(g, n.ID, int32(g.n)); !fresh {
		return i, false
	}
	return g.push(n), true
}

// push appends n to the node pages and returns its index.
func (g *Graph) push(n Node) int32 {
	i := int32(g.n)
	n.Index = i
	last := len(g.pages) - 1
	if last < 0 || len(g.pages[last]) == cap(g.pages[last]) {
		g.addPage(append(make([]Node, 0, pageSize), n))
		return i
	}
	g.pages[last] = append(g.pages[last], n)
	g.n++
	g.mapBlocks()
	return i
}

// AddEdge records an edge. Freeze drops repeats of the same kind between
// the same nodes, keeping the first site.
func (g *Graph) AddEdge(from, to int32, kind, layer string) {
	g.AddArgEdge(from, to, kind, layer, 0)
}

// AddArgEdge records an edge the argument of component instance from
// makes: arg is the argument's index in from's properties, plus one (0:
// none). The edge is written at the argument.
func (g *Graph) AddArgEdge(from, to int32, kind, layer string, arg uint16) {
	g.Edges = append(g.Edges, Edge{From: from, To: to, kind: code(EdgeKinds, kind), layer: code(layers[:], layer), arg: arg})
}

// Freeze removes repeated edges (of the same kind, between the same
// nodes, from the same argument), adds the bound edges (see bind) and
// builds the indexes of edges by source and target. Building rows once, at the end, costs two slices instead of
// two per node. It also gives back the room the graph was built with:
// New and Fragment size it by estimates, and a frozen graph lives long.
func (g *Graph) Freeze() {
	n := g.n
	edges := g.Edges
	to := func(i int) int32 { return edges[i].To }
	// The rows by target are made beside those by source and the search
	// for repeats, from the same edges; they are made again only if
	// repeats are dropped (a trim alone keeps every edge's index).
	var inAt, in []int32
	done := make(chan struct{})
	parallel := len(edges) >= parallelRows
	if parallel {
		go func() {
			inAt, in = rows(n, len(edges), to)
			close(done)
		}()
	} else {
		close(done)
	}
	from := func(i int) int32 { return g.Edges[i].From }
	g.outAt, g.out = rows(n, len(g.Edges), from)
	// Drop repeats: an edge is a repeat of an earlier one with the same
	// source, target and kind. A node has few edges, so each row is
	// scanned directly.
	dup := 0
	drop := make([]bool, len(g.Edges))
	for v := 0; v < n; v++ {
		row := g.out[g.outAt[v]:g.outAt[v+1]]
		for j, ei := range row {
			for _, ek := range row[:j] {
				if !drop[ek] && g.Edges[ek].To == g.Edges[ei].To && g.Edges[ek].kind == g.Edges[ei].kind && g.Edges[ek].arg == g.Edges[ei].arg {
					drop[ei] = true
					dup++
					break
				}
			}
		}
	}
	if dup > 0 || cap(g.Edges) > len(g.Edges)+len(g.Edges)/16 {
		kept := make([]Edge, 0, len(g.Edges)-dup)
		for i, e := range g.Edges {
			if !drop[i] {
				kept = append(kept, e)
			}
		}
		g.Edges = kept
	}
	if dup > 0 {
		g.outAt, g.out = rows(n, len(g.Edges), from)
	}
	<-done
	if dup > 0 || !parallel {
		inAt, in = rows(n, len(g.Edges), func(i int) int32 { return g.Edges[i].To })
	}
	g.inAt, g.in = inAt, in
	g.bind()
	for k, page := range g.pages {
		if cap(page) > len(page) {
			g.pages[k] = slices.Clone(page)
		}
	}
	g.byID.trim(g)
}

// parallelRows is the number of edges from which Freeze makes the rows by
// target on a goroutine of their own: about 1.5 ms of a compile of 170,000
// edges.
const parallelRows = 1 << 14

// rows groups edge indexes 0..m-1 by node (a stable counting sort).
func rows(n, m int, node func(int) int32) (at, idx []int32) {
	at = make([]int32, n+1)
	for i := 0; i < m; i++ {
		at[node(i)+1]++
	}
	for i := 1; i <= n; i++ {
		at[i] += at[i-1]
	}
	idx = make([]int32, m)
	next := append([]int32(nil), at[:n]...)
	for i := 0; i < m; i++ {
		v := node(i)
		idx[next[v]] = int32(i)
		next[v]++
	}
	return at, idx
}

// Lookup returns the index of the node with id.
func (g *Graph) Lookup(id string) (int32, bool) {
	if g.patch != nil {
		return g.patch.lookup(g, id)
	}
	if g.frag != nil {
		return g.frag.parent.Lookup(id)
	}
	if g.lazy != nil {
		return g.lazy.ids.get(g, id)
	}
	return g.byID.get(g, id)
}

// Node returns the node with id.
func (g *Graph) Node(id string) (*Node, bool) {
	i, ok := g.Lookup(id)
	if !ok {
		return nil, false
	}
	return g.At(i), true
}

// Out returns the indexes of the edges leaving node i, in insertion order.
func (g *Graph) Out(i int32) []int32 { return g.out[g.outAt[i]:g.outAt[i+1]] }

// In returns the indexes of the edges entering node i, in insertion order.
func (g *Graph) In(i int32) []int32 { return g.in[g.inAt[i]:g.inAt[i+1]] }

// SetFiles gives the graph the parsed files its nodes point into, for
// versions and signatures computed on demand. Call it before the graph is
// shared.
func (g *Graph) SetFiles(files []*syntax.File) {
	g.setFiles(files)
	g.versions = make([]atomic.Pointer[versionPage], len(g.pages))
}

// versionPage holds the cached versions of a page of nodes, which holds
// at most pageSize.
type versionPage [pageSize]atomic.Pointer[string]

func (g *Graph) setFiles(files []*syntax.File) {
	g.files = make(map[string]*syntax.File, len(files))
	for _, f := range files {
		g.files[f.Path] = f
	}
}

// version is the cache slot of node i's version, or nil.
func (g *Graph) version(i int32) *atomic.Pointer[string] {
	if len(g.versions) == 0 || int(i) >= g.n || i < 0 {
		return nil
	}
	k, off := g.loc(i)
	if k >= len(g.versions) {
		return nil
	}
	p := g.versions[k].Load()
	if p == nil {
		p = new(versionPage)
		if !g.versions[k].CompareAndSwap(nil, p) {
			p = g.versions[k].Load()
		}
	}
	return &p[off]
}

// File returns the parsed file at path.
func (g *Graph) File(path string) *syntax.File { return g.files[path] }

// Version returns the node's version: a fingerprint of its kind, name, file
// and authored text. It is safe for concurrent use.
func (g *Graph) Version(n *Node) string {
	slot := g.version(n.Index)
	if slot != nil {
		if v := slot.Load(); v != nil {
			return *v
		}
	}
	var text []byte
	if f := g.files[n.Path]; f != nil && int(n.End) <= len(f.Src) {
		text = f.Src[n.Pos:n.End]
	}
	v := Fingerprint(n.Kind, n.Name, n.Path, text)
	if slot != nil {
		slot.Store(&v)
	}
	return v
}

// Signature returns the node's one-line summary.
func (g *Graph) Signature(n *Node) string {
	if n.Signature != "" || n.SigEnd <= n.SigPos {
		return n.Signature
	}
	if f := g.files[n.Path]; f != nil {
		return f.Compact(int(n.SigPos), int(n.SigEnd))
	}
	return ""
}
