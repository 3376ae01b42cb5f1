// Package ctxbuild builds context.build's answer: a bounded slice of the
// project for a task. The recipes, one per purpose (change_schema needs a
// backend profile and is unsupported_operation here):
//
//   - every purpose: the focus nodes, required, depth 0, reason focus.
//     Nodes passed back in params.expand are required too (reason expand;
//     depth 0 unless the recipe reaches them).
//   - understand: for a page or component focus, its members (states,
//     queries, mutations, actions, props; reason member) and its view
//     children (reason child); for any other focus, its owner (reason
//     owner), the owner's members (reason member, depth 2) and the
//     focus's children (reason child).
//   - change_input: what the focus triggers (actions, extern actions,
//     Action props) and what it reads (states, queries, props), each with
//     reason signature: the agent needs their signatures to change the
//     input's wiring.
//   - change_behavior: the actions involved (the focus if it is an action,
//     the actions it triggers, directly or through the Action props it
//     triggers, whose instances pass them; the actions that write it if it
//     is a state; reason behavior), what those actions write, invoke, call or navigate
//     to (reason effect, one step further) and their callers (reason
//     caller). The answer is kept to what changing the actions needs:
//     a reason's via names the related node and its text states the
//     relation without repeating the ids ("the action writes it", "it
//     triggers the action", "the focus triggers it", "it writes the
//     focus"); the edges are those of the actions involved and of the
//     required items (a relation between two other items, such as a
//     mutation reading a state, is in the signature of the item that
//     holds it), without a site (an edge's site is its source node's
//     token, which the item already identifies); and with the default
//     include, the implementation is given only for the actions involved
//     and the required items, and not when it is the signature itself
//     (the other items are summarized by their signature); an item has
//     one of the two, since an implementation begins with its signature.
//   - diagnose: for each diagnostic of a focus's file, the innermost node
//     whose span holds it (reason diagnostic).
//
// include adds: callers (nodes that trigger or call a focus, reason
// caller), consumers (nodes that read a focus, reason consumer), and per
// item the parts signature, implementation (the node's source),
// input_constraints (an element's catalog or component properties, a
// state's type) and diagnostics (those inside the node's span). tests
// and authorization add a coverage gap each: this profile has neither.
// Without include, the parts are: understand signature; change_input
// signature and input_constraints; change_behavior signature and
// implementation (the implementation narrowed as above); diagnose
// signature and diagnostics. An explicit include gives its parts on every
// item.
//
// Only the focus and expanded nodes are required. Required context is
// never cut: if the required items alone, with the edges between them, do
// not fit limits.max_bytes or limits.max_nodes, the answer is
// insufficient_context with details.required_bytes, required_items and an
// expansion ref per required item. Optional items are then added in the
// recipe's order while they fit; an item that does not fit is omitted
// (reason max_bytes or max_nodes) with an expansion ref, and later, smaller
// items may still be added. Recipe items deeper than limits.max_depth are
// not followed. What the recipe reaches but leaves out (past max_depth,
// or cut by max_bytes or max_nodes), and included nodes whose
// implementation is foreign, are the result's gaps, which the answer's
// coverage reports. An expansion ref's estimated_bytes is the item's compact
// JSON and its separator. An expansion ref is
// "ctx1:<first 16 hex digits of the snapshot id>:node:<node id>".
package ctxbuild

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/project"
)

// ContextReason says why an item is included.
type ContextReason struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
	Via  string `json:"via,omitempty"`
}

// InputConstraint is one input a node accepts.
type InputConstraint struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Required bool     `json:"required"`
	Values   []string `json:"values,omitempty"`
	Min      *int64   `json:"min,omitempty"`
	Set      bool     `json:"set"`
}

// ContextItem is one node of a context.
type ContextItem struct {
	Node             graph.Summary         `json:"node"`
	Depth            int                   `json:"depth"`
	Required         bool                  `json:"required"`
	Reasons          []ContextReason       `json:"reasons"`
	Signature        *string               `json:"signature,omitempty"`
	Implementation   *string               `json:"implementation,omitempty"`
	InputConstraints []InputConstraint     `json:"input_constraints,omitempty"`
	Diagnostics      []protocol.Diagnostic `json:"diagnostics,omitempty"`

	idx int32
}

