package check

import (
	"strings"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// The constructs of Acore 1.1: derived values, conditional expressions,
// `??`, indexing, methods with lambdas, record values and copies with
// changes, list concatenation.

// needs11 notes a construct of Acore 1.1 at n. A project whose UI lock
// pins the 1.0 catalog compiles as 1.0 did, and each such construct in it
// is AC507 until `axiom prepare` writes the 1.1 lock. The other parts of
// 1.1 (actions, the view, routing) call it for their constructs too.
func (c *checker) needs11(f *syntax.File, n syntax.Node, construct string) {
	if c.v10 {
		c.errorf(f, n, diag.NeedsVersion, "uses %s, which needs acore-ui 1.1; run `%s`", construct, Prepare(c.in.Root))
	}
}

// letPending is the type of a derived value while its expression is
// being typed: reading it then closes a cycle.
var letPending = &Type{Kind: Invalid}

// letType types the derived value s of o from its expression, once.
func (c *checker) letType(o *owner, s *symbol) *Type {
	if s.typ != nil && s.typ != letPending {
		return s.typ
	}
	d := s.decl.(*syntax.LetDecl)
	f := o.mod.file
	s.typ = letPending
	c.letStack = append(c.letStack, s)
	prev := c.reading
	c.reading = s
	t := c.expr(ctx{o: o, f: f, from: s.node, callEdge: graph.EdgeCalls}, d.Value)
	c.reading = prev
	c.letStack = c.letStack[:len(c.letStack)-1]
	if s.typ != letPending {
		// A cycle through s was reported and made it invalid.
		t = s.typ
	} else if !isValue(t) {
		c.errorf(f, d.Value, diag.LetNotValue, "let %s is %s, not a value; a derived value is computed from states, props, queries' data and other derived values", d.Name.Name, t)
		t = invalidType
	}
	s.typ = t
	c.sig(s.node, d.Pos, d.End)
	n := c.g.At(s.node)
	n.Props = append(c.typeProps(t, true), c.literalProp(f, "value", t.String(), d.Value))
	c.modelEdges(s.node, t)
	return t
}

// isValue reports whether t is the type of a value a derived value may
// hold.
func isValue(t *Type) bool {
	switch t.Kind {
	case TQuery, TMutation, TAction, TLambda, TVoid, TNull:
		return false
	}
	return true
}

// letRef types a read of the derived value s before s is typed: within
// another derived value, or in a query's arguments.
func (c *checker) letRef(x ctx, id *syntax.Ident, s *symbol) *Type {
	if s.typ == letPending {
		at := 0
		for i, l := range c.letStack {
			if l == s {
				at = i
			}
		}
		names := make([]string, 0, len(c.letStack)-at+1)
		for _, l := range c.letStack[at:] {
			names = append(names, l.name)
			l.typ = invalidType
		}
		names = append(names, s.name)
		c.errorf(x.f, id, diag.LetCycle, "let %s reads itself: %s; a derived value cannot depend on itself", s.name, strings.Join(names, " → "))
		return invalidType
	}
	return c.letType(x.o, s)
}

// nonOptional is t without its `?`.
func nonOptional(t *Type) *Type {
	if !t.Optional {
		return t
	}
	c := *t
	c.Optional = false
	return &c
}

// unify is the type of a value that is a or b: the wider of the two, and
// optional when either may be null.
func unify(a, b *Type) (*Type, bool) {
	switch {
	case a.Kind == Invalid:
		return b, true
	case b.Kind == Invalid:
		return a, true
	case a.Kind == TNull && b.Kind == TNull:
		return a, true
	case a.Kind == TNull:
		return optional(b), true
	case b.Kind == TNull:
		return optional(a), true
	}
	na, nb := nonOptional(a), nonOptional(b)
	var r *Type
	switch {
	case assignable(na, nb):
		r = na
	case assignable(nb, na):
		r = nb
	default:
		return nil, false
	}
	if a.Optional || b.Optional {
		r = optional(r)
	}
	return r, true
}

// condExpr types `if c then a else b`.
func (c *checker) condExpr(x ctx, e *syntax.CondExpr, want *Type) *Type {
	c.needs11(x.f, e, "a conditional expression (if … then … else)")
	c.condition(x, e.Cond)
	a := c.exprWant(x, e.Then, want)
	b := c.exprWant(x, e.Else, want)
	t, ok := unify(a, b)
	if !ok {
		c.errorf(x.f, e, diag.BranchMismatch, "the branches of if … then … else differ in type: %s and %s; both give a value of one type", a, b)
		return invalidType
	}
	return t
}

// coalesce types `a ?? b`: a optional, b fitting a without its `?`.
func (c *checker) coalesce(x ctx, e *syntax.BinaryExpr) *Type {
	c.needs11(x.f, e, "?? (a default for an optional value)")
	l := c.expr(x, e.X)
	if l.Kind == Invalid {
		c.expr(x, e.Y)
		return invalidType
	}
	if !l.Optional {
		c.errorf(x.f, e.X, diag.NotOptional, "%s is %s and never null; ?? gives a default to an optional value (T?)", x.f.Text(e.X), l)
		c.expr(x, e.Y)
		return l
	}
	want := nonOptional(l)
	r := c.exprWant(x, e.Y, want)
	if !assignable(optional(want), r) {
		c.errorf(x.f, e.Y, diag.TypeMismatch, "the default after ?? is %s, expected %s", r, want)
		return want
	}
	if r.Optional || r.Kind == TNull {
		return l
	}
	return want
}

// index types `xs[i]`: the element, or null past the end.
func (c *checker) index(x ctx, e *syntax.IndexExpr) *Type {
	c.needs11(x.f, e, "indexing (xs[i])")
	t := c.expr(x, e.X)
	i := c.expr(x, e.Index)
	if t.Kind == Invalid || i.Kind == Invalid {
		return invalidType
	}
	if t.Kind != TList || t.Optional {
		c.errorf(x.f, e.X, diag.BadIndex, "%s is %s; only a list is indexed, as xs[0]", x.f.Text(e.X), t)
		return invalidType
	}
	if i.Kind != TInt || i.Optional {
		c.errorf(x.f, e.Index, diag.BadIndex, "an index is an Int; this is %s", i)
	}
	return optional(t.Elem)
}

// concat types `xs + ys`, both lists of one element type.
func (c *checker) concat(x ctx, e *syntax.BinaryExpr, l, r *Type) *Type {
	c.needs11(x.f, e, "list concatenation (xs + ys)")
	switch {
	case l.Optional || r.Optional:
	case l.Elem.Kind == Invalid:
		return r
	case assignable(l.Elem, r.Elem):
		return l
	case assignable(r.Elem, l.Elem):
		return r
	}
	c.errorf(x.f, e, diag.TypeMismatch, "operator + joins two lists of one type; these are %s and %s", l, r)
	return invalidType
}

// The members of lists, strings and numbers written without parentheses,
// and the methods, which are called.
var (
	listMembers   = []string{"count", "is_empty", "first", "last"}
	listMethods   = []string{"filter", "map", "any", "all", "find", "count", "sort_by", "reverse", "contains", "take"}
	stringMembers = []string{"length", "is_empty"}
	stringMethods = []string{"trim", "lower", "upper", "contains", "starts_with", "ends_with", "replace", "split"}
	numberMethods = []string{"fixed"}
)

// methodsOf returns the methods of a value of type t, nil for none.
func methodsOf(t *Type) []string {
	switch t.Kind {
	case TList:
		return listMethods
	case TString:
		return stringMethods
	case TInt, TFloat:
		return numberMethods
	case TModel:
		return []string{"with"}
	}
	return nil
}

// memberAsMethod reports a method read without its call, or a member
// called; ok is false when name is neither.
func (c *checker) misusedMember(x ctx, sel *syntax.Ident, t *Type, called bool) bool {
	name := sel.Name
	var members []string
	switch t.Kind {
	case TList:
		members = listMembers
	case TString:
		members = stringMembers
	}
	if called && contains(members, name) && !contains(methodsOf(t), name) {
		c.errorf(x.f, sel, diag.BadMethod, "%s is written without parentheses: .%s", name, name)
		return true
	}
	if !called && contains(methodsOf(t), name) && !contains(members, name) {
		c.errorf(x.f, sel, diag.BadMethod, "%s of %s is called, as .%s(%s)", name, t, name, methodHint(name))
		return true
	}
	return false
}

func methodHint(name string) string {
	switch name {
	case "filter", "any", "all", "find", "count":
		return "|x| condition"
	case "map", "sort_by":
		return "|x| value"
	case "with":
		return "field: value"
	case "reverse", "trim", "lower", "upper":
		return ""
	}
	return "…"
}

// valueCall types a call that gives a value: a method of a list, string,
// number or record, or a record value Model(field: v). ok is false for
// the calls of statements (actions, run, refresh, navigate, externs).
func (c *checker) valueCall(x ctx, call *syntax.CallExpr) (*Type, bool) {
	switch fun := call.Fun.(type) {
	case *syntax.Ident:
		if x.o == nil || fun.Name == "navigate" || c.lookupLocalOrMember(x, fun.Name) != nil || x.o.mod.externs[fun.Name] != nil {
			return nil, false
		}
		m := c.lookupModel(x.o.mod, fun.Name)
		if m == nil {
			return nil, false
		}
		return c.recordValue(x, call, fun, m), true
	case *syntax.MemberExpr:
		if id, ok := fun.X.(*syntax.Ident); ok {
			if s := c.lookupLocalOrMember(x, id.Name); s != nil && (s.kind == symQuery || s.kind == symMutation) {
				return nil, false
			}
		}
		t := c.method(x, call, fun, c.expr(x, fun.X))
		return t, true
	}
	return nil, false
}

// method types the call of method fun.Sel on a value of type t.
func (c *checker) method(x ctx, call *syntax.CallExpr, fun *syntax.MemberExpr, t *Type) *Type {
	r := c.methodOf(x, call, fun, t)
	if c.info != nil {
		c.record(fun, r)
	}
	return r
}

func (c *checker) methodOf(x ctx, call *syntax.CallExpr, fun *syntax.MemberExpr, t *Type) *Type {
	f, name := x.f, fun.Sel.Name
	if t.Kind == Invalid {
		c.args(x, call.Args)
		return invalidType
	}
	methods := methodsOf(t)
	if !contains(methods, name) {
		if !c.misusedMember(x, fun.Sel, t, true) {
			c.errorf(f, fun.Sel, diag.UnknownMember, "%s has no method %s%s", t, name, suggest(name, methods))
		}
		c.args(x, call.Args)
		return invalidType
	}
	c.needs11(f, fun.Sel, "the method ."+name+"()")
	if t.Optional {
		c.errorf(f, fun.X, diag.TypeMismatch, "%s is %s and may be null; give it a default first, as (%s ?? …).%s(…)", f.Text(fun.X), t, f.Text(fun.X), name)
		c.args(x, call.Args)
		return invalidType
	}
	if t.Kind == TModel {
		return c.withCopy(x, call, t)
	}
	// arity is the number of arguments of each method; count takes 0 or 1.
	arity := 1
	switch name {
	case "reverse", "trim", "lower", "upper":
		arity = 0
	case "replace":
		arity = 2
	case "count":
		if len(call.Args) == 0 {
			arity = 0
		}
	}
	if len(call.Args) != arity || anyNamed(call.Args) {
		c.errorf(f, call, diag.BadMethod, "%s takes %s, as .%s(%s)", name, arguments(arity), name, methodHint(name))
		c.args(x, call.Args)
		return invalidType
	}
	var a *syntax.Arg
	if arity > 0 {
		a = call.Args[0]
	}
	switch t.Kind {
	case TList:
		elem := t.Elem
		switch name {
		case "filter", "any", "all", "find":
			c.predicate(x, name, a, elem)
			switch name {
			case "filter":
				return t
			case "find":
				return optional(elem)
			}
			return boolType
		case "count":
			if a != nil {
				c.predicate(x, name, a, elem)
			}
			return intType
		case "map":
			r := c.fnArg(x, name, a, elem)
			if r.Kind != Invalid && !isValue(r) {
				c.errorf(f, a.Value, diag.BadLambda, "the lambda of map gives %s, not a value", r)
				return invalidType
			}
			return listOf(r)
		case "sort_by":
			k := c.fnArg(x, name, a, elem)
			if k.Kind != Invalid && (k.Optional || k.Kind != TInt && k.Kind != TFloat && k.Kind != TString) {
				c.errorf(f, a.Value, diag.BadSortKey, "the key of sort_by is an Int, a Float or a String; this is %s", k)
			}
			return t
		case "reverse":
			return t
		case "contains":
			c.expect(x, a.Value, elem, say("the argument of contains"))
			return boolType
		case "take":
			c.expect(x, a.Value, intType, say("the argument of take"))
			return t
		}
	case TString:
		switch name {
		case "trim", "lower", "upper":
			return stringType
		case "contains", "starts_with", "ends_with":
			c.expect(x, a.Value, stringType, say("the argument of", name))
			return boolType
		case "replace":
			c.expect(x, a.Value, stringType, say("the first argument of replace"))
			c.expect(x, call.Args[1].Value, stringType, say("the second argument of replace"))
			return stringType
		case "split":
			c.expect(x, a.Value, stringType, say("the argument of split"))
			return listOf(stringType)
		}
	case TInt, TFloat:
		c.expect(x, a.Value, intType, say("the argument of fixed"))
		if v, ok := LiteralValue(a.Value); ok {
			if n, ok := v.(int64); ok && (n < 0 || n > 20) {
				c.errorf(f, a.Value, diag.OutOfRange, "fixed takes 0 to 20 decimals; this is %d", n)
			}
		}
		return stringType
	}
	return invalidType
}

func anyNamed(args []*syntax.Arg) bool {
	for _, a := range args {
		if a.Name != nil {
			return true
		}
	}
	return false
}

func arguments(n int) string {
	switch n {
	case 0:
		return "no arguments"
	case 1:
		return "one argument"
	}
	return "two arguments"
}

// predicate checks the lambda of filter, any, all, find or count: a Bool
// of the element.
func (c *checker) predicate(x ctx, method string, a *syntax.Arg, elem *Type) {
	r := c.fnArg(x, method, a, elem)
	if r.Kind != Invalid && (r.Kind != TBool || r.Optional) {
		c.errorf(x.f, a.Value, diag.BadLambda, "the lambda of %s gives a Bool, as |x| x.done; this gives %s", method, r)
	}
}

// fnArg checks the lambda argument of a method, its one parameter typed
// as the list's element, and returns the type of its body.
func (c *checker) fnArg(x ctx, method string, a *syntax.Arg, elem *Type) *Type {
	lam, ok := a.Value.(*syntax.LambdaExpr)
	if !ok {
		c.expr(x, a.Value)
		c.errorf(x.f, a.Value, diag.BadLambda, "%s takes a lambda, as .%s(%s)", method, method, methodHint(method))
		return invalidType
	}
	if len(lam.Params) != 1 {
		c.errorf(x.f, lam, diag.BadLambda, "the lambda of %s takes one parameter, the element, as |x| …", method)
	}
	y := x
	for i, p := range lam.Params {
		t := invalidType
		if i == 0 {
			t = elem
		}
		y = c.with(y, p, p, t)
	}
	r := c.expr(y, lam.Body)
	if c.info != nil {
		c.record(lam, &Type{Kind: TLambda, Params: len(lam.Params), Elem: r})
	}
	return r
}

// recordValue types Model(field: v, ...): every field named once, every
// field that is not optional given.
func (c *checker) recordValue(x ctx, call *syntax.CallExpr, id *syntax.Ident, m *Model) *Type {
	f := x.f
	c.needs11(f, id, "a record value ("+m.Name+"(…))")
	t := &Type{Kind: TModel, Model: m}
	if c.info != nil {
		c.use(id, c.modelObject(m))
		c.record(id, t)
	}
	seen := c.fields(x, call, m, diag.BadRecord, "a record value")
	var missing []string
	for i, fd := range m.Fields {
		if !seen[i] && !fd.Type.Optional {
			missing = append(missing, fd.Name)
		}
	}
	if len(missing) > 0 {
		c.errorf(f, call, diag.BadRecord, "a record value of %s needs field %s", m.Name, strings.Join(missing, ", "))
	}
	return t
}

// with types t.with(field: v, ...): a copy of a record with changes.
func (c *checker) withCopy(x ctx, call *syntax.CallExpr, t *Type) *Type {
	if len(call.Args) == 0 {
		c.errorf(x.f, call, diag.BadWith, "with takes the fields to change, as t.with(done: true)")
		return t
	}
	c.fields(x, call, t.Model, diag.BadWith, "with")
	return t
}

// fields checks named field arguments of m, each once, and returns which
// fields were given.
func (c *checker) fields(x ctx, call *syntax.CallExpr, m *Model, code, what string) []bool {
	f := x.f
	seen := make([]bool, len(m.Fields))
	for _, a := range call.Args {
		if a.Name == nil {
			c.errorf(f, a, code, "the fields of %s are named, as %s(field: …)", what, m.Name)
			c.expr(x, a.Value)
			continue
		}
		i := m.Index(a.Name.Name)
		if i < 0 {
			names := make([]string, len(m.Fields))
			for j, fd := range m.Fields {
				names[j] = fd.Name
			}
			c.errorf(f, a.Name, code, "%s has no field %s%s", m.Name, a.Name.Name, suggest(a.Name.Name, names))
			c.expr(x, a.Value)
			continue
		}
		if seen[i] {
			c.errorf(f, a, code, "field %s is given twice", a.Name.Name)
		}
		seen[i] = true
		c.edge(x.from, m.Fields[i].node, graph.EdgeWrites, graph.Resolved)
		c.useField(a.Name, m, i)
		c.expect(x, a.Value, m.Fields[i].Type, say("field", a.Name.Name, "of", m.Name))
	}
	return seen
}

// valueCycles reports the cycles through a derived value among the
// values of o that are computed from each other: a state's initial value,
// a derived value, a query's arguments (`state a: Int = b` with
// `let b = a + 1`; `query q = C.op(n: n)` with `let n = q.data.count`).
// None of them could be computed first. Cycles of derived values alone
// were reported as they were typed (letRef).
func (c *checker) valueCycles(o *owner) {
	if len(c.valueReads) == 0 {
		return
	}
	const (
		visiting = 1
		done     = 2
	)
	state := map[*symbol]int{}
	var stack []*symbol
	var visit func(s *symbol)
	visit = func(s *symbol) {
		state[s] = visiting
		stack = append(stack, s)
		for _, r := range c.valueReads[s] {
			switch state[r] {
			case 0:
				visit(r)
			case visiting:
				at := len(stack) - 1
				for stack[at] != r {
					at--
				}
				c.valueCycle(o, stack[at:])
			}
		}
		stack = stack[:len(stack)-1]
		state[s] = done
	}
	// In source order, so that a cycle is named from its first member.
	for _, mem := range o.decl.Members {
		var name *syntax.Ident
		switch d := mem.(type) {
		case *syntax.StateDecl:
			name = d.Name
		case *syntax.LetDecl:
			name = d.Name
		case *syntax.DataDecl:
			name = d.Name
		}
		if name == nil {
			continue
		}
		if s := o.members[name.Name]; s != nil && s.decl == mem && state[s] == 0 && c.valueReads[s] != nil {
			visit(s)
		}
	}
	// The members of one owner read only each other.
	c.valueReads = nil
}

// valueCycle reports cycle, the members in read order, when a derived
// value and another member are in it.
func (c *checker) valueCycle(o *owner, cycle []*symbol) {
	lets, others := 0, 0
	for _, s := range cycle {
		if s.kind == symLet {
			lets++
		} else {
			others++
		}
	}
	if lets == 0 || others == 0 {
		return
	}
	names := make([]string, 0, len(cycle)+1)
	for _, s := range cycle {
		names = append(names, s.name)
	}
	first := cycle[0]
	names = append(names, first.name)
	var at syntax.Node = first.decl
	switch d := first.decl.(type) {
	case *syntax.StateDecl:
		at = d.Name
	case *syntax.LetDecl:
		at = d.Name
	case *syntax.DataDecl:
		at = d.Name
	}
	c.errorf(o.mod.file, at, diag.LetCycle, "%s reads itself through a derived value: %s; none of them can be computed first", first.name, strings.Join(names, " → "))
}
