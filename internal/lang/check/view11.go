package check

import (
	"strconv"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// The view of Acore 1.1: the Children placeholder of components and the
// instance blocks that fill it, the inline runs of a Text, headings and
// the elements and properties the 1.0 catalog lacks.

// pendingFill is an instance's children block, placed into the node of
// its component's Children placeholder once every module's view has
// nodes.
type pendingFill struct {
	from int32
	id   string
}

// element11 checks what Acore 1.1 adds to a catalog element at e: its
// version, the placement of Children and of runs, a heading's level.
func (c *checker) element11(x ctx, e *syntax.Element, ce *catalog.Element) {
	f, name := x.f, e.Name.Name
	if ce.Since != "" {
		c.needs11(f, e.Name, "the element "+name)
	}
	switch name {
	case "Children":
		switch {
		case x.o.decl.Kind != syntax.Component:
			c.errorf(f, e.Name, diag.MisplacedChildren, "Children places the children of a component's instance; %s is a page, whose view has no instance", x.o.decl.Name.Name)
		case firstChildren(x.o.decl) != e:
			c.errorf(f, e.Name, diag.MisplacedChildren, "component %s places its children once; this is its second Children", x.o.decl.Name.Name)
		}
	case "Strong", "Emphasis":
		if !x.runs {
			c.errorf(f, e.Name, diag.BadRun, "%s is an inline run; it stands in the block of a Text, as Text { Strong(\"2\") Text(\" items left\") }", name)
		}
	case "Heading":
		if a := findArg(e, "level"); a != nil {
			if v, ok := LiteralValue(a.Value); !ok || !isInt(v) {
				c.errorf(f, a.Value, diag.HeadingLevel, "the level of a Heading is a literal from 1 to 6, as level: 2; it fixes the page's outline")
			}
		}
	}
}

// textRuns checks a Text's text and block: a Text shows its text or the
// runs of its block, never both; a run inside a Text is plain text and
// holds no runs of its own.
func (c *checker) textRuns(x ctx, e *syntax.Element, hasText bool) {
	f := x.f
	runs := e.Children != nil && len(e.Children.Items) > 0
	if x.runs {
		if !hasText {
			c.errorf(f, e.Name, diag.MissingProperty, "a run of a Text needs its text, as Text(\" items left\")")
		}
		if runs {
			c.errorf(f, e.Children, diag.BadRun, "runs do not nest: a Text inside a Text is a run of plain text")
		}
		for _, a := range e.Args {
			if a.Name != nil && (a.Name.Name == "style" || a.Name.Name == "max_lines") {
				c.errorf(f, a.Name, diag.BadRun, "%s belongs to the outer Text; a run takes text, color, visible and class", a.Name.Name)
			}
		}
		return
	}
	switch {
	case runs && hasText:
		c.errorf(f, e.Children, diag.BadRun, "a Text shows its text or the runs of its block, not both; move the text into a run, as Text(\"...\")")
	case runs:
		c.needs11(f, e.Children, "inline runs in a Text")
		for _, it := range e.Children.Items {
			if el, ok := it.(*syntax.Element); !ok || el.Name.Name != "Text" && el.Name.Name != "Strong" && el.Name.Name != "Emphasis" {
				c.errorf(f, it, diag.BadRun, "the block of a Text holds inline runs: Text, Strong and Emphasis")
			}
		}
	case !hasText:
		c.errorf(f, e.Name, diag.MissingProperty, "Text needs text, or inline runs in its block")
	}
}

// fill checks the children block of an instance of component o: o places
// it where its view has Children, and the instance records fills to that
// element. It returns the block's children rule.
func (c *checker) fill(x ctx, e *syntax.Element, n int32, o *owner) catalog.Children {
	if e.Children.Param != nil {
		// An item template: elementChildren says only List takes one.
		return catalog.NoChildren
	}
	c.needs11(x.f, e.Children, "a children block for a component")
	id := childrenID(o.decl)
	if id == "" {
		if len(e.Children.Items) > 0 {
			c.errorf(x.f, e.Children, diag.BadChildren, "component %s takes no children: its view has no Children placeholder to put them in", o.decl.Name.Name)
		}
		return catalog.AnyChildren
	}
	c.pendingFills = append(c.pendingFills, pendingFill{from: n, id: id})
	return catalog.AnyChildren
}

// resolveFills adds the fills edges of the instances checked.
func (c *checker) resolveFills() {
	for _, p := range c.pendingFills {
		if to, ok := c.g.Lookup(p.id); ok {
			c.edge(p.from, to, graph.EdgeFills, graph.Resolved)
		}
	}
	c.pendingFills = c.pendingFills[:0]
}

// childrenID is the node id of the Children placeholder of a component's
// view, "" when there is none: the id viewItems gives it, read off the
// syntax, so that it is known before the component's view is checked.
func childrenID(d *syntax.OwnerDecl) string {
	for _, m := range d.Members {
		if v, ok := m.(*syntax.ViewDecl); ok {
			if path, _ := findChildren(v.Items, d.Name.Name+"/view"); path != "" {
				return graph.KindElement + ":" + path
			}
			return ""
		}
	}
	return ""
}

// firstChildren returns the first Children element of d's view, or nil.
func firstChildren(d *syntax.OwnerDecl) *syntax.Element {
	for _, m := range d.Members {
		if v, ok := m.(*syntax.ViewDecl); ok {
			_, e := findChildren(v.Items, "")
			return e
		}
	}
	return nil
}

func findChildren(items []syntax.ViewItem, prefix string) (string, *syntax.Element) {
	for i, it := range items {
		path := prefix + "/" + strconv.Itoa(i)
		switch it := it.(type) {
		case *syntax.Element:
			if it.Name.Name == "Children" {
				return path, it
			}
			if it.Children != nil {
				if p, e := findChildren(it.Children.Items, path); e != nil {
					return p, e
				}
			}
		case *syntax.IfView:
			for b, br := range it.Branches {
				if p, e := findChildren(br.Items, path+"/"+strconv.Itoa(b)); e != nil {
					return p, e
				}
			}
		}
	}
	return "", nil
}

// itemString checks a lambda of the item giving a String, as a List's
// item_class: |t| if t.done then "done" else "".
func (c *checker) itemString(x ctx, e *syntax.Element, a *syntax.Arg, what words) *Type {
	f := x.f
	lam, ok := a.Value.(*syntax.LambdaExpr)
	if !ok || len(lam.Params) != 1 {
		c.expr(x, a.Value)
		c.errorf(f, a.Value, diag.TypeMismatch, "%s is a function of the item giving a String, as |item| \"...\"", what)
		return invalidType
	}
	elem := invalidType
	if arg := findArg(e, "items"); arg != nil {
		if t := c.peekType(x, arg.Value); t.Kind == TList {
			elem = t.Elem
		}
	}
	t := c.expr(c.with(x, lam.Params[0], lam.Params[0], elem), lam.Body)
	if t.Kind != Invalid && (t.Optional || t.Kind != TString) {
		c.errorf(f, lam.Body, diag.TypeMismatch, "%s gives a String; this is %s", what, t)
	}
	r := &Type{Kind: TLambda, Params: 1, Elem: stringType}
	if c.info != nil {
		c.record(lam, r)
	}
	return r
}

func isInt(v any) bool {
	_, ok := v.(int64)
	return ok
}
