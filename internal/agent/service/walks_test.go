package service

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/graph"
)

// copyExample copies examples/<name> into a temporary directory, with
// the files of extra (relative path → content) written over it.
func copyExample(t *testing.T, name string, extra map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "examples", name))); err != nil {
		t.Fatal(err)
	}
	for p, text := range extra {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// withShare is reading-list with an extern action its About page
// triggers: a walk that reaches it cannot see what it does.
func withShare(t *testing.T) map[string]string {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "reading-list", "pages", "about.acore"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "page About {", "extern action share(text: String) from \"native:share\"\n\npage About {", 1)
	src = strings.Replace(src, `if books.pending`, `Button("Share", on_press: || share("the list"))
      if books.pending`, 1)
	return map[string]string{"pages/about.acore": src}
}

type wireEdge struct{ From, Kind, To string }

// allEdges reads every node and edge of the service's latest snapshot
// through node.get alone: from the modules, it follows each node's
// outgoing and incoming edges. Each edge must be listed both ways.
func allEdges(t *testing.T, s *Service) (kinds map[string]string, edges []wireEdge) {
	t.Helper()
	var found struct {
		Nodes []struct {
			ID string `json:"id"`
		} `json:"nodes"`
	}
	opsOK(t, opsDo(t, s, "node.find", "latest", nil, map[string]any{"query": "", "kind": "module", "limit": 50}), &found)
	kinds = map[string]string{}
	var queue []string
	for _, n := range found.Nodes {
		kinds[n.ID] = "module"
		queue = append(queue, n.ID)
	}
	out, in := map[wireEdge]bool{}, map[wireEdge]bool{}
	for len(queue) > 0 {
		batch := queue[:min(len(queue), 50)]
		queue = queue[len(batch):]
		r := opsDo(t, s, "node.get", "latest", map[string]any{"max_bytes": 4194304},
			map[string]any{"nodes": batch, "include": []string{"incoming"}, "limit": 200})
		var got struct {
			Nodes []struct {
				Node struct {
					ID   string `json:"id"`
					Kind string `json:"kind"`
				} `json:"node"`
				Edges []struct {
					Direction, Kind, Node string
				} `json:"edges"`
			} `json:"nodes"`
		}
		opsOK(t, r, &got)
		if r.Truncation.Truncated || !r.Coverage.Exhaustive {
			t.Fatalf("node.get cut: %+v %+v", r.Truncation, r.Coverage)
		}
		for _, n := range got.Nodes {
			kinds[n.Node.ID] = n.Node.Kind
			for _, e := range n.Edges {
				if _, seen := kinds[e.Node]; !seen {
					kinds[e.Node] = ""
					queue = append(queue, e.Node)
				}
				if e.Direction == "outgoing" {
					out[wireEdge{n.Node.ID, e.Kind, e.Node}] = true
				} else {
					in[wireEdge{e.Node, e.Kind, n.Node.ID}] = true
				}
			}
		}
	}
	for e := range out {
		if !in[e] {
			t.Errorf("%v is listed as outgoing only", e)
		}
		edges = append(edges, e)
	}
	for e := range in {
		if !out[e] {
			t.Errorf("%v is listed as incoming only", e)
		}
	}
	sort.Slice(edges, func(a, b int) bool { return fmt.Sprint(edges[a]) < fmt.Sprint(edges[b]) })
	return kinds, edges
}

// reach is the brute force: every edge of the kinds (nil: all) met
// from start, outgoing or incoming, with no bound (up to one step when
// !transitive), and the nodes reached.
func reach(edges []wireEdge, start string, incoming, transitive bool, kinds map[string]bool) (map[wireEdge]bool, map[string]bool) {
	met, seen := map[wireEdge]bool{}, map[string]bool{start: true}
	frontier := []string{start}
	for len(frontier) > 0 {
		var next []string
		for _, n := range frontier {
			for _, e := range edges {
				from, to := e.From, e.To
				if incoming {
					from, to = to, from
				}
				if from != n || kinds != nil && !kinds[e.Kind] {
					continue
				}
				met[e] = true
				if !seen[to] {
					seen[to] = true
					next = append(next, to)
				}
			}
		}
		if !transitive {
			break
		}
		frontier = next
	}
	return met, seen
}

