package check

import (
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"strings"
)

// expect checks e against the type t, reporting a mismatch once.
func (c *checker) expect(x ctx, e syntax.Expr, t *Type, what words) *Type {
	v := c.exprWant(x, e, t)
	if !assignable(t, v) {
		c.errorf(x.f, e, diag.TypeMismatch, "%s is %s, expected %s", what, v, t)
	}
	return v
}

// exprWant types e; an empty list literal or a lambda takes its shape
// from the wanted type.
func (c *checker) exprWant(x ctx, e syntax.Expr, want *Type) *Type {
	switch l := e.(type) {
	case *syntax.ListLit:
		if len(l.Elems) == 0 && want != nil && want.Kind == TList {
			if c.info != nil {
				c.record(e, want)
			}
			return want
		}
	case *syntax.CondExpr:
		t := c.condExpr(x, l, want)
		if c.info != nil {
			c.record(e, t)
		}
		return t
	}
	return c.expr(x, e)
}

// expr types an expression and records the reads it makes on x.from.
func (c *checker) expr(x ctx, e syntax.Expr) *Type {
	t := c.exprOf(x, e)
	if c.info != nil {
		c.record(e, t)
	}
	return t
}

func (c *checker) exprOf(x ctx, e syntax.Expr) *Type {
	f := x.f
	switch e := e.(type) {
	case *syntax.StringLit:
		return stringType
	case *syntax.NumberLit:
		if _, ok := LiteralValue(e); !ok {
			c.errorf(f, e, diag.TypeMismatch, "number %s is out of range", e.Raw)
			return invalidType
		}
		if e.Float {
			return floatType
		}
		return intType
	case *syntax.BoolLit:
		return boolType
	case *syntax.NullLit:
		return nullType
	case *syntax.ParenExpr:
		return c.expr(x, e.X)
	case *syntax.Ident:
		return c.ident(x, e)
	case *syntax.MemberExpr:
		return c.member(x, e)
	case *syntax.CallExpr:
		if t, ok := c.valueCall(x, e); ok {
			return t
		}
		c.call(x, e)
		c.errorf(f, e, diag.BadCall, "a call has no value; call actions in action bodies or handlers")
		return invalidType
	case *syntax.CondExpr:
		return c.condExpr(x, e, nil)
	case *syntax.IndexExpr:
		return c.index(x, e)
	case *syntax.UnaryExpr:
		t := c.expr(x, e.X)
		switch {
		case t.Kind == Invalid:
			return t
		case e.Op == syntax.Not && t.Kind == TBool && !t.Optional:
			return boolType
		case e.Op == syntax.Minus && isNumeric(t):
			return t
		}
		c.errorf(f, e, diag.TypeMismatch, "operator %s does not apply to %s", e.Op, t)
		return invalidType
	case *syntax.BinaryExpr:
		return c.binary(x, e)
	case *syntax.ListLit:
		var elem *Type
		for _, el := range e.Elems {
			t := c.expr(x, el)
			if elem == nil {
				elem = t
			} else if !assignable(elem, t) {
				if assignable(t, elem) {
					elem = t
				} else {
					c.errorf(f, el, diag.TypeMismatch, "list elements differ in type: %s and %s", elem, t)
				}
			}
		}
		if elem == nil {
			elem = invalidType
		}
		return listOf(elem)
	case *syntax.BlockExpr:
		c.misplacedBlock(x, e)
		return invalidType
	case *syntax.LambdaExpr:
		y := x
		for _, p := range e.Params {
			y = c.with(y, p, p, invalidType)
		}
		return &Type{Kind: TLambda, Params: len(e.Params), Elem: c.expr(y, e.Body)}
	}
	return invalidType
}

func (c *checker) ident(x ctx, id *syntax.Ident) *Type {
	s := c.lookupLocalOrMember(x, id.Name)
	if c.info != nil && s != nil {
		c.use(id, c.symObject(s))
	}
	if s == nil {
		if ex := x.o.mod.externs[id.Name]; ex != nil {
			c.errorf(x.f, id, diag.BadCall, "extern action %s is called in actions or handlers, not read as a value", id.Name)
			return invalidType
		}
		if u := x.o.mod.uses[id.Name]; u != nil && u.contract != nil {
			c.errorf(x.f, id, diag.BadData, "contract %s is used through a query or mutation declaration", id.Name)
			return invalidType
		}
		c.unknownName(x, id)
		return invalidType
	}
	if r := c.reading; r != nil && x.o != nil && x.o.lets && x.from == r.node && (s.kind == symState || s.kind == symQuery || s.kind == symLet) {
		if c.valueReads == nil {
			c.valueReads = map[*symbol][]*symbol{}
		}
		c.valueReads[r] = append(c.valueReads[r], s)
	}
	switch s.kind {
	case symState, symQuery, symMutation, symProp:
		c.edge(x.from, s.node, graph.EdgeReads, graph.Resolved)
	case symLet:
		c.edge(x.from, s.node, graph.EdgeReads, graph.Resolved)
		if s.typ == nil || s.typ == letPending {
			return c.letRef(x, id, s)
		}
	}
	return s.typ
}

