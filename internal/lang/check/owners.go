package check

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/lang/arena"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// pendingNav is a navigation whose route is resolved once the app's route
// nodes exist.
type pendingNav struct {
	from int32
	path string
	file *syntax.File
	at   syntax.Node
	// call is the navigate call or the Link's name; what says which;
	// args are the named arguments after the path.
	call syntax.Node
	what string
	args []navArg
}

// ctx is the checking context of one expression: its owner, the node its
// reads are recorded on, the locals in scope and how calls are recorded.
type ctx struct {
	o      *owner
	f      *syntax.File
	from   int32
	locals []symbol
	// callEdge is calls inside actions and triggers in element handlers.
	callEdge string
	// runs is set for the items of a Text's block: inline runs.
	runs bool
}

// with returns x with the local name id of type t, its locals copied into
// the checker's blocks of symbols. decl declares it: id for a lambda's
// parameter or a list's item, the *syntax.Param of an action's parameter.
func (c *checker) with(x ctx, id *syntax.Ident, decl syntax.Node, t *Type) ctx {
	l := append(c.syms.Make(len(x.locals)+1), x.locals...)
	x.locals = append(l, symbol{kind: symLocal, name: id.Name, typ: t, node: -1, decl: id})
	if c.info != nil {
		kind := ObjLocal
		if _, ok := decl.(*syntax.Param); ok {
			kind = ObjParam
		}
		o := c.object(id, func() *Object { return &Object{Kind: kind, Name: id.Name, Decl: decl, Node: -1} })
		o.Type = t
		c.def(id, o)
	}
	return x
}

// newSymbol returns s in the checker's blocks of symbols, or on its own
// for a recheck, whose few symbols would keep a block each alive with
// the snapshot.
func (c *checker) newSymbol(s symbol) *symbol {
	if c.derived {
		return &s
	}
	return c.syms.New(s)
}

func (c *checker) checkBodies() {
	for _, m := range c.work {
		for _, o := range m.declared {
			c.checkProps(o)
		}
	}
	if c.derived || c.info != nil || len(c.work) < 2 || runtime.GOMAXPROCS(0) < 2 {
		for _, m := range c.work {
			c.checkOwners(m)
		}
		c.resolveFills()
		return
	}
	// Modules' bodies are independent: each is checked on its own copy of
	// the checker, into a fragment of the graph, and the fragments are
	// appended in module order, which gives the graph, the diagnostics
	// and the pending navigations of checking them one after another.
	ws := make([]*checker, len(c.work))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(c.work)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(c.work) {
					return
				}
				w := *c
				// About one node per 40 source bytes, as for the graph.
				w.g, w.diags, w.pendingNav, w.pendingFills, w.values, w.typeOnly, w.members = c.g.Fragment(len(c.work[k].file.Src)/40), nil, nil, nil, nil, nil, nil
				w.props, w.given, w.strs, w.sigBuf, w.syms = arena.Slices[graph.Property]{}, nil, arena.Strings{}, nil, arena.Slices[symbol]{}
				w.runs = arena.Slices[namedParam]{}
				w.checkOwners(c.work[k])
				ws[k] = &w
			}
		}()
	}
	wg.Wait()
	for _, w := range ws {
		index := c.g.Append(w.g)
		c.diags = append(c.diags, w.diags...)
		for _, nav := range w.pendingNav {
			nav.from = index(nav.from)
			c.pendingNav = append(c.pendingNav, nav)
		}
		for _, s := range w.members {
			s.node = index(s.node)
		}
		for _, p := range w.pendingFills {
			p.from = index(p.from)
			c.pendingFills = append(c.pendingFills, p)
		}
	}
	c.resolveFills()
}

// checkOwners checks the bodies of m's pages and components, and its
// annotations.
func (c *checker) checkOwners(m *module) {
	for _, o := range m.declared {
		c.checkOwner(o)
	}
	c.checkAnnotations(m)
}

var memberObjKinds = map[symKind]ObjKind{symLet: ObjLet, symState: ObjState, symQuery: ObjQuery, symMutation: ObjMutation, symAction: ObjAction, symProp: ObjProp}

