package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// viewItems checks a children list. Ids are the owner, "view" and the
// index path of each item; a skipped (bad) item keeps its index, so fixing
// it does not renumber its siblings. An item's path is the tail of its id,
// which is built in one piece.
func (c *checker) viewItems(x ctx, items []syntax.ViewItem, parent int32, prefix string) {
	for i, it := range items {
		switch it := it.(type) {
		case *syntax.Element:
			id := c.strs.Concat(graph.KindElement, ":", prefix, "/", strconv.Itoa(i))
			c.element(x, it, parent, id, id[len(graph.KindElement)+1:])
		case *syntax.IfView:
			id := c.strs.Concat(graph.KindConditional, ":", prefix, "/", strconv.Itoa(i))
			path := id[len(graph.KindConditional)+1:]
			n := c.node(x.f, graph.KindConditional, id, "if", it, nil, x.o.id)
			c.edge(n, parent, graph.EdgeChildOf, graph.Declared)
			c.g.At(n).Signature = c.conditionalSignature(x.f, it)
			y := x
			y.from = n
			for b, br := range it.Branches {
				if br.Cond != nil {
					c.condition(y, br.Cond)
				}
				c.viewItems(x, br.Items, n, c.strs.Concat(path, "/", strconv.Itoa(b)))
			}
		}
	}
}

// conditionalSignature is the signature of a conditional: each branch's
// "if condition" or "else", apart by " / ", in the checker's strings.
func (c *checker) conditionalSignature(f *syntax.File, v *syntax.IfView) string {
	b := c.sigBuf[:0]
	for i, br := range v.Branches {
		if i > 0 {
			b = append(b, " / "...)
		}
		if br.Cond == nil {
			b = append(b, "else"...)
			continue
		}
		at := br.Cond.Bounds()
		b = f.AppendCompact(append(b, "if "...), int(at.Pos), int(at.End))
	}
	c.sigBuf = b
	return c.strs.Bytes(b)
}