// ContextEdge is a relation between two included nodes. graph.Location is nil in
// change_behavior.
type ContextEdge struct {
	From  string          `json:"from"`
	Kind  string          `json:"kind"`
	To    string          `json:"to"`
	Layer string          `json:"layer"`
	Site  *graph.Location `json:"site,omitempty"`
	// Via names, for an edge a prop has through a component instance's
	// argument, the instance.
	Via string `json:"via,omitempty"`
}

// Result is context.build's result.
type Result struct {
	Items []ContextItem `json:"items"`
	Edges []ContextEdge `json:"edges"`
	// Gaps are what the context leaves out that the recipe reaches: items
	// past limits.max_depth or cut by a limit, and the foreign code of
	// included nodes. The service reports them as coverage gaps.
	Gaps []protocol.Gap `json:"-"`
}

// Purposes are the purposes of context.build.
var Purposes = []string{"understand", "change_input", "change_behavior", "change_schema", "diagnose"}

// Includes are the parts and relations an include can name.
var Includes = []string{"signature", "implementation", "input_constraints", "callers", "consumers", "authorization", "diagnostics", "tests"}

// DefaultInclude is each purpose's include when a request gives none.
var DefaultInclude = map[string][]string{
	"understand":      {"signature"},
	"change_input":    {"signature", "input_constraints"},
	"change_behavior": {"signature", "implementation"},
	"diagnose":        {"signature", "diagnostics"},
}

// Ref is the expansion ref of node id on snapshot snapID.
func Ref(snapID, id string) string {
	return "ctx1:" + SnapPrefix(snapID) + ":node:" + id
}

// SnapPrefix is the part of an expansion ref that names its snapshot.
func SnapPrefix(snapID string) string {
	h := strings.TrimPrefix(snapID, "snap-")
	if len(h) > 16 {
		h = h[:16]
	}
	return h
}

// Request is what to build a context for.
type Request struct {
	Purpose string
	// Focus are the focus nodes, FocusIDs their ids as requested.
	Focus    []int32
	FocusIDs []string
	// Expanded are the nodes of params.expand, required too.
	Expanded []int32
	// Include is params.include; nil takes the purpose's default.
	Include []string
	Limits  protocol.Applied
}

// Include is the set of parts and relations a request includes.
func Include(purpose string, include []string) map[string]bool {
	if include == nil {
		include = DefaultInclude[purpose]
	}
	return stringSet(include)
}

// InsufficientError is insufficient_context: the required items alone do
// not fit the request's limits, and they are never cut.
type InsufficientError struct {
	Purpose string
	Focus   []string
	// What says which limit the required items exceed, and by how much.
	What          string
	RequiredBytes int
	RequiredItems int
	// Expand are the expansion refs of the first 50 required items.
	Expand []protocol.ExpansionRef
}

func (e *InsufficientError) Error() string {
	return "the required context of " + e.Purpose + " on " + strings.Join(e.Focus, ", ") + " is " + e.What
}

// Build builds the context of req on project p, whose snapshot is snapID:
// the result, the items omitted for the limits, or an InsufficientError
// when the required items alone do not fit.
func Build(p *project.Project, snapID string, req Request) (*Result, []protocol.Omission, *InsufficientError) {
	g := p.Result.Graph
	inc := Include(req.Purpose, req.Include)
	b := &ctxBuilder{p: p, snapID: snapID, lim: req.Limits, g: g, inc: inc, pos: map[int32]int{}, maxDepth: req.Limits.MaxDepth}
	if req.Purpose == "change_behavior" {
		b.actions = map[int32]bool{}
		b.narrowBodies = req.Include == nil
	}
	for _, f := range req.Focus {
		b.add(f, 0, true, ContextReason{Kind: "focus", Text: g.At(f).ID + ": focus of " + req.Purpose})
	}
	for _, x := range req.Expanded {
		b.add(x, 0, true, ContextReason{Kind: "expand", Text: g.At(x).ID + ": passed in params.expand"})
	}
	for _, f := range req.Focus {
		b.recipe(req.Purpose, f)
	}
	for _, f := range req.Focus {
		if inc["callers"] {
			b.callers(f, 1)
		}
		if inc["consumers"] {
			for _, ei := range g.In(f) {
				if e := &g.Edges[ei]; e.Kind() == graph.EdgeReads {
					b.add(e.From, 1, false, ContextReason{Kind: "consumer", Text: g.At(e.From).ID + ": it reads " + g.At(f).ID, Via: g.At(f).ID})
				}
			}
		}
	}
	return b.fit(req.Purpose, req.FocusIDs)
}