var memberKinds = map[symKind]string{symLet: graph.KindLet, symState: graph.KindState, symQuery: graph.KindQuery, symMutation: graph.KindMutation, symAction: graph.KindAction, symProp: graph.KindProp}

func (c *checker) declareMember(o *owner, kind symKind, name *syntax.Ident, n syntax.Node) *symbol {
	f := o.mod.file
	if c.reserved(f, name) {
		return nil
	}
	if prev := o.members[name.Name]; prev != nil {
		c.errorf(f, name, diag.Duplicate, "%s is already declared in %s %s", name.Name, o.decl.Kind, o.decl.Name.Name)
		c.related(f, prev.decl, "the first declaration of "+name.Name)
		return nil
	}
	k := memberKinds[kind]
	s := c.newSymbol(symbol{kind: kind, name: name.Name, node: -1, decl: n})
	s.node = c.node(f, k, c.strs.Concat(k, ":", o.decl.Name.Name, ".", name.Name), name.Name, n, name, o.id)
	c.members = append(c.members, s)
	if c.info != nil {
		c.def(name, c.object(s, func() *Object { return &Object{Kind: memberObjKinds[kind], Name: name.Name, Decl: n, Node: s.node} }))
	}
	c.edge(s.node, o.node, graph.EdgeDeclaredIn, graph.Declared)
	o.members[name.Name] = s
	return s
}

// checkProps declares a component's props; every component's props are
// known before any view is checked.
func (c *checker) checkProps(o *owner) {
	f := o.mod.file
	base := ctx{o: o, f: f, from: -1, callEdge: graph.EdgeCalls}
	d := o.decl
	// Built here, not when first rendered: after checking, an owner is
	// read concurrently by rechecks of other modules.
	o.specs = make([]propSpec, 0, len(d.Params))
	for _, p := range d.Params {
		s := c.declareMember(o, symProp, p.Name, p)
		if s == nil {
			continue
		}
		s.typ = c.typeOf(o.mod, p.Type)
		n := c.g.At(s.node)
		c.sig(s.node, p.Pos, p.End)
		n.Props = c.typeProps(s.typ, p.Default != nil)
		if p.Default != nil {
			x := base
			x.from = s.node
			c.expect(x, p.Default, s.typ, say("the default of prop", p.Name.Name))
			n.Props = append(n.Props, c.literalProp(f, "default", s.typ.String(), p.Default))
		}
		c.modelEdges(s.node, s.typ)
		o.specs = append(o.specs, propSpec{name: s.name, typ: s.typ, required: p.Default == nil && !s.typ.Optional})
	}
	c.checkPageParams(o)
}

