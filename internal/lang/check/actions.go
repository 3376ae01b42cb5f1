package check

import (
	"bytes"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// The actions and handlers of Acore 1.1: handler blocks, loops, arguments
// given at each run of a mutation, and persisted states.

// handlerBlock checks `|| { statements }`, the value of an Action
// property: the statements of an action body, run by the element.
func (c *checker) handlerBlock(x ctx, lam *syntax.LambdaExpr, b *syntax.BlockExpr) {
	c.needs11(x.f, syntax.Span{Pos: lam.Pos, End: b.Pos + 1}, "a handler block (|| { … })")
	c.block(x, b.Block)
	if c.info != nil {
		c.record(b, voidType)
		c.record(lam, &Type{Kind: TLambda, Params: len(lam.Params), Elem: voidType})
	}
}

// misplacedBlock reports a block lambda where a value is read: a block is
// a handler's body only.
func (c *checker) misplacedBlock(x ctx, b *syntax.BlockExpr) {
	c.errorf(x.f, b, diag.BlockNotValue, "a block { … } is the body of a handler, as on_press: || { a(); b = 1 }; a lambda that gives a value has an expression body, as |t| t.done")
	c.block(x, b.Block)
}

// forStmt checks `for x in list { ... }`: x is the element of the list in
// the body.
func (c *checker) forStmt(x ctx, s *syntax.ForStmt) {
	c.needs11(x.f, syntax.Span{Pos: s.Pos, End: s.Var.End}, "a loop (for x in list)")
	t := c.expr(x, s.List)
	elem := invalidType
	switch {
	case t.Kind == TList && !t.Optional:
		elem = t.Elem
	case t.Kind == TList:
		c.errorf(x.f, s.List, diag.LoopNotList, "for runs over a list; %s is %s, which may be null: give a default, as for %s in %s ?? [] { … }", x.f.Text(s.List), t, s.Var.Name, x.f.Text(s.List))
	case t.Kind != Invalid:
		c.errorf(x.f, s.List, diag.LoopNotList, "for runs over a list; %s is %s", x.f.Text(s.List), t)
	}
	c.block(c.with(x, s.Var, s.Var, elem), s.Body)
}

// runParams returns the parameters of a mutation's operation, marked as
// given by its declaration when seen names them.
//
// Every mutation gets them, so they come from an arena.
func (c *checker) runParams(op *operation, seen []string) []namedParam {
	out := c.runs.Make(len(op.params))[:len(op.params)]
	for i, p := range op.params {
		out[i] = namedParam{name: p.name, typ: p.typ, optional: !p.required, declared: slices.Contains(seen, p.name)}
	}
	return out
}

// runArgs checks the arguments of `m.run(name: value, ...)`: each names a
// parameter of the operation that the declaration leaves out, and every
// required parameter is given in one place or the other.
func (c *checker) runArgs(x ctx, call *syntax.CallExpr, id *syntax.Ident, s *symbol) {
	f := x.f
	if len(call.Args) > 0 {
		c.needs11(f, call.Args[0], "arguments at a run (m.run(name: value))")
	}
	var seenBuf [8]string
	seen := seenBuf[:0]
	// A wrong argument is reported alone, not also as a missing one.
	wrong := false
	for _, a := range call.Args {
		if a.Name == nil {
			wrong = true
			c.errorf(f, a, diag.PositionalArg, "the arguments of %s.run() are named, as %s.run(%s: …)", id.Name, id.Name, firstParam(s.params))
			c.expr(x, a.Value)
			continue
		}
		i := slices.IndexFunc(s.params, func(p namedParam) bool { return p.name == a.Name.Name })
		switch {
		case i < 0:
			wrong = true
			if s.typ.Kind != Invalid {
				c.errorf(f, a.Name, diag.BadArgument, "%s has no parameter %s%s", id.Name, a.Name.Name, suggest(a.Name.Name, paramNames(s.params)))
			}
			c.expr(x, a.Value)
			continue
		case s.params[i].declared:
			c.errorf(f, a.Name, diag.RunArgDeclared, "%s is given in the declaration of %s; a parameter is given there or at each run, not both", a.Name.Name, id.Name)
			c.expr(x, a.Value)
			continue
		case slices.Contains(seen, a.Name.Name):
			c.errorf(f, a, diag.BadArgument, "argument %s is given twice", a.Name.Name)
		}
		seen = append(seen, a.Name.Name)
		c.expect(x, a.Value, s.params[i].typ, say("argument", a.Name.Name, "of", id.Name+".run()"))
	}
	var missing []string
	for _, p := range s.params {
		if !p.declared && !p.optional && !slices.Contains(seen, p.name) {
			missing = append(missing, p.name)
		}
	}
	if len(missing) > 0 && !wrong && !c.v10 {
		c.errorf(f, call, diag.BadArgument, "%s.run() needs argument %s, which the declaration of %s leaves out; give it here, as %s.run(%s: …)", id.Name, strings.Join(missing, ", "), id.Name, id.Name, missing[0])
	}
}

func firstParam(ps []namedParam) string {
	for _, p := range ps {
		if !p.declared {
			return p.name
		}
	}
	return "name"
}

func paramNames(ps []namedParam) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.name)
	}
	return out
}

