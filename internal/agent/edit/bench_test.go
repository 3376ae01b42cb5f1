package edit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// boundsProject writes and prepares a generated project at the service
// bounds (64 files, just under 4 MiB of sources) and compiles it.
func boundsProject(b *testing.B) *project.Project {
	b.Helper()
	dir := b.TempDir()
	for p, data := range projgen.Project(64, 4<<20-64<<10) {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(abs, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := prepare.Run(dir); err != nil {
		b.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	if p.Result.State != "validated" {
		b.Fatalf("generated project is %s", p.Result.State)
	}
	return p
}

// labelOps returns set_property operations on n distinct elements' String
// literals, spread over the project's files.
func labelOps(b *testing.B, p *project.Project, n int) []json.RawMessage {
	g := p.Result.Graph
	var out []json.RawMessage
	seenPath := map[string]int{}
	for pass := 0; len(out) < n && pass < 64; pass++ {
		for k := range int32(g.Len()) {
			nd := g.At(k)
			if len(out) == n {
				break
			}
			if nd.Kind != graph.KindElement || seenPath[nd.Path] > pass {
				continue
			}
			for _, pr := range nd.Props {
				if s, ok := pr.Value.(string); ok && pr.Literal && pr.Editable && (pr.Name == "text" || pr.Name == "label" || pr.Name == "placeholder") {
					raw, _ := json.Marshal(map[string]any{"kind": "set_property", "node": nd.ID, "property": pr.Name, "old_value": s, "new_value": s + " (edited)"})
					out = append(out, raw)
					seenPath[nd.Path]++
					break
				}
			}
		}
	}
	if len(out) < n {
		b.Fatalf("found %d editable labels", len(out))
	}
	return out
}

func benchApply(b *testing.B, n int) {
	p := boundsProject(b)
	ops, de := DecodeOps(labelOps(b, p, n))
	if de != nil {
		b.Fatal(de)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, e := Apply(p, ops, Options{SnapshotID: "snap-bench"})
		if e != nil {
			b.Fatal(e)
		}
		if len(r.Operations) != n {
			b.Fatal(fmt.Sprint(len(r.Operations)))
		}
	}
}

// BenchmarkApplySetProperty is one set_property on the bounds project:
// one compile of the whole project.
func BenchmarkApplySetProperty(b *testing.B) { benchApply(b, 1) }

// BenchmarkApplySetProperty50 is 50 set_property operations on distinct
// elements of the bounds project, in one batch.
func BenchmarkApplySetProperty50(b *testing.B) { benchApply(b, 50) }