func (c *checker) checkOwner(o *owner) {
	f := o.mod.file
	d := o.decl
	base := ctx{o: o, f: f, from: -1, callEdge: graph.EdgeCalls}
	var view *syntax.ViewDecl
	for _, mem := range d.Members {
		switch mem := mem.(type) {
		case *syntax.StateDecl:
			if s := c.declareMember(o, symState, mem.Name, mem); s != nil {
				s.typ = c.typeOf(o.mod, mem.Type)
			}
		case *syntax.LetDecl:
			c.needs11(f, syntax.Span{Pos: mem.Pos, End: mem.Name.Pos}, "a derived value (let)")
			o.lets = true
			c.declareMember(o, symLet, mem.Name, mem)
		case *syntax.DataDecl:
			kind := symQuery
			if mem.Kind == syntax.Mutation {
				kind = symMutation
			}
			if s := c.declareMember(o, kind, mem.Name, mem); s != nil {
				s.typ = invalidType
			}
		case *syntax.ActionDecl:
			if s := c.declareMember(o, symAction, mem.Name, mem); s != nil {
				s.typ = actionType
				for _, p := range mem.Params {
					t := c.typeOf(o.mod, p.Type)
					s.params = append(s.params, namedParam{name: p.Name.Name, typ: t, optional: p.Default != nil})
					if p.Default != nil {
						c.expect(base, p.Default, t, say("the default of parameter", p.Name.Name))
					}
				}
				end := mem.End
				if mem.Body != nil {
					end = mem.Body.Pos
				}
				c.sig(s.node, mem.Name.Pos, end)
			}
		case *syntax.ViewDecl:
			if view != nil {
				c.errorf(f, mem, diag.Duplicate, "%s %s has a second view; an owner has one view", d.Kind, d.Name.Name)
				continue
			}
			view = mem
		}
	}
	// Queries and mutations first: their types are needed by states,
	// actions and the view, whatever the order they are written in.
	for _, mem := range d.Members {
		if dd, ok := mem.(*syntax.DataDecl); ok {
			if s := o.members[dd.Name.Name]; s != nil && s.decl == dd {
				c.checkData(base, s, dd)
			}
		}
	}
	// Derived values next, in order; one that reads another types it
	// first (letType).
	for _, mem := range d.Members {
		if ld, ok := mem.(*syntax.LetDecl); ok {
			if s := o.members[ld.Name.Name]; s != nil && s.decl == ld {
				c.letType(o, s)
			}
		}
	}
	for _, mem := range d.Members {
		switch mem := mem.(type) {
		case *syntax.StateDecl:
			s := o.members[mem.Name.Name]
			if s == nil || s.decl != mem {
				continue
			}
			n := c.g.At(s.node)
			c.sig(s.node, mem.Pos, mem.End)
			n.Props = c.typeProps(s.typ, mem.Init != nil || persisted(mem) != nil)
			c.modelEdges(s.node, s.typ)
			if mem.Init != nil {
				x := base
				x.from = s.node
				c.reading = s
				c.expect(x, mem.Init, s.typ, say("the initial value of state", mem.Name.Name))
				c.reading = nil
				c.g.At(s.node).Props = append(c.g.At(s.node).Props, c.literalProp(f, "initial", s.typ.String(), mem.Init))
			} else if !s.typ.Optional && s.typ.Kind != TList && s.typ.Kind != Invalid {
				c.errorf(f, mem.Name, diag.TypeMismatch, "state %s of type %s needs an initial value (= ...); only optional and list states start empty", mem.Name.Name, s.typ)
			}
			c.persist(o, s, mem)
		case *syntax.ActionDecl:
			s := o.members[mem.Name.Name]
			if s == nil || s.decl != mem {
				continue
			}
			x := base
			x.from = s.node
			for i, p := range mem.Params {
				x = c.with(x, p.Name, p, s.params[i].typ)
			}
			c.block(x, mem.Body)
			n := c.g.At(s.node)
			n.Props = c.axagProps(f, mem.Annotations, n.Props, true)
		}
	}
	c.valueCycles(o)
	if view != nil {
		x := base
		c.viewItems(x, view.Items, o.node, o.decl.Name.Name+"/view")
	}
}

// literalProp describes an authored value as a node property: literal
// scalars are editable, anything else is shown as its source text.
func (c *checker) literalProp(f *syntax.File, name, typ string, e syntax.Expr) graph.Property {
	b := e.Bounds()
	p := graph.Property{Name: name, Type: typ, ValuePos: b.Pos, ValueEnd: b.End}
	if s, ok := e.(*syntax.StringLit); ok {
		p.Value, p.Literal, p.Editable = c.box(s.Value), true, true
		return p
	}
	if v, ok := LiteralValue(e); ok {
		p.Value, p.Literal, p.Editable = v, true, true
		return p
	}
	v, ok := c.values[string(f.Src[b.Pos:b.End])]
	if !ok {
		v = c.box(string(f.Src[b.Pos:b.End]))
	}
	p.Value = v
	return p
}

// typeProps returns the properties of a prop or state of type t: its
// type, with room for its default or initial value when it has one.
// Otherwise the type is all there is, and the declarations of one type
// share one list, which nothing changes once built.
func (c *checker) typeProps(t *Type, valued bool) []graph.Property {
	name := t.String()
	prop := graph.Property{Name: "type", Type: "Type", Value: c.box(name), ValuePos: -1, ValueEnd: -1}
	if valued {
		return append(c.props.Make(2), prop)
	}
	ps, ok := c.typeOnly[name]
	if !ok {
		if c.typeOnly == nil {
			c.typeOnly = map[string][]graph.Property{}
		}
		ps = []graph.Property{prop}
		c.typeOnly[name] = ps
	}
	return ps
}