func stringSet(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

type ctxBuilder struct {
	p        *project.Project
	snapID   string
	lim      protocol.Applied
	omitted  []protocol.Omission
	g        *graph.Graph
	inc      map[string]bool
	items    []ContextItem
	pos      map[int32]int
	maxDepth int
	// actions, set in change_behavior, holds the actions involved: the
	// edges kept are theirs and the required items' (site-less), and
	// with narrowBodies (the default include) only they and the required
	// items get an implementation.
	actions      map[int32]bool
	narrowBodies bool
	// deep holds the nodes the recipe reached past limits.max_depth,
	// which are left out.
	deep []string
}

// add includes node i, or merges a new reason into it.
func (b *ctxBuilder) add(i int32, depth int, required bool, r ContextReason) {
	if depth > b.maxDepth && !required {
		if _, in := b.pos[i]; !in && !slices.Contains(b.deep, b.g.At(i).ID) {
			b.deep = append(b.deep, b.g.At(i).ID)
		}
		return
	}
	if k, ok := b.pos[i]; ok {
		it := &b.items[k]
		it.Required = it.Required || required
		for _, old := range it.Reasons {
			if old == r {
				return
			}
		}
		if it.Reasons[0].Kind != "focus" {
			it.Reasons = append(it.Reasons, r)
		}
		return
	}
	b.pos[i] = len(b.items)
	b.items = append(b.items, ContextItem{Node: b.g.Summary(b.g.At(i)), Depth: depth, Required: required, Reasons: []ContextReason{r}, idx: i})
}

var edgeVerb = map[string]string{
	graph.EdgeReads: "reads", graph.EdgeWrites: "writes", graph.EdgeTriggers: "triggers", graph.EdgeCalls: "calls",
	graph.EdgeInvokes: "invokes", graph.EdgeNavigatesTo: "navigates to",
}

func (b *ctxBuilder) recipe(purpose string, f int32) {
	g := b.g
	fn := g.At(f)
	switch purpose {
	case "understand":
		if fn.Kind == graph.KindPage || fn.Kind == graph.KindComponent {
			b.members(f, 1)
		} else if oi, ok := g.Lookup(fn.Owner); ok {
			b.add(oi, 1, false, ContextReason{Kind: "owner", Text: fn.Owner + ": owner of " + fn.ID, Via: fn.ID})
			b.members(oi, 2)
		}
		for _, ei := range g.In(f) {
			if e := &g.Edges[ei]; e.Kind() == graph.EdgeChildOf {
				b.add(e.From, 1, false, ContextReason{Kind: "child", Text: g.At(e.From).ID + ": child of " + fn.ID, Via: fn.ID})
			}
		}
	case "change_input":
		for _, ei := range g.Out(f) {
			e := &g.Edges[ei]
			if e.Kind() == graph.EdgeTriggers || e.Kind() == graph.EdgeReads {
				b.add(e.To, 1, false, ContextReason{Kind: "signature", Text: g.At(e.To).ID + ": " + fn.ID + " " + edgeVerb[e.Kind()] + " it", Via: fn.ID})
			}
		}
	case "change_behavior":
		var actions []int32
		if fn.Kind == graph.KindAction {
			actions = append(actions, f)
		}
		for _, t := range b.triggered(f) {
			text := "the focus triggers it"
			if t.prop >= 0 {
				text = "the focus triggers it through " + g.At(t.prop).ID
			}
			b.add(t.action, t.depth, false, ContextReason{Kind: "behavior", Text: text, Via: fn.ID})
			actions = append(actions, t.action)
		}
		for _, ei := range g.In(f) {
			if e := &g.Edges[ei]; e.Kind() == graph.EdgeWrites && g.At(e.From).Kind == graph.KindAction {
				b.add(e.From, 1, false, ContextReason{Kind: "behavior", Text: "it writes the focus", Via: fn.ID})
				actions = append(actions, e.From)
			}
		}
		for _, a := range actions {
			b.actions[a] = true
			d := 1
			if a == f {
				d = 0
			}
			for _, ei := range g.Out(a) {
				e := &g.Edges[ei]
				switch e.Kind() {
				case graph.EdgeWrites, graph.EdgeInvokes, graph.EdgeCalls, graph.EdgeNavigatesTo:
					b.add(e.To, d+1, false, ContextReason{Kind: "effect", Text: "the action " + edgeVerb[e.Kind()] + " it", Via: g.At(a).ID})
				}
			}
			for _, ei := range g.In(a) {
				if e := &g.Edges[ei]; e.Kind() == graph.EdgeTriggers || e.Kind() == graph.EdgeCalls {
					b.add(e.From, d+1, false, ContextReason{Kind: "caller", Text: "it " + edgeVerb[e.Kind()] + " the action", Via: g.At(a).ID})
				}
			}
		}
	case "diagnose":
		inFile := g.NodesIn(fn.Path)
		for _, d := range b.p.Result.Diagnostics {
			if d.Path != fn.Path {
				continue
			}
			if at := innermost(g, inFile, d.Pos); at >= 0 {
				text := fmt.Sprintf("%s: %s %s at %s:%d:%d: %s", g.At(at).ID, d.Severity, d.Code, d.Path, d.Line, d.Column, d.Message)
				b.add(at, 1, false, ContextReason{Kind: "diagnostic", Text: text})
			}
		}
	}
}

// trigger is an action a focus triggers: directly (prop -1), or through
// an Action prop that a component instance binds to it.
type trigger struct {
	action, prop int32
	depth        int
}

// triggered returns the actions node f triggers, following the Action
// props it triggers to the handlers their instances pass (bound edges),
// each once.
func (b *ctxBuilder) triggered(f int32) []trigger {
	g := b.g
	var out []trigger
	seen := map[int32]bool{f: true}
	type hop struct {
		node, prop int32
		depth      int
	}
	queue := []hop{{f, -1, 0}}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, ei := range g.Out(h.node) {
			e := &g.Edges[ei]
			if e.Kind() != graph.EdgeTriggers && (h.prop < 0 || e.Kind() != graph.EdgeCalls) || seen[e.To] {
				continue
			}
			seen[e.To] = true
			switch g.At(e.To).Kind {
			case graph.KindAction:
				out = append(out, trigger{e.To, h.prop, h.depth + 1})
			case graph.KindProp:
				prop := h.prop
				if prop < 0 {
					prop = e.To
				}
				queue = append(queue, hop{e.To, prop, h.depth + 1})
			}
		}
	}
	return out
}

