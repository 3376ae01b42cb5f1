package service

import (
	"encoding/json"
	"strings"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// params decodes the request's params into v. Unknown fields are ignored,
// as the reference's Conventions say readers do; the published schemas,
// checked before any handler runs, refuse them where they must not be
// ignored (inside edit operations and apply preconditions).
func (c *call) params(v any) *protocol.Error {
	if err := json.Unmarshal(c.req.Params, v); err != nil {
		return protocol.Errorf(reason.Schema, "params: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// readSnapshot resolves the envelope snapshot of a read operation and
// requires a graph when needGraph.
func (c *call) readSnapshot(needGraph bool) *protocol.Error {
	id := "latest"
	if c.req.Snapshot != nil {
		id = *c.req.Snapshot
	}
	if e := c.resolveSnapshot(id); e != nil {
		return e
	}
	if needGraph && c.snap.Project.Result.Graph == nil {
		return c.notCompiled()
	}
	return nil
}

func (c *call) notCompiled() *protocol.Error {
	r := c.snap.Project.Result
	msg := "snapshot " + c.snap.ID + " is unavailable: it has no node graph"
	if r.Status == check.StatusNeedsPreparation && len(r.Preparation) > 0 {
		msg += "; the project needs preparation: run `" + r.Preparation[0] + "`"
	}
	return protocol.CompileFailed(reason.NotValidated, wireDiagnostics(r, 200), nil, "%s", msg).WithTarget("snapshot", c.snap.ID)
}

func (c *call) graph() *graph.Graph { return c.snap.Project.Result.Graph }

func wireDiagnostics(r *check.Result, max int) []protocol.Diagnostic {
	return protocol.Diagnostics(r.Diagnostics[:min(len(r.Diagnostics), max)])
}

// lookup finds node ids of the snapshot, answering not_found for the
// first unknown one.
func (c *call) lookup(ids []string) ([]int32, *protocol.Error) {
	g := c.graph()
	out := make([]int32, 0, len(ids))
	for _, id := range ids {
		i, ok := g.Lookup(id)
		if !ok {
			return nil, protocol.Errorf(reason.NodeUnknown, "%s is not a node of %s", id, c.snap.ID).
				WithTarget("node", id).Next("node.find", "Re-find the node on this snapshot", nil)
		}
		out = append(out, i)
	}
	return out, nil
}

func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

func stringSet(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// trimToFit keeps the longest prefix of a list of n items whose result
// stays within limits.max_bytes, given size(k), the bytes of the result
// with the first k items; it returns k. The dropped items become an
// omission the caller records, so nothing is cut silently.
func (c *call) trimToFit(n int, size func(k int) int) int {
	if size(n) <= c.limits.MaxBytes {
		return n
	}
	lo, hi := 0, n // size(lo) may fit; size(hi) does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if size(mid) <= c.limits.MaxBytes {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// omit records items left out for max_bytes, naming up to 50 of them.
func (c *call) omit(reason string, ids []string) {
	if len(ids) == 0 {
		return
	}
	named := ids
	if len(named) > 50 {
		named = named[:50]
	}
	c.trunc.Truncated = true
	c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: reason, Count: len(ids), Nodes: named})
	c.coverage.Exhaustive = false
}
