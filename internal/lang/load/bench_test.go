package load_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// BenchmarkLoadBounds reads and hashes the generated project at the
// service bounds (64 files, about 4 MiB) with an empty cache, as a cold
// capture does.
func BenchmarkLoadBounds(b *testing.B) {
	dir := b.TempDir()
	if err := projgen.Write(dir, projgen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load.LoadCached(dir, load.DefaultLimits(), load.NewCache()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadWarm captures the generated project at the bounds, every
// file verified, through a warm cache: what every request pays to learn
// the state of the disk.
func BenchmarkLoadWarm(b *testing.B) {
	dir := b.TempDir()
	if err := projgen.Write(dir, projgen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			return os.Chtimes(p, old, old)
		}
		return err
	}); err != nil {
		b.Fatal(err)
	}
	c := load.NewCache()
	if _, err := load.LoadCached(dir, load.DefaultLimits(), c); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load.LoadCached(dir, load.DefaultLimits(), c); err != nil {
			b.Fatal(err)
		}
	}
}
