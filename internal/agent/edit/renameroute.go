package edit

import (
	"bytes"
	"maps"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// renameRoute renames a route's path (old_name and new_name are paths):
// the route's literal and every navigate("…") and Link(to: "…") that
// names it, found through the route's navigates_to edges, in one
// candidate. A new path whose :segments no longer fit the page or the
// navigations' arguments fails the compile, with the checker's
// diagnostics.
func (a *applier) renameRoute(i int, n *graph.Node, ni int32, o *Rename) *Error {
	if e := routePathError("new_name", o.NewName); e != nil {
		return e.withNode(n.ID)
	}
	g := a.proj.Result.Graph
	if _, taken := g.Lookup("route:" + o.NewName); taken {
		return errorf(reason.NameTaken, "the app already has a route %q", o.NewName).withNode(n.ID).detail("new_name", o.NewName)
	}
	var pos, end int
	for _, p := range n.Props {
		if p.Name == "path" {
			pos, end = int(p.ValuePos), int(p.ValueEnd)
		}
	}
	if end <= pos {
		return errorf(reason.Invariant, "%s has no path literal", n.ID)
	}
	lit := syntax.Quote(o.NewName)
	sites := map[string][]splice{n.Path: {{pos: pos, end: end, text: lit}}}
	old := []byte(syntax.Quote(o.OldName))
	for _, ei := range g.In(ni) {
		ed := &g.Edges[ei]
		if ed.Kind() != graph.EdgeNavigatesTo {
			continue
		}
		from := g.At(ed.From)
		src := a.data(from.Path)
		for j := int(from.Pos); j < int(from.End); {
			k := bytes.Index(src[j:from.End], old)
			if k < 0 {
				break
			}
			at := j + k
			before := strings.TrimRight(string(src[max(0, at-64):at]), " \t\r\n")
			if strings.HasSuffix(before, "navigate(") || strings.HasSuffix(before, "to:") {
				s := splice{pos: at, end: at + len(old), text: lit}
				if !slices.Contains(sites[from.Path], s) {
					sites[from.Path] = append(sites[from.Path], s)
				}
			}
			j = at + len(old)
		}
	}
	overlay := map[string][]byte{}
	for _, path := range slices.Sorted(maps.Keys(sites)) {
		list := sites[path]
		slices.SortFunc(list, func(x, y splice) int { return x.pos - y.pos })
		pre := a.proj.Headers(path)
		for _, s := range list {
			a.touchSpan(pre, path, s.pos, s.end)
		}
		overlay[path] = applyAll(a.data(path), list)
		a.total += (len(lit) - len(old)) * len(list)
		a.changed[path] = true
	}
	in, err := a.proj.Inputs.With(overlay)
	if e := inputsError(err); e != nil {
		return e
	}
	before := a.proj
	if e := a.compileInputs(in); e != nil {
		return e
	}
	var entries []IDMapEntry
	if to, ok := a.proj.Result.Graph.Lookup("route:" + o.NewName); ok {
		if en, ok := mapEntry(before.Result.Graph.At(ni), a.proj.Result.Graph.At(to)); ok {
			entries = append(entries, en)
		}
	}
	a.compose(entries, nil)
	out := Outcome{Index: i, Kind: "rename", Path: n.Path, Node: n.ID, IDMap: entries}
	if o.Handle != nil {
		out.Handle = *o.Handle
		a.handles[*o.Handle] = "route:" + o.NewName
	}
	a.outcomes = append(a.outcomes, out)
	return nil
}

// routePathError refuses what is not a route path.
func routePathError(field, p string) *Error {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\"\\\n\r\t ") {
		return errorf(reason.Schema, "%s: %q is not a route path: it starts with / and has no blanks, quotes or backslashes", field, p)
	}
	return nil
}
