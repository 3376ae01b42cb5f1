package project_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata")

// TestCheck runs each testdata/check/*.txtar project: its files are
// written to a fresh directory, prepared (unless the archive's comment
// says "no prepare"), compiled, and the diagnostics and semantic state
// compared with the archive's "want" section.
func TestCheck(t *testing.T) {
	files, _ := filepath.Glob("testdata/check/*.txtar")
	if len(files) == 0 {
		t.Fatal("no test projects")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			wantIdx := -1
			for i, f := range ar.Files {
				if f.Name == "want" {
					wantIdx = i
					continue
				}
				name, link := f.Name, ""
				// "symlink:<name>" makes <name> a symlink to the file's
				// first line ($OUTSIDE: a directory outside the root);
				// "quoted:<Go string>" names a file no txtar name can.
				if n, ok := strings.CutPrefix(name, "symlink:"); ok {
					name, link = n, strings.ReplaceAll(strings.TrimSpace(string(f.Data)), "$OUTSIDE", outsideDir(t))
				}
				if n, ok := strings.CutPrefix(name, "quoted:"); ok {
					if name, err = strconv.Unquote(n); err != nil {
						t.Fatal(err)
					}
				}
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if link != "" {
					err = os.Symlink(link, p)
				} else {
					err = os.WriteFile(p, f.Data, 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Contains(ar.Comment, []byte("no prepare")) {
				if _, err := prepare.Run(dir); err != nil {
					t.Fatalf("prepare: %v", err)
				}
			}
			p, err := project.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(render(p), dir, "$ROOT")
			if *update {
				if wantIdx < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantIdx = len(ar.Files) - 1
				}
				ar.Files[wantIdx].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantIdx < 0 {
				t.Fatal("no want section; run with -update")
			}
			if want := string(ar.Files[wantIdx].Data); got != want {
				t.Errorf("diagnostics differ\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}

// outsideDir is a directory outside the test project holding main.acore
// and page.acore, both valid sources.
func outsideDir(t *testing.T) string {
	dir := t.TempDir()
	for _, name := range []string{"main.acore", "page.acore"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("app A {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func render(p *project.Project) string {
	var b strings.Builder
	r := p.Result
	fmt.Fprintf(&b, "state %s, status %s\n", r.State, r.Status)
	for _, d := range r.Diagnostics {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]", d.Path, d.Line, d.Column, d.Severity, d.Message, d.Code)
		if d.Suggestion != "" {
			fmt.Fprintf(&b, " suggestion %s", d.Suggestion)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