func (c *checker) element(x ctx, e *syntax.Element, parent int32, id, path string) {
	f := x.f
	n := c.node(f, graph.KindElement, id, e.Name.Name, e, e.Name, x.o.id)
	c.edge(n, parent, graph.EdgeChildOf, graph.Declared)
	// The signature is the element's header: name and arguments, without
	// its children.
	sigEnd := e.End
	if e.Children != nil {
		sigEnd = e.Children.Pos
	}
	c.sig(n, e.Name.Pos, sigEnd)
	y := x
	y.from = n
	y.callEdge = graph.EdgeTriggers

	var props []propSpec
	var children catalog.Children
	primary := ""
	known := true
	var comp *owner
	isLink := e.Name.Name == "Link" && catalogElements["Link"] != nil
	if ce := catalogElements[e.Name.Name]; ce != nil {
		children, primary = ce.Children, ce.Primary
		props = ce.specs
		c.element11(x, e, ce.Element)
	} else if o := c.lookupOwner(x.o.mod, e.Name.Name); o != nil && o.decl.Kind == syntax.Component {
		c.edge(n, o.node, graph.EdgeRenders, graph.Resolved)
		if c.info != nil {
			c.use(e.Name, c.ownerObject(o))
		}
		props, comp = o.specs, o
	} else {
		known = false
		what := "no element or component"
		if o != nil {
			what = "a page; pages are reached through routes, not placed in views"
		}
		c.errorf(f, e.Name, diag.UnknownElement, "%s is %s%s", e.Name.Name, what, suggest(e.Name.Name, c.elementNames(x.o.mod)))
	}

	// given[i] is set once props[i] is given; it is cut from a stack that
	// the element's children, checked after it is done with, reuse.
	base := len(c.given)
	c.given = append(c.given, make([]bool, len(props))...)
	given := c.given[base:]
	c.g.At(n).Props = c.props.Make(len(e.Args))
	var itemsType *Type
	var linkTo *syntax.StringLit
	var linkArgs []*syntax.Arg
	for i, a := range e.Args {
		name := ""
		if a.Name != nil {
			name = a.Name.Name
		} else if i == 0 && primary != "" {
			name = primary
		} else if known {
			msg := fmt.Sprintf("%s takes named properties, as %s(name: value)", e.Name.Name, e.Name.Name)
			if i > 0 && primary != "" {
				msg = fmt.Sprintf("only the first argument of %s may be unnamed (%s)", e.Name.Name, primary)
			}
			c.errorf(f, a, diag.PositionalArg, "%s", msg)
			c.expr(y, a.Value)
			continue
		}
		if !known {
			c.expr(y, a.Value)
			continue
		}
		spec, at := findProp(props, name)
		if spec != nil && given[at] {
			c.errorf(f, a, diag.DuplicateProperty, "%s is given twice to %s; an element has each property once", name, e.Name.Name)
			c.expr(y, a.Value)
			continue
		}
		if spec == nil && isLink && a.Name != nil {
			// A link's other named arguments fill its route's parameters.
			linkArgs = append(linkArgs, a)
			continue
		}
		if spec == nil {
			c.errorf(f, argName(a), diag.UnknownProperty, "%s has no property %s%s", e.Name.Name, name, suggest(name, propNames(props)))
			c.expr(y, a.Value)
			continue
		}
		given[at] = true
		if comp != nil && c.info != nil && a.Name != nil {
			// The argument's name names the prop it binds.
			if s := comp.members[name]; s != nil {
				c.use(a.Name, c.symObject(s))
			}
		}
		if spec.cat != nil && catalog.Since11(e.Name.Name, name) {
			c.needs11(f, argName(a), "the property "+name+" of "+e.Name.Name)
		}
		typ, t := c.argument(y, e, a, spec, comp)
		if isLink && name == "to" {
			linkTo, _ = a.Value.(*syntax.StringLit)
		}
		if spec.cat != nil && spec.cat.Type == catalog.Items {
			itemsType = t
		}
		prop := c.literalProp(f, name, typ, a.Value)
		if spec.cat != nil && spec.cat.Type == catalog.Action || spec.typ != nil && spec.typ.Kind == TAction {
			prop.Editable = false
		}
		c.g.At(n).Props = append(c.g.At(n).Props, prop)
	}
	if isLink {
		c.link(y, e, n, linkTo, linkArgs)
	}
	c.g.At(n).Props = c.axagProps(f, e.Annotations, c.g.At(n).Props, true)
	if known {
		var missing []string
		for i, p := range props {
			if p.required && !given[i] {
				missing = append(missing, p.name)
			}
		}
		if len(missing) > 0 {
			c.errorf(f, e.Name, diag.MissingProperty, "%s needs %s", e.Name.Name, strings.Join(missing, ", "))
		}
	}
	if e.Name.Name == "Text" && comp == nil && known {
		_, at := findProp(props, "text")
		c.textRuns(x, e, given[at])
	}
	c.given = c.given[:base]
	if comp != nil && e.Children != nil {
		children = c.fill(x, e, n, comp)
	}
	c.elementChildren(x, e, n, path, known, children, itemsType)
}

func argName(a *syntax.Arg) syntax.Node {
	if a.Name != nil {
		return a.Name
	}
	return a
}

func (c *checker) elementChildren(x ctx, e *syntax.Element, n int32, path string, known bool, rule catalog.Children, items *Type) {
	f := x.f
	ch := e.Children
	if ch == nil {
		if known && rule == catalog.ItemTemplate {
			c.errorf(f, e.Name, diag.BadChildren, "%s needs an item template, as %s(...) { item => Text(item.title) }", e.Name.Name, e.Name.Name)
		}
		return
	}
	switch {
	case !known:
	case rule == catalog.ItemTemplate && ch.Param == nil:
		c.errorf(f, ch, diag.BadChildren, "the children of %s are an item template, as { item => ... }", e.Name.Name)
	case rule != catalog.ItemTemplate && ch.Param != nil:
		c.errorf(f, ch.Param, diag.BadChildren, "%s takes no item template; only List does", e.Name.Name)
	case rule == catalog.NoChildren && len(ch.Items) > 0:
		c.errorf(f, ch, diag.BadChildren, "%s takes no children", e.Name.Name)
	}
	y := x
	y.runs = rule == catalog.Runs
	if ch.Param != nil {
		elem := invalidType
		if items != nil && items.Kind == TList {
			elem = items.Elem
		}
		y = c.with(y, ch.Param, ch.Param, elem)
	}
	c.viewItems(y, ch.Items, n, path)
}

type propSpec struct {
	name     string
	cat      *catalog.Prop // built-in elements
	typ      *Type         // component props
	required bool
}

// catalogElements holds each built-in element with its property specs,
// built once rather than per element checked.
var catalogElements = func() map[string]*catalogElement {
	m := map[string]*catalogElement{}
	for i := range catalog.All() {
		ce := &catalog.All()[i]
		el := &catalogElement{Element: ce}
		for j := range ce.Props {
			p := &ce.Props[j]
			el.specs = append(el.specs, propSpec{name: p.Name, cat: p, required: p.Required})
		}
		m[ce.Name] = el
	}
	return m
}()

