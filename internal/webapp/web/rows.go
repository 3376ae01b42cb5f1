package web

import (
	"maps"
	"slices"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// Rows without effects (docs/web.md, "Lists"). A List whose item view is
// elements with literal attributes, texts and classes that read only the
// item (and selections, select.go) and handlers of bubbling events is
// lowered to a prototype row that each item clones and one function that
// writes what an item shows into a row: the runtime keeps no scope,
// effect, signal or closure per row, and a refresh writes only the texts
// and classes that differ from what the row shows. Any other item view
// is lowered as before: a scope per row whose bindings are effects.

// bubbling are the events whose handlers the document's one listener
// dispatches (the runtime's bubbling).
var bubbling = map[string]bool{"click": true, "dblclick": true, "submit": true}

// rowNode is one element of a row without effects.
type rowNode struct {
	s    *spec
	v    *js.Ident // its variable in the prototype
	id   string
	kids []*rowNode
}

func (n *rowNode) bound() bool {
	return n.s.textExpr != nil || n.s.classExpr != nil || slices.ContainsFunc(n.kids, (*rowNode).bound)
}

// fastList lowers the List e into ul as rows without effects, or returns
// nil, having changed nothing, when its item view is not one.
func (g *gen) fastList(o *owner, e *syntax.Element, ls *listSpec, ul js.Expr) []js.Stmt {
	r := ls.row
	if e.Children == nil || r.read {
		return nil
	}
	n, sels, order, picks := g.n, maps.Clone(r.sels), slices.Clone(r.order), len(r.picks)
	save := g.row
	g.row, r.plain = r, true
	nodes, ok := g.rowNodes(o, e.Children.Items)
	g.row, r.plain = save, false
	if !ok || r.read {
		g.n, r.sels, r.order, r.picks, r.read = n, sels, order, r.picks[:picks], false
		return nil
	}
	pn := "$_"
	if ls.param != "" {
		pn = jsName(ls.param)
	}
	proto := g.v()
	build := []js.Stmt{&js.Const{Name: proto.Name, Value: g.create("li", nil, nil, "")}}
	g.rowProto(nodes, proto, &build)

	li := g.v()
	var upd []js.Stmt
	if ls.itemClass != nil {
		// item_class is a function: made once, beside the prototype, and
		// called for each row.
		ic := g.v()
		build = append(build, &js.Const{Name: ic.Name, Value: ls.itemClass})
		upd = append(upd, &js.ExprStmt{X: js.CallOf(rtWriteClass, li, js.Str(""), js.CallOf(ic, js.Id(pn)))})
	}
	g.rowUpdate(nodes, li, &upd)

	events := map[string]*js.Object{}
	var evs []string
	var walk func([]*rowNode)
	walk = func(ns []*rowNode) {
		for _, k := range ns {
			for _, h := range k.s.handlers {
				t := events[h.event]
				if t == nil {
					t = &js.Object{}
					events[h.event] = t
					evs = append(evs, h.event)
				}
				fn := *h.fn
				fn.Params = []string{pn}
				t.Props = append(t.Props, js.Prop{Key: k.id, Value: &fn})
			}
			walk(k.kids)
		}
	}
	walk(nodes)
	hs := &js.Object{}
	for _, ev := range evs {
		hs.Props = append(hs.Props, js.Prop{Key: ev, Value: events[ev]})
	}
	ps := &js.Array{}
	seen := map[string]bool{}
	for _, p := range r.picks {
		b, err := js.Print(nil, []js.Stmt{&js.ExprStmt{X: &js.Array{Elems: []js.Expr{p.sel, p.arg}}}})
		if err != nil {
			g.fail(e, "%v", err)
		}
		if !seen[string(b)] {
			seen[string(b)] = true
			ps.Elems = append(ps.Elems, &js.Array{Elems: []js.Expr{p.sel, p.arg}})
		}
	}
	rows := js.CallOf(rtPlain, proto, &js.Arrow{Params: []string{li.Name, pn}, Block: upd}, hs, ps)
	out := append(selectors(r), build...)
	return append(out, g.listCall(ul, ls, rows))
}

// listCall is the L call of a list of rows; it records the list
// features the runtime keeps for it.
func (g *gen) listCall(ul js.Expr, ls *listSpec, rows js.Expr) js.Stmt {
	_, noEmpty := ls.empty.(*js.Null)
	_, noEnd := ls.end.(*js.Null)
	g.feat.ListEmpty = g.feat.ListEmpty || !noEmpty
	g.feat.ListEnd = g.feat.ListEnd || !noEnd
	return &js.ExprStmt{X: js.CallOf(rtList, ul, js.Thunk(ls.items), ls.key, rows, ls.empty, ls.end)}
}

// rowNodes describes the elements of a row without effects, or reports
// that items are not one: a component, a conditional, a list, a field, a
// Text with runs, or a binding other than text, class and a bubbling
// event's handler.
func (g *gen) rowNodes(o *owner, items []syntax.ViewItem) ([]*rowNode, bool) {
	var out []*rowNode
	for _, it := range items {
		e, ok := it.(*syntax.Element)
		if !ok {
			return nil, false
		}
		ce, ok := catalog.Lookup(e.Name.Name)
		if !ok || ce.Name == "Children" || ce.Name == "List" {
			return nil, false
		}
		n := g.nodeOf(o, e)
		v := g.v()
		s := g.spec(o, e, n.ID, ce, v)
		g.elementAx(o, e, n, s)
		if s.fast != len(s.binds) || s.wrap != "" || s.labelExpr != nil || s.list != nil || len(s.props) > 0 {
			return nil, false
		}
		g.specs[e] = s
		k := &rowNode{s: s, v: v, id: n.ID}
		if e.Children != nil {
			if ce.Name == "Text" || s.text != "" || s.textExpr != nil {
				return nil, false
			}
			if k.kids, ok = g.rowNodes(o, e.Children.Items); !ok {
				return nil, false
			}
		}
		out = append(out, k)
	}
	return out, true
}

// rowProto creates the elements of nodes under parent in the prototype
// row: their attributes, AXAG facts and literal texts, and a text node
// where a text is bound.
func (g *gen) rowProto(nodes []*rowNode, parent js.Expr, out *[]js.Stmt) {
	for _, k := range nodes {
		d := k.s.dom()
		if k.s.textExpr != nil {
			// The text node the row's update writes.
			d.text = " "
		}
		g.domOf(d, k.v, parent, out)
		if k.s.ax >= 0 {
			*out = append(*out, &js.ExprStmt{X: js.CallOf(rtAction, k.v, js.Num(float64(k.s.ax)))})
		}
		g.rowProto(k.kids, k.v, out)
	}
}

// rowUpdate writes the bound texts and classes of nodes, the children of
// parent in a row, reaching each from its previous sibling.
func (g *gen) rowUpdate(nodes []*rowNode, parent js.Expr, out *[]js.Stmt) {
	last := -1
	for i, k := range nodes {
		if k.bound() {
			last = i
		}
	}
	var prev js.Expr
	for _, k := range nodes[:last+1] {
		at := js.DotOf(parent, "firstChild")
		if prev != nil {
			at = js.DotOf(prev, "nextSibling")
		}
		v := g.v()
		*out = append(*out, &js.Const{Name: v.Name, Value: at})
		if x := k.s.classExpr; x != nil {
			*out = append(*out, &js.ExprStmt{X: js.CallOf(rtWriteClass, v, js.Str(ownClass(k.s)), x)})
		}
		if x := k.s.textExpr; x != nil {
			*out = append(*out, &js.ExprStmt{X: js.CallOf(rtWriteText, v, x)})
		}
		g.rowUpdate(k.kids, v, out)
		prev = v
	}
}

// ownClass is the class attribute of an element's static DOM.
func ownClass(s *spec) string {
	for i := 0; i+1 < len(s.attrs); i += 2 {
		if s.attrs[i] == "class" {
			return s.attrs[i+1]
		}
	}
	return ""
}
