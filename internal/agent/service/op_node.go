package service

import (
	"fmt"
	"strings"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
)

type findParams struct {
	Query string `json:"query"`
	Kind  string `json:"kind,omitempty"`
	Owner string `json:"owner,omitempty"`
	Path  string `json:"path,omitempty"`
	Limit int    `json:"limit"`
}

type findMatch struct {
	Node    string   `json:"node"`
	Reasons []string `json:"reasons"`
}

func opNodeFind(c *call) (any, *protocol.Error) {
	var p findParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if p.Limit < 1 || p.Limit > 50 {
		return nil, protocol.Errorf(reason.Schema, "params.limit: must be between 1 and 50")
	}
	if e := c.readSnapshot(true); e != nil {
		return nil, e
	}
	g := c.graph()
	q := []byte(strings.ToLower(strings.TrimSpace(p.Query)))
	nodes := make([]graph.Summary, 0, p.Limit)
	matches := make([]findMatch, 0, p.Limit)
	var omitted []string
	extra := 0
	// Matches come in document order, so the first ones are the answer;
	// later ones are only counted and named in the omission. The index
	// applies the kind, path and owner filters itself, reading only the
	// nodes that can pass them when they are few.
	g.Search().Query(q, graph.Filter{Kind: p.Kind, Path: p.Path, Owner: p.Owner}, func(i int32, name, id, value bool) {
		if len(nodes) == p.Limit {
			extra++
			if len(omitted) < 50 {
				omitted = append(omitted, g.At(i).ID)
			}
			return
		}
		n := g.At(i)
		nodes = append(nodes, g.Summary(n))
		matches = append(matches, findMatch{Node: n.ID, Reasons: findReasons(name, id, value)})
	})
	if extra > 0 {
		c.trunc.Truncated = true
		c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: "limit", Count: extra, Nodes: omitted})
		c.coverage.Exhaustive = false
	}
	// The answer is encoded once to measure it; only an answer over
	// max_bytes is measured again, for each length tried.
	res := map[string]any{"nodes": nodes, "matches": matches}
	if size := jsonSize(res); size <= c.limits.MaxBytes {
		c.trunc.Used.Bytes = size
		return res, nil
	}
	k := c.trimToFit(len(nodes), func(k int) int { return jsonSize(map[string]any{"nodes": nodes[:k], "matches": matches[:k]}) })
	var cut []string
	for _, m := range matches[k:] {
		cut = append(cut, m.Node)
	}
	c.omit("max_bytes", cut)
	return c.fit(map[string]any{"nodes": nodes[:k], "matches": matches[:k]})
}

// reasonLists holds the reasons of a match for each set of matching
// parts (name 1, id 2, property value 4), shared by every answer and
// never changed.
var reasonLists = func() (out [8][]string) {
	for set := range out {
		out[set] = []string{}
		for bit, why := range []string{"name", "id", "property_value"} {
			if set&(1<<bit) != 0 {
				out[set] = append(out[set], why)
			}
		}
	}
	return out
}()

// findReasons says why a node matched: the parts that contain the query.
func findReasons(name, id, value bool) []string {
	set := 0
	if name {
		set |= 1
	}
	if id {
		set |= 2
	}
	if value {
		set |= 4
	}
	return reasonLists[set]
}

type getParams struct {
	Nodes      []string `json:"nodes"`
	Projection string   `json:"projection,omitempty"`
	Include    []string `json:"include,omitempty"`
	Limit      int      `json:"limit,omitempty"`
}

// Property is a node property on the wire.
type Property struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Value    any    `json:"value"`
	Editable bool   `json:"editable"`
}

// Edge is a node's edge on the wire.
type Edge struct {
	Direction string         `json:"direction"`
	Kind      string         `json:"kind"`
	Layer     string         `json:"layer"`
	Node      string         `json:"node"`
	Site      graph.Location `json:"site"`
	// Via names, for an edge a prop has through a component instance's
	// argument, the instance.
	Via string `json:"via,omitempty"`
}

