package format

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/syntax"
)

// FuzzFormat: for any input that parses cleanly, formatting keeps the
// tree and the comments and is idempotent.
func FuzzFormat(f *testing.F) {
	for _, pat := range []string{"../syntax/testdata/*/*.acore", "../syntax/testdata/*/*.axiom", "testdata/*.acore", "testdata/*.axiom"} {
		m, _ := filepath.Glob(pat)
		for _, path := range m {
			src, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := syntax.Parse("fuzz.acore", src)
		if len(file.Errors) > 0 {
			if _, err := Source(file); err == nil {
				t.Fatal("Source formatted a file with syntax errors")
			}
			return
		}
		if err := checkFormat(file); err != nil {
			t.Fatal(err)
		}
	})
}
