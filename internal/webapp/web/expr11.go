package web

import (
	"slices"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// The lowering of Acore 1.1's expressions and derived values
// (docs/web.md, "Derived values and expressions").

// cond lowers `if c then a else b` to JavaScript's conditional.
func (g *gen) cond(e *syntax.CondExpr) js.Expr {
	return &js.Cond{Test: g.expr(e.Cond), Yes: g.expr(e.Then), No: g.expr(e.Else)}
}

// index lowers xs[i]: the element, or null past either end.
func (g *gen) index(e *syntax.IndexExpr) js.Expr {
	return js.CallOf(rtIndex, g.expr(e.X), g.expr(e.Index))
}

// valueCall lowers a call that gives a value: a record value or a method
// of a list, string, number or record. ok is false for the calls of
// statements.
func (g *gen) valueCall(c *syntax.CallExpr) (js.Expr, bool) {
	switch f := c.Fun.(type) {
	case *syntax.Ident:
		if obj := g.use(f); obj != nil && obj.Kind == check.ObjModel {
			return g.record(c, g.typeOf(c)), true
		}
	case *syntax.MemberExpr:
		if id, ok := f.X.(*syntax.Ident); ok {
			if obj := g.use(id); obj != nil && (obj.Kind == check.ObjQuery || obj.Kind == check.ObjMutation) {
				return nil, false
			}
		}
		if _, ok := g.info.Types[f]; !ok {
			return nil, false
		}
		return g.method(c, f), true
	}
	return nil, false
}

// record lowers Model(field: v, ...) to an object with every field of the
// model in its order, a field not given (an optional one) as null.
func (g *gen) record(c *syntax.CallExpr, t *check.Type) js.Expr {
	if t.Kind != check.TModel || t.Model == nil {
		g.fail(c, "a record value of %s", t)
	}
	obj := &js.Object{}
	for _, fd := range t.Model.Fields {
		var v js.Expr = &js.Null{}
		for _, a := range c.Args {
			if a.Name != nil && a.Name.Name == fd.Name {
				v = g.expr(a.Value)
			}
		}
		obj.Props = append(obj.Props, js.Prop{Key: fd.Name, Value: v})
	}
	return obj
}

// method lowers x.name(args) by the receiver's type.
func (g *gen) method(c *syntax.CallExpr, f *syntax.MemberExpr) js.Expr {
	x, xt, name := g.expr(f.X), g.typeOf(f.X), f.Sel.Name
	args := make([]js.Expr, len(c.Args))
	for i, a := range c.Args {
		if xt.Kind != check.TModel {
			args[i] = g.expr(a.Value)
		}
	}
	dot := func(m string) js.Expr { return js.CallOf(js.DotOf(x, m), args...) }
	switch xt.Kind {
	case check.TList:
		switch name {
		case "filter", "map":
			return dot(name)
		case "any":
			return dot("some")
		case "all":
			return dot("every")
		case "find":
			return js.CallOf(rtFind, x, args[0])
		case "count":
			if len(args) == 0 {
				return js.CallOf(rtCount, x)
			}
			return js.DotOf(js.CallOf(js.DotOf(x, "filter"), args[0]), "length")
		case "sort_by":
			return js.CallOf(rtSortBy, x, args[0])
		case "reverse":
			return js.CallOf(js.DotOf(js.CallOf(js.DotOf(x, "slice")), "reverse"))
		case "contains":
			// Acore's == on each element: records and lists by value.
			return js.CallOf(js.DotOf(x, "some"), &js.Arrow{Params: []string{"x"}, Body: js.CallOf(rtEqual, js.Id("x"), args[0])})
		case "take":
			return js.CallOf(rtTake, x, args[0])
		}
	case check.TString:
		switch name {
		case "trim":
			return dot("trim")
		case "lower":
			return dot("toLowerCase")
		case "upper":
			return dot("toUpperCase")
		case "contains":
			return dot("includes")
		case "starts_with":
			return dot("startsWith")
		case "ends_with":
			return dot("endsWith")
		case "replace":
			return js.CallOf(rtReplace, x, args[0], args[1])
		case "split":
			return js.CallOf(rtSplit, x, args[0])
		}
	case check.TInt, check.TFloat:
		if name == "fixed" {
			return js.CallOf(rtFixed, x, args[0])
		}
	case check.TModel:
		if name == "with" {
			changes := &js.Object{}
			for _, a := range c.Args {
				if a.Name == nil {
					g.fail(a, "an unnamed field of with")
				}
				changes.Props = append(changes.Props, js.Prop{Key: a.Name.Name, Value: g.expr(a.Value)})
			}
			return js.CallOf(rtWith, x, changes)
		}
	}
	g.fail(c, "no case for the method %s of a %s", name, xt)
	return nil
}

// coalesce lowers a ?? b; a value missing from a backend's answer
// (undefined) is null too.
func (g *gen) coalesce(e *syntax.BinaryExpr) js.Expr {
	return js.Bin(js.Nullish, g.expr(e.X), g.expr(e.Y))
}

// derivedOrder orders the states, derived values and queries of o so that
// each comes after the ones it reads (a derived value may read a query's
// data, a query's arguments or a state's initial value a derived value),
// in source order otherwise. The checker has refused cycles among derived
// values.
func (g *gen) derivedOrder(o *owner) []*member {
	var ms []*member
	byNode := map[int32]*member{}
	for _, m := range o.order {
		if m.kind == mState || m.kind == mLet || m.kind == mQuery {
			ms = append(ms, m)
			byNode[m.node] = m
		}
	}
	out := make([]*member, 0, len(ms))
	done := map[*member]bool{}
	var visit func(m *member)
	visit = func(m *member) {
		if done[m] {
			return
		}
		done[m] = true
		for _, ei := range g.g.Out(m.node) {
			e := &g.g.Edges[ei]
			if d := byNode[e.To]; d != nil && e.Kind() == graph.EdgeReads {
				visit(d)
			}
		}
		out = append(out, m)
	}
	for _, m := range ms {
		visit(m)
	}
	return slices.Clip(out)
}
