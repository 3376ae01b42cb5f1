package service

import (
	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/textdiff"
	"github.com/axiomcore/acore/internal/lang/graph"
)

// change.inspect describes a candidate's current version against its base
// snapshot. include selects the parts; without it the answer has
// semantic_diff, source_diff, affected, risks and checks (content only
// when asked). candidate, files and risks are always there.
//
//   - semantic_diff compares the nodes of the files the candidate writes
//     (and the nodes its id_map names): a node of the candidate that the
//     base lacks is added, one of the base the candidate lacks is removed,
//     one whose id the id_map changes is relocated (from names the old
//     id), and one whose properties or one-line signature differ is
//     modified, with each changed property's before and after. A node's
//     version alone (it covers its children's text) does not make it
//     modified. expected is true when an operation named the node, created
//     it or listed it in its id_map, false otherwise.
//   - source_diff has one entry per changed file: hunks of a line diff
//     with 3 lines of context; each hunk's lines start with " " (context),
//     "+" (added) or "-" (removed), the added lines of a change before its
//     removed lines; old_start/new_start are 1-based.
//   - affected summarizes the changed nodes and the nodes that depend on
//     them one edge away (the profile's dependency edges), at most
//     limits.max_nodes.
//   - risks: unexpected_change (a diff entry no operation asked for),
//     new_diagnostic (a diagnostic the base did not have), disk_changed (a
//     file the candidate writes differs on disk from its base: apply will
//     refuse it) and repair (the base is not validated).
//   - checks are the results recorded on the current version; a
//     diagnostic the base has too is counted in the check's
//     diagnostics_omitted (in_base), not listed.
//
// The answer is cut to limits.max_bytes, content first, then source_diff
// hunks, affected and semantic_diff entries from the end; truncation
// says how many of each were left out.

type inspectParams struct {
	Candidate string   `json:"candidate"`
	Include   []string `json:"include,omitempty"`
}

// FileDiff is the source diff of one file.
type FileDiff struct {
	Path  string `json:"path"`
	Hunks []Hunk `json:"hunks"`
}

// Hunk is a run of changed lines with context.
type Hunk = textdiff.Hunk

// FileContent is a candidate file's full content.
type FileContent struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func opChangeInspect(c *call) (any, *protocol.Error) {
	var p inspectParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	inc := stringSet(p.Include)
	if len(p.Include) == 0 {
		inc = stringSet([]string{"semantic_diff", "source_diff", "affected", "checks"})
	}
	cand, cc, data, e := c.openCandidate(p.Candidate)
	if e != nil {
		return nil, e
	}
	out := map[string]any{"candidate": change.ToWire(cand), "files": change.FileChangesOf(cand.Files)}
	paths := make([]string, 0, len(cand.Files))
	for _, f := range cand.Files {
		paths = append(paths, f.Path)
	}
	var diff []change.DiffEntry
	bg, cg := cc.Base.Project.Result.Graph, cc.Project.Result.Graph
	if bg != nil && cg != nil {
		diff = change.SemanticDiff(bg, cg, paths, data)
	}
	if inc["semantic_diff"] {
		out["semantic_diff"] = diff
	}
	var diffs []FileDiff
	if inc["source_diff"] {
		diffs = make([]FileDiff, 0, len(cand.Files))
		for _, f := range cand.Files {
			var before []byte
			if bf := cc.Base.Project.Inputs; bf != nil {
				before = bf.Data(f.Path)
			}
			diffs = append(diffs, FileDiff{Path: f.Path, Hunks: textdiff.Lines(before, f.Content, 3)})
		}
		out["source_diff"] = diffs
	}
	var contents []FileContent
	if inc["content"] {
		contents = make([]FileContent, 0, len(cand.Files))
		for _, f := range cand.Files {
			if f.After != nil {
				contents = append(contents, FileContent{Path: f.Path, Content: string(f.Content)})
			}
		}
		out["content"] = contents
	}
	var affected []graph.Summary
	if inc["affected"] && cg != nil {
		ids, more := change.AffectedIDs(cg, diff, c.limits.MaxNodes)
		affected = make([]graph.Summary, 0, len(ids))
		for _, id := range ids {
			if n, ok := cg.Node(id); ok {
				affected = append(affected, cg.Summary(n))
			}
		}
		if more {
			c.trunc.Truncated = true
			c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: "max_nodes", Count: 1})
			c.coverage.Exhaustive = false
		}
		out["affected"] = affected
	}
	var diskChanged []string
	if cand.State == candidate.Open && cc.Base.Files != nil {
		diskChanged, _ = c.s.store.Changed(cc.Base)
	}
	out["risks"] = change.Risks(cand, cc, diff, data, diskChanged)
	if inc["checks"] {
		// The risks name the diagnostics the base did not have; the
		// checks count, not list, the ones it had.
		known := change.KnownFrom(cc.Base.Project.Result.Diagnostics, cc.Project.Result.Diagnostics)
		checks := change.VersionChecks(cand)
		for i := range checks {
			checks[i] = known.Thin(checks[i])
		}
		out["checks"] = checks
	}
	return c.fitInspect(out, contents, diffs, affected, diff)
}