func opNodeGet(c *call) (any, *protocol.Error) {
	var p getParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if e := c.readSnapshot(true); e != nil {
		return nil, e
	}
	idx, e := c.lookup(p.Nodes)
	if e != nil {
		return nil, e
	}
	parts := map[string]bool{}
	switch p.Projection {
	case "summary":
	case "full":
		parts = stringSet([]string{"properties", "edges", "body", "provenance"})
	default:
		parts = stringSet([]string{"properties", "edges"})
	}
	for _, in := range p.Include {
		parts[in] = true
	}
	limit := p.Limit
	if limit <= 0 {
		limit = 200
	}
	g := c.graph()
	out := make([]map[string]any, 0, len(idx))
	for _, i := range idx {
		out = append(out, c.nodeEntry(g, i, parts, limit))
	}
	// Over max_bytes, optional parts go first, largest first, each listed
	// as an omission with an expansion ref.
	for _, part := range []string{"body", "provenance", "incoming", "edits", "edges", "properties"} {
		if jsonSize(map[string]any{"nodes": out}) <= c.limits.MaxBytes {
			break
		}
		var dropped []string
		var refs []protocol.ExpansionRef
		for _, entry := range out {
			key := part
			if part == "incoming" {
				key = "edges"
			}
			if v, ok := entry[key]; ok && (part != "incoming" || parts["incoming"]) {
				id := entry["node"].(graph.Summary).ID
				dropped = append(dropped, id)
				if len(refs) < 50 {
					refs = append(refs, protocol.ExpansionRef{Ref: "get:" + c.snap.ID + ":" + part + ":" + id, Kind: part, Node: id,
						EstimatedBytes: jsonSize(v), Reason: "node.get of " + id + " with include [" + part + "]"})
				}
				delete(entry, key)
			}
		}
		if len(dropped) > 0 {
			if len(dropped) > 50 {
				dropped = dropped[:50]
			}
			c.trunc.Truncated = true
			c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: "max_bytes", Count: len(dropped), Nodes: dropped, Expand: refs})
			c.gap("max_bytes", fmt.Sprintf("the %s of %d nodes do not fit limits.max_bytes (%d); truncation.omissions has a ref for each", part, len(dropped), c.limits.MaxBytes), dropped)
		}
	}
	return c.fit(map[string]any{"nodes": out})
}

func (c *call) nodeEntry(g *graph.Graph, i int32, parts map[string]bool, limit int) map[string]any {
	n := g.At(i)
	entry := map[string]any{"node": g.Summary(n)}
	if parts["properties"] {
		props := []Property{}
		for _, pr := range n.Props {
			if len(props) == limit {
				break
			}
			props = append(props, Property{Name: pr.Name, Type: pr.Type, Value: pr.Value, Editable: pr.Editable})
		}
		entry["properties"] = props
	}
	if parts["edges"] || parts["incoming"] {
		edges := []Edge{}
		cut := 0
		if parts["edges"] {
			out := g.Out(i)
			for _, ei := range out[:min(len(out), limit)] {
				e := &g.Edges[ei]
				edges = append(edges, Edge{Direction: "outgoing", Kind: e.Kind(), Layer: e.Layer(), Node: g.At(e.To).ID, Site: g.EdgeSite(ei), Via: viaOf(g, ei)})
			}
			cut += max(len(out)-limit, 0)
		}
		if parts["incoming"] {
			in := append([]int32(nil), g.In(i)...)
			g.SortEdges(in)
			for _, ei := range in[:min(len(in), limit)] {
				e := &g.Edges[ei]
				edges = append(edges, Edge{Direction: "incoming", Kind: e.Kind(), Layer: e.Layer(), Node: g.At(e.From).ID, Site: g.EdgeSite(ei), Via: viaOf(g, ei)})
			}
			cut += max(len(in)-limit, 0)
		}
		entry["edges"] = edges
		if cut > 0 {
			// params.limit caps the edges listed: the rest are counted,
			// never dropped silently.
			c.trunc.Truncated = true
			c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: "limit", Count: cut, Nodes: []string{n.ID}})
			c.gap("limit", fmt.Sprintf("%s has %d more edges than params.limit (%d) lists", n.ID, cut, limit), []string{n.ID})
		}
	}
	if parts["body"] {
		if f := c.snap.Project.Headers(n.Path); f != nil && int(n.End) <= len(f.Src) {
			entry["body"] = string(f.Src[n.Pos:n.End])
		}
	}
	if parts["provenance"] {
		prov := map[string]any{"path": n.Path, "line": n.Line, "column": n.Column, "layer": graph.Declared}
		if f := c.snap.Project.Headers(n.Path); f != nil {
			s, e := f.Position(int(n.Pos)), f.Position(int(n.End))
			prov["start"] = map[string]int{"line": s.Line, "column": s.Column}
			prov["end"] = map[string]int{"line": e.Line, "column": e.Column}
		}
		entry["provenance"] = prov
	}
	if parts["edits"] {
		// A summary of what node.edits offers now: the families with at
		// least one option; node.edits gives the options themselves.
		ne := EditsOf(c.snap, i, EditKinds, false, false)
		families := []string{}
		seen := map[string]bool{}
		for _, o := range ne.Options {
			if !seen[o.Kind] {
				seen[o.Kind] = true
				families = append(families, o.Kind)
			}
		}
		entry["edits"] = map[string]any{"node_version": ne.NodeVersion, "families": families, "options": len(ne.Options)}
	}
	return entry
}

// fit enforces max_bytes on a result the handler could not shrink further:
// such an answer is refused rather than cut silently.
func (c *call) fit(res any) (any, *protocol.Error) {
	size := jsonSize(res)
	c.trunc.Used.Bytes = size
	if size > c.limits.MaxBytes {
		return nil, protocol.Errorf(reason.MaxBytes,
			"the smallest answer is %d bytes, more than limits.max_bytes (%d); raise max_bytes or ask for less", size, c.limits.MaxBytes).
			Detail("required_bytes", size)
	}
	return res, nil
}
