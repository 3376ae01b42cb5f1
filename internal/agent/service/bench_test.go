package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// boundsService serves a generated project at the service bounds whose
// files are old enough for the load cache to trust.
func boundsService(b *testing.B) (*service.Service, string) {
	dir := b.TempDir()
	old := time.Now().Add(-time.Hour)
	if err := projgen.Write(dir, projgen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	s, err := newService(b, service.Config{Root: dir})
	if err != nil {
		b.Fatal(err)
	}
	out := s.Handle(context.Background(), []byte(`{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","params":{"roots":[{"path":"`+s.Root()+`"}]}}`))
	var o struct {
		Snapshot struct{ ID string } `json:"snapshot"`
	}
	if err := json.Unmarshal(out, &o); err != nil || o.Snapshot.ID == "" {
		b.Fatalf("workspace.open: %s", out)
	}
	return s, o.Snapshot.ID
}

func BenchmarkWorkspaceOpenCold(b *testing.B) {
	dir := b.TempDir()
	if err := projgen.Write(dir, projgen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	req := []byte(`{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","params":{"roots":[{"path":"` + dir + `"}]}}`)
	for b.Loop() {
		s, err := service.New(service.Config{Root: dir})
		if err != nil {
			b.Fatal(err)
		}
		s.Handle(context.Background(), req)
	}
}

func BenchmarkReads(b *testing.B) {
	s, snap := boundsService(b)
	env := `{"protocol":"axiom-agent-semantic/v1","snapshot":"` + snap + `",`
	for _, tc := range []struct{ name, req string }{
		{"node.find", `"operation":"node.find","params":{"query":"Add","kind":"element","limit":10}}`},
		{"node.find.path", `"operation":"node.find","params":{"query":"draft","path":"pages/p7.acore","limit":10}}`},
		{"node.find.owner", `"operation":"node.find","params":{"query":"","owner":"page:P7_3","limit":50}}`},
		{"node.find.one_byte", `"operation":"node.find","params":{"query":"a","limit":10}}`},
		{"node.get", `"operation":"node.get","params":{"nodes":["element:P7_3/view/0/1/1"]}}`},
		{"graph.query", `"operation":"graph.query","params":{"from":["state:P7_3.draft"],"mode":"dependents"}}`},
		{"graph.query.transitive16", `"operation":"graph.query","limits":{"max_depth":16},"params":{"from":["state:P7_3.draft"],"mode":"dependents","transitive":true}}`},
		{"impact.analyze", `"operation":"impact.analyze","params":{"targets":["state:P7_3.draft"],"direction":"dependents"}}`},
		{"node.edits", `"operation":"node.edits","params":{"nodes":["element:P7_3/view/0/1/1"],"include_unavailable":true}}`},
		{"context.build.change_input", `"operation":"context.build","params":{"focus":["element:P7_3/view/0/1/1"],"purpose":"change_input"}}`},
		{"context.build.change_behavior", `"operation":"context.build","params":{"focus":["action:P7_3.submit"],"purpose":"change_behavior"}}`},
		{"changes.since", `"operation":"changes.since","params":{"since":"` + snap + `","scope":{"nodes":["element:P7_3/view/0/1/1"]}}}`},
		{"node.relocate", `"operation":"node.relocate","params":{"from_snapshot":"` + snap + `","nodes":["element:P7_3/view/0/1/1","state:P7_3.draft"]}}`},
		{"project.overview", `"operation":"project.overview","params":{}}`},
	} {
		req := []byte(env + tc.req)
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				s.Handle(context.Background(), req)
			}
		})
	}
}

