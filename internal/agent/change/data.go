// Package change is the feature layer of candidates below the service:
// what a candidate records over its versions (Data), the checks run on it
// (compile, repair, axag), and the semantic diff of its nodes against its
// base. The service decodes a request, calls these, and encodes.
package change

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
)

// Data is what the service records in candidate.Candidate.Data: the edits
// of every version, and what they add up to from the base snapshot.
type Data struct {
	// IDMap is composed over every version, from the base snapshot to the
	// current version: the id_map of an apply's receipt.
	IDMap []edit.IDMapEntry `json:"id_map"`
	// Touched names the declarations the candidate changes, as
	// "<path>: <kind> <name>", over every version.
	Touched []string `json:"touched"`
	// Expected lists the node ids operations asked to change, created or
	// moved, in the base and in the candidate (change.inspect's expected).
	Expected []string `json:"expected"`
	// Owners are the pages and components the candidate changes.
	Owners []string `json:"owners"`
	// BaseState and BaseErrors describe the base snapshot (bounded repair).
	BaseState  string        `json:"base_state"`
	BaseErrors int           `json:"base_errors"`
	Versions   []VersionData `json:"versions"`
}

// VersionData is one change.propose that made a version.
type VersionData struct {
	Version          int    `json:"version"`
	RequestID        string `json:"request_id"`
	InputFingerprint string `json:"input_fingerprint"`
	// Operations are the batch's outcomes, IDMap its id_map from the
	// previous version (or the base).
	Operations []edit.Outcome    `json:"operations"`
	IDMap      []edit.IDMapEntry `json:"id_map"`
	Checks     []string          `json:"checks"`
	CreatedAt  time.Time         `json:"created_at"`
}

// ReadData decodes what c records (an empty Data for none).
func ReadData(c *candidate.Candidate) (*Data, error) {
	var d Data
	if len(c.Data) == 0 {
		return &d, nil
	}
	if err := json.Unmarshal(c.Data, &d); err != nil {
		return nil, fmt.Errorf("candidate %s: its record is unreadable: %w", c.ID, err)
	}
	return &d, nil
}

// ComposeIDMaps composes a (base → v) with b (v → v+1) into base → v+1.
func ComposeIDMaps(a, b []edit.IDMapEntry) []edit.IDMapEntry {
	out := make([]edit.IDMapEntry, 0, len(a)+len(b))
	byOld := map[string]edit.IDMapEntry{}
	for _, e := range b {
		if e.OldID != nil {
			byOld[*e.OldID] = e
		}
	}
	used := map[string]bool{}
	for _, e := range a {
		if e.NewID != nil {
			if n, ok := byOld[*e.NewID]; ok {
				used[*e.NewID] = true
				if e.OldID == nil && n.NewID == nil {
					continue // created, then removed
				}
				change := n.Change
				if e.OldID == nil {
					change = e.Change // still a creation
				}
				out = append(out, edit.IDMapEntry{OldID: e.OldID, NewID: n.NewID, Change: change})
				continue
			}
		}
		out = append(out, e)
	}
	for _, e := range b {
		if e.OldID != nil && used[*e.OldID] {
			continue
		}
		out = append(out, e)
	}
	return out
}

// ExpectedIDs are the node ids a batch asked to change: each operation's
// node and created node, and every id its id_map names.
func ExpectedIDs(res *edit.Result) []string {
	var out []string
	add := func(s *string) {
		if s != nil && *s != "" {
			out = append(out, *s)
		}
	}
	for i := range res.Operations {
		o := &res.Operations[i]
		add(&o.Node)
		add(&o.Created)
		for k := range o.Nodes {
			add(&o.Nodes[k])
		}
		for _, e := range o.IDMap {
			add(e.OldID)
			add(e.NewID)
		}
	}
	for _, e := range res.IDMap {
		add(e.OldID)
		add(e.NewID)
	}
	return out
}

func stringSet(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// Extend is what a candidate adds up to with a new version: the data prev
// records (nil for a first version, on a base whose compile is base) with
// res's edits added.
func Extend(prev *candidate.Candidate, res *edit.Result, base *check.Result) (*Data, error) {
	var data *Data
	if prev != nil {
		d, err := ReadData(prev)
		if err != nil {
			return nil, err
		}
		data = d
		data.IDMap = ComposeIDMaps(data.IDMap, res.IDMap)
	} else {
		n, _ := diag.Count(base.Diagnostics)
		data = &Data{IDMap: res.IDMap, BaseState: base.State, BaseErrors: n}
	}
	data.Touched = edit.MergeSorted(data.Touched, res.Touched)
	data.Owners = edit.MergeSorted(data.Owners, res.Owners)
	data.Expected = edit.MergeSorted(data.Expected, ExpectedIDs(res))
	return data, nil
}
