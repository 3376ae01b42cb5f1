package web

import (
	"testing"

	"github.com/axiomcore/acore/internal/tools/bench"
	projgen "github.com/axiomcore/acore/internal/tools/projgen"
	"github.com/axiomcore/acore/internal/webapp/outdir"
)

// BenchmarkBuild4MiB builds the largest bench project (64 files, about
// 4 MiB of sources), as axiom build does: compile, generate, write.
func BenchmarkBuild4MiB(b *testing.B) {
	dir := b.TempDir()
	if err := projgen.Write(dir, projgen.Project(64, bench.Bytes(64))); err != nil {
		b.Fatal(err)
	}
	out := b.TempDir()
	var size int
	for b.Loop() {
		res, err := Build(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Failed {
			b.Fatalf("build failed: %v", res.Diagnostics[0])
		}
		if err := outdir.Write(out+"/dist", dir, res.Files); err != nil {
			b.Fatal(err)
		}
		size = len(res.Files["app.js"]) + len(res.Files["index.html"])
	}
	b.ReportMetric(float64(size), "out-bytes")
}