// TestNodeFindFilters runs node.find with each filter on a generated
// project of three files with three pages each (P<file>_<k>, each with a
// component Card<file>_<k>), whose answers follow from the generator.
func TestNodeFindFilters(t *testing.T) {
	dir := t.TempDir()
	if err := projgen.Write(dir, projgen.Project(3, 3*6<<10)); err != nil {
		t.Fatal(err)
	}
	s, err := newService(t, service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	// each lists an id pattern for every page, in document order.
	each := func(pattern string) []string {
		var out []string
		for file := range 3 {
			for k := range 3 {
				out = append(out, fmt.Sprintf(pattern, fmt.Sprintf("P%d_%d", file, k)))
			}
		}
		return out
	}
	for _, tc := range []struct {
		name, params string
		want         []string // ids, in order
		reasons      string
		omitted      int // the limit omission's count
		firstOmitted string
	}{
		{"kind", `"query":"Add","kind":"element","limit":50`, each("element:%s/view/0/1/1"), "property_value", 0, ""},
		{"trimmed, any case", `"query":" ITEMS of ","kind":"element","limit":50`, each("element:%s/view/0/0"), "property_value", 0, ""},
		{"empty query, kind", `"query":"","kind":"page","limit":50`, each("page:%s"), "name", 0, ""},
		{"path", `"query":"draft","path":"pages/p2.acore","limit":50`, []string{"state:P2_0.draft", "state:P2_1.draft", "state:P2_2.draft"}, "name,id", 0, ""},
		{"empty query, owner and kind", `"query":"","owner":"component:Card1_1","kind":"element","limit":50`,
			[]string{"element:Card1_1/view/0", "element:Card1_1/view/0/0", "element:Card1_1/view/0/0/0", "element:Card1_1/view/0/0/1",
				"element:Card1_1/view/0/0/2", "element:Card1_1/view/0/1/0/0", "element:Card1_1/view/0/1/0/1", "element:Card1_1/view/0/1/1/0"}, "name", 0, ""},
		{"kind, path and owner", `"query":"add","kind":"element","path":"pages/p1.acore","owner":"page:P1_2","limit":50`, []string{"element:P1_2/view/0/1/1"}, "property_value", 0, ""},
		{"owner in another file", `"query":"add","path":"pages/p2.acore","owner":"page:P1_2","limit":50`, nil, "", 0, ""},
		{"one byte, kind and path", `"query":"a","kind":"page","path":"main.acore","limit":50`, []string{"page:P0_0", "page:P0_1", "page:P0_2"}, "id", 0, ""},
		{"unknown kind", `"query":"","kind":"widget","limit":50`, nil, "", 0, ""},
		{"limit", `"query":"Add","kind":"element","limit":2`, each("element:%s/view/0/1/1")[:2], "property_value", 7, "element:P0_2/view/0/1/1"},
		{"limit, empty query", `"query":"","kind":"page","path":"pages/p1.acore","limit":1`, []string{"page:P1_0"}, "name", 2, "page:P1_1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := s.Handle(context.Background(), []byte(`{"protocol":"axiom-agent-semantic/v1","snapshot":"latest","operation":"node.find","params":{`+tc.params+`}}`))
			var o struct {
				Coverage   struct{ Exhaustive bool }
				Truncation struct {
					Truncated bool
					Omissions []struct {
						Reason string
						Count  int
						Nodes  []string
					}
				}
				Result struct {
					Nodes []struct {
						ID, Kind, Path string
					}
					Matches []struct {
						Node    string
						Reasons []string
					}
				}
				Error any
			}
			if err := json.Unmarshal(out, &o); err != nil || o.Error != nil {
				t.Fatalf("%v: %s", err, out)
			}
			var ids []string
			for i, m := range o.Result.Matches {
				ids = append(ids, m.Node)
				if got := strings.Join(m.Reasons, ","); got != tc.reasons {
					t.Errorf("%s: reasons %s, want %s", m.Node, got, tc.reasons)
				}
				if i >= len(o.Result.Nodes) || o.Result.Nodes[i].ID != m.Node {
					t.Errorf("match %d (%s) is not node %d", i, m.Node, i)
				}
			}
			if !slices.Equal(ids, tc.want) {
				t.Errorf("found %v\nwant %v", ids, tc.want)
			}
			omitted, first := 0, ""
			for _, om := range o.Truncation.Omissions {
				if om.Reason == "limit" {
					omitted = om.Count
					if len(om.Nodes) > 0 {
						first = om.Nodes[0]
					}
				}
			}
			if omitted != tc.omitted || first != tc.firstOmitted {
				t.Errorf("limit omission: %d from %q, want %d from %q", omitted, first, tc.omitted, tc.firstOmitted)
			}
			if o.Truncation.Truncated != (tc.omitted > 0) || o.Coverage.Exhaustive != (tc.omitted == 0) {
				t.Errorf("truncated %v, exhaustive %v with %d omitted", o.Truncation.Truncated, o.Coverage.Exhaustive, tc.omitted)
			}
		})
	}
}
