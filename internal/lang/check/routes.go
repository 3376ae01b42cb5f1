package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Routing of Acore 1.1: page parameters, route parameters and arguments,
// typed navigation and the app's routing mode (docs/language.md 4.3).

// Routing modes of an app.
const (
	RoutingPath = "path"
	RoutingHash = "hash"
)

// navArg is a named argument of a navigation: its name and the type of
// its value, typed where it is written.
type navArg struct {
	arg *syntax.Arg
	typ *Type
}

// RouteParams returns the names of the `:name` segments of a route path,
// in order.
func RouteParams(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, ":") {
			out = append(out, seg[1:])
		}
	}
	return out
}

// NavPath is the route a navigation's path names: the path without the
// query and fragment a link may carry.
func NavPath(path string) string {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		return path[:i]
	}
	return path
}

// Routing returns the routing mode an app chose, RoutingPath by default.
func Routing(a *syntax.AppDecl) string {
	if a == nil {
		return RoutingPath
	}
	for _, arg := range a.Args {
		if arg.Name != nil && arg.Name.Name == "routing" {
			if s, ok := arg.Value.(*syntax.StringLit); ok && s.Value == RoutingHash {
				return RoutingHash
			}
		}
	}
	return RoutingPath
}

// Themes of an app: the built-in stylesheet (app.css), or none, for an
// app whose own web/styles.css is its whole design.
const (
	ThemeDefault = "default"
	ThemeNone    = "none"
)

// Theme returns the theme an app chose, ThemeDefault by default.
func Theme(a *syntax.AppDecl) string {
	if a == nil {
		return ThemeDefault
	}
	for _, arg := range a.Args {
		if arg.Name != nil && arg.Name.Name == "theme" {
			if s, ok := arg.Value.(*syntax.StringLit); ok && s.Value == ThemeNone {
				return ThemeNone
			}
		}
	}
	return ThemeDefault
}

// AppArg is an argument of the app: its name, its values, and what they
// mean (the error of another value says it; an editor shows it).
type AppArg struct {
	Name   string
	Values []string
	Doc    string
}

// AppArgs are the app's arguments, in the order the errors name them.
var AppArgs = []AppArg{
	{"routing", []string{RoutingPath, RoutingHash}, `routing is "path" (the History API, the default) or "hash" (#/path, for hosts that serve one file)`},
	{"theme", []string{ThemeDefault, ThemeNone}, `theme is "default" (the built-in stylesheet, app.css) or "none" (no app.css: the browser's styles and the project's web/styles.css)`},
}

// checkApp checks the app's arguments, each at most once and in any
// order: `routing: "path"` or `"hash"`, `theme: "default"` or `"none"`.
func (c *checker) checkApp(f *syntax.File, a *syntax.AppDecl, appNode int32) {
	if a.Args == nil {
		return
	}
	var names, written []string
	for _, aa := range AppArgs {
		names = append(names, aa.Name)
	}
	for _, arg := range a.Args {
		if arg.Name != nil && slices.Contains(names, arg.Name.Name) && !slices.Contains(written, arg.Name.Name) {
			written = append(written, arg.Name.Name)
		}
	}
	what := "app arguments"
	if len(written) > 0 {
		what += " (" + strings.Join(written, ", ") + ")"
	}
	c.needs11(f, syntax.Span{Pos: a.Name.Pos, End: a.Name.End}, what)
	var seen []string
	for _, arg := range a.Args {
		i := -1
		if arg.Name != nil {
			i = slices.Index(names, arg.Name.Name)
		}
		if i < 0 {
			at, name := syntax.Node(arg), ""
			if arg.Name != nil {
				at, name = arg.Name, arg.Name.Name
			}
			c.errorf(f, at, diag.BadRouting, "an app takes two arguments, routing: \"path\" or \"hash\", and theme: \"default\" or \"none\"%s", suggest(name, names))
			continue
		}
		aa := AppArgs[i]
		if slices.Contains(seen, aa.Name) {
			c.errorf(f, arg, diag.BadRouting, "%s is given twice to app %s", aa.Name, a.Name.Name)
			continue
		}
		seen = append(seen, aa.Name)
		s, ok := arg.Value.(*syntax.StringLit)
		if !ok || !slices.Contains(aa.Values, s.Value) {
			c.errorf(f, arg.Value, diag.BadRouting, "%s", aa.Doc)
			continue
		}
		if c.info != nil {
			c.record(s, stringType)
		}
		n := c.g.At(appNode)
		n.Props = append(n.Props, c.literalProp(f, aa.Name, "String", s))
	}
}

