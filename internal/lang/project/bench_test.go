package project_test

import (
	"testing"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// boundsProject writes a generated project at the service bounds (64
// files, just under 4 MiB of sources) and loads it.
func boundsProject(b *testing.B) *load.Inputs {
	dir := b.TempDir()
	if err := projgen.Write(dir, projgen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	in, err := load.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	return in
}

func sourceBytes(in *load.Inputs) int64 {
	var n int64
	for _, f := range in.Sources {
		n += int64(len(f.Data))
	}
	return n
}

// BenchmarkParseBounds parses every source of the bounds project.
func BenchmarkParseBounds(b *testing.B) {
	in := boundsProject(b)
	b.SetBytes(sourceBytes(in))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range in.Sources {
			syntax.Parse(f.Path, f.Data)
		}
	}
}

// BenchmarkCompileBounds parses and checks the bounds project and builds
// its graph: the work of a cold workspace.open after reading.
func BenchmarkCompileBounds(b *testing.B) {
	in := boundsProject(b)
	b.SetBytes(sourceBytes(in))
	b.ReportAllocs()
	for b.Loop() {
		p := project.Compile(in)
		if p.Result.State != "validated" {
			b.Fatalf("state %s", p.Result.State)
		}
	}
}

// BenchmarkOpenBounds is a whole open from disk: read, hash, parse, check.
func BenchmarkOpenBounds(b *testing.B) {
	in := boundsProject(b)
	b.SetBytes(sourceBytes(in))
	for b.Loop() {
		if _, err := project.Open(in.Root); err != nil {
			b.Fatal(err)
		}
	}
}
