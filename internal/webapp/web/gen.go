package web

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/assets"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// gen compiles one validated project from what the checker recorded of
// it (check.Info): the type of each expression, the declaration each name
// uses, the graph node of each declaration and view item, and the checked
// contracts.
type gen struct {
	info    *check.Info
	g       *graph.Graph
	opts    Options
	sources []*syntax.File
	owners  map[string]*owner
	externs map[string]*externRef
	// items are the declarations of list items: a read of one is a read
	// of the item's signal.
	items map[*syntax.Ident]bool
	// contractOf is the contract id of each checked operation.
	contractOf map[*check.Operation]string
	// The AXAG attribute sets, one per manifest action (see axag.go).
	ax     [][]string
	siteAx map[string]int
	opAx   map[int32]int // query and mutation nodes → action
	// out is one owner's printed function; n numbers its DOM variables.
	out []byte
	n   int
	// idPrefix starts the node ids of the owner being lowered; its
	// function names it I when idShort is set (create).
	idPrefix string
	idShort  bool
	// specs keeps each catalog element's spec from app.js for the static
	// templates of index.html.
	specs map[*syntax.Element]*spec
	// expanded records the component expansions in index.html (html.go).
	expanded map[string]bool
	// runs is set while the runs of a Text's block are lowered.
	runs bool
	// styles is set when the project has its own stylesheet.
	styles bool
	// hash is set when the app chose hash routing.
	hash bool
	// row is set while a List's item view is lowered (select.go).
	row *rowCtx
	// feat are the runtime features one owner's code needs, beside its
	// API names (runtimeFor).
	feat assets.Features
}

type owner struct {
	d       *syntax.OwnerDecl
	members map[string]*member
	order   []*member
	view    *syntax.ViewDecl
}

// Member kinds.
const (
	mState = iota
	mQuery
	mMutation
	mAction
	mProp
	mLet
)

type member struct {
	kind  int
	name  string
	t     *check.Type
	state *syntax.StateDecl
	data  *syntax.DataDecl
	act   *syntax.ActionDecl
	prop  *syntax.Param
	let   *syntax.LetDecl
	op    *opRef
	node  int32 // graph node
}

type opRef struct {
	contract string // contract id
	op       *check.Operation
}

type externRef struct {
	f *syntax.File
	d *syntax.ExternDecl
}

// newGen reads the compile of p with its record (project.Recorded).
func newGen(p *project.Project, opts Options) (*gen, error) {
	if p.Info == nil {
		return nil, fmt.Errorf("web: the project was compiled without a record")
	}
	g := &gen{info: p.Info, g: p.Result.Graph, opts: opts, owners: map[string]*owner{}, externs: map[string]*externRef{},
		items: map[*syntax.Ident]bool{}, contractOf: map[*check.Operation]string{}, specs: map[*syntax.Element]*spec{}, expanded: map[string]bool{}}
	for id, k := range p.Info.Contracts {
		for _, op := range k.Ops {
			g.contractOf[op] = id
		}
	}
	for _, in := range p.Inputs.Sources {
		f := p.Headers(in.Path)
		if f == nil {
			return nil, fmt.Errorf("%s: the compile kept no tree", in.Path)
		}
		g.sources = append(g.sources, f)
	}
	for _, f := range g.sources {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *syntax.OwnerDecl:
				if err := g.addOwner(f, d); err != nil {
					return nil, err
				}
			case *syntax.ExternDecl:
				g.externs[d.Name.Name] = &externRef{f: f, d: d}
			}
		}
	}
	g.hash = check.Routing(g.app()) == check.RoutingHash
	return g, nil
}

