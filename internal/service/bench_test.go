package service_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/gen"
	"github.com/axiomcore/acore/internal/project"
	"github.com/axiomcore/acore/internal/service"
)

// boundsService serves a generated project at the service bounds whose
// files are old enough for the load cache to trust.
func boundsService(b *testing.B) (*service.Service, string) {
	dir := b.TempDir()
	old := time.Now().Add(-time.Hour)
	if err := gen.Write(dir, gen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	s, err := service.New(service.Config{Root: dir})
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
	if err := gen.Write(dir, gen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	req := []byte(`{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","params":{"roots":[{"path":"` + dir + `"}]}}`)
	for b.Loop() {
		project.ForgetTrees()
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
