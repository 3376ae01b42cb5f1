package web

import (
	"fmt"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/graph"
	"github.com/axiomcore/acore/internal/project"
	"github.com/axiomcore/acore/internal/syntax"
	"github.com/axiomcore/acore/internal/web/js"
)

// gen compiles one validated project. The checker has resolved every name
// and type; gen looks names up with the same rules (locals, then the
// owner's members, then the module's extern actions) in the whole trees,
// and takes contract operations, ids and edges from the graph.
type gen struct {
	p       *project.Project
	g       *graph.Graph
	opts    Options
	sources []*syntax.File
	owners  map[string]*owner
	externs map[string]*externRef
	// envs are the model types visible in each file, by path.
	envs map[string]*env
	// The AXAG attribute sets, one per manifest action (see axag.go).
	ax     [][]string
	siteAx map[string]int
	opAx   map[int32]int // query and mutation nodes → action
	// items are the graph nodes of elements and conditionals, by the
	// file and offset of their view item.
	items map[itemKey]*graph.Node
	// out is one owner's printed function; n numbers its DOM variables.
	out []byte
	n   int
	// specs keeps each catalog element's spec from app.js for the static
	// templates of index.html.
	specs map[*syntax.Element]*spec
	// expanded records the component expansions in index.html (html.go).
	expanded map[string]bool
}

type itemKey struct {
	path string
	pos  int32
}

type owner struct {
	path    string
	d       *syntax.OwnerDecl
	members map[string]*member
	order   []*member
	view    *syntax.ViewDecl
	env     *env
}

// Member kinds.
const (
	mState = iota
	mQuery
	mMutation
	mAction
	mProp
)

type member struct {
	kind  int
	name  string
	t     *ty
	state *syntax.StateDecl
	data  *syntax.DataDecl
	act   *syntax.ActionDecl
	prop  *syntax.Param
	op    *opRef
	node  int32 // graph node
}

type opRef struct {
	contract string // contract id
	name     string
	decl     *syntax.OpDecl
	result   *ty
}

type externRef struct {
	f *syntax.File
	d *syntax.ExternDecl
}

// ty is the part of an Acore type the generated code depends on: string
// concatenation, integer division, member access.
type ty struct {
	k    byte // 's' String, 'i' Int, 'f' Float, 'b' Bool, 'l' list, 'm' model, 'a' Action, 'x' unknown
	elem *ty
	m    *model
}

type model struct {
	fields map[string]*syntax.TypeExpr
	env    *env
}

type env struct{ models map[string]*model }

var (
	tString  = &ty{k: 's'}
	tInt     = &ty{k: 'i'}
	tFloat   = &ty{k: 'f'}
	tBool    = &ty{k: 'b'}
	tUnknown = &ty{k: 'x'}
)

func (e *env) typ(t *syntax.TypeExpr) *ty {
	if t == nil {
		return tUnknown
	}
	if t.Elem != nil {
		return &ty{k: 'l', elem: e.typ(t.Elem)}
	}
	if t.Name == nil {
		return tUnknown
	}
	switch t.Name.Name {
	case "String":
		return tString
	case "Int":
		return tInt
	case "Float":
		return tFloat
	case "Bool":
		return tBool
	case "Action":
		return &ty{k: 'a'}
	}
	if m := e.models[t.Name.Name]; m != nil {
		return &ty{k: 'm', m: m}
	}
	return tUnknown
}

