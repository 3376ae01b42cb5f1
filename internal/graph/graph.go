// Package graph is the node graph of a compiled project: nodes with stable
// ids and versions, their properties, and typed edges in two fact layers.
// It is plain data built once by the checker and read concurrently after.
package graph

import (
	"crypto/sha256"
	"encoding/hex"
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
	KindQuery          = "query"
	KindMutation       = "mutation"
	KindAction         = "action"
	KindElement        = "element"
	KindConditional    = "conditional"
	KindContractImport = "contract_import"
	KindOperation      = "contract_operation"
	KindImport         = "import"
	KindExtension      = "extension"
)

// Kinds lists every node kind, in the order docs present them.
var Kinds = []string{KindModule, KindApp, KindRoute, KindPage, KindComponent, KindProp, KindModel,
	KindState, KindQuery, KindMutation, KindAction, KindElement, KindConditional, KindContractImport, KindOperation,
	KindImport, KindExtension}

// Edge kinds. The first six are the profile's default dependency relations.
const (
	EdgeReads       = "reads"
	EdgeWrites      = "writes"
	EdgeTriggers    = "triggers"
	EdgeCalls       = "calls"
	EdgeInvokes     = "invokes"
	EdgeNavigatesTo = "navigates_to"
	EdgeRenders     = "renders"
	EdgeUsesType    = "uses_type"
	EdgeChildOf     = "child_of"
	EdgeDeclaredIn  = "declared_in"
	EdgeImports     = "imports"
)

// DependencyKinds are the edges graph.query follows when none are named.
var DependencyKinds = []string{EdgeReads, EdgeWrites, EdgeTriggers, EdgeCalls, EdgeInvokes, EdgeNavigatesTo}

// EdgeKinds lists every edge kind.
var EdgeKinds = []string{EdgeReads, EdgeWrites, EdgeTriggers, EdgeCalls, EdgeInvokes, EdgeNavigatesTo,
	EdgeRenders, EdgeUsesType, EdgeChildOf, EdgeDeclaredIn, EdgeImports}

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
	ValuePos int
	ValueEnd int
}

// Node is one node of the graph.
type Node struct {
	ID   string
	Kind string
	Name string
	Path string // project-relative file of the authored declaration
	// Pos and End are the node's tight span in Path.
	Pos, End int
	// Line and Column locate the node's identifying token (its name).
	Line, Column int
	Version      string
	Owner        string // the page or component that owns it, or ""
	Props        []Property
	// Signature is a one-line summary of the declaration, for context.
	Signature string
	// Foreign marks a node whose implementation the compiler cannot see;
	// walks report it as a boundary.
	Foreign bool
}

// Edge is one relation between two nodes. Site is where the relation is
// written: the source node's identifying token.
type Edge struct {
	From, To int32
	Kind     string
	Layer    string
	Path     string
	Line     int
	Column   int
}

// Graph holds nodes in document order and edges with indexes both ways.
type Graph struct {
	Nodes []Node
	Edges []Edge
	byID  map[string]int32
	out   [][]int32
	in    [][]int32
}

// New returns an empty graph with room for about n nodes, so that large
// projects do not pay for repeated growth of the node slice.
func New(n int) *Graph {
	return &Graph{Nodes: make([]Node, 0, n), Edges: make([]Edge, 0, 2*n), byID: make(map[string]int32, n),
		out: make([][]int32, 0, n), in: make([][]int32, 0, n)}
}

// Version fingerprints a node: kind, name, file and authored text.
func Version(kind, name, path string, text []byte) string {
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
	if i, ok := g.byID[n.ID]; ok {
		return i, false
	}
	i := int32(len(g.Nodes))
	g.Nodes = append(g.Nodes, n)
	g.byID[n.ID] = i
	g.out = append(g.out, nil)
	g.in = append(g.in, nil)
	return i, true
}

// AddEdge records an edge; duplicates of the same kind between the same
// nodes keep the first site.
func (g *Graph) AddEdge(e Edge) {
	for _, ei := range g.out[e.From] {
		old := g.Edges[ei]
		if old.To == e.To && old.Kind == e.Kind {
			return
		}
	}
	i := int32(len(g.Edges))
	g.Edges = append(g.Edges, e)
	g.out[e.From] = append(g.out[e.From], i)
	g.in[e.To] = append(g.in[e.To], i)
}

// Lookup returns the index of the node with id.
func (g *Graph) Lookup(id string) (int32, bool) {
	i, ok := g.byID[id]
	return i, ok
}

// Node returns the node with id.
func (g *Graph) Node(id string) (*Node, bool) {
	i, ok := g.byID[id]
	if !ok {
		return nil, false
	}
	return &g.Nodes[i], true
}

// Out returns the indexes of the edges leaving node i, in insertion order.
func (g *Graph) Out(i int32) []int32 { return g.out[i] }

// In returns the indexes of the edges entering node i, in insertion order.
func (g *Graph) In(i int32) []int32 { return g.in[i] }
