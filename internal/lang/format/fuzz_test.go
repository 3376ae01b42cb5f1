package format

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/lang/syntax"
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
		// Random inputs rarely parse, so clean ones are also re-spaced:
		// the gaps within lines are emptied or widened, driven by the
		// input's own bytes, and the variant is checked if it parses.
		v := syntax.Parse("fuzz.acore", respace(file))
		if len(v.Errors) == 0 {
			if err := checkFormat(v); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// respace returns f's source with the white space between tokens on one
// line removed or widened, and newlines doubled or kept.
func respace(f *syntax.File) []byte {
	var out []byte
	at := 0
	for i, t := range f.Tokens {
		gap := f.Src[at:t.Pos]
		var sel byte
		if len(f.Src) > 0 {
			sel = f.Src[(i*7)%len(f.Src)]
		}
		switch {
		case bytes.IndexByte(gap, '/') >= 0:
			out = append(out, gap...) // keep comments as they are
		case bytes.IndexByte(gap, '\n') >= 0:
			if sel%3 == 0 {
				out = append(out, "\n\n\n    "...)
			} else {
				out = append(out, '\n')
			}
		case sel%3 == 0:
			out = append(out, "   "...)
		case sel%3 == 1 && len(gap) > 0:
			out = append(out, ' ')
		}
		out = append(out, f.Src[t.Pos:t.End]...)
		at = int(t.End)
	}
	return append(out, f.Src[at:]...)
}