// box returns s as a property value. The values of a module repeat (the
// same styles, labels and names): they share one copy of each string and
// of its boxing into an interface, which would otherwise each be kept by
// the graph.
func (c *checker) box(s string) any {
	if v, ok := c.values[s]; ok {
		return v
	}
	if c.values == nil {
		c.values = map[string]any{}
	}
	v := any(s)
	c.values[s] = v
	return v
}

// LiteralValue returns the JSON value of a literal scalar expression:
// string, int64, float64, bool or nil for null.
func LiteralValue(e syntax.Expr) (any, bool) {
	switch e := e.(type) {
	case *syntax.StringLit:
		return e.Value, true
	case *syntax.BoolLit:
		return e.Value, true
	case *syntax.NullLit:
		return nil, true
	case *syntax.NumberLit:
		raw := strings.ReplaceAll(e.Raw, "_", "")
		if !e.Float {
			if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
				return n, true
			}
			return nil, false
		}
		if v, err := strconv.ParseFloat(raw, 64); err == nil {
			return v, true
		}
	case *syntax.UnaryExpr:
		if e.Op == syntax.Minus {
			if n, ok := e.X.(*syntax.NumberLit); ok {
				v, ok := LiteralValue(n)
				switch v := v.(type) {
				case int64:
					return -v, ok
				case float64:
					return -v, ok
				}
			}
		}
	}
	return nil, false
}

