package project_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
)

// DiagnosticsFrom gives, for edits that leave what other modules see
// unchanged, exactly the diagnostics of a whole compile of the same
// inputs; for the others it says so (ok false).
func TestDiagnosticsFrom(t *testing.T) {
	in, err := load.Load("../../../examples/reading-list")
	if err != nil {
		t.Fatal(err)
	}
	base := project.Compile(in)
	for _, d := range base.Result.Diagnostics {
		if d.Severity == diag.Error {
			t.Fatalf("the example has errors: %v", d)
		}
	}
	for _, c := range []struct {
		name, old, new string
		wantOK         bool
		file           string
	}{
		{"unknown name", `"Could not save the book: " + create.error_message`, `"Could not save the book: " + create.error_mesage`, true, ""},
		{"type error", `state title: String = ""`, `state title: String = 1`, true, ""},
		{"syntax error", `state author: String = ""`, `state author: String = (`, true, ""},
		{"unknown element", `Text("Could not save`, `Txet("Could not save`, true, ""},
		{"same text", "", "", true, ""},
		{"a new state others cannot see", `state author: String = ""`, "state author: String = \"\"\n  state extra: Int = 0", true, ""},
		{"a prop others pass, renamed", `on_delete: Action`, `on_remove: Action`, false, "components/book_row.acore"},
	} {
		file := "pages/add.acore"
		if c.file != "" {
			file = c.file
		}
		src := string(in.Data(file))
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(src, c.old) {
				t.Fatalf("%q is not in %s", c.old, file)
			}
			next, err := in.With(map[string][]byte{file: []byte(strings.Replace(src, c.old, c.new, 1))})
			if err != nil {
				t.Fatal(err)
			}
			got, ok := project.DiagnosticsFrom(base, next)
			if ok != c.wantOK {
				t.Fatalf("ok = %v, want %v", ok, c.wantOK)
			}
			if !ok {
				return
			}
			want := project.Compile(next).Result.Diagnostics
			if a, b := dump(got), dump(want); a != b {
				t.Errorf("recheck:\n%s\nwhole compile:\n%s", a, b)
			}
		})
	}
}

func dump(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s:%d:%d-%d %s %s %s\n", d.Path, d.Line, d.Column, d.End, d.Severity, d.Code, d.Message)
	}
	return b.String()
}

// Random one-byte edits of every source of the examples: wherever
// DiagnosticsFrom answers, it answers what a whole compile does.
func TestDiagnosticsFromRandomEdits(t *testing.T) {
	seed := time.Now().UnixNano()
	if s, err := strconv.ParseInt(os.Getenv("ACORE_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("seed %d (ACORE_SEED=%d repeats it)", seed, seed)
	r := rand.New(rand.NewPCG(uint64(seed), 0))
	for _, ex := range []string{"reading-list", "task-app"} {
		in, err := load.Load("../../../examples/" + ex)
		if err != nil {
			t.Fatal(err)
		}
		base := project.Compile(in)
		answered := 0
		for i := 0; i < 150; i++ {
			f := in.Sources[r.IntN(len(in.Sources))]
			at := r.IntN(len(f.Data))
			var data []byte
			if r.IntN(2) == 0 {
				data = append(append(append([]byte{}, f.Data[:at]...), "x({"[r.IntN(3)]), f.Data[at:]...)
			} else {
				data = append(append([]byte{}, f.Data[:at]...), f.Data[at+1:]...)
			}
			next, err := in.With(map[string][]byte{f.Path: data})
			if err != nil {
				t.Fatal(err)
			}
			got, ok := project.DiagnosticsFrom(base, next)
			if !ok {
				continue
			}
			answered++
			if a, b := dump(got), dump(project.Compile(next).Result.Diagnostics); a != b {
				t.Fatalf("%s, edit at %d of %s:\nrecheck:\n%s\nwhole compile:\n%s", ex, at, f.Path, a, b)
			}
		}
		t.Logf("%s: %d of 150 edits answered by the recheck", ex, answered)
	}
}
