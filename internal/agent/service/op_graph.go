package service

import (
	"fmt"
	"slices"
	"sort"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
)

type graphParams struct {
	From       []string `json:"from"`
	Mode       string   `json:"mode"`
	To         []string `json:"to,omitempty"`
	EdgeKinds  []string `json:"edge_kinds,omitempty"`
	Layers     []string `json:"layers,omitempty"`
	Transitive bool     `json:"transitive,omitempty"`
}

// GraphEdge is one relationship found by a walk.
type GraphEdge struct {
	From  string         `json:"from"`
	Kind  string         `json:"kind"`
	To    string         `json:"to"`
	Layer string         `json:"layer"`
	Depth int            `json:"depth"`
	Site  graph.Location `json:"site"`
	// Via names, for an edge a prop has through a component instance's
	// argument, the instance.
	Via string `json:"via,omitempty"`
}

// Boundary is where a walk met code it cannot see through.
type Boundary struct {
	Node   string `json:"node"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
	Via    string `json:"via,omitempty"`
}

func defaultKinds(list []string) ([]string, map[string]bool) {
	if len(list) == 0 {
		list = graph.DependencyKinds
	}
	return list, stringSet(list)
}

func defaultLayers(list []string) ([]string, map[string]bool) {
	if len(list) == 0 {
		list = []string{graph.Declared, graph.Resolved}
	}
	return list, stringSet(list)
}

func opGraphQuery(c *call) (any, *protocol.Error) {
	var p graphParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if e := c.readSnapshot(true); e != nil {
		return nil, e
	}
	from, e := c.lookup(p.From)
	if e != nil {
		return nil, e
	}
	kindList, kinds := defaultKinds(p.EdgeKinds)
	layerList, layers := defaultLayers(p.Layers)
	if layers["observed"] {
		c.coverage.Gaps = append(c.coverage.Gaps, protocol.Gap{Reason: "no_observed_layer", Detail: "this build has declared and resolved facts only"})
	}
	depth := 1
	if p.Transitive {
		depth = c.limits.MaxDepth
	}
	g := c.graph()
	direction := "outgoing"
	incoming := false
	switch p.Mode {
	case "dependents", "references":
		direction, incoming = "incoming", true
	case "paths":
		if len(p.To) == 0 {
			return nil, protocol.Errorf(reason.Schema, "params.to: required for mode paths")
		}
	}
	if p.Mode != "paths" && len(p.To) > 0 {
		return nil, protocol.Errorf(reason.Schema, "params.to: only for mode paths")
	}
	res := map[string]any{"traversed": map[string]any{"direction": direction, "edge_kinds": kindList, "layers": layerList}}
	w := &graphWalk{g: g, incoming: incoming, mentioned: map[int32]bool{}}
	for _, f := range from {
		w.mentioned[f] = true
		if n := g.At(f); n.Foreign && !incoming {
			w.boundaries = append(w.boundaries, Boundary{Node: n.ID, Reason: "foreign_implementation",
				Detail: n.ID + " is implemented outside the project; the compiler cannot see what it reads or writes"})
		}
	}
	if p.Mode == "paths" {
		to, e := c.lookup(p.To)
		if e != nil {
			return nil, e
		}
		paths, cut := g.Paths(from, to, kinds, layers, c.limits.MaxDepth, c.limits.MaxItems)
		res["paths"] = w.paths(paths)
		c.pathsGap(cut)
		// A path may lead through foreign code the walk cannot see into.
		_, reached, _ := g.Walk(from, false, kinds, layers, c.limits.MaxDepth)
		for i := range reached {
			if n := g.At(i); n.Foreign && !slices.ContainsFunc(w.boundaries, func(b Boundary) bool { return b.Node == n.ID }) {
				w.boundaries = append(w.boundaries, Boundary{Node: n.ID, Reason: "foreign_implementation",
					Detail: n.ID + " is implemented outside the project; a path may lead through it unseen"})
			}
		}
		sort.Slice(w.boundaries, func(a, b int) bool { return w.boundaries[a].Node < w.boundaries[b].Node })
	} else {
		steps, _, cut := g.Walk(from, incoming, kinds, layers, depth)
		for _, st := range steps {
			w.add(st.Edge, st.Depth)
		}
		if p.Transitive {
			c.depthGap(g, cut)
		}
	}
	var foreign []string
	for _, b := range w.boundaries {
		if !slices.Contains(foreign, b.Node) {
			foreign = append(foreign, b.Node)
		}
	}
	c.foreignGap(foreign)
	nodes := c.mentionedNodes(g, w.mentioned)
	if w.edges == nil {
		w.edges = []GraphEdge{}
	}
	if w.boundaries == nil {
		w.boundaries = []Boundary{}
	}
	res["nodes"], res["edges"], res["boundaries"] = nodes, w.edges, w.boundaries
	c.trimEdges(res, g, nodes, w.edges, p.From)
	return c.fit(res)
}

// graphWalk collects the edges a graph.query meets, the nodes they
// mention and the boundaries they reach.
type graphWalk struct {
	g          *graph.Graph
	incoming   bool
	mentioned  map[int32]bool
	edges      []GraphEdge
	boundaries []Boundary
}

func (w *graphWalk) add(ei int32, d int) {
	g := w.g
	e := &g.Edges[ei]
	w.edges = append(w.edges, GraphEdge{From: g.At(e.From).ID, Kind: e.Kind(), To: g.At(e.To).ID, Layer: e.Layer(), Depth: d, Site: g.EdgeSite(ei), Via: viaOf(g, ei)})
	w.mentioned[e.From], w.mentioned[e.To] = true, true
	if t := g.At(e.To); t.Foreign && !w.incoming {
		w.boundaries = append(w.boundaries, Boundary{Node: t.ID, Reason: "foreign_implementation", Via: g.At(e.From).ID,
			Detail: t.ID + " is implemented outside the project; the compiler cannot see what it reads or writes"})
	}
}

// paths adds the edges of paths, each once, and returns the paths as
// answered.
func (w *graphWalk) paths(paths []graph.Path) []map[string]any {
	seen := map[int32]bool{}
	for _, path := range paths {
		for d, ei := range path.Edges {
			if !seen[ei] {
				seen[ei] = true
				w.add(ei, d+1)
			}
		}
	}
	out := make([]map[string]any, 0, len(paths))
	for _, path := range paths {
		ids := make([]string, len(path.Nodes))
		for i, n := range path.Nodes {
			ids[i] = w.g.At(n).ID
		}
		out = append(out, map[string]any{"nodes": ids})
	}
	return out
}

// mentionedNodes summarizes the mentioned nodes in index order, at most
// limits.max_nodes.
func (c *call) mentionedNodes(g *graph.Graph, mentioned map[int32]bool) []graph.Summary {
	nodes := []graph.Summary{}
	ids := make([]int32, 0, len(mentioned))
	for i := range mentioned {
		ids = append(ids, i)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	var omitted []string
	for _, i := range ids {
		if len(nodes) == c.limits.MaxNodes {
			if len(omitted) < 50 {
				omitted = append(omitted, g.At(i).ID)
			}
			continue
		}
		nodes = append(nodes, g.Summary(g.At(i)))
	}
	if extra := len(ids) - len(nodes); extra > 0 {
		c.trunc.Truncated = true
		c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: "max_nodes", Count: extra, Nodes: omitted})
		c.gap("max_nodes", fmt.Sprintf("the answer summarizes limits.max_nodes (%d) of the %d nodes it mentions; truncation.omissions names the others", c.limits.MaxNodes, len(ids)), omitted)
	}
	return nodes
}

// trimEdges cuts res to max_bytes: the farthest edges go first; the nodes
// only they mention go with them.
func (c *call) trimEdges(res map[string]any, g *graph.Graph, nodes []graph.Summary, edges []GraphEdge, from []string) {
	k := c.trimToFit(len(edges), func(k int) int {
		res["edges"], res["nodes"] = edges[:k], nodesOf(g, nodes, edges[:k], from)
		return jsonSize(res)
	})
	res["edges"], res["nodes"] = edges[:k], nodesOf(g, nodes, edges[:k], from)
	var cut []string
	seen := map[string]bool{}
	for _, e := range edges[k:] {
		for _, id := range []string{e.From, e.To} {
			if !seen[id] {
				seen[id] = true
				cut = append(cut, id)
			}
		}
	}
	if len(edges) > k {
		// Count the edges left out; name the nodes they reach.
		c.omit("max_bytes", cut)
		c.trunc.Omissions[len(c.trunc.Omissions)-1].Count = len(edges) - k
		c.gap("max_bytes", fmt.Sprintf("%d of the %d edges found do not fit limits.max_bytes (%d); the farthest were left out", len(edges)-k, len(edges), c.limits.MaxBytes), cut)
	}
}

type impactParams struct {
	Targets   []string `json:"targets"`
	Direction string   `json:"direction"`
	EdgeKinds []string `json:"edge_kinds,omitempty"`
}

// Impacted is one node a change would affect.
type Impacted struct {
	Node     graph.Summary  `json:"node"`
	Depth    int            `json:"depth"`
	From     string         `json:"from"`
	EdgeKind string         `json:"edge_kind"`
	Layer    string         `json:"layer"`
	Site     graph.Location `json:"site"`
	Via      string         `json:"via,omitempty"`
}

func opImpactAnalyze(c *call) (any, *protocol.Error) {
	var p impactParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if e := c.readSnapshot(true); e != nil {
		return nil, e
	}
	targets, e := c.lookup(p.Targets)
	if e != nil {
		return nil, e
	}
	var kinds map[string]bool
	if len(p.EdgeKinds) > 0 {
		kinds = stringSet(p.EdgeKinds)
	}
	g := c.graph()
	reached := map[int32]bool{}
	impacted := []Impacted{}
	var omitted, foreign []string
	for _, t := range targets {
		reached[t] = true
		if n := g.At(t); n.Foreign && p.Direction != "dependents" && !slices.Contains(foreign, n.ID) {
			foreign = append(foreign, n.ID)
		}
	}
	extra := 0
	collect := func(incoming bool) {
		steps, _, cut := g.Walk(targets, incoming, kinds, nil, c.limits.MaxDepth)
		c.depthGap(g, cut)
		for _, st := range steps {
			e := &g.Edges[st.Edge]
			node, from := e.From, e.To
			if !incoming {
				node, from = e.To, e.From
				if n := g.At(node); n.Foreign && !slices.Contains(foreign, n.ID) {
					foreign = append(foreign, n.ID)
				}
			}
			if reached[node] {
				continue
			}
			reached[node] = true
			if len(impacted) == c.limits.MaxNodes {
				extra++
				if len(omitted) < 50 {
					omitted = append(omitted, g.At(node).ID)
				}
				continue
			}
			impacted = append(impacted, Impacted{Node: g.Summary(g.At(node)), Depth: st.Depth, From: g.At(from).ID,
				EdgeKind: e.Kind(), Layer: e.Layer(), Site: g.EdgeSite(st.Edge), Via: viaOf(g, st.Edge)})
		}
	}
	if p.Direction == "dependents" || p.Direction == "both" {
		collect(true)
	}
	if p.Direction == "dependencies" || p.Direction == "both" {
		collect(false)
	}
	c.foreignGap(foreign)
	if extra > 0 {
		c.trunc.Truncated = true
		c.trunc.Omissions = append(c.trunc.Omissions, protocol.Omission{Reason: "max_nodes", Count: extra, Nodes: omitted})
		c.gap("max_nodes", fmt.Sprintf("%d more nodes are impacted than limits.max_nodes (%d) lets the answer list", extra, c.limits.MaxNodes), omitted)
	}
	k := c.trimToFit(len(impacted), func(k int) int { return jsonSize(map[string]any{"impacted": impacted[:k]}) })
	var cut []string
	for _, im := range impacted[k:] {
		cut = append(cut, im.Node.ID)
	}
	c.omit("max_bytes", cut)
	if len(cut) > 0 {
		c.gap("max_bytes", fmt.Sprintf("%d impacted nodes do not fit limits.max_bytes (%d); the farthest were left out", len(cut), c.limits.MaxBytes), cut)
	}
	return c.fit(map[string]any{"impacted": impacted[:k]})
}

// viaOf is the id of the component instance a bound edge comes through,
// or "".
func viaOf(g *graph.Graph, ei int32) string {
	if v, ok := g.Via(ei); ok {
		return g.At(v).ID
	}
	return ""
}

// pathsGap records a paths walk that a bound may have cut.
func (c *call) pathsGap(cut string) {
	switch cut {
	case graph.CutDepth:
		c.gap("max_depth", fmt.Sprintf("paths longer than limits.max_depth (%d) may lead to the ends: raise max_depth (up to %d)", c.limits.MaxDepth, protocol.MaxLimits.MaxDepth), nil)
	case graph.CutCount:
		c.gap("max_items", fmt.Sprintf("the answer holds limits.max_items (%d) paths, the shortest; there may be more", c.limits.MaxItems), nil)
	case graph.CutQueue:
		c.gap("path_search", "the graph has more partial paths between these nodes than the search holds; narrow from, to or edge_kinds", nil)
	}
}

// nodesOf keeps the summaries of the start nodes and of the nodes the
// kept edges mention.
func nodesOf(g *graph.Graph, all []graph.Summary, edges []GraphEdge, from []string) []graph.Summary {
	keep := stringSet(from)
	for _, e := range edges {
		keep[e.From], keep[e.To] = true, true
	}
	out := make([]graph.Summary, 0, len(keep))
	for _, n := range all {
		if keep[n.ID] {
			out = append(out, n)
		}
	}
	return out
}