// checkRoutePath reports the `:name` segments of a path that are not
// identifiers or repeat, and a query or fragment, which the browser would
// never route; it returns false when it reported.
func (c *checker) checkRoutePath(f *syntax.File, r *syntax.RouteDecl) bool {
	p := r.Path.Value
	if strings.ContainsAny(p, "?#") {
		hint := ""
		if i := strings.LastIndex(p, "#"); i >= 0 {
			hint = fmt.Sprintf("; for #/ URLs write app Name(routing: \"hash\") and route %s", syntax.Quote("/"+strings.TrimLeft(p[i+1:], "/")))
		}
		c.errorf(f, r.Path, diag.BadRoute, "a route path holds no ? or #: the browser reads them as a query and a fragment, so %s could never be shown%s", syntax.Quote(p), hint)
		return false
	}
	if !strings.Contains(p, ":") {
		return true
	}
	seen := map[string]bool{}
	for _, seg := range strings.Split(p, "/") {
		if !strings.HasPrefix(seg, ":") {
			continue
		}
		name := seg[1:]
		if !isIdent(name) {
			c.errorf(f, r.Path, diag.BadRoute, "a route parameter is : and a name, as /books/:id; %s is not", syntax.Quote(seg))
			return false
		}
		if seen[name] {
			c.errorf(f, r.Path, diag.BadRoute, "route %s names parameter %s twice", syntax.Quote(p), name)
			return false
		}
		seen[name] = true
	}
	if len(seen) > 0 {
		c.needs11(f, r.Path, "route parameters")
	}
	return true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// checkRoute checks what route r gives page o: each `:name` segment and
// each literal argument names a parameter of the page, and every
// parameter without a default is given. It returns the route node's
// properties after the path: param.<name> and arg.<name>.
func (c *checker) checkRoute(f *syntax.File, r *syntax.RouteDecl, o *owner, pathOK bool) []graph.Property {
	params := o.decl.Params
	if len(params) == 0 && r.Args == nil && !strings.Contains(r.Path.Value, ":") {
		// The 1.0 form: nothing to give.
		return nil
	}
	var props []graph.Property
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name.Name
	}
	find := func(name string) *propSpec {
		for i := range o.specs {
			if o.specs[i].name == name {
				return &o.specs[i]
			}
		}
		return nil
	}
	given := map[string]bool{}
	if pathOK {
		for _, name := range RouteParams(r.Path.Value) {
			s := find(name)
			if s == nil {
				c.errorf(f, r.Path, diag.UnknownRouteParam, "route %s has :%s, but page %s has no parameter %s%s", syntax.Quote(r.Path.Value), name, o.decl.Name.Name, name, suggest(name, names))
				continue
			}
			given[name] = true
			c.recordSegments(f, r.Path, func(n string) *Object {
				if n == name {
					return c.paramObject(o, n)
				}
				return nil
			})
			props = append(props, graph.Property{Name: "param." + name, Type: "Type", Value: c.box(s.typ.String()), ValuePos: -1, ValueEnd: -1})
		}
	}
	if r.Args != nil {
		c.needs11(f, r.Target, "route arguments")
	}
	for _, a := range r.Args {
		if a.Name == nil {
			c.errorf(f, a, diag.PositionalArg, "a route's arguments are named, as %s(name: \"value\")", r.Target.Name)
			continue
		}
		name := a.Name.Name
		s := find(name)
		if s == nil {
			c.errorf(f, a.Name, diag.UnknownRouteParam, "page %s has no parameter %s%s", o.decl.Name.Name, name, suggest(name, names))
			continue
		}
		if c.info != nil {
			c.use(a.Name, c.paramObject(o, name))
		}
		if given[name] {
			c.errorf(f, a, diag.RouteParamMissing, "parameter %s of page %s is given twice by route %s", name, o.decl.Name.Name, syntax.Quote(r.Path.Value))
			continue
		}
		given[name] = true
		v, ok := LiteralValue(a.Value)
		if !ok {
			c.errorf(f, a.Value, diag.RouteArgNotLiteral, "argument %s of route %s is a literal (a string or a number): a route gives its page fixed values", name, syntax.Quote(r.Path.Value))
			continue
		}
		t := literalType(v)
		if !assignable(s.typ, t) {
			c.errorf(f, a.Value, diag.TypeMismatch, "argument %s of route %s is %s, expected %s", name, syntax.Quote(r.Path.Value), t, s.typ)
			continue
		}
		if c.info != nil {
			c.record(a.Value, t)
		}
		props = append(props, c.literalProp(f, "arg."+name, s.typ.String(), a.Value))
	}
	for _, p := range params {
		// A malformed path was reported; what it gives is unknown.
		if s := find(p.Name.Name); pathOK && s != nil && s.required && !given[p.Name.Name] {
			c.errorf(f, r.Target, diag.RouteParamMissing, "route %s does not give parameter %s of page %s: write :%s in the path, %s(%s: ...), or a default in the page", syntax.Quote(r.Path.Value), p.Name.Name, o.decl.Name.Name, p.Name.Name, o.decl.Name.Name, p.Name.Name)
		}
	}
	return props
}

