package format

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

func parse(t testing.TB, path string) *syntax.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return syntax.Parse(path, src)
}

// inputs returns the well-formed inputs: the syntax golden corpus, this
// package's own cases and the examples.
func inputs(t testing.TB) []string {
	var out []string
	for _, pat := range []string{
		"../syntax/testdata/parse/*.acore", "../syntax/testdata/parse/*.axiom",
		"testdata/*.acore", "testdata/*.axiom",
		"../../../examples/*/*.acore", "../../../examples/*/contracts/*.axiom",
	} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) < 10 {
		t.Fatalf("only %d inputs", len(out))
	}
	return out
}

// TestCanonicalUnchanged: files already in canonical form come back byte
// for byte.
func TestCanonicalUnchanged(t *testing.T) {
	for _, path := range []string{
		"../../../examples/task-app/main.acore",
		"../../../examples/task-app/contracts/tasks.axiom",
		"../syntax/testdata/parse/task_app.acore",
		"../syntax/testdata/parse/members.acore",
		"../syntax/testdata/parse/ops.axiom",
	} {
		f := parse(t, path)
		got, changed, err := Check(f)
		if err != nil {
			t.Fatal(err)
		}
		if changed {
			t.Errorf("%s is canonical but formatting changed it:\n%s", path, got)
		}
	}
}

// TestGolden formats testdata/*.acore and compares with the .golden files.
func TestGolden(t *testing.T) {
	m, _ := filepath.Glob("testdata/*.acore")
	m2, _ := filepath.Glob("testdata/*.axiom")
	for _, path := range append(m, m2...) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			got, err := Source(parse(t, path))
			if err != nil {
				t.Fatal(err)
			}
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestProperties holds every well-formed input to the formatter's
// guarantees.
func TestProperties(t *testing.T) {
	for _, path := range inputs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f := parse(t, path)
			if len(f.Errors) > 0 {
				t.Fatalf("input has syntax errors: %v", f.Errors)
			}
			if err := checkFormat(f); err != nil {
				t.Error(err)
			}
		})
	}
}

var spanRE = regexp.MustCompile(` \[\d+,\d+\)`)

// structure is the Dump of f without spans.
func structure(f *syntax.File) string {
	return spanRE.ReplaceAllString(syntax.Dump(f), "")
}

func commentTexts(f *syntax.File) []string {
	var out []string
	for _, c := range f.Comments {
		out = append(out, string(cleanComment(f.Src[c.Pos:c.End])))
	}
	return out
}

type formatError struct{ msg string }

func (e *formatError) Error() string { return e.msg }

// checkFormat checks that formatting f keeps its meaning and comments, is
// idempotent, and leaves no trailing white space, CR or missing newline.
func checkFormat(f *syntax.File) error {
	out, err := Source(f)
	if err != nil {
		return err
	}
	g := syntax.Parse(f.Path, out)
	if len(g.Errors) > 0 {
		return &formatError{"formatted output has syntax errors: " + g.Errors[0].Code + " " + g.Errors[0].Msg + "\n" + string(out)}
	}
	if a, b := structure(f), structure(g); a != b {
		return &formatError{"formatting changed the tree:\n--- before\n" + a + "\n--- after\n" + b + "\n--- output\n" + string(out)}
	}
	if a, b := commentTexts(f), commentTexts(g); strings.Join(a, "\x00") != strings.Join(b, "\x00") {
		return &formatError{"formatting changed the comments:\n" + strings.Join(a, "\n") + "\n---\n" + strings.Join(b, "\n")}
	}
	again, err := Source(g)
	if err != nil {
		return err
	}
	if !bytes.Equal(again, out) {
		return &formatError{"formatting is not idempotent:\n--- once\n" + string(out) + "\n--- twice\n" + string(again)}
	}
	if len(out) > 0 && (out[len(out)-1] != '\n' || bytes.HasSuffix(out, []byte("\n\n"))) {
		return &formatError{"output does not end with exactly one newline"}
	}
	for i, line := range bytes.Split(out, []byte{'\n'}) {
		if len(bytes.TrimRight(line, " \t")) != len(line) {
			return &formatError{"trailing white space on line " + string(rune('0'+i%10))}
		}
	}
	if bytes.IndexByte(out, '\r') >= 0 && bytes.IndexByte(f.Src, '\r') < 0 {
		return &formatError{"output has a CR the input did not"}
	}
	return nil
}

func TestSyntaxErrorsRefused(t *testing.T) {
	f := syntax.Parse("bad.acore", []byte("page P {\n  state x Int\n}\n"))
	if _, err := Source(f); err == nil {
		t.Error("Source formatted a file with syntax errors")
	}
	if _, _, err := Check(f); err == nil {
		t.Error("Check formatted a file with syntax errors")
	}
}

func TestCheck(t *testing.T) {
	f := syntax.Parse("x.acore", []byte("page  P{view{Text( \"x\" )}}"))
	got, changed, err := Check(f)
	if err != nil {
		t.Fatal(err)
	}
	if !changed || string(got) != "page P { view { Text(\"x\") } }\n" {
		t.Errorf("Check = %q, %v", got, changed)
	}
	if _, changed, _ := Check(syntax.Parse("y.acore", got)); changed {
		t.Error("canonical source reported as changed")
	}
	if got, _ := Source(syntax.Parse("e.acore", nil)); len(got) != 0 {
		t.Errorf("empty file formats to %q", got)
	}
}
