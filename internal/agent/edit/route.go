package edit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// RouteArg is one literal page argument of a route.
type RouteArg struct {
	Name  string
	Value Value
}

// RouteAdd adds `route "<path>" => <page>(<args>)` to the app: before or
// after an anchor route, or, without one, after the app's last route.
type RouteAdd struct {
	Path     string
	Page     string
	Args     []RouteArg
	Anchor   *NodeRef
	Position string // before or after, with Anchor
	OldText  string // the anchor route's text, with Anchor
	Common
}

// RouteRemove removes one route.
type RouteRemove struct {
	Node    NodeRef
	OldText string
	Common
}

func (*RouteAdd) name() (string, string)    { return "route", "add" }
func (*RouteRemove) name() (string, string) { return "route", "remove" }

// route offers add on the app (after its last route) and add, before
// or after, and remove on a route, whose text is the old_text of both.
func (r *editRules) route() ([]EditOption, string) {
	switch r.n.Kind {
	case graph.KindApp:
		return []EditOption{{Ops: []string{"add"}}}, ""
	case graph.KindRoute:
		text := string(r.f.Src[r.n.Pos:r.n.End])
		return []EditOption{{Ops: []string{"add", "remove"}, Positions: []string{"before", "after"}, Text: &text}}, ""
	}
	return nil, "route is offered on the app and its routes; this is " + article(r.n.Kind) + " " + r.n.Kind
}

// routeOption returns the route option of n offering op, with its
// preconditions checked.
func (a *applier) routeOption(o *Common, n *graph.Node, i int32, op string) (*EditOption, *Error) {
	opts, why := a.options(n, i, "route")
	opt := findOption(opts, func(x *EditOption) bool { return slices.Contains(x.Ops, op) })
	if opt == nil {
		if why == "" {
			why = fmt.Sprintf("route %s is offered on routes, not on %s", op, n.Kind)
		}
		return nil, notOffered("route "+op, n.ID, why)
	}
	if e := a.preconditions(o, n, opt); e != nil {
		return nil, e
	}
	return opt, nil
}

func (a *applier) routeAdd(o *RouteAdd) (*change, *Error) {
	g := a.proj.Result.Graph
	var n *graph.Node
	if o.Anchor != nil {
		an, i, e := a.node(*o.Anchor, "anchor")
		if e != nil {
			return nil, e
		}
		if an.Kind != graph.KindRoute {
			return nil, notOffered("route add", an.ID, "an anchor is a route; to add after the last route, leave anchor out")
		}
		opt, e := a.routeOption(&o.Common, an, i, "add")
		if e != nil {
			return nil, e
		}
		if opt.Text == nil || o.OldText != *opt.Text {
			return nil, oldTextMismatch(an.ID)
		}
		n = an
	} else {
		var app *graph.Node
		var ai int32
		for k := range int32(g.Len()) {
			if g.At(k).Kind == graph.KindApp {
				app, ai = g.At(k), k
			}
		}
		if app == nil {
			return nil, errorf(reason.NodeUnknown, "the project has no app to add a route to")
		}
		if _, e := a.routeOption(&o.Common, app, ai, "add"); e != nil {
			return nil, e
		}
		for k := range int32(g.Len()) {
			if rn := g.At(k); rn.Kind == graph.KindRoute && rn.Path == app.Path {
				n = rn // the last route, in source order
			}
		}
		if n == nil {
			return nil, notOffered("route add", app.ID, "the app has no route to place the new one after; name no anchor only when it has one")
		}
	}
	text, e := a.routeText(o)
	if e != nil {
		return nil, e
	}
	d := a.data(n.Path)
	sp, at := insertion(d, int(n.Pos), int(n.End), o.Anchor == nil || o.Position == "after", text, "\n"+indentAt(d, int(n.Pos)))
	return &change{path: n.Path, sp: sp, createdAt: at, createdKinds: []string{graph.KindRoute}, node: n.ID}, nil
}

