package web

import (
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// rowCtx is set while a List's item view and item_class are lowered. A
// state compared there with the item (or a field of it) reads a selector
// made once beside the list (SEL), so that a change of the state reruns
// the row that held the old value and the row that holds the new one
// instead of every row.
type rowCtx struct {
	items map[*syntax.Ident]bool // the declarations that name the item
	sels  map[string]*js.Ident   // state name → its selector's variable
	order []string               // the states, in the order first met
	// While a row without effects is tried (rows.go): plain makes the
	// item a value rather than a signal; reads is set by a read of any
	// other signal outside a handler (quiet counts the handlers being
	// lowered); picks are the selectors' reads with their arguments.
	plain, read bool
	quiet       int
	picks       []pick
}

// pick is a selector read in a row: the selector, and its argument as a
// function of the item.
type pick struct {
	sel *js.Ident
	arg *js.Arrow
}

// reads notes that the expression being lowered reads a signal.
func (g *gen) reads() {
	if r := g.row; r != nil && r.quiet == 0 {
		r.read = true
	}
}

func newRowCtx() *rowCtx {
	return &rowCtx{items: map[*syntax.Ident]bool{}, sels: map[string]*js.Ident{}}
}

// selection lowers a == b (or a != b when not) as a selector's read when
// one side is a scalar state and the other reads only the item.
func (g *gen) selection(e *syntax.BinaryExpr, not bool) (js.Expr, bool) {
	r := g.row
	if r == nil {
		return nil, false
	}
	for _, p := range [][2]syntax.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		st := stateName(p[0])
		if st == nil {
			continue
		}
		obj := g.use(st)
		if obj == nil || obj.Kind != check.ObjState || !g.ofItem(p[1]) {
			continue
		}
		at, bt := g.typeOf(p[0]), g.typeOf(p[1])
		if at.Kind != bt.Kind || !selectable[at.Kind] {
			continue
		}
		sel, ok := r.sels[st.Name]
		if !ok {
			sel = g.v()
			r.sels[st.Name] = sel
			r.order = append(r.order, st.Name)
		}
		arg := g.expr(p[1])
		r.picks = append(r.picks, pick{sel, &js.Arrow{Params: []string{jsName(itemRoot(p[1]).Name)}, Body: arg}})
		var x js.Expr = js.CallOf(sel, arg)
		if not {
			x = &js.Unary{Op: js.Not, X: x}
		}
		return x, true
	}
	return nil, false
}

// selectable are the kinds whose == is JavaScript's === once null and
// undefined are one (Float is not: NaN).
var selectable = map[check.TypeKind]bool{check.TInt: true, check.TString: true, check.TBool: true}

// ofItem reports whether e is the list's item or a chain of its model
// fields.
func (g *gen) ofItem(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return g.ofItem(e.X)
	case *syntax.Ident:
		obj := g.use(e)
		if obj == nil {
			return false
		}
		id, ok := obj.Decl.(*syntax.Ident)
		return ok && g.row.items[id]
	case *syntax.MemberExpr:
		return g.typeOf(e.X).Kind == check.TModel && g.ofItem(e.X)
	}
	return false
}

// itemRoot is the item that e, a chain of its fields (ofItem), starts
// from.
func itemRoot(e syntax.Expr) *syntax.Ident {
	for {
		switch x := e.(type) {
		case *syntax.ParenExpr:
			e = x.X
		case *syntax.MemberExpr:
			e = x.X
		case *syntax.Ident:
			return x
		default:
			return nil
		}
	}
}

// stateName is the name e is, in parentheses or not, or nil.
func stateName(e syntax.Expr) *syntax.Ident {
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return stateName(e.X)
	case *syntax.Ident:
		return e
	}
	return nil
}

// selectors declares the selectors the rows of r read, before the list.
func selectors(r *rowCtx) []js.Stmt {
	var out []js.Stmt
	for _, name := range r.order {
		out = append(out, &js.Const{Name: r.sels[name].Name, Value: js.CallOf(rtSelector, local(name))})
	}
	return out
}
