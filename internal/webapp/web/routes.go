package web

import (
	"strings"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// Routing of Acore 1.1 in the page (docs/web.md, "Routes"): the route
// table, page parameters, typed navigation and the hrefs of links.

// routeTable is R: [path, page, literal arguments, Int parameters] per
// route, the last two only when the route has them.
func (g *gen) routeTable(a *syntax.AppDecl) *js.Array {
	routes := &js.Array{}
	if a == nil {
		return routes
	}
	for _, r := range a.Routes {
		o := g.owners[r.Target.Name]
		if o == nil {
			g.fail(r, "route %s names no page", r.Path.Value)
		}
		entry := &js.Array{Elems: []js.Expr{js.Str(r.Path.Value), js.Id(ownerFunc(o))}}
		args := &js.Object{}
		for _, arg := range r.Args {
			args.Props = append(args.Props, js.Prop{Key: arg.Name.Name, Value: g.expr(arg.Value)})
		}
		var ints []string
		for _, name := range check.RouteParams(r.Path.Value) {
			if m := o.members[name]; m != nil && m.t.Kind == check.TInt {
				ints = append(ints, name)
			}
		}
		if len(args.Props) > 0 || len(ints) > 0 {
			entry.Elems = append(entry.Elems, args)
		}
		if len(ints) > 0 {
			entry.Elems = append(entry.Elems, strArray(ints))
		}
		routes.Elems = append(routes.Elems, entry)
	}
	return routes
}

// pageParam is the function that reads a page parameter from the
// signal P of the route's parameters, or its default.
func (g *gen) pageParam(m *member) js.Expr {
	var v js.Expr = js.DotOf(js.CallOf(js.Id("P")), m.name)
	if m.prop.Default != nil {
		v = js.Bin(js.Nullish, v, g.expr(m.prop.Default))
	}
	return js.Thunk(v)
}

// routeURL is the URL of a navigation to path with the named arguments
// args: the path itself, or pth(path, {name: value}) for a route with
// parameters.
func (g *gen) routeURL(path string, args []*syntax.Arg) js.Expr {
	if len(check.RouteParams(check.NavPath(path))) == 0 || len(args) == 0 {
		return js.Str(path)
	}
	obj := &js.Object{}
	for _, a := range args {
		obj.Props = append(obj.Props, js.Prop{Key: a.Name.Name, Value: g.expr(a.Value)})
	}
	return js.CallOf(rtRouteURL, js.Str(path), obj)
}

// linkHref sets a Link's href: its route's URL, with "#" before it under
// hash routing, statically when it is a literal without parameters.
func (d *describer) linkHref() {
	x, ok := d.a["to"]
	if !ok {
		return
	}
	hash := d.g.hash
	rule, prefix := rtRoutePath, ""
	if hash {
		rule, prefix = rtHashPath, "#"
	}
	var v js.Expr
	if lit, ok := x.(*syntax.StringLit); ok {
		if len(check.RouteParams(check.NavPath(lit.Value))) == 0 {
			if catalog.RoutePath(lit.Value) {
				d.s.attrs = append(d.s.attrs, "href", prefix+lit.Value)
				return
			}
			v = js.Str(lit.Value)
		} else {
			var args []*syntax.Arg
			for _, a := range d.e.Args {
				if a.Name != nil && a.Name.Name != "to" && a.Name.Name != "label" {
					args = append(args, a)
				}
			}
			v = d.g.routeURL(lit.Value, args)
		}
	} else {
		v, _ = d.val("to")
	}
	if hash {
		v = js.Bin(js.Add, js.Str("#"), v)
	}
	d.bind(js.CallOf(rtBindAttr, d.v, js.Str("href"), js.Thunk(v), rule))
}

// MatchRoute reports whether the URL path p is one of routes: equal to
// it, a trailing "/" aside, with any non-empty segment where the route
// has a :name parameter. A path of a route with parameters may hold a
// dot (/books/war.and.peace), which a server cannot tell from a file's.
func MatchRoute(routes []string, p string) bool {
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	got := strings.Split(p, "/")
	for _, r := range routes {
		want := strings.Split(r, "/")
		if len(want) != len(got) {
			continue
		}
		ok := true
		for i, w := range want {
			if strings.HasPrefix(w, ":") && got[i] != "" || w == got[i] {
				continue
			}
			ok = false
			break
		}
		if ok {
			return true
		}
	}
	return false
}