type catalogElement struct {
	*catalog.Element
	specs []propSpec
}

// findProp returns the spec called name and its index.
func findProp(ps []propSpec, name string) (*propSpec, int) {
	for i := range ps {
		if ps[i].name == name {
			return &ps[i], i
		}
	}
	return nil, -1
}

func propNames(ps []propSpec) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.name
	}
	return out
}

func (c *checker) elementNames(m *module) []string {
	var out []string
	for _, e := range catalog.All() {
		out = append(out, e.Name)
	}
	return append(out, ownerNames(m, syntax.Component)...)
}

// property checks one element argument and returns the type name shown on
// the node and the argument's type.
func (c *checker) property(x ctx, e *syntax.Element, a *syntax.Arg, spec *propSpec) (string, *Type) {
	f := x.f
	what := say(spec.name, "of", e.Name.Name)
	if spec.typ != nil {
		if spec.typ.Kind == TAction {
			c.handler(x, a.Value, what)
			return "Action", actionType
		}
		return spec.typ.String(), c.expect(x, a.Value, spec.typ, what)
	}
	p := spec.cat
	switch p.Type {
	case catalog.Action:
		c.handler(x, a.Value, what)
		return string(p.Type), actionType
	case catalog.Items:
		t := c.expr(x, a.Value)
		if t.Kind != Invalid && (t.Kind != TList || t.Optional) {
			c.errorf(f, a.Value, diag.TypeMismatch, "%s is %s, expected a list", what, t)
		}
		if t.Kind == TList {
			return t.String(), t
		}
		return "List", t
	case catalog.ItemString:
		return "ItemString", c.itemString(x, e, a, what)
	case catalog.KeyFunc:
		lam, ok := a.Value.(*syntax.LambdaExpr)
		if !ok || len(lam.Params) != 1 {
			c.expr(x, a.Value)
			c.errorf(f, a.Value, diag.TypeMismatch, "%s is a function of the item, as |item| item.id", what)
			return "Key", invalidType
		}
		elem := invalidType
		if arg := findArg(e, "items"); arg != nil {
			if t := c.peekType(x, arg.Value); t.Kind == TList {
				elem = t.Elem
			}
		}
		t := c.expr(c.with(x, lam.Params[0], lam.Params[0], elem), lam.Body)
		if t.Kind != Invalid && (t.Optional || t.Kind != TString && t.Kind != TInt) {
			c.errorf(f, lam.Body, diag.TypeMismatch, "the key of an item is a String or an Int; this is %s", t)
		}
		if c.info != nil {
			c.record(lam, c.keyType(t))
		}
		return "Key", c.keyType(t)
	}
	want := propType(p.Type)
	t := c.expect(x, a.Value, want, what)
	// Strings are read off the literal: LiteralValue would box each one.
	if lit, ok := a.Value.(*syntax.StringLit); ok {
		if len(p.Values) > 0 && !contains(p.Values, lit.Value) {
			c.errorf(f, a.Value, diag.BadValue, "%s is %s; allowed values: %s", what, syntax.Quote(lit.Value), quoteList(p.Values))
		}
		if p.Type == catalog.String && e.Name.Name == "Image" && p.Name == "src" && !catalog.ImageSource(lit.Value) {
			// The page would load nothing (docs/web.md, URLs).
			c.errorf(f, a.Value, diag.BadValue, "%s is %s; an image's src is a path of the app, an http: or https: URL, or a data: URL of a PNG, JPEG, GIF, WebP or AVIF image", what, syntax.Quote(lit.Value))
		}
	} else if v, ok := LiteralValue(a.Value); ok {
		if v, ok := v.(int64); ok && p.HasMin && v < p.Min {
			c.errorf(f, a.Value, diag.OutOfRange, "%s is %d; it must be at least %d", what, v, p.Min)
		} else if ok && p.HasMax && v > p.Max {
			c.errorf(f, a.Value, diag.OutOfRange, "%s is %d; it must be at most %d", what, v, p.Max)
		}
	}
	return string(p.Type), t
}

// keyType returns the type of a key function of result t: the last one
// made when t is the same, as it is for the lists of a module.
func (c *checker) keyType(t *Type) *Type {
	if c.lastKey == nil || c.lastKey.Elem != t {
		c.lastKey = &Type{Kind: TLambda, Params: 1, Elem: t}
	}
	return c.lastKey
}