// checkData checks `query q = Contract.op(args)`.
func (c *checker) checkData(base ctx, s *symbol, d *syntax.DataDecl) {
	f := base.f
	x := base
	x.from = s.node
	prev := c.reading
	c.reading = s
	defer func() { c.reading = prev }()
	c.sig(s.node, d.Pos, d.End)
	call, ok := d.Value.(*syntax.CallExpr)
	var sel *syntax.MemberExpr
	var kname *syntax.Ident
	if ok {
		sel, _ = call.Fun.(*syntax.MemberExpr)
		if sel != nil {
			kname, _ = sel.X.(*syntax.Ident)
		}
	}
	if c.info != nil {
		// The declaration's value has its type once the operation is
		// known; until then it is invalid.
		c.record(d.Value, invalidType)
	}
	if kname == nil {
		if _, bad := d.Value.(*syntax.BadExpr); !bad {
			c.errorf(f, d.Value, diag.BadData, "a %s is a call of a contract operation, as %s %s = Tasks.list_tasks()", d.Kind, d.Kind, d.Name.Name)
		}
		return
	}
	u := base.o.mod.uses[kname.Name]
	if u == nil || u.contract == nil {
		if u == nil && !c.lockBroken {
			c.errorf(f, kname, diag.UnknownName, "%s is not an imported contract; add `use contract %s from \"<id>\"`%s", kname.Name, kname.Name, suggest(kname.Name, contractNames(base.o.mod)))
		}
		return
	}
	u.used = true
	k := u.contract
	op := k.ops[sel.Sel.Name]
	if c.info != nil {
		c.use(kname, c.objects[k])
		if op != nil {
			c.use(sel.Sel, c.objects[op])
			c.objects[s].Op = c.objects[op].Op
		}
	}
	if op == nil {
		c.errorf(f, sel.Sel, diag.UnknownOperation, "contract %s has no operation %s%s", k.name, sel.Sel.Name, suggest(sel.Sel.Name, keys(k.ops)))
		return
	}
	if op.kind != d.Kind {
		c.errorf(f, sel.Sel, diag.BadData, "%s.%s is a %s; declare it with `%s`", k.name, op.decl.Name.Name, op.kind, op.kind)
	}
	if op.kind == d.Kind {
		s.typ = op.dataType
	} else if d.Kind == syntax.Query {
		s.typ = &Type{Kind: TQuery, Elem: op.result}
	} else {
		s.typ = &Type{Kind: TMutation, Elem: op.result}
	}
	if c.info != nil {
		c.record(d.Value, s.typ)
		c.record(sel, s.typ)
	}
	c.edge(s.node, op.node, graph.EdgeInvokes, graph.Resolved)
	c.modelEdges(s.node, op.result)
	n := c.g.At(s.node)
	n.Props = append(c.props.Make(1+len(call.Args)), graph.Property{Name: "operation", Type: "Operation", Value: c.box(op.ref), ValuePos: sel.Pos, ValueEnd: sel.End})
	// The names given so far: a call has a few arguments.
	var seenBuf [8]string
	seen := seenBuf[:0]
	for i, a := range call.Args {
		var p *opParam
		switch {
		case a.Name != nil:
			for j := range op.params {
				if op.params[j].name == a.Name.Name {
					p = &op.params[j]
				}
			}
			if p == nil {
				c.errorf(f, a.Name, diag.BadArgument, "%s.%s has no parameter %s%s", k.name, op.decl.Name.Name, a.Name.Name, suggest(a.Name.Name, opParamNames(op)))
				c.expr(x, a.Value)
				continue
			}
		case i < len(op.params):
			p = &op.params[i]
		default:
			c.errorf(f, a, diag.BadArgument, "%s.%s takes %d arguments", k.name, op.decl.Name.Name, len(op.params))
			c.expr(x, a.Value)
			continue
		}
		if slices.Contains(seen, p.name) {
			c.errorf(f, a, diag.BadArgument, "argument %s is given twice", p.name)
		}
		seen = append(seen, p.name)
		c.expect(x, a.Value, p.typ, say("argument", p.name, "of", op.ref))
		n = c.g.At(s.node)
		n.Props = append(n.Props, c.literalProp(f, p.prop, p.typName, a.Value))
	}
	var missing []string
	for _, p := range op.params {
		if p.required && !slices.Contains(seen, p.name) {
			missing = append(missing, p.name)
		}
	}
	if d.Kind == syntax.Mutation && op.kind == syntax.Mutation {
		s.params = c.runParams(op, seen)
		if !c.v10 {
			// Acore 1.1: each run gives what the declaration leaves out
			// (runArgs).
			missing = nil
		}
	}
	if len(missing) > 0 {
		c.errorf(f, call, diag.BadArgument, "%s.%s needs argument %s", k.name, op.decl.Name.Name, strings.Join(missing, ", "))
	}
	n = c.g.At(s.node)
	n.Props = c.axagProps(f, d.Annotations, n.Props, true)
}

func opParamNames(op *operation) []string {
	out := make([]string, len(op.params))
	for i, p := range op.params {
		out[i] = p.name
	}
	return out
}

func contractNames(m *module) []string {
	var out []string
	for n, u := range m.uses {
		if u.contract != nil {
			out = append(out, n)
		}
	}
	return out
}

// typeOf resolves a type written in module m.
func (c *checker) typeOf(m *module, t *syntax.TypeExpr) *Type {
	if t == nil {
		return invalidType
	}
	var out *Type
	switch {
	case t.Elem != nil:
		out = listOf(c.typeOf(m, t.Elem))
	case t.Name != nil && t.Name.Name != "":
		name := t.Name.Name
		if s, ok := scalarTypes[name]; ok {
			out = s
		} else if mod := c.lookupModel(m, name); mod != nil {
			out = &Type{Kind: TModel, Model: mod}
			if c.info != nil {
				c.use(t.Name, c.modelObject(mod))
			}
		} else {
			if !c.lockBroken || !c.contractModelMaybe(name) {
				c.errorf(m.file, t.Name, diag.UnknownType, "unknown type %s; use String, Int, Float, Bool, Action, a model, or a list [T]%s", name, suggest(name, c.typeNames(m)))
			}
			return invalidType
		}
	default:
		return invalidType
	}
	if t.Optional {
		out = optional(out)
	}
	return out
}

// contractModelMaybe is true when a missing lock may hide the contract
// that declares name; such errors would only repeat the lock diagnostic.
func (c *checker) contractModelMaybe(name string) bool {
	return len(name) > 0 && name[0] >= 'A' && name[0] <= 'Z'
}

