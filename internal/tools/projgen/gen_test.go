package projgen_test

import (
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// write lays a generated project out on disk and prepares it.
func write(t testing.TB, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := projgen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGeneratedProjectsValidate(t *testing.T) {
	for _, size := range []struct {
		name         string
		shape        func(files, bytes int) map[string][]byte
		files, bytes int
	}{
		{"project", projgen.Project, 1, 4 << 10},
		{"project", projgen.Project, 8, 256 << 10},
		{"project", projgen.Project, 64, 4<<20 - 64<<10},
		{"wide", projgen.Wide, 4, 64 << 10},
		{"wide", projgen.Wide, 50, 3800 << 10},
	} {
		files := size.shape(size.files, size.bytes)
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
			t.Fatalf("%s %d files, %d bytes: state %s with %d errors", size.name, size.files, total, r.State, errs)
		}
		if total > 4<<20 {
			t.Errorf("%s %d files total %d bytes, over sources_bytes_max", size.name, size.files, total)
		}
		t.Logf("%s %d files (%d written), %d bytes, %d nodes, %d edges", size.name, size.files, len(files), total, r.Graph.Len(), len(r.Graph.Edges))
	}
}
