package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/catalog"
	"github.com/axiomcore/acore/internal/check"
	"github.com/axiomcore/acore/internal/graph"
	"github.com/axiomcore/acore/internal/syntax"
)

// actions takes the manifest's actions as attribute sets. An action is
// found again by its source: the first query or mutation member that binds
// its operation, or the element or action member it stands for
// (axag.AcoreActions).
func (g *gen) actions(m *axag.Manifest) {
	g.siteAx = map[string]int{}
	for i, a := range m.Actions {
		g.ax = append(g.ax, attrsOf(a))
		g.siteAx[fmt.Sprintf("%s:%d:%d", a.SourceFile, a.SourceLine, a.SourceColumn)] = i
	}
	g.memberActions()
}

func siteKey(n *graph.Node) string { return fmt.Sprintf("%s:%d:%d", n.Path, n.Line, n.Column) }

// memberAx returns the action of a query or mutation member.
func (g *gen) memberAx(m *member) (int, bool) {
	return g.nodeAx(m.node)
}

// nodeAx returns the action of a query or mutation node: the action of
// the first member that binds the same operation.
func (g *gen) nodeAx(i int32) (int, bool) {
	ax, ok := g.opAx[i]
	return ax, ok
}

// memberActions maps every query and mutation node to its action, in one
// pass over the graph in node order, as axag.AcoreActions meets them.
func (g *gen) memberActions() {
	g.opAx = map[int32]int{}
	first := map[int32]int{} // operation node → action
	for i := range int32(g.g.Len()) {
		n := g.g.At(i)
		if n.Kind != graph.KindQuery && n.Kind != graph.KindMutation {
			continue
		}
		for _, ei := range g.g.Out(i) {
			e := g.g.Edges[ei]
			if e.Kind() != graph.EdgeInvokes || g.g.At(e.To).Kind != graph.KindOperation {
				continue
			}
			ax, seen := first[e.To]
			if !seen {
				ax = -1
				if a, ok := g.siteAx[siteKey(n)]; ok {
					ax = a
				}
				first[e.To] = ax
			}
			if ax >= 0 {
				g.opAx[i] = ax
			}
		}
	}
}

// reach is what handlers run: query and mutation members and action
// members (graph nodes, in the order met) and Action props.
type reach struct {
	ops, acts []int32
	props     []string
}