// simplePaths is the brute force of paths: every simple path from start
// that ends at the first end it meets, along edges of kinds; ok is false
// past max paths.
func simplePaths(edges []wireEdge, start string, ends map[string]bool, kinds map[string]bool, max int) (paths []string, ok bool) {
	var walk func(path []string) bool
	walk = func(path []string) bool {
		last := path[len(path)-1]
		if len(path) > 1 && ends[last] {
			paths = append(paths, strings.Join(path, " "))
			return len(paths) <= max
		}
		for _, e := range edges {
			if e.From == last && kinds[e.Kind] && !slices.Contains(path, e.To) {
				if !walk(append(slices.Clip(path), e.To)) {
					return false
				}
			}
		}
		return true
	}
	ok = walk([]string{start})
	sort.Strings(paths)
	return paths, ok
}

// TestWalksAgainstBruteForce holds every walk of the examples, from
// every node, against a brute-force reachability over the edges node.get
// lists: an answer that says exhaustive is exactly the brute force, and
// one that reaches foreign code never says it. At the default depth some
// walks stop at the bound and must say so; at the largest depth every
// walk that meets no foreign code covers the examples whole.
func TestWalksAgainstBruteForce(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of requests")
	}
	for _, ex := range []struct {
		name, dir string
		extra     func(*testing.T) map[string]string
	}{{"task-app", "task-app", nil}, {"reading-list", "reading-list", nil}, {"reading-list+extern", "reading-list", withShare}} {
		t.Run(ex.name, func(t *testing.T) {
			var extra map[string]string
			if ex.extra != nil {
				extra = ex.extra(t)
			}
			s, err := newForTest(t, Config{Root: copyExample(t, ex.dir, extra)})
			if err != nil {
				t.Fatal(err)
			}
			kinds, edges := allEdges(t, s)
			ids := make([]string, 0, len(kinds))
			for id := range kinds {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			deps := map[string]bool{}
			for _, k := range graph.DependencyKinds {
				deps[k] = true
			}
			foreign := func(nodes map[string]bool) bool {
				for n := range nodes {
					if kinds[n] == graph.KindExtension {
						return true
					}
				}
				return false
			}
			walks, cut, deep := 0, 0, 0
			for _, depth := range []int{2, 16} {
				limits := map[string]any{"max_depth": depth, "max_bytes": 4194304, "max_nodes": 1000, "max_items": 200}
				for _, id := range ids {
					for _, q := range []struct {
						mode       string
						incoming   bool
						transitive bool
					}{{"dependencies", false, true}, {"dependents", true, true}, {"dependencies", false, false}, {"dependents", true, false}} {
						r := opsDo(t, s, "graph.query", "latest", limits, map[string]any{"from": []string{id}, "mode": q.mode, "transitive": q.transitive})
						var res struct {
							Edges []struct{ From, Kind, To string } `json:"edges"`
						}
						opsOK(t, r, &res)
						got := map[wireEdge]bool{}
						for _, e := range res.Edges {
							got[wireEdge{e.From, e.Kind, e.To}] = true
						}
						want, nodes := reach(edges, id, q.incoming, q.transitive, deps)
						walks++
						if !r.Coverage.Exhaustive {
							cut++
							if depth == 16 && q.transitive && (q.incoming || !foreign(nodes)) {
								deep++
								t.Errorf("graph.query %s of %s at max_depth 16 is not exhaustive: %+v", q.mode, id, r.Coverage)
							}
							continue
						}
						if !q.incoming && foreign(nodes) {
							t.Errorf("graph.query %s of %s reaches foreign code and says exhaustive", q.mode, id)
						}
						if len(got) != len(want) || !mapsEqual(got, want) {
							t.Errorf("graph.query %s (transitive %v) of %s at max_depth %d says exhaustive:\n got %v\nwant %v", q.mode, q.transitive, id, depth, keys(got), keys(want))
						}
					}
					for _, dir := range []string{"dependents", "dependencies"} {
						r := opsDo(t, s, "impact.analyze", "latest", limits, map[string]any{"targets": []string{id}, "direction": dir})
						var res struct {
							Impacted []struct {
								Node struct {
									ID string `json:"id"`
								} `json:"node"`
							} `json:"impacted"`
						}
						opsOK(t, r, &res)
						_, nodes := reach(edges, id, dir == "dependents", true, nil)
						seesForeign := foreign(nodes)
						delete(nodes, id)
						got := map[string]bool{}
						for _, im := range res.Impacted {
							got[im.Node.ID] = true
						}
						walks++
						if !r.Coverage.Exhaustive {
							cut++
							if depth == 16 && (dir == "dependents" || !seesForeign) {
								deep++
								t.Errorf("impact.analyze %s of %s at max_depth 16 is not exhaustive: %+v", dir, id, r.Coverage)
							}
							continue
						}
						if dir == "dependencies" && seesForeign {
							t.Errorf("impact.analyze %s of %s reaches foreign code and says exhaustive", dir, id)
						}
						if !mapsEqual(got, nodes) {
							t.Errorf("impact.analyze %s of %s at max_depth %d says exhaustive:\n got %v\nwant %v", dir, id, depth, keys(got), keys(nodes))
						}
					}
					// Paths from the node to every node, twenty ends at a time.
					for k := 0; k < len(ids); k += 20 {
						to := ids[k:min(k+20, len(ids))]
						r := opsDo(t, s, "graph.query", "latest", limits, map[string]any{"from": []string{id}, "to": to, "mode": "paths"})
						var res struct {
							Paths []struct {
								Nodes []string `json:"nodes"`
							} `json:"paths"`
						}
						opsOK(t, r, &res)
						var got []string
						for _, p := range res.Paths {
							got = append(got, strings.Join(p.Nodes, " "))
						}
						sort.Strings(got)
						ends := map[string]bool{}
						for _, e := range to {
							ends[e] = true
						}
						want, ok := simplePaths(edges, id, ends, deps, 200)
						walks++
						if !r.Coverage.Exhaustive {
							cut++
							continue
						}
						if _, nodes := reach(edges, id, false, true, deps); foreign(nodes) {
							t.Errorf("paths from %s reach foreign code and say exhaustive", id)
						}
						if !ok || !slices.Equal(got, want) {
							t.Errorf("paths from %s to %v at max_depth %d say exhaustive:\n got %q\nwant %q", id, to, depth, got, want)
						}
					}
				}
			}
			if cut == 0 || cut == walks {
				t.Errorf("%d of %d walks are not exhaustive: the bound never, or always, cuts", cut, walks)
			}
			t.Logf("%d walks, %d not exhaustive (%d at max_depth 16)", walks, cut, deep)
		})
	}
}

