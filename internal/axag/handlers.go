package axag

import (
	"fmt"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// The actions of handlers beyond one operation (docs/language.md, section
// 11): a loop that runs a mutation is a bulk action of its own, and an
// extern action, whose effects the compiler cannot see, is an action that
// writes, never a read.

// Danger orders actions by what they may do: its action type (delete,
// write, navigate, read), then its risk level. A handler that may run
// several shows the most dangerous.
func Danger(actionType, risk string) int {
	return 10*slices.Index([]string{"read", "navigate", "write", "delete"}, actionType) + slices.Index(RiskLevels, risk)
}

// maxRisk returns the higher of two risk levels.
func maxRisk(a, b string) string {
	if slices.Index(RiskLevels, b) > slices.Index(RiskLevels, a) {
		return b
	}
	return a
}

// handlerActions adds to byNode and order the extern actions that some
// element reaches and the bulk actions of the action members and
// elements that loop over a mutation. bulk maps an action or element
// node to its bulk actions.
func handlerActions(info *check.Info, g *graph.Graph, byNode map[int32]*acoreAction, order *[]*acoreAction) (bulk map[int32][]*acoreAction) {
	bulk = map[int32][]*acoreAction{}
	intents := map[string]bool{}
	for _, x := range *order {
		intents[x.a.Intent] = true
	}
	for i := range int32(g.Len()) {
		n := g.At(i)
		switch n.Kind {
		case graph.KindElement:
			for _, e := range reachedExterns(g, i) {
				if byNode[e] == nil {
					x := externAction(g.At(e))
					byNode[e] = x
					*order = append(*order, x)
				}
			}
		case graph.KindAction:
		default:
			continue
		}
		var seen []*acoreAction
		loops := func(id *syntax.Ident, loop bool) {
			obj := info.Uses[id]
			if !loop || obj == nil || obj.Kind != check.ObjMutation {
				return
			}
			base := byNode[obj.Node]
			if base == nil || slices.Contains(seen, base) {
				return
			}
			seen = append(seen, base)
			x := bulkAction(base, n, intents)
			intents[x.a.Intent] = true
			bulk[i] = append(bulk[i], x)
			*order = append(*order, x)
		}
		switch d := info.Syntax[i].(type) {
		case *syntax.ActionDecl:
			check.Runs(d.Body, loops)
		case *syntax.Element:
			for _, a := range d.Args {
				check.Runs(a.Value, loops)
			}
		}
	}
	return bulk
}

// reachedExterns returns the extension nodes element i triggers, itself
// or through the actions it runs.
func reachedExterns(g *graph.Graph, from int32) []int32 {
	seen := map[int32]bool{from: true}
	queue := []int32{from}
	var out []int32
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, ei := range g.Out(i) {
			e := g.Edges[ei]
			if k := e.Kind(); k != graph.EdgeTriggers && k != graph.EdgeCalls || seen[e.To] {
				continue
			}
			seen[e.To] = true
			switch g.At(e.To).Kind {
			case graph.KindExtension:
				out = append(out, e.To)
			case graph.KindAction:
				queue = append(queue, e.To)
			}
		}
	}
	return out
}

// externAction is the action of extern action node n: a write of an
// unknown risk the compiler rates medium, not idempotent, whose side
// effects it cannot see.
func externAction(n *graph.Node) *acoreAction {
	name := clean(n.Name)
	from := ""
	for _, p := range n.Props {
		if p.Name == "from" {
			if s, ok := p.Value.(string); ok {
				from = fmt.Sprintf(" (from %q)", s)
			}
		}
	}
	a := Action{
		Intent: "extension." + name, Entity: "extension", ActionType: "write", RiskLevel: "medium", Idempotent: Bool(false),
		OperationID: n.Name, SourceFile: n.Path, SourceLine: int(n.Line), SourceColumn: int(n.Column),
		Description: fmt.Sprintf("Runs the extern action %s%s, whose effects the compiler cannot see.", n.Name, from),
		SideEffects: []string{"effects of extern action " + n.Name + " the compiler cannot see"},
	}
	return &acoreAction{a: a, mutation: true, own: true, set: map[string]string{}, setBy: map[string]any{}}
}

// bulkAction is the action of node n (an action member or an element)
// that runs base's mutation for each item of a list: base's facts, with
// no parameters (the loop gives them), a risk no lower than base's and at
// least medium (high for a delete), and a description that says so. Its intent is the
// action's name for an action member, bulk_<verb> for an element, of
// base's entity.
func bulkAction(base *acoreAction, n *graph.Node, taken map[string]bool) *acoreAction {
	a := base.a
	a.Parameters = nil
	verb := a.Intent[strings.IndexByte(a.Intent, '.')+1:]
	a.Intent = a.Entity + ".bulk_" + verb
	if n.Kind == graph.KindAction {
		if i := a.Entity + "." + clean(n.Name); !taken[i] {
			a.Intent = i
		} else {
			a.Intent = a.Entity + ".bulk_" + clean(n.Name)
		}
	}
	floor := "medium"
	if a.ActionType == "delete" {
		// Deleting each item of a list: at least high, as a delete is.
		floor = "high"
	}
	a.RiskLevel = maxRisk(a.RiskLevel, floor)
	if a.RiskLevel == "high" || a.RiskLevel == "critical" {
		a.ConfirmationRequired = Bool(true)
	}
	a.SourceFile, a.SourceLine, a.SourceColumn, a.ElementSelector = n.Path, int(n.Line), int(n.Column), ""
	if n.Kind == graph.KindElement {
		a.ElementSelector = n.ID
	}
	a.Description = fmt.Sprintf("A bulk action: runs %s (%s) once for each item of a list, in %s %s of %s.", base.a.Intent, base.a.OperationID, n.Kind, n.Name, strings.Replace(n.Owner, ":", " ", 1))
	return &acoreAction{a: a, mutation: true, own: true, set: map[string]string{}, setBy: map[string]any{}}
}