// lookupModel finds a model visible from m: declared there, imported by a
// use model line, or declared by a contract m imports.
func (c *checker) lookupModel(m *module, name string) *Model {
	if mod := m.models[name]; mod != nil {
		return mod
	}
	if u := m.uses[name]; u != nil && u.model != nil {
		u.used = true
		return u.model
	}
	var found *Model
	for _, u := range m.file.Uses {
		s := m.uses[u.Name.Name]
		if s == nil || s.contract == nil {
			continue
		}
		if mod := s.contract.models[name]; mod != nil {
			s.used = true
			if found == nil {
				found = mod
			} else if found != mod {
				c.errorf(m.file, u.Name, diag.AmbiguousName, "model %s is declared by more than one imported contract", name)
			}
		}
	}
	return found
}

func (c *checker) typeNames(m *module) []string {
	out := []string{"String", "Int", "Float", "Bool", "Action"}
	out = append(out, keys(m.models)...)
	for n, u := range m.uses {
		if u.model != nil {
			out = append(out, n)
		}
		if u.contract != nil {
			out = append(out, keys(u.contract.models)...)
		}
	}
	return out
}

// block checks an action body.
func (c *checker) block(x ctx, b *syntax.Block) {
	if b == nil {
		return
	}
	if c.v10 {
		c.semicolons(x.f, b)
	}
	for _, st := range b.Stmts {
		c.stmt(x, st)
	}
}

func (c *checker) stmt(x ctx, st syntax.Stmt) {
	f := x.f
	switch st := st.(type) {
	case *syntax.AssignStmt:
		id, ok := st.Target.(*syntax.Ident)
		if !ok {
			c.expr(x, st.Target)
			c.errorf(f, st.Target, diag.NotAssignable, "only a whole state can be assigned, as %s = ...", firstIdent(st.Target))
			c.expr(x, st.Value)
			return
		}
		s := c.lookupLocalOrMember(x, id.Name)
		if c.info != nil {
			c.recordName(id, s)
		}
		if s == nil {
			c.unknownName(x, id)
			c.expr(x, st.Value)
			return
		}
		if s.kind != symState {
			c.errorf(f, id, diag.NotAssignable, "%s is %s, not a state; only states can be assigned", id.Name, describeSym(s))
			c.expr(x, st.Value)
			return
		}
		c.edge(x.from, s.node, graph.EdgeWrites, graph.Resolved)
		c.expect(x, st.Value, s.typ, say("the value assigned to", id.Name))
	case *syntax.ExprStmt:
		call, ok := unparen(st.X).(*syntax.CallExpr)
		if !ok {
			c.expr(x, st.X)
			if _, bad := st.X.(*syntax.BadExpr); !bad {
				c.errorf(f, st.X, diag.NoEffect, "this expression has no effect; a statement runs a mutation, calls an action, navigates or assigns a state")
			}
			return
		}
		c.call(x, call)
	case *syntax.IfStmt:
		c.condition(x, st.Cond)
		c.block(x, st.Then)
		if st.Else != nil {
			c.stmt(x, st.Else)
		}
	case *syntax.Block:
		c.block(x, st)
	case *syntax.ForStmt:
		c.forStmt(x, st)
	}
}

func firstIdent(e syntax.Expr) string {
	for {
		switch v := e.(type) {
		case *syntax.MemberExpr:
			e = v.X
		case *syntax.Ident:
			return v.Name
		default:
			return "name"
		}
	}
}