func mapsEqual[K comparable](a, b map[K]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys[K comparable](m map[K]bool) []string {
	var out []string
	for k := range m {
		out = append(out, fmt.Sprint(k))
	}
	sort.Strings(out)
	return out
}

// TestComponentBoundary holds the answers of issue 25 on reading-list:
// the Button inside BookRow reaches the contract operation through the
// handler Home passes its on_delete, and the instances that pass
// PageTitle's subtitle depend on it.
func TestComponentBoundary(t *testing.T) {
	s, err := newForTest(t, Config{Root: copyExample(t, "reading-list", nil)})
	if err != nil {
		t.Fatal(err)
	}
	const button, prop, inst = "element:BookRow/view/0/1", "prop:BookRow.on_delete", "element:Home/view/0/3/2/0/0"
	type edgeWire struct {
		From, Kind, To, Via string
		Site                struct {
			Path         string
			Line, Column int
		}
	}
	var res struct {
		Paths []struct {
			Nodes []string `json:"nodes"`
		} `json:"paths"`
		Edges []edgeWire `json:"edges"`
	}
	params := map[string]any{"from": []string{button}, "to": []string{"contract_operation:Books.delete_book"}, "mode": "paths", "transitive": true}
	// At the default depth the path is too long to find: the answer says
	// so instead of proving it absent.
	r := opsDo(t, s, "graph.query", "latest", nil, params)
	opsOK(t, r, &res)
	if len(res.Paths) != 0 || r.Coverage.Exhaustive || r.Coverage.Completeness != "partial" || len(r.Coverage.Gaps) != 1 || r.Coverage.Gaps[0].Reason != "max_depth" {
		t.Errorf("paths at max_depth 2: %+v, coverage %+v", res.Paths, r.Coverage)
	}
	r = opsDo(t, s, "graph.query", "latest", map[string]any{"max_depth": 8}, params)
	opsOK(t, r, &res)
	want := []string{button, prop, "action:Home.delete", "mutation:Home.remove", "contract_operation:Books.delete_book"}
	if len(res.Paths) != 1 || !slices.Equal(res.Paths[0].Nodes, want) || !r.Coverage.Exhaustive {
		t.Fatalf("paths at max_depth 8: %+v, coverage %+v", res.Paths, r.Coverage)
	}
	bound := res.Edges[1]
	if bound.From != prop || bound.Kind != "triggers" || bound.To != "action:Home.delete" || bound.Via != inst ||
		bound.Site.Path != "main.acore" || bound.Site.Line != 47 || bound.Site.Column != 129 {
		t.Errorf("the prop's edge to the handler: %+v", bound)
	}

	var imp struct {
		Impacted []struct {
			Node struct {
				ID string `json:"id"`
			} `json:"node"`
			EdgeKind string `json:"edge_kind"`
			From     string `json:"from"`
			Site     struct {
				Path         string
				Line, Column int
			} `json:"site"`
		} `json:"impacted"`
	}
	r = opsDo(t, s, "impact.analyze", "latest", nil, map[string]any{"targets": []string{"prop:PageTitle.subtitle"}, "direction": "dependents"})
	opsOK(t, r, &imp)
	got := map[string]string{}
	for _, im := range imp.Impacted {
		got[im.Node.ID] = fmt.Sprintf("%s %s %s:%d:%d", im.EdgeKind, im.From, im.Site.Path, im.Site.Line, im.Site.Column)
	}
	for id, w := range map[string]string{
		"element:Home/view/0/1":  "binds prop:PageTitle.subtitle main.acore:40:50",
		"element:About/view/0/1": "binds prop:PageTitle.subtitle pages/about.acore:14:43",
	} {
		if got[id] != w {
			t.Errorf("impact of prop:PageTitle.subtitle: %s is %q, want %q (all: %v)", id, got[id], w, got)
		}
	}
	if !r.Coverage.Exhaustive {
		t.Errorf("impact coverage %+v", r.Coverage)
	}

	// Back from the action: the prop, then the Button that triggers it.
	r = opsDo(t, s, "graph.query", "latest", nil, map[string]any{"from": []string{"action:Home.delete"}, "mode": "dependents", "transitive": true})
	opsOK(t, r, &res)
	var back []string
	for _, e := range res.Edges {
		back = append(back, e.From+" "+e.Kind+" "+e.To)
	}
	for _, w := range []string{inst + " triggers action:Home.delete", prop + " triggers action:Home.delete", button + " triggers " + prop} {
		if !slices.Contains(back, w) {
			t.Errorf("dependents of action:Home.delete lack %q: %v", w, back)
		}
	}

	// node.get lists the binding both ways.
	var nodes struct {
		Nodes []struct {
			Edges []struct {
				Direction, Kind, Node, Via string
			} `json:"edges"`
		} `json:"nodes"`
	}
	opsOK(t, opsDo(t, s, "node.get", "latest", nil, map[string]any{"nodes": []string{prop, inst}, "include": []string{"incoming"}}), &nodes)
	var listed []string
	for _, n := range nodes.Nodes {
		for _, e := range n.Edges {
			listed = append(listed, strings.TrimSpace(e.Direction+" "+e.Kind+" "+e.Node+" "+e.Via))
		}
	}
	for _, w := range []string{"outgoing triggers action:Home.delete " + inst, "incoming binds " + inst, "incoming triggers " + button, "outgoing binds " + prop} {
		if !slices.Contains(listed, w) {
			t.Errorf("node.get lacks %q: %v", w, listed)
		}
	}

	// context.build for the Button's behavior includes the action its
	// instances pass.
	var ctx contextResultWire
	opsOK(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{button}, "purpose": "change_behavior"}), &ctx)
	found := false
	for _, it := range ctx.Items {
		for _, why := range it.Reasons {
			found = found || it.Node.ID == "action:Home.delete" && why.Kind == "behavior" && why.Text == "the focus triggers it through "+prop
		}
	}
	if !found {
		t.Errorf("context.build change_behavior of the Button: %+v", ctx.Items)
	}
}
