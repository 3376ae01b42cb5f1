package web

import (
	"fmt"
	"slices"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// actions takes the manifest's actions as attribute sets. An action is
// found again by its source: the first query or mutation member that binds
// its operation, or the element or action member it stands for
// (axag.AcoreActions).
func (g *gen) actions(m *axag.Manifest) {
	g.siteAx = map[string]int{}
	for i, a := range m.Actions {
		g.ax = append(g.ax, axag.WebAttributes(a))
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

// reach is what handlers run: query and mutation members, action
// members and extern actions (graph nodes, in the order met) and Action
// props.
type reach struct {
	ops, acts, exts []int32
	props           []string
}

// reachOf follows handlers: the actions, props, queries, mutations and
// extern actions they name or call (check.Runs), then the graph's calls
// and invokes edges.
func (g *gen) reachOf(o *owner, handlers []syntax.Expr) *reach {
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
		case graph.KindExtension:
			r.exts = append(r.exts, i)
		case graph.KindProp:
			if n := g.g.At(i).Name; !slices.Contains(r.props, n) {
				r.props = append(r.props, n)
			}
		}
	}
	name := func(id *syntax.Ident, _ bool) {
		if obj := g.use(id); obj != nil && obj.Node >= 0 {
			switch obj.Kind {
			case check.ObjQuery, check.ObjMutation, check.ObjAction, check.ObjProp, check.ObjExtern:
				visit(obj.Node)
			}
		}
	}
	for _, h := range handlers {
		check.Runs(h, name)
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
// most dangerous (axag.Danger; the first of equals) among its queries'
// and mutations', its extern actions' and its action members' own (a
// bulk action, or one an annotation gives); -1 for none.
func (g *gen) pick(r *reach, intent string) int {
	var cands []int
	for _, i := range r.ops {
		if ax, ok := g.nodeAx(i); ok {
			cands = append(cands, ax)
		}
	}
	for _, i := range append(slices.Clone(r.exts), r.acts...) {
		if ax, ok := g.siteAx[siteKey(g.g.At(i))]; ok {
			cands = append(cands, ax)
		}
	}
	best := -1
	for _, ax := range cands {
		if intent != "" && attr(g.ax[ax], "axag-intent") == intent {
			return ax
		}
		if best < 0 || danger(g.ax[ax]) > danger(g.ax[best]) {
			best = ax
		}
	}
	return best
}

func danger(set []string) int {
	return axag.Danger(attr(set, "axag-action-type"), attr(set, "axag-risk-level"))
}

// attr returns the value of attribute name in an attribute set.
func attr(set []string, name string) string {
	for i := 0; i+1 < len(set); i += 2 {
		if set[i] == name {
			return set[i+1]
		}
	}
	return ""
}

// elementAx sets the AXAG action of a catalog element from its handlers.
func (g *gen) elementAx(o *owner, e *syntax.Element, n *graph.Node, s *spec) {
	if ax, ok := g.siteAx[siteKey(n)]; ok {
		s.ax = ax
		return
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
	r := g.reachOf(o, hs)
	s.ax = g.pick(r, intent)
	if s.ax < 0 {
		s.props = r.props
	}
}
