package web

import (
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/catalog"
	"github.com/axiomcore/acore/internal/syntax"
)

// spec is what one catalog element becomes: its tag and static
// attributes (shared by app.js and the static templates of index.html),
// an optional wrapper that shows its label, its literal text, and the
// statements of app.js that bind the rest to the element's variable.
type spec struct {
	tag   string
	attrs []string // name, value pairs
	// wrap is "field" (label above), "check" (label after) or "".
	wrap      string
	label     string // literal label of the wrapper
	labelExpr string // JS of a label that is not a literal
	text      string // literal text content
	js        []string
	// The AXAG action of the element: ax (an index into the actions, -1
	// for none) or, reached through Action props, props.
	ax    int
	props []string
	// list is set for a List: the JS of its items, key, empty text and
	// end handler.
	list *listSpec
}

type listSpec struct {
	items, key, empty, end string
	param                  string
	t                      *ty
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

// literal returns the text of a literal scalar value.
func literal(e syntax.Expr) (string, bool) {
	switch e := e.(type) {
	case *syntax.StringLit:
		return e.Value, true
	case *syntax.BoolLit:
		return strconv.FormatBool(e.Value), true
	case *syntax.NumberLit:
		return strings.ReplaceAll(e.Raw, "_", ""), true
	case *syntax.UnaryExpr:
		if n, ok := e.X.(*syntax.NumberLit); ok && e.Op == syntax.Minus {
			return "-" + strings.ReplaceAll(n.Raw, "_", ""), true
		}
	case *syntax.ParenExpr:
		return literal(e.X)
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

// spec maps a catalog element (docs/web.md, "Elements").
func (g *gen) spec(o *owner, sc *scope, e *syntax.Element, id string, ce *catalog.Element) *spec {
	a := elemArgs(e, ce.Primary)
	s := &spec{attrs: []string{}, ax: -1}
	val := func(name string) (string, bool) {
		x, ok := a[name]
		if !ok {
			return "", false
		}
		js, _ := g.expr(o, sc, x)
		return js, true
	}
	// urlAttr sets an attribute from a property, statically when literal;
	// a URL attribute takes the value only when its rule (catalog.RoutePath
	// or catalog.ImageSource, the runtime's rp or ri) allows it. A literal
	// the rule refuses is left to the runtime, which leaves the attribute
	// off and says why on the console, as it does for a value.
	urlAttr := func(name, prop string, rule func(string) bool, jsRule string) {
		x, ok := a[prop]
		if !ok {
			return
		}
		if l, ok := literal(x); ok && (rule == nil || rule(l)) {
			s.attrs = append(s.attrs, name, l)
			return
		}
		js, _ := val(prop)
		s.js = append(s.js, "at(v,"+jsString(name)+",()=>"+js+jsRule+")")
	}
	attr := func(name, prop string) { urlAttr(name, prop, nil, "") }
	boolProp := func(prop, domProp string, negate bool) {
		x, ok := a[prop]
		if !ok {
			return
		}
		if l, ok := literal(x); ok {
			if (l == "true") != negate {
				s.attrs = append(s.attrs, domProp, "")
			}
			return
		}
		js, _ := val(prop)
		if negate {
			js = "!(" + js + ")"
		}
		s.js = append(s.js, "pr(v,"+jsString(domProp)+",()=>"+js+")")
	}
	style := func(prop, css, unit string, m map[string]string) {
		x, ok := a[prop]
		if !ok {
			return
		}
		if l, ok := literal(x); ok {
			if m != nil {
				l = m[l]
			}
			s.js = append(s.js, "v.style."+css+"="+jsString(l+unit))
			return
		}
		js, _ := val(prop)
		if m != nil {
			js = "FX[" + js + "]"
		}
		s.js = append(s.js, "st(v,"+jsString(css)+",()=>"+js+","+jsString(unit)+")")
	}
	text := func(prop string) {
		x, ok := a[prop]
		if !ok {
			return
		}
		if l, ok := x.(*syntax.StringLit); ok {
			s.text = l.Value
			s.js = append(s.js, "v.textContent="+jsString(l.Value))
			return
		}
		js, _ := val(prop)
		s.js = append(s.js, "tx(v,()=>"+js+")")
	}
	label := func(wrap string) {
		x, ok := a["label"]
		if !ok {
			return
		}
		s.wrap = wrap
		if l, ok := x.(*syntax.StringLit); ok {
			s.label = l.Value
		} else {
			s.labelExpr, _ = val("label")
		}
	}
	// bind makes the two-way binding of a field: the state its value
	// property names is written by user input, then on_change runs.
	bind := func(prop, fn string) {
		x := a[prop]
		js, _ := g.expr(o, sc, x)
		signal := "null"
		if id, ok := x.(*syntax.Ident); ok && sc.lookup(id.Name) == nil {
			if m := o.members[id.Name]; m != nil && m.kind == mState {
				signal = jsName(id.Name)
			}
		}
		change := "null"
		if h, ok := a["on_change"]; ok {
			change = g.handler(o, sc, h)
		}
		s.js = append(s.js, fn+"(v,()=>"+js+","+signal+","+change+")")
	}
	on := func(prop, event string) {
		if h, ok := a[prop]; ok {
			s.js = append(s.js, "on(v,"+jsString(event)+","+g.handler(o, sc, h)+")")
		}
	}
	layout := func(class string) {
		s.tag = "div"
		s.attrs = append(s.attrs, "class", class)
		style("padding", "padding", "px", nil)
		style("gap", "gap", "px", nil)
		style("align", "alignItems", "", flexValues)
		style("justify", "justifyContent", "", flexValues)
		// background-color, not the background shorthand, which would
		// take url(...) from a value and load it.
		style("background", "backgroundColor", "", nil)
	}
	switch ce.Name {
	case "View":
		layout("ac-view")
		style("direction", "flexDirection", "", nil)
	case "Row":
		layout("ac-row")
	case "Column":
		layout("ac-column")
	case "ScrollView":
		layout("ac-scroll")
		if l, _ := literal(a["scroll_orientation"]); l == "horizontal" {
			s.attrs[1] += " ac-h"
		}
	case "Form":
		layout("ac-form")
		s.tag = "form"
		if _, ok := a["on_submit"]; ok {
			on("on_submit", "submit")
		} else {
			s.js = append(s.js, `on(v,"submit",()=>{})`)
		}
	case "Text":
		st, _ := literal(a["style"])
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
		if _, ok := a["style"]; ok && st == "" {
			// A value names one of the styles or is body text: it never
			// adds another class.
			js, _ := val("style")
			var styles []string
			for _, p := range ce.Props {
				if p.Name == "style" {
					styles = p.Values
				}
			}
			s.js = append(s.js, `pr(v,"className",()=>{const x=`+js+`;return /^(`+strings.Join(styles, "|")+`)$/.test(x)?"ac-"+x:""})`)
		}
		text("text")
		style("color", "color", "", nil)
		if _, ok := a["max_lines"]; ok {
			s.js = append(s.js, `v.classList.add("ac-clamp")`)
			style("max_lines", "webkitLineClamp", "", nil)
		}
	case "Input", "TextArea":
		s.tag = "input"
		if ce.Name == "TextArea" {
			s.tag = "textarea"
			attr("rows", "rows")
		} else {
			t, ok := literal(a["input_type"])
			if !ok {
				t = "text"
			}
			s.attrs = append(s.attrs, "type", t)
			attr("maxlength", "max_length")
		}
		attr("placeholder", "placeholder")
		label("field")
		if _, ok := a["label"]; !ok {
			attr("aria-label", "placeholder")
		}
		boolProp("disabled", "disabled", false)
		bind("value", "bv")
		if h, ok := a["on_submit"]; ok {
			s.js = append(s.js, "ky(v,"+g.handler(o, sc, h)+")")
		}
	case "Button":
		s.tag = "button"
		s.attrs = append(s.attrs, "type", "button")
		variant, _ := literal(a["variant"])
		switch variant {
		case "secondary", "danger":
			s.attrs = append(s.attrs, "class", "ac-"+variant)
		case "link":
			s.attrs = append(s.attrs, "class", "ac-linkbtn")
		}
		text("label")
		boolProp("disabled", "disabled", false)
		on("on_press", "click")
	case "Checkbox", "Switch":
		s.tag = "input"
		s.attrs = append(s.attrs, "type", "checkbox")
		prop := "checked"
		if ce.Name == "Switch" {
			s.attrs = append(s.attrs, "role", "switch")
			prop = "on"
		}
		label("check")
		boolProp("disabled", "disabled", false)
		bind(prop, "bc")
	case "Select":
		s.tag = "select"
		label("field")
		if js, ok := val("options"); ok {
			s.js = append(s.js, "opts(v,()=>"+js+")")
		}
		bind("value", "bv")
	case "Image":
		s.tag = "img"
		urlAttr("src", "src", catalog.ImageSource, ",ri")
		attr("alt", "alt")
		attr("width", "width")
		attr("height", "height")
		style("fit", "objectFit", "", nil)
	case "Icon":
		s.tag = "span"
		s.attrs = append(s.attrs, "class", "ac-icon")
		if n, ok := a["name"].(*syntax.StringLit); ok {
			s.text = icons[n.Value]
			if s.text != "" {
				s.js = append(s.js, "v.textContent="+jsString(s.text))
			}
		}
		if _, ok := a["label"]; ok {
			s.attrs = append(s.attrs, "role", "img")
			attr("aria-label", "label")
		} else {
			s.attrs = append(s.attrs, "aria-hidden", "true")
		}
		style("size", "fontSize", "px", nil)
		style("color", "color", "", nil)
	case "Link":
		s.tag = "a"
		urlAttr("href", "to", catalog.RoutePath, ",rp")
		text("label")
		s.js = append(s.js, "lk(v)")
	case "List":
		s.tag = "ul"
		class := "ac-list"
		if lt, _ := literal(a["list_type"]); lt == "grid" {
			class += " ac-grid"
			n, ok := literal(a["span_count"])
			if !ok {
				n = "2"
			}
			s.js = append(s.js, "v.style.gridTemplateColumns="+jsString("repeat("+n+",minmax(0,1fr))"))
		}
		if so, _ := literal(a["scroll_orientation"]); so == "horizontal" {
			class += " ac-h"
		}
		s.attrs = append(s.attrs, "class", class)
		ls := &listSpec{empty: "null", end: "null"}
		var it *ty
		ls.items, it = g.expr(o, sc, a["items"])
		ls.t = tUnknown
		if it.k == 'l' {
			ls.t = it.elem
		}
		if k, ok := a["key"].(*syntax.LambdaExpr); ok && len(k.Params) == 1 {
			body, _ := g.expr(o, sc.with(k.Params[0].Name, ls.t, false), k.Body)
			ls.key = "(" + jsName(k.Params[0].Name) + ")=>" + body
		} else {
			ls.key = "(x,i)=>i"
		}
		if js, ok := val("empty_text"); ok {
			ls.empty = "()=>" + js
		}
		if h, ok := a["on_end_reached"]; ok {
			ls.end = g.handler(o, sc, h)
		}
		if e.Children != nil && e.Children.Param != nil {
			ls.param = e.Children.Param.Name
		}
		s.list = ls
	case "Spacer":
		s.tag = "div"
		s.attrs = append(s.attrs, "class", "ac-spacer", "aria-hidden", "true")
		if x, ok := a["size"]; ok {
			if l, ok := literal(x); ok {
				s.js = append(s.js, "v.style.flex="+jsString("0 0 "+l+"px"))
			} else {
				js, _ := g.expr(o, sc, x)
				s.js = append(s.js, `st(v,"flex",()=>"0 0 "+`+js+`+"px")`)
			}
		}
	case "Divider":
		s.tag = "hr"
		style("color", "borderTopColor", "", nil)
	case "Spinner":
		s.tag = "span"
		class := "ac-spinner"
		if sz, _ := literal(a["size"]); sz == "large" {
			class += " ac-large"
		}
		s.attrs = append(s.attrs, "class", class, "role", "status")
		if _, ok := a["label"]; ok {
			attr("aria-label", "label")
		} else {
			s.attrs = append(s.attrs, "aria-label", "Loading")
		}
	}
	if _, ok := a["visible"]; ok {
		boolProp("visible", "hidden", true)
	}
	s.attrs = append(s.attrs, "data-acore-id", id)
	return s
}
