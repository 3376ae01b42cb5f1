package gen_test

import (
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/gen"
	"github.com/axiomcore/acore/internal/project"
)

// write lays a generated project out on disk and prepares it.
func write(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGeneratedProjectsValidate(t *testing.T) {
	for _, size := range []struct{ files, bytes int }{{1, 4 << 10}, {8, 256 << 10}, {64, 4<<20 - 64<<10}} {
		files := gen.Project(size.files, size.bytes)
		total := 0
		for p, d := range files {
			if filepath.Ext(p) == ".acore" {
				total += len(d)
			}
		}
		p, err := project.Open(write(t, files))
		if err != nil {
			t.Fatal(err)
		}
		r := p.Result
		errs := 0
		for _, d := range r.Diagnostics {
			if d.Severity == "error" {
				errs++
				if errs < 5 {
					t.Errorf("%s:%d:%d: %s [%s]", d.Path, d.Line, d.Column, d.Message, d.Code)
				}
			}
		}
		if r.State != "validated" {
			t.Fatalf("%d files, %d bytes: state %s with %d errors", size.files, total, r.State, errs)
		}
		if total > 4<<20 {
			t.Errorf("%d files total %d bytes, over sources_bytes_max", size.files, total)
		}
		t.Logf("%d files, %d bytes, %d nodes, %d edges", size.files, total, r.Graph.Len(), len(r.Graph.Edges))
	}
}
