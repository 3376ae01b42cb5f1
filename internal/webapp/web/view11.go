package web

import (
	"strings"

	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// The view of Acore 1.1 (docs/web.md, "Elements"): landmarks, headings,
// inline runs, the Children placeholder, class names and the events of
// focus, keys and double presses.

// childrenProp is the key of an instance's children block in the props
// object of a component: "$" keeps it apart from every prop name.
const childrenProp = "$c"

func init() {
	landmark := func(tag string) func(d *describer) {
		return func(d *describer) { d.layout(tag, "ac-view") }
	}
	elementSpecs["Header"] = landmark("header")
	elementSpecs["Footer"] = landmark("footer")
	elementSpecs["Section"] = landmark("section")
	elementSpecs["Heading"] = func(d *describer) {
		level, ok := literal(d.a["level"])
		if !ok {
			level = "1"
		}
		d.s.tag = "h" + level
		d.text("text")
	}
	run := func(tag string) func(d *describer) {
		return func(d *describer) {
			d.s.tag = tag
			d.text("text")
		}
	}
	elementSpecs["Label"] = run("label")
	elementSpecs["Strong"] = run("strong")
	elementSpecs["Emphasis"] = run("em")
	elementSpecs["Children"] = func(d *describer) {
		d.g.fail(d.e, "Children has no DOM of its own; the instance's children take its place")
	}
}

// view11 binds what every element may have: its class names and the
// handlers of focus, blur, double presses and Escape, and autofocus.
func (d *describer) view11() {
	d.on("on_focus", "focus")
	d.on("on_blur", "blur")
	d.on("on_double_press", "dblclick")
	if h, ok := d.a["on_cancel"]; ok {
		d.bind(js.CallOf(rtOnKey, d.v, d.g.handler(h), js.Str("Escape")))
	}
	if x, ok := d.a["autofocus"]; ok {
		if l, ok := literal(x); ok {
			if l == "true" {
				d.bind(js.CallOf(rtAutofocus, d.v, js.Thunk(&js.Bool{Value: true})))
			}
		} else {
			v, _ := d.val("autofocus")
			d.bind(js.CallOf(rtAutofocus, d.v, js.Thunk(v)))
		}
	}
	x, ok := d.a["class"]
	if !ok {
		return
	}
	if l, ok := x.(*syntax.StringLit); ok {
		// A literal's names join the theme's class attribute.
		names := strings.Fields(l.Value)
		if len(names) == 0 {
			return
		}
		for i := 0; i+1 < len(d.s.attrs); i += 2 {
			if d.s.attrs[i] == "class" {
				d.s.attrs[i+1] += " " + strings.Join(names, " ")
				return
			}
		}
		d.s.attrs = append(d.s.attrs, "class", strings.Join(names, " "))
		return
	}
	v, _ := d.val("class")
	d.bind(js.CallOf(rtBindClass, d.v, js.Thunk(v)))
	d.s.classExpr = v
	d.s.fast++
}

// placeChildren lowers a Children placeholder: the instance's block,
// passed in the props, is rendered into parent where the placeholder
// stands.
func placeChildren(parent js.Expr) js.Stmt {
	c := js.DotOf(js.Id("P"), childrenProp)
	return &js.ExprStmt{X: js.Bin(js.And, c, js.CallOf(c, parent))}
}

// childrenOf lowers an instance's children block into the function the
// component's Children placeholder calls with the element to render into.
func (g *gen) childrenOf(o *owner, e *syntax.Element) (js.Prop, bool) {
	if e.Children == nil || len(e.Children.Items) == 0 {
		return js.Prop{}, false
	}
	w := g.v()
	return js.Prop{Key: childrenProp, Value: &js.Arrow{Params: []string{w.Name}, Block: g.viewItems(o, e.Children.Items, w)}}, true
}

// lowerRuns lowers the runs of a Text's block into v.
func (g *gen) lowerRuns(o *owner, items []syntax.ViewItem, v js.Expr) []js.Stmt {
	saved := g.runs
	g.runs = true
	defer func() { g.runs = saved }()
	return g.viewItems(o, items, v)
}
