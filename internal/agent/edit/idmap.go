package edit

import (
	"sort"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/project"
)

// Id maps. A node keeps its identity across one splice when it lies
// outside the spliced range (shifted by the splice's delta when after it)
// or contains it (its end shifted): such a node is found in the new graph
// by kind and span. A node inside the range is the same node when the new
// graph has its id with the same kind and name and no other node took it
// (a declaration update keeps its state). Anything else was removed. Ids
// of other files do not move; a node of another file whose id is gone was
// removed. New ids nothing maps to were created: they are reported as the
// operations' created nodes, not in id_map, whose entries always have an
// old id.

type spanKey struct {
	kind     string
	pos, end int
}

func strp(s string) *string { return &s }

// diffIDs returns the id_map of one splice of path from pre to post, and
// the ids post added.
func diffIDs(pre, post *graph.Graph, path string, sp splice) ([]IDMapEntry, []string) {
	delta := sp.delta()
	byspan := map[spanKey]int32{}
	for k := range int32(post.Len()) {
		n := post.At(k)
		if n.Path == path {
			byspan[spanKey{n.Kind, int(n.Pos), int(n.End)}] = int32(k)
		}
	}
	claimed := make([]bool, post.Len())
	entries := []IDMapEntry{}
	add := func(n *graph.Node, to *graph.Node) {
		if e, ok := mapEntry(n, to); ok {
			entries = append(entries, e)
		}
	}
	var inside []*graph.Node
	for k := range int32(pre.Len()) {
		n := pre.At(k)
		if n.Path != path || n.Kind == graph.KindModule {
			if j, ok := post.Lookup(n.ID); ok {
				claimed[j] = true
			} else {
				add(n, nil)
			}
			continue
		}
		p, e, ok := shiftSpan(int(n.Pos), int(n.End), sp, delta)
		if ok {
			if j, found := byspan[spanKey{n.Kind, p, e}]; found && !claimed[j] {
				claimed[j] = true
				add(n, post.At(j))
				continue
			}
		}
		inside = append(inside, n)
	}
	for _, n := range inside {
		if j, ok := post.Lookup(n.ID); ok && !claimed[j] && post.At(j).Kind == n.Kind && post.At(j).Name == n.Name {
			claimed[j] = true
			continue
		}
		add(n, nil)
	}
	sortByBase(pre, entries)
	var added []string
	for k := range int32(post.Len()) {
		if !claimed[k] {
			added = append(added, post.At(k).ID)
		}
	}
	return entries, added
}

// mapEntry is the id_map entry of n becoming to (nil: removed); false
// when n keeps its id.
func mapEntry(n, to *graph.Node) (IDMapEntry, bool) {
	if to == nil {
		return IDMapEntry{OldID: strp(n.ID), Change: "removed"}, true
	}
	if to.ID == n.ID {
		return IDMapEntry{}, false
	}
	ch := "moved"
	if to.Name != n.Name {
		ch = "renamed"
	}
	return IDMapEntry{OldID: strp(n.ID), NewID: strp(to.ID), Change: ch}, true
}

// sortByBase orders entries as pre orders their old ids.
func sortByBase(pre *graph.Graph, entries []IDMapEntry) {
	sort.SliceStable(entries, func(x, y int) bool {
		a, _ := pre.Lookup(*entries[x].OldID)
		b, _ := pre.Lookup(*entries[y].OldID)
		return a < b
	})
}

// shiftSpan maps [pos, end) across sp; ok is false when the span starts
// or ends inside the replaced range.
func shiftSpan(pos, end int, sp splice, delta int) (int, int, bool) {
	switch {
	case pos < sp.pos:
	case pos >= sp.end && (pos > sp.pos || sp.end == sp.pos):
		pos += delta
	default:
		return 0, 0, false
	}
	switch {
	case end <= sp.pos:
	case end >= sp.end:
		end += delta
	default:
		return 0, 0, false
	}
	return pos, end, true
}

// compose folds one operation's id_map into the batch's.
func (a *applier) compose(entries []IDMapEntry, added []string) {
	type upd struct {
		base    string
		created bool
		to      *string
	}
	moved := map[string]*string{}
	ups := make([]upd, 0, len(entries))
	for _, e := range entries {
		from := *e.OldID
		moved[from] = e.NewID
		switch b, ok := a.rev[from]; {
		case ok:
			ups = append(ups, upd{base: b, to: e.NewID})
		case a.created[from]:
			ups = append(ups, upd{created: true, to: e.NewID})
		default:
			ups = append(ups, upd{base: from, to: e.NewID})
		}
	}
	for _, e := range entries {
		delete(a.rev, *e.OldID)
		delete(a.created, *e.OldID)
	}
	for _, u := range ups {
		if u.created {
			if u.to != nil {
				a.created[*u.to] = true
			}
			continue
		}
		switch {
		case u.to == nil:
			a.fwd[u.base] = nil
		case *u.to == u.base:
			delete(a.fwd, u.base)
		default:
			a.fwd[u.base] = u.to
			a.rev[*u.to] = u.base
		}
	}
	for _, id := range added {
		a.created[id] = true
	}
	for h, id := range a.handles {
		if to, ok := moved[id]; ok {
			if to == nil {
				a.handles[h] = ""
			} else {
				a.handles[h] = *to
			}
		}
	}
	for k := range a.outcomes {
		if c := a.outcomes[k].Created; c != "" {
			if to, ok := moved[c]; ok {
				if to == nil {
					a.outcomes[k].Created = ""
				} else {
					a.outcomes[k].Created = *to
				}
			}
		}
	}
}

// composed is the batch's id_map from the base to the final state, in the
// base's node order.
func (a *applier) composed(final *project.Project) []IDMapEntry {
	g := a.base.Result.Graph
	type item struct {
		idx int32
		e   IDMapEntry
	}
	var items []item
	for b, to := range a.fwd {
		i, _ := g.Lookup(b)
		e := IDMapEntry{OldID: strp(b), NewID: to, Change: "removed"}
		if to != nil {
			e.Change = "moved"
			if final != nil {
				if n, ok := final.Result.Graph.Node(*to); ok && n.Name != g.At(i).Name {
					e.Change = "renamed"
				}
			}
		}
		items = append(items, item{i, e})
	}
	sort.Slice(items, func(x, y int) bool { return items[x].idx < items[y].idx })
	out := make([]IDMapEntry, 0, len(items))
	for _, it := range items {
		out = append(out, it.e)
	}
	return out
}
