package service

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/snapshot"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// changes.since and node.relocate map what a client holds from an older
// snapshot to the request's snapshot.
//
// History. The store keeps snapshots in memory only. changes.since
// answers history known when the store holds since (or can recapture it
// because the files on disk have its content again): both snapshots are
// captures of the one root, so the file deltas are complete. A snapshot id
// this service issued (snapshot.Issued: its form and check digits) that
// the store does not hold is expired: it was evicted, or captured by
// another process or build, and its content is gone; the deltas are then
// empty. Any other id (not a capture of this service, such as
// snap-unavailable) is unknown. relevant is true whenever history is not
// known, since nothing can be ruled out. With history known, relevant is
// true when a node of scope.nodes is not exactly the same (basis other
// than exact), when a file of scope.paths changed, when a file
// scope.candidate read or wrote changed (see candidateReads), or, without
// a scope, when any file changed; files lists the changed files of
// scope.paths and of the scoped nodes (all changed files without them).
// Files and nodes are paged together by limits.max_items with a cursor.
// node.relocate needs the older snapshot: an evicted one is
// snapshot_expired, an unknown one not_found. The relocation rules are
// change.Relocate's.

type changesParams struct {
	Since string `json:"since"`
	Scope *struct {
		Nodes     []string `json:"nodes,omitempty"`
		Paths     []string `json:"paths,omitempty"`
		Candidate *string  `json:"candidate,omitempty"`
	} `json:"scope,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

// olderSnapshot finds a snapshot named in params: the snapshot, or the
// history it has (known, expired or unknown).
func (c *call) olderSnapshot(id string) (*snapshot.Snapshot, string) {
	if id == c.snap.ID && c.snap.Files != nil {
		return c.snap, "known"
	}
	if !snapshot.Issued(id) || c.snap.Files == nil {
		return nil, "unknown"
	}
	old, err := c.s.store.Get(id)
	if err != nil || old == nil || old.Files == nil {
		return nil, "expired"
	}
	return old, "known"
}

func opChangesSince(c *call) (any, *protocol.Error) {
	var p changesParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if p.Since == "" || p.Since == "latest" {
		return nil, protocol.Errorf(reason.Schema, "params.since: a snapshot id from an earlier response, never latest")
	}
	if len(p.Since) > 256 {
		return nil, protocol.Errorf(reason.Schema, "params.since: at most 256 characters")
	}
	var sc changesScope
	if p.Scope != nil {
		sc.nodes, sc.paths = p.Scope.Nodes, p.Scope.Paths
		if p.Scope.Candidate != nil {
			sc.cand = *p.Scope.Candidate
		}
	}
	if e := c.readSnapshot(false); e != nil {
		return nil, e
	}
	if sc.cand != "" {
		cand, e := c.getCandidate(sc.cand, true)
		if e != nil {
			return nil, e
		}
		if sc.reads, e = c.candidateReads(cand); e != nil {
			return nil, e
		}
	}
	shapeSum := sha256.Sum256([]byte(p.Since + "|" + strings.Join(sc.nodes, ",") + "|" + strings.Join(sc.paths, ",") + "|" + sc.cand + "|" + strconv.Itoa(c.limits.MaxItems)))
	shape := hex.EncodeToString(shapeSum[:6])
	offset, e := c.cursorOffset(p.Cursor, "cs1", shape)
	if e != nil {
		return nil, e
	}
	old, history := c.olderSnapshot(p.Since)
	res := map[string]any{"since": p.Since, "history": history, "files": []change.FileChange{}, "nodes": []change.Relocation{}, "relevant": true}
	if history != "known" {
		c.coverage.Completeness, c.coverage.Exhaustive = "unknown", false
		c.coverage.Gaps = append(c.coverage.Gaps, protocol.Gap{Reason: "history_" + history,
			Detail: fmt.Sprintf("snapshot %s is not held by this service (%s); the changes since it cannot be computed", p.Since, history)})
		return c.fit(res)
	}
	var relocs []change.Relocation
	if len(sc.nodes) > 0 {
		og, ng := old.Project.Result.Graph, c.snap.Project.Result.Graph
		if og == nil || ng == nil {
			c.coverage.Completeness, c.coverage.Exhaustive = "partial", false
			c.coverage.Gaps = append(c.coverage.Gaps, protocol.Gap{Reason: "no_graph",
				Detail: "one of the two snapshots is unavailable (it has no node graph), so node ids cannot be mapped"})
		} else {
			relocs = change.Relocate(old, c.snap, sc.nodes)
		}
	}
	changes := change.FileChanges(old.Files, c.snap.Files)
	files := sc.files(old, c.snap, relocs, changes)
	relevant := sc.relevant(files, changes, relocs)
	files, relocs = c.pageChanges(files, relocs, offset, shape)
	res["files"], res["nodes"], res["relevant"] = files, relocs, relevant
	return c.fit(res)
}

// changesScope is the scope of a changes.since: node ids, paths, and a
// candidate with the inputs it read or wrote.
type changesScope struct {
	nodes, paths []string
	cand         string
	reads        map[string]bool
}

func (sc *changesScope) scoped() bool { return len(sc.nodes) > 0 || len(sc.paths) > 0 }

// cursorOffset is the offset a paging cursor ("<prefix>:<snapshot>:<shape>:<offset>")
// continues from, 0 without one. A cursor of another operation, snapshot
// or request shape is refused.
func (c *call) cursorOffset(cursor, prefix, shape string) (int, *protocol.Error) {
	if cursor == "" {
		return 0, nil
	}
	parts := strings.Split(cursor, ":")
	n, err := strconv.Atoi(parts[len(parts)-1])
	if len(parts) != 4 || parts[0] != prefix || err != nil || n < 0 {
		return 0, protocol.Errorf(reason.CursorInvalid, "params.cursor: not a cursor of %s", c.req.Operation)
	}
	if parts[1] != c.snap.ID || parts[2] != shape {
		return 0, protocol.Errorf(reason.CursorMismatch,
			"params.cursor belongs to another snapshot or request shape; repeat the first request on snapshot %s", parts[1])
	}
	return n, nil
}

// continueAt marks the answer cut by max_items, to be continued from
// offset with the cursor "<prefix>:<snapshot>:<shape>:<offset>".
func (c *call) continueAt(prefix, shape string, offset int) {
	next := fmt.Sprintf("%s:%s:%s:%d", prefix, c.snap.ID, shape, offset)
	c.trunc.Truncated = true
	c.trunc.Continuation = &next
	c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: "max_items", Count: 1})
	c.coverage.Exhaustive = false
}

// files are the changed inputs, limited to scope.paths and the files of
// the scoped nodes (in either snapshot) when a scope is given.
func (sc *changesScope) files(old, now *snapshot.Snapshot, relocs []change.Relocation, changes []change.FileChange) []change.FileChange {
	inScope := map[string]bool{}
	for _, pth := range sc.paths {
		inScope[pth] = true
	}
	if len(sc.nodes) > 0 {
		for _, g := range []*graph.Graph{old.Project.Result.Graph, now.Project.Result.Graph} {
			if g == nil {
				continue
			}
			for _, id := range sc.nodes {
				if n, ok := g.Node(id); ok {
					inScope[n.Path] = true
				}
			}
			for _, r := range relocs {
				if r.NewID != nil {
					if n, ok := g.Node(*r.NewID); ok {
						inScope[n.Path] = true
					}
				}
			}
		}
	}
	var files []change.FileChange
	for _, fc := range changes {
		if !sc.scoped() || inScope[fc.Path] {
			files = append(files, fc)
		}
	}
	return files
}

// relevant: a scoped node that is not exactly the same, a changed file
// of scope.paths, a change to what scope.candidate read or wrote, or
// without a scope any changed file.
func (sc *changesScope) relevant(files, changes []change.FileChange, relocs []change.Relocation) bool {
	relevant := !sc.scoped() && sc.reads == nil && len(files) > 0
	for _, r := range relocs {
		if r.Basis != "exact" {
			relevant = true
		}
	}
	if len(sc.nodes) > 0 && len(relocs) == 0 {
		relevant = true // nodes that cannot be mapped
	}
	for _, pth := range sc.paths {
		for _, fc := range files {
			if fc.Path == pth {
				relevant = true
			}
		}
	}
	if sc.reads != nil {
		for _, fc := range changes {
			if sc.reads[fc.Path] || fc.Change == "removed" {
				relevant = true
			}
		}
	}
	return relevant
}

// pageChanges pages files and nodes by max_items from offset, setting the
// continuation when more follow.
func (c *call) pageChanges(files []change.FileChange, relocs []change.Relocation, offset int, shape string) ([]change.FileChange, []change.Relocation) {
	more := false
	page := func(n int) (int, int) {
		lo, hi := min(offset, n), min(offset+c.limits.MaxItems, n)
		if hi < n {
			more = true
		}
		return lo, hi
	}
	lo, hi := page(len(files))
	files = files[lo:hi]
	lo, hi = page(len(relocs))
	relocs = relocs[lo:hi]
	if files == nil {
		files = []change.FileChange{}
	}
	if relocs == nil {
		relocs = []change.Relocation{}
	}
	if more {
		c.continueAt("cs1", shape, offset+c.limits.MaxItems)
	}
	return files, relocs
}

// candidateReads is the set of files candidate cand read or wrote: the
// files it writes, the files of the declarations it changed, and the
// files of the pages, components and nodes its operations named, in its
// base snapshot. changes.since with scope.candidate is relevant when one
// of them changed, or when any input was removed: the candidate's compile
// read every input, and change.apply refuses a base input removed since
// (external_write) while it accepts one edited elsewhere.
func (c *call) candidateReads(cand *candidate.Candidate) (map[string]bool, *protocol.Error) {
	data, err := change.ReadData(cand)
	if err != nil {
		return nil, protocol.Errorf(reason.StateIO, "%v", err)
	}
	reads := map[string]bool{}
	for _, f := range cand.Files {
		reads[f.Path] = true
	}
	for _, t := range data.Touched {
		if path, _, ok := strings.Cut(t, ": "); ok {
			reads[path] = true
		}
	}
	// Owner and node ids name nodes of the base; an evicted base leaves
	// the written and changed files above.
	if base, err := c.s.store.Get(cand.Base); err == nil && base.Project.Result.Graph != nil {
		g := base.Project.Result.Graph
		for _, id := range append(append([]string(nil), data.Owners...), data.Expected...) {
			if n, ok := g.Node(id); ok {
				reads[n.Path] = true
			}
		}
	}
	return reads, nil
}

type relocateParams struct {
	FromSnapshot string   `json:"from_snapshot"`
	Nodes        []string `json:"nodes"`
}

func opNodeRelocate(c *call) (any, *protocol.Error) {
	var p relocateParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if p.FromSnapshot == "" || p.FromSnapshot == "latest" {
		return nil, protocol.Errorf(reason.Schema, "params.from_snapshot: a snapshot id from an earlier response, never latest")
	}
	if len(p.Nodes) < 1 || len(p.Nodes) > 200 {
		return nil, protocol.Errorf(reason.Schema, "params.nodes: must have 1 to 200 node ids, not %d", len(p.Nodes))
	}
	if e := c.readSnapshot(true); e != nil {
		return nil, e
	}
	old, history := c.olderSnapshot(p.FromSnapshot)
	switch history {
	case "unknown":
		return nil, protocol.Errorf(reason.SnapshotUnknown, "%s is not a snapshot of this service", p.FromSnapshot).
			WithTarget("snapshot", p.FromSnapshot).Next("node.find", "Find the nodes again on this snapshot", nil)
	case "expired":
		return nil, protocol.Errorf(reason.SnapshotEvicted,
			"snapshot %s is not held by this service and the files on disk no longer have its content; its node ids cannot be mapped", p.FromSnapshot).
			WithTarget("snapshot", p.FromSnapshot).Next("node.find", "Find the nodes again on this snapshot", nil)
	}
	if old.Project.Result.Graph == nil {
		return nil, protocol.CompileFailed(reason.NotValidated, wireDiagnostics(old.Project.Result, 200), nil,
			"snapshot %s is unavailable: it has no node graph, so its node ids cannot be mapped", old.ID).WithTarget("snapshot", old.ID)
	}
	return c.fit(map[string]any{"relocations": change.Relocate(old, c.snap, p.Nodes)})
}