// fitInspect cuts the answer to max_bytes: content, then source_diff
// hunks, affected and semantic_diff entries from the end.
func (c *call) fitInspect(out map[string]any, contents []FileContent, diffs []FileDiff, affected []graph.Summary, diff []change.DiffEntry) (any, *protocol.Error) {
	if jsonSize(out) <= c.limits.MaxBytes {
		return c.fit(out)
	}
	if contents != nil {
		k := c.trimToFit(len(contents), func(k int) int { out["content"] = contents[:k]; return jsonSize(out) })
		out["content"] = contents[:k]
		c.dropped("max_bytes", len(contents)-k)
	}
	if diffs != nil && jsonSize(out) > c.limits.MaxBytes {
		var hunks [][2]int
		for i, f := range diffs {
			for j := range f.Hunks {
				hunks = append(hunks, [2]int{i, j})
			}
		}
		cut := func(k int) []FileDiff {
			res := make([]FileDiff, len(diffs))
			for i, f := range diffs {
				res[i] = FileDiff{Path: f.Path, Hunks: []Hunk{}}
			}
			for _, h := range hunks[:k] {
				res[h[0]].Hunks = append(res[h[0]].Hunks, diffs[h[0]].Hunks[h[1]])
			}
			return res
		}
		k := c.trimToFit(len(hunks), func(k int) int { out["source_diff"] = cut(k); return jsonSize(out) })
		out["source_diff"] = cut(k)
		c.dropped("max_bytes", len(hunks)-k)
	}
	if affected != nil && jsonSize(out) > c.limits.MaxBytes {
		k := c.trimToFit(len(affected), func(k int) int { out["affected"] = affected[:k]; return jsonSize(out) })
		out["affected"] = affected[:k]
		var ids []string
		for _, n := range affected[k:] {
			ids = append(ids, n.ID)
		}
		c.omit("max_bytes", ids)
	}
	if d, ok := out["semantic_diff"].([]change.DiffEntry); ok && jsonSize(out) > c.limits.MaxBytes {
		k := c.trimToFit(len(d), func(k int) int { out["semantic_diff"] = d[:k]; return jsonSize(out) })
		out["semantic_diff"] = d[:k]
		var ids []string
		for _, e := range d[k:] {
			ids = append(ids, e.Node)
		}
		c.omit("max_bytes", ids)
	}
	_ = diff
	return c.fit(out)
}

// dropped records n items that are not nodes left out for reason.
func (c *call) dropped(reason string, n int) {
	if n <= 0 {
		return
	}
	c.trunc.Truncated = true
	c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: reason, Count: n})
	c.coverage.Exhaustive = false
}
