package change

import (
	"sort"

	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/agent/snapshot"
	"github.com/axiomcore/acore/internal/lang/graph"
)

// What changed between two snapshots, for changes.since and
// node.relocate.
//
// Relocation. Each old id is mapped by these rules, in order:
//
//   - not a node of the older snapshot: status not_found, basis missing,
//     new_id null;
//   - the same id with the same version: status ok, basis exact;
//   - a node of the same kind and name whose authored text equals the old
//     node's (in any file) under another id, not itself the unchanged
//     node of an old id, when the old id is gone or now names a node of
//     other text: status moved, basis text (the nearest such node by
//     position, in the same file first);
//   - the same id and name, with other text: status ok, basis path (the
//     id is a structural path: the node in that place changed; an element
//     of another name in that place is not the same node);
//   - otherwise: status missing, basis missing, new_id null.
//
// relation is always inferred.

// FileChange is a changed file with its digests before and after: the
// protocol's fileChange, one type with the receipt's.
type FileChange = publish.FileChange

// Relocation says where a node id went.
type Relocation struct {
	OldID    string  `json:"old_id"`
	NewID    *string `json:"new_id"`
	Status   string  `json:"status"`
	Relation string  `json:"relation"`
	Basis    string  `json:"basis"`
}

// fileChanges lists the inputs that differ between two snapshots, by
// path.
func FileChanges(before, after map[string]string) []FileChange {
	var out []FileChange
	for p, b := range before {
		b := b
		a, ok := after[p]
		switch {
		case !ok:
			out = append(out, FileChange{Path: p, Before: &b, Change: "removed"})
		case a != b:
			a := a
			out = append(out, FileChange{Path: p, Before: &b, After: &a, Change: "modified"})
		}
	}
	for p, a := range after {
		if _, ok := before[p]; !ok {
			a := a
			out = append(out, FileChange{Path: p, After: &a, Change: "added"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// textKey fingerprints a node's kind, name and authored text, without its
// file, so that a declaration moved to another file is found.
func textKey(snap *snapshot.Snapshot, n *graph.Node) string {
	f := snap.Project.Headers(n.Path)
	if f == nil || int(n.Pos) < 0 || int(n.End) > len(f.Src) || int(n.Pos) > int(n.End) {
		return ""
	}
	return graph.Fingerprint(n.Kind, n.Name, "", f.Src[n.Pos:n.End])
}

// Relocate maps ids of old to now by the rules above.
func Relocate(old, now *snapshot.Snapshot, ids []string) []Relocation {
	og, ng := old.Project.Result.Graph, now.Project.Result.Graph
	// New nodes by text key, without those that are the unchanged node of
	// their own old id.
	byText := map[string][]int32{}
	for i := range int32(ng.Len()) {
		n := ng.At(i)
		if o, ok := og.Node(n.ID); ok && og.Version(o) == ng.Version(n) {
			continue
		}
		if k := textKey(now, n); k != "" {
			byText[k] = append(byText[k], int32(i))
		}
	}
	out := make([]Relocation, 0, len(ids))
	for _, id := range ids {
		r := Relocation{OldID: id, Relation: "inferred"}
		o, ok := og.Node(id)
		if !ok {
			r.Status, r.Basis = "not_found", "missing"
			out = append(out, r)
			continue
		}
		cur, same := ng.Node(id)
		if same && ng.Version(cur) == og.Version(o) {
			r.NewID, r.Status, r.Basis = &cur.ID, "ok", "exact"
			out = append(out, r)
			continue
		}
		if cands := byText[textKey(old, o)]; len(cands) > 0 {
			best := cands[0]
			score := func(i int32) int {
				n := ng.At(i)
				d := int(n.Pos) - int(o.Pos)
				if d < 0 {
					d = -d
				}
				if n.Path != o.Path {
					d += 1 << 30
				}
				return d
			}
			for _, cnd := range cands[1:] {
				if score(cnd) < score(best) {
					best = cnd
				}
			}
			if ng.At(best).ID != id {
				nid := ng.At(best).ID
				r.NewID, r.Status, r.Basis = &nid, "moved", "text"
				out = append(out, r)
				continue
			}
		}
		if same && cur.Name == o.Name {
			r.NewID, r.Status, r.Basis = &cur.ID, "ok", "path"
		} else {
			r.Status, r.Basis = "missing", "missing"
		}
		out = append(out, r)
	}
	return out
}