func newGen(p *project.Project, opts Options) (*gen, error) {
	g := &gen{p: p, g: p.Result.Graph, opts: opts, owners: map[string]*owner{}, externs: map[string]*externRef{}, envs: map[string]*env{}, specs: map[*syntax.Element]*spec{}, expanded: map[string]bool{}}
	g.items = map[itemKey]*graph.Node{}
	for i := range int32(g.g.Len()) {
		if n := g.g.At(i); n.Kind == graph.KindElement || n.Kind == graph.KindConditional {
			g.items[itemKey{n.Path, n.Pos}] = n
		}
	}
	moduleModels := map[string]*model{}
	contractEnvs := map[string]*env{} // by contract id
	for _, cf := range p.Contracts {
		ce := &env{models: map[string]*model{}}
		for _, d := range cf.Decls {
			if k, ok := d.(*syntax.ContractDecl); ok {
				for _, md := range k.Models {
					ce.models[md.Name.Name] = fieldsOf(md, ce)
				}
			}
		}
		contractEnvs[strings.TrimSuffix(path.Base(cf.Path), ".axiom")] = ce
	}
	// The compile kept only the sources' headers: parse them again, on
	// every core.
	g.sources = make([]*syntax.File, len(p.Inputs.Sources))
	parallel(len(g.sources), func(k int) { g.sources[k] = p.File(p.Inputs.Sources[k].Path) })
	for i, f := range g.sources {
		if f == nil {
			return nil, fmt.Errorf("%s: cannot read the source again", p.Inputs.Sources[i].Path)
		}
	}
	for _, f := range g.sources {
		fe := &env{models: map[string]*model{}}
		g.envs[f.Path] = fe
		for _, d := range f.Decls {
			if md, ok := d.(*syntax.ModelDecl); ok && md.Name != nil {
				moduleModels[md.Name.Name] = fieldsOf(md, fe)
			}
		}
	}
	for _, f := range g.sources {
		fe := g.envs[f.Path]
		// Module models are unique in the project; a contract's models
		// are visible where the module imports the contract.
		for n, m := range moduleModels {
			fe.models[n] = m
		}
		for _, u := range f.Uses {
			if u.Kind == syntax.UseContract && u.From != nil {
				if ce := contractEnvs[u.From.Value]; ce != nil {
					for n, m := range ce.models {
						if _, taken := fe.models[n]; !taken {
							fe.models[n] = m
						}
					}
				}
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *syntax.OwnerDecl:
				if err := g.addOwner(f, d, fe, contractEnvs); err != nil {
					return nil, err
				}
			case *syntax.ExternDecl:
				g.externs[d.Name.Name] = &externRef{f: f, d: d}
			}
		}
	}
	return g, nil
}

func fieldsOf(md *syntax.ModelDecl, e *env) *model {
	m := &model{fields: map[string]*syntax.TypeExpr{}, env: e}
	for _, fd := range md.Fields {
		if fd.Name != nil {
			m.fields[fd.Name.Name] = fd.Type
		}
	}
	return m
}