// members adds the members of owner o.
func (b *ctxBuilder) members(o int32, depth int) {
	g := b.g
	for _, ei := range g.In(o) {
		if e := &g.Edges[ei]; e.Kind() == graph.EdgeDeclaredIn {
			b.add(e.From, depth, false, ContextReason{Kind: "member", Text: g.At(e.From).ID + ": member of " + g.At(o).ID, Via: g.At(o).ID})
		}
	}
}

// callers adds the nodes that trigger or call node t.
func (b *ctxBuilder) callers(t int32, depth int) {
	g := b.g
	for _, ei := range g.In(t) {
		if e := &g.Edges[ei]; e.Kind() == graph.EdgeTriggers || e.Kind() == graph.EdgeCalls {
			b.add(e.From, depth, false, ContextReason{Kind: "caller", Text: g.At(e.From).ID + ": it " + edgeVerb[e.Kind()] + " " + g.At(t).ID, Via: g.At(t).ID})
		}
	}
}

// innermost returns the smallest of nodes (all of one file) whose span
// holds pos, or -1.
func innermost(g *graph.Graph, nodes []int32, pos int) int32 {
	best := int32(-1)
	for _, i := range nodes {
		n := g.At(i)
		if pos < int(n.Pos) || pos > int(n.End) {
			continue
		}
		if best < 0 || n.End-n.Pos < g.At(best).End-g.At(best).Pos {
			best = i
		}
	}
	return best
}