// routeText is the new route's source, once its page, path and
// arguments are found to fit: every parameter of the page is given by a
// :segment of the path or by an argument, and nothing else is.
func (a *applier) routeText(o *RouteAdd) (string, *Error) {
	g := a.proj.Result.Graph
	if e := routePathError("path", o.Path); e != nil {
		return "", e
	}
	if _, ok := g.Lookup("route:" + o.Path); ok {
		return "", errorf(reason.RouteDuplicate, "the app already has a route %q", o.Path).withNode("route:" + o.Path)
	}
	pi, ok := g.Lookup("page:" + o.Page)
	if !ok {
		var pages []string
		for k := range int32(g.Len()) {
			if g.At(k).Kind == graph.KindPage {
				pages = append(pages, g.At(k).Name)
			}
		}
		return "", errorf(reason.RoutePageUnknown, "the project has no page %s (its pages: %s)", o.Page, strings.Join(pages, ", ")).
			detail("pages", pages)
	}
	page := g.At(pi)
	var params []*graph.Node
	for k := range int32(g.Len()) {
		if pn := g.At(k); pn.Kind == graph.KindProp && pn.Owner == page.ID {
			params = append(params, pn)
		}
	}
	isParam := func(name string) bool {
		return slices.ContainsFunc(params, func(p *graph.Node) bool { return p.Name == name })
	}
	given := map[string]string{}
	for _, seg := range strings.Split(o.Path, "/") {
		if name, ok := strings.CutPrefix(seg, ":"); ok {
			if !isParam(name) {
				return "", errorf(reason.RouteParamsMismatch, "the path's segment :%s names no parameter of page %s (%s)", name, o.Page, paramList(params))
			}
			given[name] = "segment"
		}
	}
	args := map[string]Value{}
	for _, arg := range o.Args {
		if !isParam(arg.Name) {
			return "", errorf(reason.RouteParamsMismatch, "args: %s is not a parameter of page %s (%s)", arg.Name, o.Page, paramList(params))
		}
		if given[arg.Name] != "" {
			return "", errorf(reason.RouteParamsMismatch, "args: %s is given by the path's :%s segment and by args; give it once", arg.Name, arg.Name)
		}
		given[arg.Name], args[arg.Name] = "arg", arg.Value
	}
	var parts []string
	for _, p := range params {
		if given[p.Name] == "" {
			return "", errorf(reason.RouteParamsMismatch, "page %s's parameter %s is given neither by a :%s segment of the path nor by args", o.Page, p.Name, p.Name)
		}
		v, ok := args[p.Name]
		if !ok {
			continue
		}
		typ := ""
		for _, pr := range p.Props {
			if pr.Name == "type" {
				typ, _ = pr.Value.(string)
			}
		}
		lit, _, ok := literal(v, typ)
		if !ok {
			return "", errorf(reason.IncompatibleValue, "args: %s is %s, which does not fit %s's parameter %s of type %s", p.Name, v.show(), o.Page, p.Name, typ)
		}
		parts = append(parts, p.Name+": "+lit)
	}
	text := "route " + syntax.Quote(o.Path) + " => " + o.Page
	if len(parts) > 0 {
		text += "(" + strings.Join(parts, ", ") + ")"
	}
	return text, nil
}

func paramList(params []*graph.Node) string {
	if len(params) == 0 {
		return "it has no parameters"
	}
	var names []string
	for _, p := range params {
		names = append(names, p.Name)
	}
	return "its parameters: " + strings.Join(names, ", ")
}

func (a *applier) routeRemove(o *RouteRemove) (*change, *Error) {
	n, i, e := a.node(o.Node, "node")
	if e != nil {
		return nil, e
	}
	if n.Kind != graph.KindRoute {
		return nil, notOffered("route remove", n.ID, "route remove removes a route; this is "+article(n.Kind)+" "+n.Kind)
	}
	opt, e := a.routeOption(&o.Common, n, i, "remove")
	if e != nil {
		return nil, e
	}
	if opt.Text == nil || o.OldText != *opt.Text {
		return nil, oldTextMismatch(n.ID)
	}
	return &change{path: n.Path, sp: removal(a.data(n.Path), int(n.Pos), int(n.End)), createdAt: -1, node: n.ID, removes: true}, nil
}
