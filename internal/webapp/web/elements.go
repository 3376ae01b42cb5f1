package web

import (
	"strconv"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// spec is what one catalog element becomes, the one description that
// both the live DOM (app.js, emit.go) and the static templates of
// index.html (html.go) are made from: its static DOM (the element, and
// the label that wraps it), the statements of app.js that bind the rest
// to the element's variable, its AXAG action and, for a List, its items.
type spec struct {
	tag   string
	attrs []string // name, value pairs
	// wrap is "field" (label above), "check" (label after) or "".
	wrap      string
	label     string  // literal label of the wrapper
	labelExpr js.Expr // a label that is not a literal
	text      string  // literal text content
	binds     []js.Stmt
	// The AXAG action of the element: ax (an index into the actions, -1
	// for none) or, reached through Action props, props.
	ax    int
	props []string
	// list is set for a List.
	list *listSpec
	// What a List's row without effects (rows.go) needs of the element:
	// its dynamic text and class, its handlers of bubbling events, and
	// fast, how many of binds these and its literal text account for.
	textExpr, classExpr js.Expr
	handlers            []rowHandler
	fast                int
}

// rowHandler is the handler of a bubbling event on an element.
type rowHandler struct {
	event string
	fn    *js.Arrow
}

type listSpec struct {
	items, key, empty, end js.Expr
	itemClass              js.Expr // a function of the item, or nil
	param                  string
	row                    *rowCtx
}

// dnode is one node of an element's static DOM: a tag, its attributes
// and literal text, or a text that follows an expression. self is the
// element itself, where its bindings, AXAG attributes and children go.
type dnode struct {
	tag      string
	attrs    []string
	text     string
	textExpr js.Expr
	kids     []*dnode
	self     bool
}

// dom is the static DOM of the element: the element, inside its label
// when it has one.
func (s *spec) dom() *dnode {
	self := &dnode{tag: s.tag, attrs: s.attrs, text: s.text, self: true}
	span := &dnode{tag: "span", attrs: []string{}, text: s.label, textExpr: s.labelExpr}
	switch s.wrap {
	case "field":
		return &dnode{tag: "label", attrs: []string{"class", "ac-field"}, kids: []*dnode{span, self}}
	case "check":
		return &dnode{tag: "label", attrs: []string{"class", "ac-check"}, kids: []*dnode{self, span}}
	}
	return self
}

// args maps an element's arguments to property names: a positional first
// argument sets the primary property.
func elemArgs(e *syntax.Element, primary string) map[string]syntax.Expr {
	m := map[string]syntax.Expr{}
	for _, a := range e.Args {
		if a.Name == nil {
			m[primary] = a.Value
		} else {
			m[a.Name.Name] = a.Value
		}
	}
	return m
}

// literal returns the text of a constant scalar (check.Constant): a
// string, a number as JavaScript writes it, true or false.
func literal(e syntax.Expr) (string, bool) {
	v, ok := check.Constant(e)
	if !ok {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true
	}
	return "", false
}

var flexValues = map[string]string{"start": "flex-start", "end": "flex-end", "center": "center", "stretch": "stretch",
	"space_between": "space-between", "space_around": "space-around", "space_evenly": "space-evenly"}

// icons maps common icon names to characters; another name shows nothing
// but keeps its accessible label.
var icons = map[string]string{"add": "+", "plus": "+", "close": "×", "delete": "🗑", "trash": "🗑", "check": "✓", "done": "✓",
	"edit": "✎", "search": "⌕", "star": "★", "heart": "♥", "home": "⌂", "menu": "☰", "settings": "⚙", "info": "ℹ",
	"warning": "⚠", "error": "⚠", "back": "←", "forward": "→", "up": "↑", "down": "↓", "share": "⤴", "user": "👤", "mail": "✉"}

// describer builds one element's spec from its arguments.
type describer struct {
	g  *gen
	o  *owner
	e  *syntax.Element
	ce *catalog.Element
	a  map[string]syntax.Expr
	s  *spec
	v  js.Expr // the element's variable in app.js
}

// elementSpecs describe each catalog element (docs/web.md, "Elements");
// TestElementSpecs checks that every catalog element has one.
var elementSpecs = map[string]func(d *describer){
	"View": func(d *describer) {
		d.layout("div", "ac-view")
		d.style("direction", "flexDirection", "", nil)
	},
	"Row":    func(d *describer) { d.layout("div", "ac-row") },
	"Column": func(d *describer) { d.layout("div", "ac-column") },
	"ScrollView": func(d *describer) {
		class := "ac-scroll"
		if l, _ := literal(d.a["scroll_orientation"]); l == "horizontal" {
			class += " ac-h"
		}
		d.layout("div", class)
	},
	"Form": func(d *describer) {
		d.layout("form", "ac-form")
		if !d.on("on_submit", "submit") {
			// Enter in a field must not reload the page.
			d.bind(js.CallOf(rtOn, d.v, js.Str("submit"), &js.Arrow{Block: []js.Stmt{}}))
		}
	},
	"Text": func(d *describer) {
		s := d.s
		if d.g.runs {
			// A run of plain text in a Text's block.
			s.tag = "span"
			d.text("text")
			d.style("color", "color", "", nil)
			return
		}
		st, _ := literal(d.a["style"])
		switch st {
		case "title":
			s.tag = "h1"
		case "subtitle":
			s.tag = "h2"
		case "caption":
			s.tag = "p"
			s.attrs = append(s.attrs, "class", "ac-caption")
		case "code":
			s.tag = "pre"
			s.attrs = append(s.attrs, "class", "ac-code")
		default:
			s.tag = "p"
		}
		if x, ok := d.val("style"); ok && st == "" {
			// A value names one of the styles or is body text: it never
			// adds another class.
			var styles []string
			if p, ok := d.ce.Prop("style"); ok {
				styles = p.Values
			}
			isStyle := js.CallOf(js.DotOf(strArray(styles), "includes"), js.Id("x"))
			class := &js.Arrow{Block: []js.Stmt{
				&js.Const{Name: "x", Value: x},
				&js.Return{X: &js.Cond{Test: isStyle, Yes: js.Bin(js.Add, js.Str("ac-"), js.Id("x")), No: js.Str("")}},
			}}
			d.bind(js.CallOf(rtBindClass, d.v, class))
		}
		d.text("text")
		d.style("color", "color", "", nil)
		if _, ok := d.a["max_lines"]; ok {
			d.bind(js.CallOf(js.DotOf(js.DotOf(d.v, "classList"), "add"), js.Str("ac-clamp")))
			d.style("max_lines", "webkitLineClamp", "", nil)
		}
	},
	"Input": func(d *describer) {
		t, ok := literal(d.a["input_type"])
		if !ok {
			t = "text"
		}
		d.s.tag = "input"
		d.s.attrs = append(d.s.attrs, "type", t)
		d.attr("maxlength", "max_length")
		d.field()
	},
	"TextArea": func(d *describer) {
		d.s.tag = "textarea"
		d.attr("rows", "rows")
		d.field()
	},
	"Button": func(d *describer) {
		s := d.s
		s.tag = "button"
		s.attrs = append(s.attrs, "type", "button")
		variant, _ := literal(d.a["variant"])
		switch variant {
		case "secondary", "danger":
			s.attrs = append(s.attrs, "class", "ac-"+variant)
		case "link":
			s.attrs = append(s.attrs, "class", "ac-linkbtn")
		}
		d.text("label")
		d.boolProp("disabled", "disabled", false)
		d.on("on_press", "click")
	},
	"Checkbox": func(d *describer) { d.check("checked") },
	"Switch": func(d *describer) {
		d.check("on")
	},
	"Select": func(d *describer) {
		d.s.tag = "select"
		d.label("field")
		if x, ok := d.val("options"); ok {
			d.bind(js.CallOf(rtOptions, d.v, js.Thunk(x)))
		}
		d.twoWay("value", rtBindValue)
	},
	"Image": func(d *describer) {
		d.s.tag = "img"
		d.urlAttr("src", "src", catalog.ImageSource, rtImageSource)
		d.attr("alt", "alt")
		d.attr("width", "width")
		d.attr("height", "height")
		d.style("fit", "objectFit", "", nil)
	},
	"Icon": func(d *describer) {
		s := d.s
		s.tag = "span"
		s.attrs = append(s.attrs, "class", "ac-icon")
		if n, ok := d.a["name"].(*syntax.StringLit); ok {
			s.text = icons[n.Value]
		}
		if _, ok := d.a["label"]; ok {
			s.attrs = append(s.attrs, "role", "img")
			d.attr("aria-label", "label")
		} else {
			s.attrs = append(s.attrs, "aria-hidden", "true")
		}
		d.style("size", "fontSize", "px", nil)
		d.style("color", "color", "", nil)
	},
	"Link": func(d *describer) {
		d.s.tag = "a"
		d.linkHref()
		d.text("label")
		d.bind(js.CallOf(rtLink, d.v))
	},
	"List": func(d *describer) {
		s := d.s
		s.tag = "ul"
		class := "ac-list"
		if lt, _ := literal(d.a["list_type"]); lt == "grid" {
			class += " ac-grid"
			n, ok := literal(d.a["span_count"])
			if !ok {
				n = "2"
			}
			d.bind(js.Bin(js.Assign, js.DotOf(js.DotOf(d.v, "style"), "gridTemplateColumns"), js.Str("repeat("+n+",minmax(0,1fr))")))
		}
		if so, _ := literal(d.a["scroll_orientation"]); so == "horizontal" {
			class += " ac-h"
		}
		s.attrs = append(s.attrs, "class", class)
		ls := &listSpec{empty: &js.Null{}, end: &js.Null{}}
		ls.items = d.g.expr(d.a["items"])
		if k, ok := d.a["key"]; ok {
			ls.key = d.g.expr(k)
		} else {
			ls.key = &js.Arrow{Params: []string{"x", "i"}, Body: js.Id("i")}
		}
		if x, ok := d.val("empty_text"); ok {
			ls.empty = js.Thunk(x)
		}
		if h, ok := d.a["on_end_reached"]; ok {
			ls.end = d.g.handler(h)
		}
		ls.row = newRowCtx()
		if x, ok := d.a["item_class"]; ok {
			if l, ok := x.(*syntax.LambdaExpr); ok && len(l.Params) > 0 {
				ls.row.items[l.Params[0]] = true
			}
			save := d.g.row
			d.g.row = ls.row
			ls.itemClass = d.g.expr(x)
			d.g.row = save
		}
		if c := d.e.Children; c != nil && c.Param != nil {
			ls.param = c.Param.Name
			ls.row.items[c.Param] = true
		}
		s.list = ls
	},
	"Spacer": func(d *describer) {
		s := d.s
		s.tag = "div"
		s.attrs = append(s.attrs, "class", "ac-spacer", "aria-hidden", "true")
		if x, ok := d.a["size"]; ok {
			flex := js.DotOf(js.DotOf(d.v, "style"), "flex")
			if l, ok := literal(x); ok {
				d.bind(js.Bin(js.Assign, flex, js.Str("0 0 "+l+"px")))
			} else {
				v := d.g.expr(x)
				d.bind(js.CallOf(rtBindStyle, d.v, js.Str("flex"), js.Thunk(js.Bin(js.Add, js.Bin(js.Add, js.Str("0 0 "), v), js.Str("px")))))
			}
		}
	},
	"Divider": func(d *describer) {
		d.s.tag = "hr"
		d.style("color", "borderTopColor", "", nil)
	},
	"Spinner": func(d *describer) {
		s := d.s
		s.tag = "span"
		class := "ac-spinner"
		if sz, _ := literal(d.a["size"]); sz == "large" {
			class += " ac-large"
		}
		s.attrs = append(s.attrs, "class", class, "role", "status")
		if _, ok := d.a["label"]; ok {
			d.attr("aria-label", "label")
		} else {
			s.attrs = append(s.attrs, "aria-label", "Loading")
		}
	},
}

func (d *describer) bind(x js.Expr) { d.s.binds = append(d.s.binds, &js.ExprStmt{X: x}) }

func (d *describer) val(name string) (js.Expr, bool) {
	x, ok := d.a[name]
	if !ok {
		return nil, false
	}
	v := d.g.expr(x)
	return v, true
}

// attr sets an attribute from a property, statically when literal.
func (d *describer) attr(name, prop string) { d.urlAttr(name, prop, nil, nil) }

// urlAttr sets an attribute from a property, statically when literal; a
// URL attribute takes the value only when its rule (catalog.RoutePath or
// catalog.ImageSource, the runtime's rp or ri) allows it. A literal the
// rule refuses is left to the runtime, which leaves the attribute off and
// says why on the console, as it does for a value.
func (d *describer) urlAttr(name, prop string, rule func(string) bool, jsRule *js.Ident) {
	x, ok := d.a[prop]
	if !ok {
		return
	}
	if l, ok := literal(x); ok && (rule == nil || rule(l)) {
		d.s.attrs = append(d.s.attrs, name, l)
		return
	}
	v, _ := d.val(prop)
	args := []js.Expr{d.v, js.Str(name), js.Thunk(v)}
	if jsRule != nil {
		args = append(args, jsRule)
	}
	d.bind(js.CallOf(rtBindAttr, args...))
}

func (d *describer) boolProp(prop, domProp string, negate bool) {
	x, ok := d.a[prop]
	if !ok {
		return
	}
	if l, ok := literal(x); ok {
		if (l == "true") != negate {
			d.s.attrs = append(d.s.attrs, domProp, "")
		}
		return
	}
	v, _ := d.val(prop)
	if negate {
		v = &js.Unary{Op: js.Not, X: v}
	}
	d.bind(js.CallOf(rtBindProp, d.v, js.Str(domProp), js.Thunk(v)))
}

func (d *describer) style(prop, css, unit string, m map[string]string) {
	x, ok := d.a[prop]
	if !ok {
		return
	}
	if l, ok := literal(x); ok {
		if m != nil {
			l = m[l]
		}
		d.bind(js.Bin(js.Assign, js.DotOf(js.DotOf(d.v, "style"), css), js.Str(l+unit)))
		return
	}
	v, _ := d.val(prop)
	if m != nil {
		v = &js.Index{X: rtFlex, Index: v}
	}
	d.bind(js.CallOf(rtBindStyle, d.v, js.Str(css), js.Thunk(v), js.Str(unit)))
}

func (d *describer) text(prop string) {
	x, ok := d.a[prop]
	if !ok {
		return
	}
	if l, ok := x.(*syntax.StringLit); ok {
		d.s.text = l.Value
		return
	}
	v, _ := d.val(prop)
	d.bind(js.CallOf(rtBindText, d.v, js.Thunk(v)))
	d.s.textExpr = v
	d.s.fast++
}

func (d *describer) label(wrap string) {
	x, ok := d.a["label"]
	if !ok {
		return
	}
	d.s.wrap = wrap
	if l, ok := x.(*syntax.StringLit); ok {
		d.s.label = l.Value
	} else {
		d.s.labelExpr, _ = d.val("label")
	}
}

// twoWay makes the two-way binding of a field: the state its value
// property names is written by user input, then on_change runs.
func (d *describer) twoWay(prop string, fn *js.Ident) {
	x := d.a[prop]
	v := d.g.expr(x)
	var signal, change js.Expr = &js.Null{}, &js.Null{}
	if id, ok := x.(*syntax.Ident); ok {
		if obj := d.g.use(id); obj != nil && obj.Kind == check.ObjState {
			signal = local(id.Name)
		}
	}
	if h, ok := d.a["on_change"]; ok {
		change = d.g.handler(h)
	}
	d.bind(js.CallOf(fn, d.v, js.Thunk(v), signal, change))
}

// on runs the handler of prop on event; it reports whether there is one.
func (d *describer) on(prop, event string) bool {
	h, ok := d.a[prop]
	if ok {
		fn := d.g.handler(h)
		d.bind(js.CallOf(rtOn, d.v, js.Str(event), fn))
		if bubbling[event] {
			d.s.handlers = append(d.s.handlers, rowHandler{event, fn})
			d.s.fast++
		}
	}
	return ok
}

func (d *describer) layout(tag, class string) {
	d.s.tag = tag
	d.s.attrs = append(d.s.attrs, "class", class)
	d.style("padding", "padding", "px", nil)
	d.style("gap", "gap", "px", nil)
	d.style("align", "alignItems", "", flexValues)
	d.style("justify", "justifyContent", "", flexValues)
	// background-color, not the background shorthand, which would take
	// url(...) from a value and load it.
	d.style("background", "backgroundColor", "", nil)
}

// field is what Input and TextArea share after their own attributes.
func (d *describer) field() {
	d.attr("placeholder", "placeholder")
	d.label("field")
	if _, ok := d.a["label"]; !ok {
		d.attr("aria-label", "placeholder")
	}
	d.boolProp("disabled", "disabled", false)
	d.twoWay("value", rtBindValue)
	if h, ok := d.a["on_submit"]; ok {
		args := []js.Expr{d.v, d.g.handler(h)}
		if d.s.tag == "textarea" {
			args = append(args, js.Str("Enter"), &js.Bool{Value: true})
		}
		d.bind(js.CallOf(rtOnKey, args...))
	}
}

// check is what Checkbox and Switch share: prop is their value.
func (d *describer) check(prop string) {
	d.s.tag = "input"
	d.s.attrs = append(d.s.attrs, "type", "checkbox")
	if prop == "on" {
		d.s.attrs = append(d.s.attrs, "role", "switch")
	}
	d.label("check")
	d.boolProp("disabled", "disabled", false)
	d.twoWay(prop, rtBindCheck)
}

// spec describes a catalog element whose variable in app.js is v.
func (g *gen) spec(o *owner, e *syntax.Element, id string, ce *catalog.Element, v js.Expr) *spec {
	describe, ok := elementSpecs[ce.Name]
	if !ok {
		g.fail(e, "no description of the catalog element %s", ce.Name)
	}
	d := &describer{g: g, o: o, e: e, ce: ce, a: elemArgs(e, ce.Primary), s: &spec{attrs: []string{}, ax: -1}, v: v}
	describe(d)
	if _, ok := d.a["visible"]; ok {
		d.boolProp("visible", "hidden", true)
	}
	d.view11()
	d.s.attrs = append(d.s.attrs, "data-acore-id", id)
	return d.s
}
