package web

import (
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// The actions and handlers of Acore 1.1: loops, arguments at a run and
// persisted states (docs/web.md).

// forStmt lowers `for x in list { ... }` to a for-of over the list's
// value when the loop starts; the body's writes do not change what it
// runs over.
func (g *gen) forStmt(s *syntax.ForStmt) js.Stmt {
	return &js.ForOf{Name: jsName(s.Var.Name), X: js.Bin(js.Or, g.expr(s.List), &js.Array{}), Body: g.stmts(s.Body.Stmts)}
}

// run lowers m.run(name: value, ...): the arguments given at the run go
// over the declaration's, by name.
func (g *gen) run(m *syntax.Ident, c *syntax.CallExpr) js.Expr {
	if len(c.Args) == 0 {
		return js.CallOf(js.DotOf(local(m.Name), "run"))
	}
	args := &js.Object{Props: make([]js.Prop, len(c.Args))}
	for i, a := range c.Args {
		if a.Name == nil {
			g.fail(a.Value, "an unnamed argument of run()")
		}
		args.Props[i] = js.Prop{Key: a.Name.Name, Value: g.expr(a.Value)}
	}
	return js.CallOf(js.DotOf(local(m.Name), "run"), args)
}

// stateSignal lowers a state's signal: a persisted one (the node's
// persist property holds its key) is kept in localStorage and checked
// against its type when read back.
func (g *gen) stateSignal(m *member, init js.Expr) js.Expr {
	for _, p := range g.g.At(m.node).Props {
		if p.Name == "persist" {
			key, ok := p.Value.(string)
			if !ok {
				g.fail(m.state, "a persist key that is not a string")
			}
			return js.CallOf(rtPersist, js.Str(key), init, typeShape(m.t, nil))
		}
	}
	return js.CallOf(rtSignal, init)
}

// typeShape describes t for the runtime's check of stored values: "S",
// "I", "F", "B"; ["O", t] optional; ["L", t] a list; ["R", {field: t}] a
// model. A model inside itself is "*", which any value fits.
func typeShape(t *check.Type, models []*check.Model) js.Expr {
	var out js.Expr
	switch t.Kind {
	case check.TString:
		out = js.Str("S")
	case check.TInt:
		out = js.Str("I")
	case check.TFloat:
		out = js.Str("F")
	case check.TBool:
		out = js.Str("B")
	case check.TList:
		out = &js.Array{Elems: []js.Expr{js.Str("L"), typeShape(t.Elem, models)}}
	case check.TModel:
		for _, m := range models {
			if m == t.Model {
				return js.Str("*")
			}
		}
		fields := &js.Object{}
		for _, f := range t.Model.Fields {
			fields.Props = append(fields.Props, js.Prop{Key: f.Name, Value: typeShape(f.Type, append(models, t.Model))})
		}
		out = &js.Array{Elems: []js.Expr{js.Str("R"), fields}}
	default:
		out = js.Str("*")
	}
	if t.Optional {
		out = &js.Array{Elems: []js.Expr{js.Str("O"), out}}
	}
	return out
}