func unparen(e syntax.Expr) syntax.Expr {
	for {
		p, ok := e.(*syntax.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

func describeSym(s *symbol) string {
	switch s.kind {
	case symState:
		return "a state"
	case symQuery:
		return "a query"
	case symMutation:
		return "a mutation"
	case symAction:
		return "an action"
	case symProp:
		return "a prop (props are read-only)"
	case symParam, symLocal:
		return "a parameter"
	case symExtern:
		return "an extern action"
	case symLet:
		return "a derived value (let), recomputed from what it reads"
	}
	return "not a state"
}

func (c *checker) condition(x ctx, e syntax.Expr) {
	t := c.expr(x, e)
	if t.Kind != Invalid && (t.Kind != TBool || t.Optional) {
		c.errorf(x.f, e, diag.BadCondition, "a condition is a Bool; this is %s", t)
	}
}

// call checks a call used as a statement (or as the body of a handler
// lambda) and records the edge it makes.
func (c *checker) call(x ctx, call *syntax.CallExpr) {
	f := x.f
	if c.info != nil {
		c.record(call, voidType)
	}
	switch fun := call.Fun.(type) {
	case *syntax.MemberExpr:
		id, ok := fun.X.(*syntax.Ident)
		var s *symbol
		if ok {
			s = c.lookupLocalOrMember(x, id.Name)
		}
		if s != nil && (s.kind == symMutation && fun.Sel.Name == "run" || s.kind == symQuery && fun.Sel.Name == "refresh") {
			if c.info != nil {
				c.recordName(id, s)
				c.record(fun, actionType)
			}
			if s.kind == symMutation {
				c.runArgs(x, call, id, s)
				c.edge(x.from, s.node, graph.EdgeInvokes, graph.Resolved)
				return
			}
			if len(call.Args) > 0 {
				c.errorf(f, call, diag.BadCall, "%s.%s() takes no arguments; the %s's arguments are in its declaration", id.Name, fun.Sel.Name, describeSym(s)[2:])
			}
			c.edge(x.from, s.node, graph.EdgeInvokes, graph.Resolved)
			return
		}
		t := c.expr(x, fun.X)
		if methodsOf(t) != nil && t.Kind != TModel || t.Kind == TModel && fun.Sel.Name == "with" {
			// A method gives a value; as a statement it would do nothing.
			c.method(x, call, fun, t)
			c.errorf(f, call, diag.NoEffect, "%s gives a value and does nothing on its own; assign it to a state, as %s = %s", f.Text(call), firstIdent(fun.X), f.Text(call))
			return
		}
		if c.info != nil {
			c.record(fun, invalidType)
		}
		if t.Kind != Invalid {
			c.errorf(f, fun.Sel, diag.BadCall, "%s has no method %s; a mutation has run() and a query refresh()", f.Text(fun.X), fun.Sel.Name)
		}
		c.args(x, call.Args)
	case *syntax.Ident:
		if fun.Name == "navigate" && c.lookupLocalOrMember(x, "navigate") == nil {
			if c.info != nil {
				c.record(fun, actionType)
			}
			c.navigate(x, call)
			return
		}
		s := c.lookupLocalOrMember(x, fun.Name)
		if c.info != nil {
			c.recordCallee(x, fun, s)
		}
		if s == nil {
			if ex := x.o.mod.externs[fun.Name]; ex != nil {
				c.checkArgs(x, call, fun.Name, c.externParams(ex))
				c.edge(x.from, ex.node, x.callEdge, graph.Resolved)
				return
			}
			c.unknownName(x, fun)
			c.args(x, call.Args)
			return
		}
		switch {
		case s.kind == symAction:
			c.checkArgs(x, call, fun.Name, s.params)
			if c.info != nil {
				c.useParams(call, s)
			}
			c.edge(x.from, s.node, x.callEdge, graph.Resolved)
		case s.kind == symProp && s.typ.Kind == TAction:
			if len(call.Args) > 0 {
				c.errorf(f, call, diag.BadCall, "%s takes no arguments", fun.Name)
			}
			c.edge(x.from, s.node, x.callEdge, graph.Resolved)
		default:
			c.errorf(f, fun, diag.BadCall, "%s is %s and cannot be called", fun.Name, describeSym(s))
			c.args(x, call.Args)
		}
	default:
		c.expr(x, call.Fun)
		c.errorf(f, call.Fun, diag.BadCall, "only actions, extern actions, navigate, run() and refresh() can be called")
		c.args(x, call.Args)
	}
}

type namedParam struct {
	name string
	typ  *Type
	// obj is a page parameter's object, when the compile records one.
	obj *Object
	// optional is set for a parameter with a default value (or, of a
	// mutation, one the contract does not require).
	optional bool
	// declared is set for a mutation's parameter given in its
	// declaration, so not at a run.
	declared bool
}

func (c *checker) externParams(ex *extern) []namedParam {
	if ex.params == nil {
		for _, p := range ex.decl.Params {
			ex.params = append(ex.params, c.typeOf(c.moduleOf(ex), p.Type))
			ex.names = append(ex.names, p.Name.Name)
		}
	}
	out := make([]namedParam, len(ex.params))
	for i := range ex.params {
		out[i] = namedParam{name: ex.names[i], typ: ex.params[i], optional: ex.decl.Params[i].Default != nil}
	}
	return out
}

func (c *checker) moduleOf(ex *extern) *module {
	for _, m := range c.order {
		if m.externs[ex.decl.Name.Name] == ex {
			return m
		}
	}
	return c.order[0]
}

// checkArgs matches call arguments, positional or named, to parameters.
func (c *checker) checkArgs(x ctx, call *syntax.CallExpr, name string, params []namedParam) {
	f := x.f
	seen := map[string]bool{}
	for i, a := range call.Args {
		var p *namedParam
		if a.Name != nil {
			for j := range params {
				if params[j].name == a.Name.Name {
					p = &params[j]
				}
			}
			if p == nil {
				c.errorf(f, a.Name, diag.BadCall, "%s has no parameter %s", name, a.Name.Name)
			}
		} else if i < len(params) {
			p = &params[i]
		} else {
			c.errorf(f, a, diag.BadCall, "%s takes %d arguments", name, len(params))
		}
		if p == nil {
			c.expr(x, a.Value)
			continue
		}
		if seen[p.name] {
			c.errorf(f, a, diag.BadCall, "argument %s is given twice", p.name)
		}
		seen[p.name] = true
		c.expect(x, a.Value, p.typ, say("argument", p.name, "of", name))
	}
	for _, p := range params {
		if !seen[p.name] && !p.typ.Optional && !p.optional {
			c.errorf(f, call, diag.BadCall, "%s needs argument %s", name, p.name)
		}
	}
}

func (c *checker) args(x ctx, args []*syntax.Arg) {
	for _, a := range args {
		c.expr(x, a.Value)
	}
}

func (c *checker) navigate(x ctx, call *syntax.CallExpr) {
	if len(call.Args) == 0 || call.Args[0].Name != nil {
		c.errorf(x.f, call, diag.BadCall, "navigate takes a route path and the route's parameters, as navigate(\"/\") or navigate(\"/books/:id\", id: book.id)")
		c.args(x, call.Args)
		return
	}
	lit, ok := call.Args[0].Value.(*syntax.StringLit)
	if !ok {
		c.expr(x, call.Args[0].Value)
		c.errorf(x.f, call.Args[0], diag.BadCall, "navigate takes a route path literal, so the compiler knows where it leads")
		c.args(x, call.Args[1:])
		return
	}
	if c.info != nil {
		c.record(lit, stringType)
	}
	args := c.navArgs(x, call.Args[1:], "navigate")
	c.pendingNav = append(c.pendingNav, pendingNav{from: x.from, path: lit.Value, file: x.f, at: lit, call: call, what: "navigate", args: args})
}

func (c *checker) lookupLocalOrMember(x ctx, name string) *symbol {
	for i := len(x.locals) - 1; i >= 0; i-- {
		if x.locals[i].name == name {
			return &x.locals[i]
		}
	}
	if x.o != nil {
		if s := x.o.members[name]; s != nil {
			return s
		}
	}
	return nil
}

func (c *checker) unknownName(x ctx, id *syntax.Ident) {
	var cands []string
	for _, l := range x.locals {
		cands = append(cands, l.name)
	}
	if x.o != nil {
		cands = append(cands, keys(x.o.members)...)
	}
	what := ""
	if x.o != nil {
		what = fmt.Sprintf(" in %s %s", x.o.decl.Kind, x.o.decl.Name.Name)
	}
	c.errorf(x.f, id, diag.UnknownName, "unknown name %s%s%s", id.Name, what, suggest(id.Name, cands))
}
