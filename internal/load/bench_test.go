package load_test

import (
	"testing"

	"github.com/axiomcore/acore/internal/gen"
	"github.com/axiomcore/acore/internal/load"
)

// BenchmarkLoadBounds reads and hashes the generated project at the
// service bounds (64 files, about 4 MiB) with an empty cache, as a cold
// capture does.
func BenchmarkLoadBounds(b *testing.B) {
	dir := b.TempDir()
	if err := gen.Write(dir, gen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load.LoadCached(dir, load.DefaultLimits(), load.NewCache()); err != nil {
			b.Fatal(err)
		}
	}
}
