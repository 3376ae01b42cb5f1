package change

import (
	"reflect"
	"slices"

	"github.com/axiomcore/acore/internal/lang/graph"
)

// DiffEntry is one entry of a semantic diff.
type DiffEntry struct {
	Node       string         `json:"node"`
	Change     string         `json:"change"`
	Expected   bool           `json:"expected"`
	From       string         `json:"from,omitempty"`
	Properties []PropertyDiff `json:"properties,omitempty"`
}

// PropertyDiff is one changed property.
type PropertyDiff struct {
	Name   string `json:"name"`
	Before any    `json:"before"`
	After  any    `json:"after"`
}

// SemanticDiff compares the nodes of base and cand in paths and the nodes
// data's id_map names. See change.inspect.
func SemanticDiff(base, cand *graph.Graph, paths []string, data *Data) []DiffEntry {
	inPaths := stringSet(paths)
	expected := stringSet(data.Expected)
	moved := map[string]string{} // new id → old id
	gone := map[string]bool{}
	for _, e := range data.IDMap {
		if e.OldID != nil && e.NewID != nil && *e.OldID != *e.NewID {
			moved[*e.NewID] = *e.OldID
			gone[*e.OldID] = true
		}
	}
	var out []DiffEntry
	// Only nodes of the candidate's files, and nodes that moved, can
	// differ; they are visited in index order.
	nodesOf := func(g *graph.Graph, ids map[string]bool) []int32 {
		var list []int32
		for _, p := range paths {
			list = append(list, g.NodesIn(p)...)
		}
		for id := range ids {
			if i, ok := g.Lookup(id); ok && !inPaths[g.At(i).Path] {
				list = append(list, i)
			}
		}
		slices.Sort(list)
		return list
	}
	movedIDs := map[string]bool{}
	for id := range moved {
		movedIDs[id] = true
	}
	for _, i := range nodesOf(cand, movedIDs) {
		n := cand.At(i)
		if old, ok := moved[n.ID]; ok {
			e := DiffEntry{Node: n.ID, Change: "relocated", From: old, Expected: true}
			if on, ok := base.Node(old); ok {
				e.Properties = propertyDiff(on, n)
			}
			out = append(out, e)
			continue
		}
		on, ok := base.Node(n.ID)
		if !ok || gone[n.ID] { // a new node, maybe with the id of one that moved
			e := DiffEntry{Node: n.ID, Change: "added", Expected: expected[n.ID]}
			for _, p := range n.Props {
				e.Properties = append(e.Properties, PropertyDiff{Name: p.Name, After: p.Value})
			}
			out = append(out, e)
			continue
		}
		props := propertyDiff(on, n)
		if len(props) > 0 || !sameSignature(base, on, cand, n) || on.Kind != n.Kind {
			// A component whose signature changed only inside a prop an
			// operation changed (its default) changed as asked.
			exp := expected[n.ID] || len(props) == 0 && on.Kind == n.Kind && sameOutside(base, on, cand, n, expected)
			out = append(out, DiffEntry{Node: n.ID, Change: "modified", Expected: exp, Properties: props})
		}
	}
	for _, i := range nodesOf(base, gone) {
		n := base.At(i)
		if _, ok := cand.Lookup(n.ID); ok || gone[n.ID] {
			continue
		}
		e := DiffEntry{Node: n.ID, Change: "removed", Expected: expected[n.ID]}
		for _, p := range n.Props {
			e.Properties = append(e.Properties, PropertyDiff{Name: p.Name, Before: p.Value})
		}
		out = append(out, e)
	}
	if out == nil {
		out = []DiffEntry{}
	}
	return out
}

// sameSignature reports whether nodes a of ga and b of gb have the same
// signature, comparing their source text before compacting it.
func sameSignature(ga *graph.Graph, a *graph.Node, gb *graph.Graph, b *graph.Node) bool {
	if a.Signature == "" && b.Signature == "" && a.SigEnd > a.SigPos && b.SigEnd > b.SigPos {
		if fa, fb := ga.File(a.Path), gb.File(b.Path); fa != nil && fb != nil && int(a.SigEnd) <= len(fa.Src) && int(b.SigEnd) <= len(fb.Src) &&
			string(fa.Src[a.SigPos:a.SigEnd]) == string(fb.Src[b.SigPos:b.SigEnd]) {
			return true
		}
	}
	return ga.Signature(a) == gb.Signature(b)
}

// sameOutside reports whether the signature source of a in ga and of b
// in gb is the same once the nodes inside it that expected names are left
// out of both.
func sameOutside(ga *graph.Graph, a *graph.Node, gb *graph.Graph, b *graph.Node, expected map[string]bool) bool {
	ta, oka := signatureOutside(ga, a, expected)
	tb, okb := signatureOutside(gb, b, expected)
	return oka && okb && ta == tb
}

// signatureOutside is n's signature source with each node of expected
// inside it replaced by a mark; ok is false when the signature is not
// source text or leaves out no node.
func signatureOutside(g *graph.Graph, n *graph.Node, expected map[string]bool) (string, bool) {
	f := g.File(n.Path)
	if n.Signature != "" || n.SigEnd <= n.SigPos || f == nil || int(n.SigEnd) > len(f.Src) {
		return "", false
	}
	var inside []*graph.Node
	for _, i := range g.NodesIn(n.Path) {
		if c := g.At(i); c != n && expected[c.ID] && c.Pos >= n.SigPos && c.End <= n.SigEnd && c.End > c.Pos {
			inside = append(inside, c)
		}
	}
	slices.SortFunc(inside, func(x, y *graph.Node) int { return int(x.Pos - y.Pos) })
	var b []byte
	at := int(n.SigPos)
	for _, c := range inside {
		if int(c.Pos) < at {
			continue // inside one already left out
		}
		b = append(append(b, f.Src[at:c.Pos]...), 0)
		at = int(c.End)
	}
	return string(append(b, f.Src[at:n.SigEnd]...)), len(inside) > 0
}

// propertyDiff lists the properties whose value differs, in the new
// node's order, then those the new node lacks.
func propertyDiff(before, after *graph.Node) []PropertyDiff {
	var out []PropertyDiff
	old := map[string]any{}
	for _, p := range before.Props {
		old[p.Name] = p.Value
	}
	seen := map[string]bool{}
	for _, p := range after.Props {
		seen[p.Name] = true
		v, ok := old[p.Name]
		if !ok || !reflect.DeepEqual(v, p.Value) {
			out = append(out, PropertyDiff{Name: p.Name, Before: v, After: p.Value})
		}
	}
	for _, p := range before.Props {
		if !seen[p.Name] {
			out = append(out, PropertyDiff{Name: p.Name, Before: p.Value})
		}
	}
	return out
}