// reachOf follows handlers: the actions, props, queries and mutations
// they name or call, then the graph's calls and invokes edges.
func (g *gen) reachOf(o *owner, sc *scope, handlers []syntax.Expr) *reach {
	r := &reach{}
	var queue []int32
	seen := map[int32]bool{}
	visit := func(i int32) {
		if seen[i] {
			return
		}
		seen[i] = true
		switch g.g.At(i).Kind {
		case graph.KindQuery, graph.KindMutation:
			r.ops = append(r.ops, i)
		case graph.KindAction:
			r.acts = append(r.acts, i)
			queue = append(queue, i)
		case graph.KindProp:
			if n := g.g.At(i).Name; !slices.Contains(r.props, n) {
				r.props = append(r.props, n)
			}
		}
	}
	name := func(n string) {
		if sc.lookup(n) != nil {
			return
		}
		if m := o.members[n]; m != nil {
			visit(m.node)
		}
	}
	for _, h := range handlers {
		switch h := h.(type) {
		case *syntax.Ident:
			name(h.Name)
		case *syntax.LambdaExpr:
			if c, ok := h.Body.(*syntax.CallExpr); ok {
				switch f := c.Fun.(type) {
				case *syntax.Ident:
					name(f.Name)
				case *syntax.MemberExpr:
					if id, ok := f.X.(*syntax.Ident); ok {
						name(id.Name)
					}
				}
			}
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, ei := range g.g.Out(i) {
			e := g.g.Edges[ei]
			if k := e.Kind(); k == graph.EdgeCalls || k == graph.EdgeInvokes {
				visit(e.To)
			}
		}
	}
	return r
}

// pick chooses the one action an element shows among those it reaches,
// as the manifest does: the one whose intent its @axag names, else the
// first mutation, else the first query, else an action member that is an
// action of its own; -1 for none.
func (g *gen) pick(r *reach, intent string) int {
	var muts, queries []int
	for _, i := range r.ops {
		ax, ok := g.nodeAx(i)
		if !ok {
			continue
		}
		if intent != "" && g.ax[ax][1] == intent {
			return ax
		}
		if g.g.At(i).Kind == graph.KindMutation {
			muts = append(muts, ax)
		} else {
			queries = append(queries, ax)
		}
	}
	switch {
	case len(muts) > 0:
		return muts[0]
	case len(queries) > 0:
		return queries[0]
	}
	for _, i := range r.acts {
		if ax, ok := g.siteAx[siteKey(g.g.At(i))]; ok {
			return ax
		}
	}
	return -1
}

// elementAx sets the AXAG action of a catalog element from its handlers.
func (g *gen) elementAx(o *owner, sc *scope, e *syntax.Element, id string, s *spec) {
	if n := g.nodeOf(id); n != nil {
		if ax, ok := g.siteAx[siteKey(n)]; ok {
			s.ax = ax
			return
		}
	}
	ce, _ := catalog.Lookup(e.Name.Name)
	var hs []syntax.Expr
	a := elemArgs(e, ce.Primary)
	for _, p := range ce.Props {
		if p.Type == catalog.Action {
			if h, ok := a[p.Name]; ok {
				hs = append(hs, h)
			}
		}
	}
	if len(hs) == 0 {
		return
	}
	intent, _ := check.ReadAxag(e.Annotations)["intent"].(string)
	r := g.reachOf(o, sc, hs)
	s.ax = g.pick(r, intent)
	if s.ax < 0 {
		s.props = r.props
	}
}

// attrsOf writes an action as the axag-* attributes that the web scanner
// of internal/axag reads back (docs/web.md, "AXAG on the page"). Every
// value is explicit, so nothing depends on the scanner's inheritance from
// ancestors.
func attrsOf(a axag.Action) []string {
	out := []string{"axag-intent", a.Intent}
	str := func(name, v string) {
		if v != "" {
			out = append(out, name, v)
		}
	}
	boolean := func(name string, v *bool) {
		if v != nil {
			out = append(out, name, fmt.Sprint(*v))
		}
	}
	list := func(name string, v []string) {
		if v != nil {
			out = append(out, name, jsonAttr(v))
		}
	}
	str("axag-entity", a.Entity)
	str("axag-action-type", a.ActionType)
	str("axag-description", a.Description)
	str("axag-operation-id", a.OperationID)
	str("axag-risk-level", a.RiskLevel)
	boolean("axag-idempotent", a.Idempotent)
	boolean("axag-confirmation-required", a.ConfirmationRequired)
	boolean("axag-approval-required", a.ApprovalRequired)
	list("axag-approval-roles", a.ApprovalRoles)
	list("axag-required-roles", a.RequiredRoles)
	str("axag-scope", a.Scope)
	str("axag-tenant-boundary", a.TenantBoundary)
	list("axag-preconditions", a.Preconditions)
	list("axag-postconditions", a.Postconditions)
	list("axag-side-effects", a.SideEffects)
	boolean("axag-async", a.Async)
	var req, opt []any
	names := make([]string, 0, len(a.Parameters))
	for n := range a.Parameters {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p := a.Parameters[n]
		obj := paramAttr{Name: n, Type: p.Type, Description: p.Description, Enum: p.Enum, Minimum: p.Minimum, Maximum: p.Maximum,
			MinLength: p.MinLength, MaxLength: p.MaxLength, Pattern: p.Pattern, Format: p.Format, Items: p.Items, Properties: p.Properties, Source: p.Source}
		if p.HasDefault {
			d, _ := json.Marshal(p.Default)
			obj.Default = d
		}
		if p.Required {
			req = append(req, obj)
		} else {
			opt = append(opt, obj)
		}
	}
	if req != nil {
		out = append(out, "axag-required-parameters", jsonAttr(req))
	}
	if opt != nil {
		out = append(out, "axag-optional-parameters", jsonAttr(opt))
	}
	return out
}

// paramAttr is one entry of axag-required-parameters or
// axag-optional-parameters, in the names the scanner reads.
type paramAttr struct {
	Name        string          `json:"name"`
	Type        string          `json:"type,omitempty"`
	Description string          `json:"description,omitempty"`
	Enum        []any           `json:"enum,omitempty"`
	Minimum     *float64        `json:"minimum,omitempty"`
	Maximum     *float64        `json:"maximum,omitempty"`
	MinLength   *int            `json:"minLength,omitempty"`
	MaxLength   *int            `json:"maxLength,omitempty"`
	Pattern     string          `json:"pattern,omitempty"`
	Format      string          `json:"format,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Items       map[string]any  `json:"items,omitempty"`
	Properties  map[string]any  `json:"properties,omitempty"`
	Source      string          `json:"source,omitempty"`
}

// jsonAttr writes v as JSON that can stand in an HTML attribute quoted
// with ' without character references: <, > and & are escaped by
// encoding/json, ' as \u0027.
func jsonAttr(v any) string {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(v)
	return strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), "'", `\u0027`)
}