func (g *gen) addOwner(f *syntax.File, d *syntax.OwnerDecl) error {
	o := &owner{d: d, members: map[string]*member{}}
	g.owners[d.Name.Name] = o
	add := func(m *member, name *syntax.Ident) error {
		obj := g.info.Defs[name]
		if obj == nil || obj.Node < 0 {
			return fmt.Errorf("%s: the compile recorded nothing of %s of %s", f.Path, m.name, d.Name.Name)
		}
		m.t, m.node = obj.Type, obj.Node
		if m.kind == mQuery || m.kind == mMutation {
			if obj.Op == nil {
				return fmt.Errorf("%s: %s of %s calls no contract operation", f.Path, m.name, d.Name.Name)
			}
			m.op = &opRef{contract: g.contractOf[obj.Op], op: obj.Op}
		}
		o.members[m.name] = m
		o.order = append(o.order, m)
		return nil
	}
	for _, pr := range d.Params {
		if err := add(&member{kind: mProp, name: pr.Name.Name, prop: pr}, pr.Name); err != nil {
			return err
		}
	}
	for _, mem := range d.Members {
		var err error
		switch m := mem.(type) {
		case *syntax.StateDecl:
			err = add(&member{kind: mState, name: m.Name.Name, state: m}, m.Name)
		case *syntax.LetDecl:
			err = add(&member{kind: mLet, name: m.Name.Name, let: m}, m.Name)
		case *syntax.DataDecl:
			mk := mQuery
			if m.Kind == syntax.Mutation {
				mk = mMutation
			}
			err = add(&member{kind: mk, name: m.Name.Name, data: m}, m.Name)
		case *syntax.ActionDecl:
			err = add(&member{kind: mAction, name: m.Name.Name, act: m}, m.Name)
		case *syntax.ViewDecl:
			o.view = m
			g.itemParams(m.Items)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// itemParams notes the item parameters of the lists among items.
func (g *gen) itemParams(items []syntax.ViewItem) {
	for _, it := range items {
		switch it := it.(type) {
		case *syntax.Element:
			if c := it.Children; c != nil {
				if c.Param != nil {
					g.items[c.Param] = true
				}
				g.itemParams(c.Items)
			}
		case *syntax.IfView:
			for _, br := range it.Branches {
				g.itemParams(br.Items)
			}
		}
	}
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

// typeOf returns the type the checker recorded for e.
func (g *gen) typeOf(e syntax.Expr) *check.Type {
	t := g.info.Types[e]
	if t == nil {
		g.fail(e, "the compile recorded no type")
	}
	return t
}

// use returns the declaration the name id uses, or nil for a name of the
// language (navigate).
func (g *gen) use(id *syntax.Ident) *check.Object { return g.info.Uses[id] }

// expr lowers an expression that reads values (never a call).
func (g *gen) expr(e syntax.Expr) js.Expr {
	switch e := e.(type) {
	case *syntax.StringLit:
		return js.Str(e.Value)
	case *syntax.NumberLit, *syntax.BoolLit, *syntax.NullLit:
		v, ok := check.LiteralValue(e)
		if !ok {
			g.fail(e, "a literal without a value")
		}
		return g.constant(e, v)
	case *syntax.ParenExpr:
		// The tree keeps the grouping; the printer writes the
		// parentheses JavaScript needs.
		return g.expr(e.X)
	case *syntax.ListLit:
		xs := make([]js.Expr, len(e.Elems))
		for i, x := range e.Elems {
			xs[i] = g.expr(x)
		}
		return &js.Array{Elems: xs}
	case *syntax.Ident:
		obj := g.use(e)
		if obj == nil {
			g.fail(e, "%s names nothing", e.Name)
		}
		switch obj.Kind {
		case check.ObjState, check.ObjLet:
			g.reads()
			return js.CallOf(local(e.Name))
		case check.ObjProp:
			if obj.Type.Kind == check.TAction {
				return local(e.Name)
			}
			g.reads()
			return js.CallOf(local(e.Name))
		case check.ObjParam:
			return local(e.Name)
		case check.ObjLocal:
			if id, ok := obj.Decl.(*syntax.Ident); ok && g.items[id] {
				if r := g.row; r != nil && r.plain && r.items[id] {
					return local(e.Name)
				}
				// Another list's item is a signal.
				g.reads()
				return js.CallOf(local(e.Name))
			}
			return local(e.Name)
		}
		g.fail(e, "%s is a %s, not a value", e.Name, obj.Kind)
	case *syntax.UnaryExpr:
		x := g.expr(e.X)
		switch e.Op {
		case syntax.Not:
			return &js.Unary{Op: js.Not, X: x}
		case syntax.Minus:
			return &js.Unary{Op: js.Neg, X: x}
		}
		g.fail(e, "unary operator %s", e.Op)
	case *syntax.BinaryExpr:
		return g.binary(e)
	case *syntax.MemberExpr:
		return g.member(e)
	case *syntax.BlockExpr:
		g.fail(e, "a handler block where a value is read")
	case *syntax.LambdaExpr:
		ps := make([]string, len(e.Params))
		for i, p := range e.Params {
			ps[i] = jsName(p.Name)
		}
		return &js.Arrow{Params: ps, Body: g.expr(e.Body)}
	case *syntax.CondExpr:
		return g.cond(e)
	case *syntax.IndexExpr:
		return g.index(e)
	case *syntax.CallExpr:
		if x, ok := g.valueCall(e); ok {
			return x
		}
		g.fail(e, "a call where a value is read")
	case *syntax.BadExpr:
		g.fail(e, "an expression that did not parse")
	}
	g.fail(e, "no case for this expression form")
	return nil
}

// constant lowers a constant's value (check.Constant).
func (g *gen) constant(at syntax.Node, v any) js.Expr {
	switch v := v.(type) {
	case nil:
		return &js.Null{}
	case string:
		return js.Str(v)
	case bool:
		return &js.Bool{Value: v}
	case int64:
		return js.Num(float64(v))
	case float64:
		return js.Num(v)
	case []any:
		a := &js.Array{Elems: make([]js.Expr, len(v))}
		for i, x := range v {
			a.Elems[i] = g.constant(at, x)
		}
		return a
	}
	g.fail(at, "a constant of type %T", v)
	return nil
}

func (g *gen) member(e *syntax.MemberExpr) js.Expr {
	sel := e.Sel.Name
	if id, ok := e.X.(*syntax.Ident); ok {
		if obj := g.use(id); obj != nil && (obj.Kind == check.ObjQuery || obj.Kind == check.ObjMutation) {
			switch sel {
			case "pending", "error", "error_message", "data":
				g.reads()
				return js.CallOf(js.DotOf(local(id.Name), sel))
			}
			g.fail(e, "%s has no signal %s", id.Name, sel)
		}
	}
	x, xt := g.expr(e.X), g.typeOf(e.X)
	switch {
	case xt.Kind == check.TModel:
		return &js.Dot{X: x, Name: sel, Optional: true}
	case sel == "count" && xt.Kind == check.TList:
		return js.CallOf(rtCount, x)
	case sel == "length" && xt.Kind == check.TString:
		return js.CallOf(rtLength, x)
	case sel == "is_empty" && (xt.Kind == check.TList || xt.Kind == check.TString):
		return js.CallOf(rtIsEmpty, x)
	case sel == "first" && xt.Kind == check.TList:
		return js.CallOf(rtIndex, x, js.Num(0))
	case sel == "last" && xt.Kind == check.TList:
		return js.CallOf(rtLast, x)
	}
	g.fail(e, "no case for the member %s of a %s", sel, xt)
	return nil
}

var binaryOps = map[syntax.Kind]js.BinaryOp{
	syntax.OrOr: js.Or, syntax.AndAnd: js.And,
	syntax.Less: js.Less, syntax.LessEq: js.LessEq, syntax.Greater: js.Greater, syntax.GreatEq: js.GreaterEq,
	syntax.Plus: js.Add, syntax.Minus: js.Sub, syntax.Star: js.Mul, syntax.Slash: js.Div, syntax.Percent: js.Rem,
}

func (g *gen) binary(e *syntax.BinaryExpr) js.Expr {
	if e.Op == syntax.Coalesce {
		return g.coalesce(e)
	}
	if e.Op == syntax.Eq || e.Op == syntax.NotEq {
		if x, ok := g.selection(e, e.Op == syntax.NotEq); ok {
			return x
		}
	}
	a, b := g.expr(e.X), g.expr(e.Y)
	at, bt := g.typeOf(e.X), g.typeOf(e.Y)
	ints := at.Kind == check.TInt && bt.Kind == check.TInt
	switch e.Op {
	case syntax.Eq:
		return js.CallOf(rtEqual, a, b)
	case syntax.NotEq:
		return &js.Unary{Op: js.Not, X: js.CallOf(rtEqual, a, b)}
	case syntax.Plus:
		if at.Kind == check.TList && bt.Kind == check.TList {
			return js.CallOf(rtConcat, a, b)
		}
		if at.Kind == check.TString || bt.Kind == check.TString {
			// Concatenation: JavaScript's + turns the Int, Float or Bool
			// side into its text (docs/web.md).
			return js.Bin(js.Add, str(a, at, e.X), str(b, bt, e.Y))
		}
	case syntax.Slash:
		if ints {
			return js.CallOf(rtDiv, a, b)
		}
	case syntax.Percent:
		if ints {
			return js.CallOf(rtRem, a, b)
		}
	}
	op, ok := binaryOps[e.Op]
	if !ok {
		g.fail(e, "binary operator %s", e.Op)
	}
	return js.Bin(op, a, b)
}

// str makes one side of a concatenation text: a number or a Bool as
// JavaScript writes it, a value missing from a backend's answer as "".
// Two numbers joined to a string on the right are then not added first.
// A string literal or another concatenation is text already.
func str(x js.Expr, t *check.Type, e syntax.Expr) js.Expr {
	for {
		p, ok := e.(*syntax.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	if t.Kind == check.TString {
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
func (g *gen) stmts(ss []syntax.Stmt) []js.Stmt {
	out := make([]js.Stmt, 0, len(ss))
	for _, s := range ss {
		out = append(out, g.stmt(s))
	}
	return out
}

func (g *gen) stmt(s syntax.Stmt) js.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		id, ok := s.Target.(*syntax.Ident)
		if !ok || g.use(id) == nil || g.use(id).Kind != check.ObjState {
			g.fail(s, "assignment to something other than a state")
		}
		return &js.ExprStmt{X: js.CallOf(js.DotOf(local(id.Name), "set"), g.expr(s.Value))}
	case *syntax.ExprStmt:
		c, ok := s.X.(*syntax.CallExpr)
		if !ok {
			g.fail(s, "an expression statement that is not a call")
		}
		return &js.ExprStmt{X: g.call(c)}
	case *syntax.IfStmt:
		st := &js.If{Cond: g.expr(s.Cond), Then: g.stmts(s.Then.Stmts)}
		switch e := s.Else.(type) {
		case nil:
		case *syntax.Block:
			st.Else = g.stmts(e.Stmts)
		default:
			st.Else = []js.Stmt{g.stmt(e)}
		}
		return st
	case *syntax.Block:
		return &js.Block{Stmts: g.stmts(s.Stmts)}
	case *syntax.ForStmt:
		return g.forStmt(s)
	case *syntax.BadDecl:
		g.fail(s, "a statement that did not parse")
	}
	g.fail(s, "no case for this statement form")
	return nil
}

// call lowers a call statement: navigate, .run(), .refresh(), an action,
// an Action prop or an extern action.
func (g *gen) call(c *syntax.CallExpr) js.Expr {
	switch f := c.Fun.(type) {
	case *syntax.MemberExpr:
		if id, ok := f.X.(*syntax.Ident); ok {
			if obj := g.use(id); obj != nil && obj.Kind == check.ObjMutation && f.Sel.Name == "run" {
				return g.run(id, c)
			}
			if obj := g.use(id); obj != nil && obj.Kind == check.ObjQuery && f.Sel.Name == "refresh" {
				return js.CallOf(js.DotOf(local(id.Name), f.Sel.Name))
			}
		}
	case *syntax.Ident:
		obj := g.use(f)
		if obj == nil {
			if f.Name == "navigate" && len(c.Args) > 0 {
				if s, ok := c.Args[0].Value.(*syntax.StringLit); ok {
					return js.CallOf(rtNavigate, g.routeURL(s.Value, c.Args[1:]))
				}
			}
			break
		}
		switch obj.Kind {
		case check.ObjAction:
			if d, ok := obj.Decl.(*syntax.ActionDecl); ok {
				return js.CallOf(local(f.Name), g.args(c.Args, paramNames(d.Params))...)
			}
		case check.ObjProp:
			// An Action prop the user did not pass is absent.
			return js.Bin(js.And, local(f.Name), js.CallOf(js.DotOf(local(f.Name), "f")))
		case check.ObjExtern:
			if d, ok := obj.Decl.(*syntax.ExternDecl); ok {
				names := paramNames(d.Params)
				args := g.args(c.Args, names)
				obj := &js.Object{Props: make([]js.Prop, len(args))}
				for i, n := range names {
					obj.Props[i] = js.Prop{Key: n, Value: args[i]}
				}
				return js.CallOf(rtExtern, js.Str(f.Name), obj)
			}
		}
	}
	g.fail(c, "no case for this call")
	return nil
}

func paramNames(ps []*syntax.Param) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name.Name
	}
	return out
}

// args orders call arguments, positional or named, by the parameters'
// names; a parameter without an argument (an optional one) is null.
func (g *gen) args(args []*syntax.Arg, params []string) []js.Expr {
	out := make([]js.Expr, len(params))
	for i, a := range args {
		v := g.expr(a.Value)
		if a.Name == nil {
			if i >= len(out) {
				g.fail(a.Value, "argument %d of %d parameters", i+1, len(params))
			}
			out[i] = v
			continue
		}
		j := slices.Index(params, a.Name.Name)
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
func (g *gen) handler(e syntax.Expr) *js.Arrow {
	// A handler reads when it runs, untracked: what it reads does not
	// make a row's bindings read a signal.
	if r := g.row; r != nil {
		r.quiet++
		defer func() { r.quiet-- }()
	}
	switch e := e.(type) {
	case *syntax.Ident:
		if obj := g.use(e); obj != nil {
			switch obj.Kind {
			case check.ObjAction:
				return js.Thunk(js.CallOf(local(e.Name)))
			case check.ObjProp:
				return js.Thunk(js.Bin(js.And, local(e.Name), js.CallOf(js.DotOf(local(e.Name), "f"))))
			case check.ObjExtern:
				return js.Thunk(js.CallOf(rtExtern, js.Str(e.Name), &js.Object{}))
			}
		}
	case *syntax.LambdaExpr:
		// The runtime runs a handler for its effects (act) and drops what
		// it returns, so a handler of one expression is that expression.
		if c, ok := e.Body.(*syntax.CallExpr); ok {
			return js.Thunk(g.call(c))
		}
		if b, ok := e.Body.(*syntax.BlockExpr); ok {
			body := g.stmts(b.Block.Stmts)
			if len(body) == 1 {
				if x, ok := body[0].(*js.ExprStmt); ok {
					return js.Thunk(x.X)
				}
			}
			return &js.Arrow{Block: body}
		}
	}
	g.fail(e, "no case for this handler")
	return nil
}

// contractArgs lowers a query's or mutation's arguments into a function
// returning the JSON object of the wire format: every parameter by name,
// a missing optional one as null, a missing one with a default as its
// default.
func (g *gen) contractArgs(m *member) js.Expr {
	c, _ := m.data.Value.(*syntax.CallExpr)
	params := m.op.op.Params
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	var args []*syntax.Arg
	if c != nil {
		args = c.Args
	}
	vals := g.args(args, names)
	obj := &js.Object{Props: make([]js.Prop, len(params))}
	for i, p := range params {
		v := vals[i]
		if _, null := v.(*js.Null); null && p.Default != nil {
			d, ok := check.Constant(p.Default)
			if !ok {
				g.fail(p.Default, "a default that is not a constant")
			}
			v = g.constant(p.Default, d)
		}
		obj.Props[i] = js.Prop{Key: p.Name, Value: v}
	}
	return js.Thunk(obj)
}

// emptyData is a query's data before its first answer: [] for a list
// result, else null.
func emptyData(m *member) js.Expr {
	if m.kind == mQuery && m.op.op.Result.Kind == check.TList {
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