// PersistAnnotation is the annotation of a state kept in the browser's
// storage across reloads.
const PersistAnnotation = "persist"

// persisted returns the @persist annotation of a state, or nil.
func persisted(d *syntax.StateDecl) *syntax.Annotation {
	for _, a := range d.Annotations {
		if a.Name != nil && a.Name.Name == PersistAnnotation {
			return a
		}
	}
	return nil
}

// PersistKey returns the storage key of a persisted state of owner in app:
// the key @persist gives, else acore:<App>:<Owner>.<state>.
func PersistKey(a *syntax.Annotation, app, owner, state string) string {
	if len(a.Args) == 1 {
		if s, ok := a.Args[0].Value.(*syntax.StringLit); ok {
			return s.Value
		}
	}
	return "acore:" + app + ":" + owner + "." + state
}

// AppName returns the name of the project's app, or "App" when there is
// none (AC218).
func (c *checker) appName() string {
	if m := c.modules[Entry]; m != nil && m.app != nil && m.app.Name != nil {
		return m.app.Name.Name
	}
	return "App"
}

// persist checks @persist on state s and records the key as the state
// node's property persist.
func (c *checker) persist(o *owner, s *symbol, d *syntax.StateDecl) {
	a := persisted(d)
	if a == nil {
		return
	}
	f := o.mod.file
	c.needs11(f, a, "a persisted state (@persist)")
	for _, b := range d.Annotations[slices.Index(d.Annotations, a)+1:] {
		if b.Name != nil && b.Name.Name == PersistAnnotation {
			c.errorf(f, b, diag.BadPersist, "@persist is given twice to state %s", d.Name.Name)
		}
	}
	prop := graph.Property{Name: "persist", Type: "String", ValuePos: -1, ValueEnd: -1}
	switch {
	case len(a.Args) > 1:
		c.errorf(f, a.Args[1], diag.BadPersist, "@persist takes at most one argument, the storage key, as @persist(\"todos\")")
	case len(a.Args) == 1:
		lit, ok := a.Args[0].Value.(*syntax.StringLit)
		switch {
		case a.Args[0].Name != nil || !ok:
			c.errorf(f, a.Args[0], diag.BadPersist, "the argument of @persist is the storage key, a string literal, as @persist(\"todos\")")
		case lit.Value == "":
			c.errorf(f, lit, diag.BadPersist, "the storage key of @persist is empty; leave it out for the key %s", syntax.Quote(PersistKey(&syntax.Annotation{}, c.appName(), o.decl.Name.Name, d.Name.Name)))
		default:
			prop.ValuePos, prop.ValueEnd, prop.Literal, prop.Editable = lit.Pos, lit.End, true, true
		}
	}
	if !storable(s.typ) {
		c.errorf(f, a, diag.BadPersist, "state %s is %s, which cannot be stored; @persist keeps strings, numbers, Bools, models and lists of them", d.Name.Name, s.typ)
	}
	prop.Value = c.box(PersistKey(a, c.appName(), o.decl.Name.Name, d.Name.Name))
	n := c.g.At(s.node)
	n.Props = append(n.Props, prop)
}

// storable reports whether values of t survive JSON: no actions.
func storable(t *Type) bool { return storableIn(t, nil) }

func storableIn(t *Type, seen []*Model) bool {
	switch t.Kind {
	case TList:
		return storableIn(t.Elem, seen)
	case TModel:
		if slices.Contains(seen, t.Model) {
			return true
		}
		seen = append(seen, t.Model)
		for _, fl := range t.Model.Fields {
			if !storableIn(fl.Type, seen) {
				return false
			}
		}
		return true
	case TString, TInt, TFloat, TBool, Invalid:
		return true
	}
	return false
}

// misplacedPersist reports @persist on what is not a state.
func (c *checker) misplacedPersist(f *syntax.File, as []*syntax.Annotation, article, what string) {
	for _, a := range as {
		if a.Name != nil && a.Name.Name == PersistAnnotation {
			c.errorf(f, a, diag.BadPersist, "@persist goes on a state, to keep it across reloads; %s %s is not kept", article, what)
		}
	}
}

// semicolons notes each `;` after a statement of b, a separator of Acore
// 1.1.
func (c *checker) semicolons(f *syntax.File, b *syntax.Block) {
	for _, st := range b.Stmts {
		end := st.Bounds().End
		if i := bytes.IndexFunc(f.Src[end:b.End], func(r rune) bool { return r != ' ' && r != '\t' }); i >= 0 && f.Src[int(end)+i] == ';' {
			at := end + int32(i)
			c.needs11(f, syntax.Span{Pos: at, End: at + 1}, "; between statements")
		}
	}
}
