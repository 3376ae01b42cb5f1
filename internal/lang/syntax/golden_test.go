package syntax

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files of the golden tests")

// goldenInputs returns the .acore and .axiom files of testdata/dir.
func goldenInputs(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	for _, ext := range []string{"*.acore", "*.axiom"} {
		m, err := filepath.Glob(filepath.Join("testdata", dir, ext))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatalf("no inputs in testdata/%s", dir)
	}
	return out
}

// checkGolden compares got with path's .golden file, or rewrites it under
// -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	golden := path + ".golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s: Dump differs from %s (run go test -update to accept):\n%s", path, golden, diffLines(string(want), got))
	}
}

// diffLines shows the first differing line, which is enough to locate a
// regression in a dump.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n  want: " + a + "\n  got:  " + b
		}
	}
	return ""
}

func itoa(n int) string {
	var b []byte
	if n == 0 {
		return "0"
	}
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func parseFile(t testing.TB, path string) *File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(path, src)
}

// TestParseGolden parses well-formed inputs: each must parse without
// errors, print back byte for byte, and match its golden dump.
func TestParseGolden(t *testing.T) {
	for _, path := range goldenInputs(t, "parse") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f := parseFile(t, path)
			for _, e := range f.Errors {
				p := f.Position(int(e.Pos))
				t.Errorf("%d:%d %s %s", p.Line, p.Column, e.Code, e.Msg)
			}
			if got := Print(f); string(got) != string(f.Src) {
				t.Errorf("Print does not reproduce the source")
			}
			checkGolden(t, path, Dump(f))
		})
	}
}

// TestParseTree parses every golden input with ParseTree, twice over so
// that each reuses another's tokens, and compares the trees with Parse's.
func TestParseTree(t *testing.T) {
	paths := append(goldenInputs(t, "parse"), goldenInputs(t, "broken")...)
	if len(paths) < 4 {
		t.Fatalf("%d golden inputs", len(paths))
	}
	var trees []*File
	for range 2 {
		for _, path := range paths {
			trees = append(trees, ParseTree(path, parseFile(t, path).Src))
		}
	}
	for k, tree := range trees {
		want := parseFile(t, paths[k%len(paths)])
		if tree.Tokens != nil || Dump(tree) != Dump(want) || !reflect.DeepEqual(tree.Errors, want.Errors) || !reflect.DeepEqual(tree.Comments, want.Comments) {
			t.Errorf("ParseTree(%s) differs from Parse", paths[k%len(paths)])
		}
	}
}

// TestParseBroken parses files with several syntax errors each: the golden
// holds the partial tree and the diagnostics.
func TestParseBroken(t *testing.T) {
	for _, path := range goldenInputs(t, "broken") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f := parseFile(t, path)
			if len(f.Errors) < 2 {
				t.Errorf("want several syntax errors, got %d", len(f.Errors))
			}
			if got := Print(f); string(got) != string(f.Src) {
				t.Errorf("Print does not reproduce the source")
			}
			checkGolden(t, path, Dump(f))
		})
	}
}