func (g *gen) addOwner(f *syntax.File, d *syntax.OwnerDecl, fe *env, contractEnvs map[string]*env) error {
	o := &owner{path: f.Path, d: d, members: map[string]*member{}, env: fe}
	g.owners[d.Name.Name] = o
	add := func(m *member, kind string) error {
		i, ok := g.g.Lookup(kind + ":" + d.Name.Name + "." + m.name)
		if !ok {
			return fmt.Errorf("%s: no graph node for %s %s of %s", f.Path, kind, m.name, d.Name.Name)
		}
		m.node = i
		o.members[m.name] = m
		o.order = append(o.order, m)
		return nil
	}
	for _, pr := range d.Params {
		if err := add(&member{kind: mProp, name: pr.Name.Name, t: fe.typ(pr.Type), prop: pr}, graph.KindProp); err != nil {
			return err
		}
	}
	for _, mem := range d.Members {
		var err error
		switch m := mem.(type) {
		case *syntax.StateDecl:
			err = add(&member{kind: mState, name: m.Name.Name, t: fe.typ(m.Type), state: m}, graph.KindState)
		case *syntax.DataDecl:
			kind, mk := graph.KindQuery, mQuery
			if m.Kind == syntax.Mutation {
				kind, mk = graph.KindMutation, mMutation
			}
			mm := &member{kind: mk, name: m.Name.Name, data: m}
			if err = add(mm, kind); err == nil {
				mm.op, err = g.opOf(mm.node, contractEnvs)
			}
		case *syntax.ActionDecl:
			err = add(&member{kind: mAction, name: m.Name.Name, act: m}, graph.KindAction)
		case *syntax.ViewDecl:
			o.view = m
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// opOf returns the contract operation a query or mutation node invokes.
func (g *gen) opOf(i int32, contractEnvs map[string]*env) (*opRef, error) {
	for _, ei := range g.g.Out(i) {
		e := g.g.Edges[ei]
		if e.Kind() != graph.EdgeInvokes {
			continue
		}
		n := g.g.At(e.To)
		if n.Kind != graph.KindOperation {
			continue
		}
		id := strings.TrimSuffix(path.Base(n.Path), ".axiom")
		op := &opRef{contract: id, name: n.Name, result: tUnknown}
		if cf := g.p.File(n.Path); cf != nil {
			for _, d := range cf.Decls {
				if k, ok := d.(*syntax.ContractDecl); ok {
					for _, od := range k.Ops {
						if od.Pos == n.Pos || od.Name != nil && od.Name.Name == n.Name && od.Name.Pos <= n.Pos && n.Pos < od.End {
							op.decl = od
						}
					}
				}
			}
		}
		if op.decl == nil {
			return nil, fmt.Errorf("%s: contract operation %s not found", n.Path, n.Name)
		}
		if op.decl.Result != nil {
			op.result = contractEnvs[id].typ(op.decl.Result)
		}
		return op, nil
	}
	return nil, fmt.Errorf("%s: no contract operation", g.g.At(i).ID)
}

// scope is a chain of local names: action parameters (plain values) and
// item template parameters (signals, read by calling them).
type scope struct {
	up   *scope
	name string
	t    *ty
	sig  bool
}

func (s *scope) with(name string, t *ty, sig bool) *scope {
	return &scope{up: s, name: name, t: t, sig: sig}
}

func (s *scope) lookup(name string) *scope {
	for ; s != nil; s = s.up {
		if s.name == name {
			return s
		}
	}
	return nil
}

// js names: every user name gets a "$", so none clashes with the runtime
// or a JavaScript keyword.
func jsName(n string) string { return "$" + n }

func local(n string) *js.Ident { return js.Id(jsName(n)) }

// internalError is a construct the backend has no case for: a checked
// project never has one, so it is the compiler's fault, and the build
// stops with it instead of writing code that does something else.
type internalError struct{ msg string }

func (e *internalError) Error() string { return "web backend: internal error: " + e.msg }

func (g *gen) fail(n syntax.Node, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if n != nil {
		msg = fmt.Sprintf("%T at offset %d: %s", n, n.Bounds().Pos, msg)
	}
	panic(&internalError{msg})
}

// catch turns an internalError raised below into *err.
func catch(err *error) {
	if r := recover(); r != nil {
		ie, ok := r.(*internalError)
		if !ok {
			panic(r)
		}
		*err = ie
	}
}

// expr lowers an expression that reads values (never a call).
func (g *gen) expr(o *owner, sc *scope, e syntax.Expr) (js.Expr, *ty) {
	switch e := e.(type) {
	case *syntax.StringLit:
		return js.Str(e.Value), tString
	case *syntax.NumberLit:
		f, err := strconv.ParseFloat(strings.ReplaceAll(e.Raw, "_", ""), 64)
		if err != nil {
			g.fail(e, "number %s: %v", e.Raw, err)
		}
		if e.Float {
			return js.Num(f), tFloat
		}
		return js.Num(f), tInt
	case *syntax.BoolLit:
		return &js.Bool{Value: e.Value}, tBool
	case *syntax.NullLit:
		return &js.Null{}, tUnknown
	case *syntax.ParenExpr:
		// The tree keeps the grouping; the printer writes the
		// parentheses JavaScript needs.
		return g.expr(o, sc, e.X)
	case *syntax.ListLit:
		xs := make([]js.Expr, len(e.Elems))
		var et = tUnknown
		for i, x := range e.Elems {
			var t *ty
			xs[i], t = g.expr(o, sc, x)
			if i == 0 || t.k == 'f' {
				et = t
			}
		}
		return &js.Array{Elems: xs}, &ty{k: 'l', elem: et}
	case *syntax.Ident:
		if l := sc.lookup(e.Name); l != nil {
			if l.sig {
				return js.CallOf(local(e.Name)), l.t
			}
			return local(e.Name), l.t
		}
		if m := o.members[e.Name]; m != nil {
			switch m.kind {
			case mState:
				return js.CallOf(local(e.Name)), m.t
			case mProp:
				if m.t.k == 'a' {
					return local(e.Name), m.t
				}
				return js.CallOf(local(e.Name)), m.t
			}
			g.fail(e, "%s is not a value", e.Name)
		}
		g.fail(e, "unresolved name %s", e.Name)
	case *syntax.UnaryExpr:
		x, t := g.expr(o, sc, e.X)
		switch e.Op {
		case syntax.Not:
			return &js.Unary{Op: js.Not, X: x}, tBool
		case syntax.Minus:
			return &js.Unary{Op: js.Neg, X: x}, t
		}
		g.fail(e, "unary operator %s", e.Op)
	case *syntax.BinaryExpr:
		return g.binary(o, sc, e)
	case *syntax.MemberExpr:
		return g.member(o, sc, e)
	case *syntax.LambdaExpr:
		inner := sc
		var ps []string
		for _, p := range e.Params {
			inner = inner.with(p.Name, tUnknown, false)
			ps = append(ps, jsName(p.Name))
		}
		body, _ := g.expr(o, inner, e.Body)
		return &js.Arrow{Params: ps, Body: body}, tUnknown
	case *syntax.CallExpr:
		g.fail(e, "a call where a value is read")
	case *syntax.BadExpr:
		g.fail(e, "an expression that did not parse")
	}
	g.fail(e, "no case for this expression form")
	return nil, nil
}

func (g *gen) member(o *owner, sc *scope, e *syntax.MemberExpr) (js.Expr, *ty) {
	sel := e.Sel.Name
	if id, ok := e.X.(*syntax.Ident); ok && sc.lookup(id.Name) == nil {
		if m := o.members[id.Name]; m != nil && (m.kind == mQuery || m.kind == mMutation) {
			var t *ty
			switch sel {
			case "pending", "error":
				t = tBool
			case "error_message":
				t = tString
			case "data":
				t = m.op.result
			default:
				g.fail(e, "%s has no signal %s", id.Name, sel)
			}
			return js.CallOf(js.DotOf(local(id.Name), sel)), t
		}
	}
	x, xt := g.expr(o, sc, e.X)
	switch {
	case xt.k == 'm':
		return &js.Dot{X: x, Name: sel, Optional: true}, xt.m.env.typ(xt.m.fields[sel])
	case sel == "count" && xt.k != 's':
		return js.CallOf(rtCount, x), tInt
	case sel == "length":
		return js.CallOf(rtLength, x), tInt
	case sel == "is_empty":
		return js.CallOf(rtIsEmpty, x), tBool
	}
	// A field of a value whose model this backend does not follow (a
	// lambda's parameter).
	return &js.Dot{X: x, Name: sel, Optional: true}, tUnknown
}

var binaryOps = map[syntax.Kind]js.BinaryOp{
	syntax.OrOr: js.Or, syntax.AndAnd: js.And,
	syntax.Less: js.Less, syntax.LessEq: js.LessEq, syntax.Greater: js.Greater, syntax.GreatEq: js.GreaterEq,
	syntax.Plus: js.Add, syntax.Minus: js.Sub, syntax.Star: js.Mul, syntax.Slash: js.Div, syntax.Percent: js.Rem,
}

func (g *gen) binary(o *owner, sc *scope, e *syntax.BinaryExpr) (js.Expr, *ty) {
	a, at := g.expr(o, sc, e.X)
	b, bt := g.expr(o, sc, e.Y)
	num := tFloat
	if at.k == 'i' && bt.k == 'i' {
		num = tInt
	}
	switch e.Op {
	case syntax.OrOr, syntax.AndAnd:
		return js.Bin(binaryOps[e.Op], a, b), tBool
	case syntax.Eq:
		return js.CallOf(rtEqual, a, b), tBool
	case syntax.NotEq:
		return &js.Unary{Op: js.Not, X: js.CallOf(rtEqual, a, b)}, tBool
	case syntax.Less, syntax.LessEq, syntax.Greater, syntax.GreatEq:
		return js.Bin(binaryOps[e.Op], a, b), tBool
	case syntax.Plus:
		if at.k == 's' || bt.k == 's' {
			// Concatenation: JavaScript's + turns the Int, Float or Bool
			// side into its text (docs/web.md).
			return js.Bin(js.Add, str(a, at, e.X), str(b, bt, e.Y)), tString
		}
		return js.Bin(js.Add, a, b), num
	case syntax.Slash:
		if num == tInt {
			return js.CallOf(rtDiv, a, b), tInt
		}
	case syntax.Percent:
		if num == tInt {
			return js.CallOf(rtRem, a, b), tInt
		}
	}
	op, ok := binaryOps[e.Op]
	if !ok {
		g.fail(e, "binary operator %s", e.Op)
	}
	return js.Bin(op, a, b), num
}

// str makes one side of a concatenation text: a number or a Bool as
// JavaScript writes it, a value missing from a backend's answer as "".
// Two numbers joined to a string on the right are then not added first.
// A string literal or another concatenation is text already.
func str(x js.Expr, t *ty, e syntax.Expr) js.Expr {
	for {
		p, ok := e.(*syntax.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	if t.k == 's' {
		switch e := e.(type) {
		case *syntax.StringLit:
			return x
		case *syntax.BinaryExpr:
			if e.Op == syntax.Plus {
				return x
			}
		}
	}
	return js.CallOf(rtText, x)
}

// stmts lowers action statements.
func (g *gen) stmts(o *owner, sc *scope, ss []syntax.Stmt) []js.Stmt {
	out := make([]js.Stmt, 0, len(ss))
	for _, s := range ss {
		out = append(out, g.stmt(o, sc, s))
	}
	return out
}

func (g *gen) stmt(o *owner, sc *scope, s syntax.Stmt) js.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		id, ok := s.Target.(*syntax.Ident)
		if !ok {
			g.fail(s, "assignment to something other than a state")
		}
		v, _ := g.expr(o, sc, s.Value)
		return &js.ExprStmt{X: js.CallOf(js.DotOf(local(id.Name), "set"), v)}
	case *syntax.ExprStmt:
		c, ok := s.X.(*syntax.CallExpr)
		if !ok {
			g.fail(s, "an expression statement that is not a call")
		}
		return &js.ExprStmt{X: g.call(o, sc, c)}
	case *syntax.IfStmt:
		c, _ := g.expr(o, sc, s.Cond)
		st := &js.If{Cond: c, Then: g.stmts(o, sc, s.Then.Stmts)}
		switch e := s.Else.(type) {
		case nil:
		case *syntax.Block:
			st.Else = g.stmts(o, sc, e.Stmts)
		default:
			st.Else = []js.Stmt{g.stmt(o, sc, e)}
		}
		return st
	case *syntax.Block:
		return &js.Block{Stmts: g.stmts(o, sc, s.Stmts)}
	case *syntax.BadDecl:
		g.fail(s, "a statement that did not parse")
	}
	g.fail(s, "no case for this statement form")
	return nil
}

// call lowers a call statement: navigate, .run(), .refresh(), an action,
// an Action prop or an extern action.
func (g *gen) call(o *owner, sc *scope, c *syntax.CallExpr) js.Expr {
	switch f := c.Fun.(type) {
	case *syntax.MemberExpr:
		if id, ok := f.X.(*syntax.Ident); ok {
			if m := o.members[id.Name]; m != nil && sc.lookup(id.Name) == nil && (m.kind == mQuery && f.Sel.Name == "refresh" || m.kind == mMutation && f.Sel.Name == "run") {
				return js.CallOf(js.DotOf(local(id.Name), f.Sel.Name))
			}
		}
	case *syntax.Ident:
		if sc.lookup(f.Name) == nil {
			if m := o.members[f.Name]; m != nil {
				switch m.kind {
				case mAction:
					return js.CallOf(local(f.Name), g.args(o, sc, c.Args, m.act.Params)...)
				case mProp:
					// An Action prop the user did not pass is absent.
					return js.Bin(js.And, local(f.Name), js.CallOf(js.DotOf(local(f.Name), "f")))
				}
			}
			if f.Name == "navigate" && len(c.Args) == 1 {
				if s, ok := c.Args[0].Value.(*syntax.StringLit); ok {
					return js.CallOf(rtNavigate, js.Str(s.Value))
				}
			}
			if x := g.externs[f.Name]; x != nil {
				args := g.args(o, sc, c.Args, x.d.Params)
				obj := &js.Object{Props: make([]js.Prop, len(args))}
				for i, p := range x.d.Params {
					obj.Props[i] = js.Prop{Key: p.Name.Name, Value: args[i]}
				}
				return js.CallOf(rtExtern, js.Str(f.Name), obj)
			}
		}
	}
	g.fail(c, "no case for this call")
	return nil
}

// args orders call arguments, positional or named, by the parameters; a
// parameter without an argument (an optional one) is null.
func (g *gen) args(o *owner, sc *scope, args []*syntax.Arg, params []*syntax.Param) []js.Expr {
	out := make([]js.Expr, len(params))
	for i, a := range args {
		v, _ := g.expr(o, sc, a.Value)
		if a.Name == nil {
			if i >= len(out) {
				g.fail(a.Value, "argument %d of %d parameters", i+1, len(params))
			}
			out[i] = v
			continue
		}
		j := slices.IndexFunc(params, func(p *syntax.Param) bool { return p.Name != nil && p.Name.Name == a.Name.Name })
		if j < 0 {
			g.fail(a.Value, "no parameter %s", a.Name.Name)
		}
		out[j] = v
	}
	for i := range out {
		if out[i] == nil {
			out[i] = &js.Null{}
		}
	}
	return out
}

// handler lowers the value of an Action property into a function.
func (g *gen) handler(o *owner, sc *scope, e syntax.Expr) js.Expr {
	switch e := e.(type) {
	case *syntax.Ident:
		if sc.lookup(e.Name) == nil {
			if m := o.members[e.Name]; m != nil {
				switch m.kind {
				case mAction:
					return js.Thunk(js.CallOf(local(e.Name)))
				case mProp:
					return js.Thunk(js.Bin(js.And, local(e.Name), js.CallOf(js.DotOf(local(e.Name), "f"))))
				}
			}
			if g.externs[e.Name] != nil {
				return js.Thunk(js.CallOf(rtExtern, js.Str(e.Name), &js.Object{}))
			}
		}
	case *syntax.LambdaExpr:
		if c, ok := e.Body.(*syntax.CallExpr); ok {
			return &js.Arrow{Block: []js.Stmt{&js.ExprStmt{X: g.call(o, sc, c)}}}
		}
	}
	g.fail(e, "no case for this handler")
	return nil
}

// contractArgs lowers a query's or mutation's arguments into a function
// returning the JSON object of the wire format: every parameter by name,
// a missing optional one as null, a missing one with a default as its
// default.
func (g *gen) contractArgs(o *owner, m *member) js.Expr {
	c, _ := m.data.Value.(*syntax.CallExpr)
	params := m.op.decl.Params
	var args []*syntax.Arg
	if c != nil {
		args = c.Args
	}
	vals := g.args(o, nil, args, params)
	obj := &js.Object{Props: make([]js.Prop, len(params))}
	for i, p := range params {
		v := vals[i]
		if _, null := v.(*js.Null); null && p.Default != nil {
			v, _ = g.expr(o, nil, p.Default)
		}
		obj.Props[i] = js.Prop{Key: p.Name.Name, Value: v}
	}
	return js.Thunk(obj)
}

// emptyData is a query's data before its first answer: [] for a list
// result, else null.
func emptyData(m *member) js.Expr {
	if m.kind == mQuery && m.op.result.k == 'l' {
		return &js.Array{}
	}
	return &js.Null{}
}

// parallel runs f(0) … f(n-1) on every core.
func parallel(n int, f func(k int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				f(k)
			}
		}()
	}
	wg.Wait()
}