// member types x.sel: fields of models, and the parts of queries,
// mutations, lists and strings.
func (c *checker) member(x ctx, e *syntax.MemberExpr) *Type {
	t := c.expr(x, e.X)
	if t.Kind == Invalid {
		return t
	}
	opt := t.Optional
	wrap := func(r *Type) *Type {
		if opt {
			return optional(r)
		}
		return r
	}
	name := e.Sel.Name
	var names []string
	switch t.Kind {
	case TModel:
		if i := t.Model.Index(name); i >= 0 {
			fd := t.Model.Fields[i]
			c.edge(x.from, fd.node, graph.EdgeReads, graph.Resolved)
			c.useField(e.Sel, t.Model, i)
			return wrap(fd.Type)
		}
		for _, fd := range t.Model.Fields {
			names = append(names, fd.Name)
		}
	case TQuery, TMutation:
		switch name {
		case "pending", "error":
			return boolType
		case "error_message":
			return stringType
		case "data":
			if t.Kind == TMutation || t.Elem.Kind != TList {
				return optional(t.Elem)
			}
			return t.Elem
		case "run", "refresh":
			c.errorf(x.f, e.Sel, diag.BadCall, "%s() is called as a statement in an action", name)
			return invalidType
		}
		names = []string{"pending", "error", "error_message", "data"}
	case TList:
		switch name {
		case "count":
			return wrap(intType)
		case "is_empty":
			return wrap(boolType)
		case "first", "last":
			c.needs11(x.f, e.Sel, "."+name)
			return optional(t.Elem)
		}
		names = listMembers
	case TString:
		switch name {
		case "length":
			return wrap(intType)
		case "is_empty":
			return wrap(boolType)
		}
		names = stringMembers
	}
	if c.misusedMember(x, e.Sel, t, false) {
		return invalidType
	}
	c.errorf(x.f, e.Sel, diag.UnknownMember, "%s has no member %s%s", t, name, suggest(name, names))
	return invalidType
}

func (c *checker) binary(x ctx, e *syntax.BinaryExpr) *Type {
	if e.Op == syntax.Coalesce {
		return c.coalesce(x, e)
	}
	l := c.expr(x, e.X)
	r := c.expr(x, e.Y)
	if l.Kind == Invalid || r.Kind == Invalid {
		return invalidType
	}
	switch e.Op {
	case syntax.OrOr, syntax.AndAnd:
		if l.Kind == TBool && r.Kind == TBool && !l.Optional && !r.Optional {
			return boolType
		}
	case syntax.Eq, syntax.NotEq:
		if assignable(l, r) || assignable(r, l) {
			return boolType
		}
	case syntax.Less, syntax.LessEq, syntax.Greater, syntax.GreatEq:
		if isNumeric(l) && isNumeric(r) || l.Kind == TString && r.Kind == TString && !l.Optional && !r.Optional {
			return boolType
		}
	case syntax.Plus:
		if l.Kind == TList && r.Kind == TList {
			return c.concat(x, e, l, r)
		}
		if l.Kind == TString && !l.Optional && isScalar(r) || r.Kind == TString && !r.Optional && isScalar(l) {
			return stringType
		}
		fallthrough
	case syntax.Minus, syntax.Star, syntax.Slash, syntax.Percent:
		if isNumeric(l) && isNumeric(r) {
			if l.Kind == TFloat || r.Kind == TFloat {
				return floatType
			}
			return intType
		}
	}
	c.errorf(x.f, e, diag.TypeMismatch, "operator %s does not apply to %s and %s", e.Op, l, r)
	return invalidType
}

func isScalar(t *Type) bool {
	return !t.Optional && (t.Kind == TString || t.Kind == TInt || t.Kind == TFloat || t.Kind == TBool)
}

// words describes what is being checked, joined only when a diagnostic
// needs it: building these strings for every value checked cost more than
// the checks. It is an array passed by value, not a slice or an interface,
// which would be allocated for every value checked.
type words struct {
	n int
	w [4]string
}

// say describes what is being checked by up to four words.
func say(parts ...string) words {
	var w words
	// Assigned one by one: copy calls the runtime's typed copy, which at
	// one call per checked property was 2 % of a cold compile.
	for _, p := range parts {
		if w.n == len(w.w) {
			break
		}
		w.w[w.n] = p
		w.n++
	}
	return w
}

func (w words) String() string { return strings.Join(w.w[:w.n], " ") }