// fill sets the parts include asks for on it.
func (b *ctxBuilder) fill(it *ContextItem) {
	n := b.g.At(it.idx)
	sig := ""
	if b.inc["signature"] {
		sig = b.g.Signature(n)
	}
	f := b.p.Headers(n.Path)
	body, hasBody := "", b.inc["implementation"] && f != nil && int(n.Pos) <= int(n.End) && int(n.End) <= len(f.Src)
	if hasBody {
		body = string(f.Src[n.Pos:n.End])
	}
	if hasBody && b.narrowBodies {
		// The default change_behavior include gives one of the two: the
		// implementation of the actions involved and of the required
		// items (unless it is the signature itself), the signature of
		// the others.
		hasBody = (b.actions[it.idx] || it.Required) && body != sig
		if hasBody {
			sig = ""
		}
	}
	if sig != "" {
		it.Signature = &sig
	}
	if hasBody {
		it.Implementation = &body
	}
	if b.inc["input_constraints"] {
		it.InputConstraints = b.constraints(it.idx)
	}
	if b.inc["diagnostics"] {
		var in []diag.Diagnostic
		for _, d := range b.p.Result.Diagnostics {
			if d.Path == n.Path && (n.Kind == graph.KindModule || int(d.Pos) >= int(n.Pos) && int(d.Pos) < int(n.End)) && len(in) < 200 {
				in = append(in, d)
			}
		}
		if in != nil {
			it.Diagnostics = protocol.Diagnostics(in)
		}
	}
}

// constraints lists the inputs node i accepts: an element's properties
// from the catalog or from the component it renders, a state's value.
func (b *ctxBuilder) constraints(i int32) []InputConstraint {
	g := b.g
	n := g.At(i)
	set := map[string]bool{}
	for _, pr := range n.Props {
		set[pr.Name] = true
	}
	var out []InputConstraint
	switch n.Kind {
	case graph.KindElement:
		if ce, ok := catalog.Lookup(n.Name); ok {
			for _, pr := range ce.Props {
				ic := InputConstraint{Name: pr.Name, Type: string(pr.Type), Required: pr.Required, Values: pr.Values, Set: set[pr.Name]}
				if pr.HasMin {
					m := pr.Min
					ic.Min = &m
				}
				out = append(out, ic)
			}
			return out
		}
		for _, ei := range g.Out(i) {
			e := &g.Edges[ei]
			if e.Kind() != graph.EdgeRenders {
				continue
			}
			for _, pi := range g.In(e.To) {
				pe := &g.Edges[pi]
				pn := g.At(pe.From)
				if pe.Kind() != graph.EdgeDeclaredIn || pn.Kind != graph.KindProp {
					continue
				}
				typ, hasDefault := "", false
				for _, pr := range pn.Props {
					switch pr.Name {
					case "type":
						typ, _ = pr.Value.(string)
					case "default":
						hasDefault = true
					}
				}
				out = append(out, InputConstraint{Name: pn.Name, Type: typ, Required: !hasDefault && !strings.HasSuffix(typ, "?"), Set: set[pn.Name]})
			}
		}
	case graph.KindState:
		out = append(out, InputConstraint{Name: "value", Type: graph.StateType(n), Required: !strings.HasSuffix(graph.StateType(n), "?"), Set: set["initial"]})
	}
	return out
}

