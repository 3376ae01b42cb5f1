package change

import (
	"encoding/json"
	"time"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/graph"
)

// AffectedIDs are the changed nodes of a diff (in the candidate) and the
// nodes that depend on them one edge away, at most max.
func AffectedIDs(g *graph.Graph, diff []DiffEntry, max int) ([]string, bool) {
	seen := map[string]bool{}
	out := []string{}
	more := false
	add := func(id string) {
		if seen[id] {
			return
		}
		seen[id] = true
		if len(out) == max {
			more = true
			return
		}
		out = append(out, id)
	}
	for _, d := range diff {
		if d.Change != "removed" {
			add(d.Node)
		}
	}
	for _, d := range diff {
		i, ok := g.Lookup(d.Node)
		if !ok {
			continue
		}
		for _, ei := range g.In(i) {
			e := &g.Edges[ei]
			if e.Kind() == graph.EdgeChildOf {
				continue
			}
			add(g.At(e.From).ID)
		}
	}
	return out, more
}

// VersionChecks returns the checks recorded on the candidate's current
// version.
func VersionChecks(cand *candidate.Candidate) []CheckResult {
	out := []CheckResult{}
	for _, ch := range cand.Checks {
		if ch.Version != cand.Version {
			continue
		}
		r := CheckResult{Check: ch.Check, Status: ch.Status, Diagnostics: []protocol.Diagnostic{}}
		_ = json.Unmarshal(ch.Diagnostics, &r.Diagnostics)
		if r.Diagnostics == nil {
			r.Diagnostics = []protocol.Diagnostic{}
		}
		out = append(out, r)
	}
	return out
}

// WireIDMap is an id_map entry on the wire. Nodes an edit creates have no
// old id; they are reported as the operation's created node, not here.
type WireIDMap struct {
	OldID    string  `json:"old_id"`
	NewID    *string `json:"new_id"`
	Relation string  `json:"relation"`
	Basis    string  `json:"basis,omitempty"`
}

// ToWireIDMap is m on the wire, without the created nodes.
func ToWireIDMap(m []edit.IDMapEntry) []WireIDMap {
	out := make([]WireIDMap, 0, len(m))
	for _, e := range m {
		if e.OldID == nil {
			continue
		}
		out = append(out, WireIDMap{OldID: *e.OldID, NewID: e.NewID, Relation: "exact", Basis: e.Change})
	}
	return out
}

// WireCandidate is the candidate object of the protocol.
type WireCandidate struct {
	ID               string `json:"id"`
	Version          int    `json:"version"`
	State            string `json:"state"`
	BaseSnapshot     string `json:"base_snapshot"`
	Snapshot         string `json:"snapshot"`
	RequestID        string `json:"request_id"`
	InputFingerprint string `json:"input_fingerprint"`
	// ExpiresAt is given while the candidate is open.
	ExpiresAt string `json:"expires_at,omitempty"`
}

// ToWire is candidate c on the wire; expires_at while it is open.
func ToWire(c *candidate.Candidate) WireCandidate {
	w := WireCandidate{ID: c.ID, Version: c.Version, State: c.State, BaseSnapshot: c.Base, Snapshot: c.Snapshot,
		RequestID: c.RequestID, InputFingerprint: c.InputFingerprint}
	if c.State == candidate.Open {
		w.ExpiresAt = c.ExpiresAt.UTC().Format(time.RFC3339)
	}
	return w
}

// FileChangesOf are a candidate's files as changes from its base.
func FileChangesOf(files []candidate.File) []FileChange {
	out := make([]FileChange, 0, len(files))
	for _, f := range files {
		out = append(out, FileChange{Path: f.Path, Before: f.Before, After: f.After, Change: f.Change()})
	}
	return out
}