// peekType types e without recording edges or diagnostics.
func (c *checker) peekType(x ctx, e syntax.Expr) *Type {
	saved := c.diags
	x.from = -1
	t := c.expr(x, e)
	c.diags = saved
	return t
}

func findArg(e *syntax.Element, name string) *syntax.Arg {
	for _, a := range e.Args {
		if a.Name != nil && a.Name.Name == name {
			return a
		}
	}
	return nil
}

// handler checks the value of an Action property: an action, an extern
// action or an Action prop by name, or a lambda `|| call(...)`.
func (c *checker) handler(x ctx, v syntax.Expr, what words) {
	f := x.f
	switch v := v.(type) {
	case *syntax.Ident:
		s := c.lookupLocalOrMember(x, v.Name)
		if c.info != nil {
			c.recordCallee(x, v, s)
		}
		if s == nil {
			if ex := x.o.mod.externs[v.Name]; ex != nil {
				if len(ex.decl.Params) > 0 {
					c.errorf(f, v, diag.BadHandler, "extern action %s takes parameters; pass a handler, as || %s(...)", v.Name, v.Name)
				}
				c.edge(x.from, ex.node, graph.EdgeTriggers, graph.Resolved)
				return
			}
			c.unknownName(x, v)
			return
		}
		switch {
		case s.kind == symAction:
			if len(s.params) > 0 {
				c.errorf(f, v, diag.BadHandler, "action %s takes parameters; pass a handler, as || %s(...)", v.Name, v.Name)
			}
			c.edge(x.from, s.node, graph.EdgeTriggers, graph.Resolved)
		case s.kind == symProp && s.typ.Kind == TAction:
			c.edge(x.from, s.node, graph.EdgeTriggers, graph.Resolved)
		default:
			c.errorf(f, v, diag.BadHandler, "%s takes an action; %s is %s", what, v.Name, describeSym(s))
		}
	case *syntax.LambdaExpr:
		if len(v.Params) > 0 {
			c.errorf(f, v, diag.BadHandler, "a handler takes no parameters, as || submit()")
		}
		if b, ok := v.Body.(*syntax.BlockExpr); ok {
			c.handlerBlock(x, v, b)
			return
		}
		call, ok := unparen(v.Body).(*syntax.CallExpr)
		if !ok {
			c.expr(x, v.Body)
			if _, bad := v.Body.(*syntax.BadExpr); !bad {
				c.errorf(f, v.Body, diag.BadHandler, "a handler calls an action, as || select(item)")
			}
			if c.info != nil {
				c.record(v, invalidType)
			}
			return
		}
		c.call(x, call)
		if c.info != nil {
			for p := v.Body; p != call; p = p.(*syntax.ParenExpr).X {
				c.record(p, voidType)
			}
			c.record(v, &Type{Kind: TLambda, Params: len(v.Params), Elem: voidType})
		}
	default:
		c.expr(x, v)
		c.errorf(f, v, diag.BadHandler, "%s takes an action name or a handler || action(...)", what)
	}
}

// propType returns the checked type of a catalog scalar property type.
func propType(t catalog.PropType) *Type {
	switch t {
	case catalog.String:
		return stringType
	case catalog.Int:
		return intType
	case catalog.Float:
		return floatType
	case catalog.Bool:
		return boolType
	case catalog.Strings:
		return stringsType
	}
	return nil
}

var stringsType = listOf(stringType)

// link checks a Link's route as navigate() does: a literal to names a
// route of the app, and the other named arguments fill its parameters
// (each also a property of the element).
func (c *checker) link(x ctx, e *syntax.Element, n int32, to *syntax.StringLit, args []*syntax.Arg) {
	nav := c.navArgs(x, args, "Link")
	for _, a := range nav {
		c.g.At(n).Props = append(c.g.At(n).Props, c.literalProp(x.f, a.arg.Name.Name, a.typ.String(), a.arg.Value))
	}
	if to == nil {
		if len(nav) > 0 {
			c.errorf(x.f, nav[0].arg.Name, diag.RouteParamMissing, "a Link's route arguments need a literal to, the route's path, as to: \"/books/:id\"")
		}
		return
	}
	c.pendingNav = append(c.pendingNav, pendingNav{from: n, path: to.Value, file: x.f, at: to, call: e.Name, what: "Link", args: nav})
}