// literalType is the type of a literal value.
func literalType(v any) *Type {
	switch v.(type) {
	case string:
		return stringType
	case int64:
		return intType
	case float64:
		return floatType
	case bool:
		return boolType
	}
	return nullType
}

// checkPageParams holds a page's parameters to the types a URL carries.
func (c *checker) checkPageParams(o *owner) {
	d := o.decl
	if d.Kind != syntax.Page || d.Params == nil {
		return
	}
	c.needs11(o.mod.file, syntax.Span{Pos: d.Name.Pos, End: d.Name.End}, "page parameters")
	for i, p := range d.Params {
		if i >= len(o.specs) || o.specs[i].name != p.Name.Name {
			continue
		}
		if t := o.specs[i].typ; t.Kind != Invalid && (t.Optional || t.Kind != TString && t.Kind != TInt) {
			c.errorf(o.mod.file, p.Type, diag.BadPageParam, "parameter %s of page %s is %s; a page's parameters come from its URL and are String or Int", p.Name.Name, d.Name.Name, t)
		}
	}
}

// navArgs types the named arguments of a navigation after its path; a
// positional one is AC314.
func (c *checker) navArgs(x ctx, args []*syntax.Arg, what string) []navArg {
	var out []navArg
	for _, a := range args {
		if a.Name == nil {
			c.errorf(x.f, a, diag.PositionalArg, "the arguments of %s after the path are named by the route's parameters, as id: book.id", what)
			c.expr(x, a.Value)
			continue
		}
		out = append(out, navArg{arg: a, typ: c.expr(x, a.Value)})
	}
	if len(out) > 0 {
		c.needs11(x.f, out[0].arg, "route arguments of a navigation")
	}
	return out
}

// routeParamTypes maps each route path of the app to its `:name`
// parameters and their page parameter types.
func (c *checker) routeParamTypes(a *syntax.AppDecl) map[string][]namedParam {
	out := map[string][]namedParam{}
	for _, r := range a.Routes {
		names := RouteParams(r.Path.Value)
		if _, ok := out[r.Path.Value]; ok || len(names) == 0 {
			continue
		}
		o := c.ownerNamed(r.Target.Name)
		ps := make([]namedParam, len(names))
		for i, name := range names {
			ps[i] = namedParam{name: name, typ: invalidType}
			if c.info != nil {
				ps[i].obj = c.paramObject(o, name)
			}
			if o != nil {
				for _, s := range o.specs {
					if s.name == name {
						ps[i].typ = s.typ
					}
				}
			}
		}
		out[r.Path.Value] = ps
	}
	return out
}

// checkNavArgs checks a navigation's arguments against the parameters
// of its route: each given once, each fitting its type.
func (c *checker) checkNavArgs(nav pendingNav, params []namedParam) {
	seen := map[string]bool{}
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.name
	}
	for _, a := range nav.args {
		name := a.arg.Name.Name
		var p *namedParam
		for i := range params {
			if params[i].name == name {
				p = &params[i]
			}
		}
		switch {
		case p == nil && len(params) == 0:
			c.errorf(nav.file, a.arg.Name, diag.UnknownRouteParam, "route %s has no parameters; %s is not one", syntax.Quote(nav.path), name)
		case p == nil:
			c.errorf(nav.file, a.arg.Name, diag.UnknownRouteParam, "route %s has no parameter %s%s", syntax.Quote(nav.path), name, suggest(name, names))
		case seen[name]:
			c.errorf(nav.file, a.arg, diag.RouteParamMissing, "parameter %s of route %s is given twice", name, syntax.Quote(nav.path))
		default:
			seen[name] = true
			if c.info != nil {
				c.use(a.arg.Name, p.obj)
			}
			if !assignable(p.typ, a.typ) {
				c.errorf(nav.file, a.arg.Value, diag.TypeMismatch, "parameter %s of route %s is %s, expected %s", name, syntax.Quote(nav.path), a.typ, p.typ)
			}
		}
	}
	if lit, ok := nav.at.(*syntax.StringLit); ok {
		c.recordSegments(nav.file, lit, func(name string) *Object {
			for _, p := range params {
				if p.name == name {
					return p.obj
				}
			}
			return nil
		})
	}
	var missing []string
	for _, p := range params {
		if !seen[p.name] {
			missing = append(missing, p.name)
		}
	}
	if len(missing) > 0 {
		c.errorf(nav.file, nav.call, diag.RouteParamMissing, "%s to route %s needs %s", nav.what, syntax.Quote(nav.path), argList(missing))
	}
}

func argList(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s: ...", n)
	}
	return strings.Join(parts, ", ")
}
