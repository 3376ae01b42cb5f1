package web

import (
	"slices"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// The static markup of index.html: one inert <template> per page with its
// whole view (every branch of every conditional, each item template once,
// components expanded), so that a runtime agent that does not run scripts
// sees every action. Each action's axag-* attributes stand on the first
// element that triggers it; actions that no element shows (a query loaded
// on mount) stand on hidden carriers in a last template.

// hctx is the expansion of one owner's view: what each Action prop of the
// component reaches at this use (an action index, or -1), and the
// components being expanded (a component inside itself is not expanded
// again).
type hctx struct {
	props map[string]int
	stack []string
	// children is the block of the instance being expanded, which its
	// Children placeholder shows; from and outer are the owner and the
	// expansion the block is written in.
	children []syntax.ViewItem
	from     *owner
	outer    *hctx
}

var voidTags = map[string]bool{"input": true, "img": true, "hr": true}

func (g *gen) html(app *syntax.AppDecl) []byte {
	var b strings.Builder
	b.Grow(len(g.specs) * 200)
	title := "App"
	if app != nil && app.Name != nil {
		title = app.Name.Name
	}
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<title>" + escText(title) + "</title>\n")
	b.WriteString("<meta name=\"axag-manifest\" content=\"/.well-known/axag-manifest.json\">\n")
	// An empty icon: the browser does not ask the server for /favicon.ico.
	b.WriteString("<link rel=\"icon\" href=\"data:,\">\n")
	if check.Theme(app) != check.ThemeNone {
		b.WriteString("<link rel=\"stylesheet\" href=\"/app.css\">\n")
	}
	if g.styles {
		// After the theme: the project's rules win at equal specificity.
		b.WriteString("<link rel=\"stylesheet\" href=\"/styles.css\">\n")
	}
	b.WriteString("<script type=\"module\" src=\"/app.js\"></script>\n</head>\n<body>\n")
	b.WriteString("<div id=\"app\"></div>\n<noscript>This app needs JavaScript.</noscript>\n")
	emitted := make([]bool, len(g.ax))
	if app != nil {
		var done []string
		for _, r := range app.Routes {
			o := g.owners[r.Target.Name]
			if o == nil || slices.Contains(done, o.d.Name.Name) {
				continue
			}
			done = append(done, o.d.Name.Name)
			var paths []string
			for _, r2 := range app.Routes {
				if r2.Target.Name == r.Target.Name {
					paths = append(paths, r2.Path.Value)
				}
			}
			b.WriteString("<template data-acore-page=\"" + escAttr(o.d.Name.Name) + "\" data-acore-routes=\"" + escAttr(strings.Join(paths, " ")) + "\">\n<main class=\"ac-page\">")
			if o.view != nil {
				g.htmlItems(&b, o, o.view.Items, &hctx{}, emitted)
			}
			b.WriteString("</main>\n</template>\n")
		}
	}
	rest := false
	for i := range g.ax {
		if emitted[i] {
			continue
		}
		if !rest {
			b.WriteString("<template data-acore-actions>\n")
			rest = true
		}
		b.WriteString("<span hidden")
		writeAttrs(&b, g.ax[i])
		b.WriteString("></span>\n")
	}
	if rest {
		b.WriteString("</template>\n")
	}
	b.WriteString("</body>\n</html>\n")
	return []byte(b.String())
}

func (g *gen) htmlItems(b *strings.Builder, o *owner, items []syntax.ViewItem, x *hctx, emitted []bool) {
	for _, it := range items {
		switch it := it.(type) {
		case *syntax.Element:
			g.htmlElement(b, o, it, x, emitted)
		case *syntax.IfView:
			b.WriteString("<div class=\"ac-if\" data-acore-id=\"" + escAttr(g.nodeOf(o, it).ID) + "\">")
			for bi, br := range it.Branches {
				b.WriteString("<template data-acore-branch=\"" + strconv.Itoa(bi) + "\">")
				g.htmlItems(b, o, br.Items, x, emitted)
				b.WriteString("</template>")
			}
			b.WriteString("</div>")
		case *syntax.BadDecl:
			g.fail(it, "a view item that did not parse")
		default:
			g.fail(it, "no case for this view item")
		}
	}
}

func (g *gen) htmlElement(b *strings.Builder, o *owner, e *syntax.Element, x *hctx, emitted []bool) {
	n := g.nodeOf(o, e)
	if e.Name.Name == "Children" {
		if x.children != nil {
			g.htmlItems(b, x.from, x.children, x.outer, emitted)
		}
		return
	}
	_, ok := catalog.Lookup(e.Name.Name)
	if !ok {
		b.WriteString("<div class=\"ac-comp\" data-acore-id=\"" + escAttr(n.ID) + "\" data-acore-component=\"" + escAttr(e.Name.Name) + "\">")
		c := g.owners[e.Name.Name]
		if c != nil && c.view != nil && !slices.Contains(x.stack, c.d.Name.Name) {
			inner := &hctx{props: map[string]int{}, stack: append(slices.Clone(x.stack), c.d.Name.Name)}
			key := c.d.Name.Name
			for _, a := range e.Args {
				if m := c.members[argName(a)]; m != nil && m.kind == mProp && m.t.Kind == check.TAction {
					inner.props[m.name] = g.staticAx(g.reachOf(o, []syntax.Expr{a.Value}), "", x)
					key += " " + m.name + "=" + strconv.Itoa(inner.props[m.name])
				}
			}
			if e.Children != nil && len(e.Children.Items) > 0 {
				// The instance's own children are shown in every
				// expansion of it.
				inner.children, inner.from, inner.outer = e.Children.Items, o, x
				key = ""
			}
			// A component is expanded once per set of actions its
			// Action props reach: another expansion would show the same
			// markup and no new action, and nested components would
			// multiply the page.
			if key == "" || !g.expanded[key] {
				g.expanded[key] = true
				g.htmlItems(b, c, c.view.Items, inner, emitted)
			}
		}
		b.WriteString("</div>")
		return
	}
	s := g.specs[e]
	if s == nil {
		g.fail(e, "an element app.js does not render")
	}
	ax := s.ax
	if ax < 0 {
		ax = g.staticAx(&reach{props: s.props}, "", x)
	}
	g.htmlDOM(b, s.dom(), o, e, s, ax, x, emitted)
}

// htmlDOM writes the static DOM d of the element e (the one its spec
// describes for app.js too).
func (g *gen) htmlDOM(b *strings.Builder, d *dnode, o *owner, e *syntax.Element, s *spec, ax int, x *hctx, emitted []bool) {
	if !d.self {
		b.WriteString("<" + d.tag)
		writeAttrs(b, d.attrs)
		b.WriteString(">" + escText(d.text))
		for _, k := range d.kids {
			g.htmlDOM(b, k, o, e, s, ax, x, emitted)
		}
		b.WriteString("</" + d.tag + ">")
		return
	}
	// The children first: an action that a child also carries (a Form's
	// submit and its button) stands on the child, which a user presses,
	// rather than on the container, whose scope would pass to its
	// children.
	if ax < 0 || emitted[ax] || voidTags[d.tag] {
		b.WriteString("<" + d.tag)
		writeAttrs(b, d.attrs)
		b.WriteString(">")
		g.htmlContent(b, o, e, d, s, x, emitted)
		return
	}
	var inner strings.Builder
	g.htmlContent(&inner, o, e, d, s, x, emitted)
	b.WriteString("<" + d.tag)
	writeAttrs(b, d.attrs)
	if !emitted[ax] {
		emitted[ax] = true
		writeAttrs(b, g.ax[ax])
	}
	b.WriteString(">")
	b.WriteString(inner.String())
}

// htmlContent writes an element's text, children and end tag.
func (g *gen) htmlContent(b *strings.Builder, o *owner, e *syntax.Element, d *dnode, s *spec, x *hctx, emitted []bool) {
	if voidTags[d.tag] {
		return
	}
	b.WriteString(escText(d.text))
	if s.list != nil {
		b.WriteString("<template data-acore-item><li>")
		if e.Children != nil {
			g.htmlItems(b, o, e.Children.Items, x, emitted)
		}
		b.WriteString("</li></template>")
	} else if e.Children != nil {
		g.htmlItems(b, o, e.Children.Items, x, emitted)
	}
	b.WriteString("</" + d.tag + ">")
}

func argName(a *syntax.Arg) string {
	if a.Name == nil {
		return ""
	}
	return a.Name.Name
}

// staticAx is pick for a static expansion: Action props resolve to what
// the component's user passed.
func (g *gen) staticAx(r *reach, intent string, x *hctx) int {
	if i := g.pick(r, intent); i >= 0 {
		return i
	}
	for _, p := range r.props {
		if i, ok := x.props[p]; ok && i >= 0 {
			return i
		}
	}
	return -1
}

// writeAttrs writes name="value" pairs, quoted with " or, when the value
// holds a " and no ', with ' (JSON stays readable).
func writeAttrs(b *strings.Builder, attrs []string) {
	for i := 0; i+1 < len(attrs); i += 2 {
		b.WriteString(" " + attrs[i])
		v := attrs[i+1]
		if v == "" {
			continue
		}
		if strings.Contains(v, "\"") && !strings.Contains(v, "'") {
			b.WriteString("='" + strings.ReplaceAll(v, "&", "&amp;") + "'")
			continue
		}
		b.WriteString("=\"" + escAttr(v) + "\"")
	}
}

var (
	attrEscaper = strings.NewReplacer("&", "&amp;", "\"", "&quot;", "<", "&lt;")
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
)

func escAttr(s string) string {
	if !strings.ContainsAny(s, "&\"<") {
		return s
	}
	return attrEscaper.Replace(s)
}

func escText(s string) string {
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	return textEscaper.Replace(s)
}