// fit applies max_bytes and max_nodes: required items are never cut,
// optional ones are added while they fit.
func (b *ctxBuilder) fit(purpose string, focus []string) (*Result, []protocol.Omission, *InsufficientError) {
	g := b.g
	lim := b.lim
	included := map[int32]bool{}
	res := Result{Items: []ContextItem{}, Edges: []ContextEdge{}}
	size := len(`{"items":[],"edges":[]}`)
	// In change_behavior (b.actions set), only the edges of the actions
	// involved and of the required items are kept, without a site.
	isRequired := map[int32]bool{}
	for _, it := range b.items {
		if it.Required {
			isRequired[it.idx] = true
		}
	}
	edge := func(ei int32) (ContextEdge, bool) {
		e := &g.Edges[ei]
		ce := ContextEdge{From: g.At(e.From).ID, Kind: e.Kind(), To: g.At(e.To).ID, Layer: e.Layer()}
		if v, ok := g.Via(ei); ok {
			ce.Via = g.At(v).ID
		}
		if b.actions == nil {
			s := g.EdgeSite(ei)
			ce.Site = &s
			return ce, true
		}
		return ce, b.actions[e.From] || b.actions[e.To] || isRequired[e.From] || isRequired[e.To]
	}
	// edgesTo returns the edges between node i and the included nodes
	// (and i itself).
	edgesTo := func(i int32) []ContextEdge {
		var out []ContextEdge
		for _, ei := range g.Out(i) {
			e := &g.Edges[ei]
			if included[e.To] || e.To == i {
				if ce, ok := edge(ei); ok {
					out = append(out, ce)
				}
			}
		}
		for _, ei := range g.In(i) {
			e := &g.Edges[ei]
			if included[e.From] && e.From != i {
				if ce, ok := edge(ei); ok {
					out = append(out, ce)
				}
			}
		}
		return out
	}
	cost := func(it *ContextItem, es []ContextEdge) int {
		n := jsonSize(it)
		if len(res.Items) > 0 {
			n++
		}
		for k := range es {
			n += jsonSize(&es[k])
			if len(res.Edges) > 0 || k > 0 {
				n++
			}
		}
		return n
	}
	accept := func(it ContextItem, es []ContextEdge, n int) {
		included[it.idx] = true
		res.Items = append(res.Items, it)
		res.Edges = append(res.Edges, es...)
		size += n
	}
	for k := range b.items {
		b.fill(&b.items[k])
	}
	var required []ContextItem
	for _, it := range b.items {
		if it.Required {
			es := edgesTo(it.idx)
			accept(it, es, cost(&it, es))
			required = append(required, it)
		}
	}
	if size > lim.MaxBytes || len(required) > lim.MaxNodes {
		what := fmt.Sprintf("%d bytes, more than limits.max_bytes (%d)", size, lim.MaxBytes)
		if size <= lim.MaxBytes {
			what = fmt.Sprintf("%d items, more than limits.max_nodes (%d)", len(required), lim.MaxNodes)
		}
		e := &InsufficientError{Purpose: purpose, Focus: focus, What: what, RequiredBytes: size, RequiredItems: len(required)}
		for k := range required {
			if len(e.Expand) == 50 {
				break
			}
			id := required[k].Node.ID
			e.Expand = append(e.Expand, protocol.ExpansionRef{Ref: Ref(b.snapID, id), Kind: "node", Node: id, EstimatedBytes: jsonSize(&required[k]) + 1,
				Reason: "the item " + id + " (required context); pass this ref in params.expand to include it as required"})
		}
		return nil, nil, e
	}
	type dropped struct {
		ids  []string
		refs []protocol.ExpansionRef
		n    int
	}
	drops := map[string]*dropped{}
	for _, it := range b.items {
		if it.Required {
			continue
		}
		es := edgesTo(it.idx)
		n := cost(&it, es)
		reason := ""
		switch {
		case len(res.Items) >= lim.MaxNodes:
			reason = "max_nodes"
		case size+n > lim.MaxBytes:
			reason = "max_bytes"
		}
		if reason == "" {
			accept(it, es, n)
			continue
		}
		d := drops[reason]
		if d == nil {
			d = &dropped{}
			drops[reason] = d
		}
		d.n++
		if len(d.ids) < 50 {
			d.ids = append(d.ids, it.Node.ID)
			d.refs = append(d.refs, protocol.ExpansionRef{Ref: Ref(b.snapID, it.Node.ID), Kind: "node", Node: it.Node.ID, EstimatedBytes: jsonSize(&it) + 1,
				Reason: "the item " + it.Node.ID + " (optional: " + it.Reasons[0].Text + ") was left out for " + reason + "; pass this ref in params.expand to include it as required"})
		}
	}
	for _, reason := range []string{"max_nodes", "max_bytes"} {
		if d := drops[reason]; d != nil {
			b.omitted = append(b.omitted, protocol.Omission{Reason: reason, Count: d.n, Nodes: d.ids, Expand: d.refs})
			res.Gaps = append(res.Gaps, protocol.Gap{Reason: reason, Nodes: d.ids,
				Detail: fmt.Sprintf("%d items the recipe includes do not fit limits.%s; truncation.omissions has a ref for each", d.n, reason)})
		}
	}
	if len(b.deep) > 0 {
		res.Gaps = append(res.Gaps, protocol.Gap{Reason: "max_depth", Nodes: b.deep[:min(len(b.deep), 50)],
			Detail: fmt.Sprintf("the recipe reaches %d nodes deeper than limits.max_depth (%d), left out", len(b.deep), lim.MaxDepth)})
	}
	var foreign []string
	for _, it := range res.Items {
		if g.At(it.idx).Foreign && len(foreign) < 50 {
			foreign = append(foreign, it.Node.ID)
		}
	}
	if len(foreign) > 0 {
		res.Gaps = append(res.Gaps, protocol.Gap{Reason: "foreign_implementation", Nodes: foreign,
			Detail: "the context holds nodes implemented outside the project; the compiler cannot see what they read, write or call"})
	}
	return &res, b.omitted, nil
}
