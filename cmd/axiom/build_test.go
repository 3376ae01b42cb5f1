package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// runAxiom runs axiom as a process (the test binary stands in for it, see
// TestMain) in dir and returns its exit status, stdout and stderr. A
// process that does not end within a minute fails the test.
func runAxiom(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "axiom", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("axiom %s did not end within a minute\nstderr: %s", strings.Join(args, " "), stderr.String())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// snapshot describes every entry under root without following symlinks
// or opening anything but regular files: its type and permissions, and
// the digest of a file's bytes or a symlink's target.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		switch {
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			desc += " " + hex.EncodeToString(sum[:])
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		}
		out[filepath.ToSlash(rel)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestBuildOutRefused: `axiom build P --out DIR` refuses every DIR it did
// not write, or may not replace, with status 1 and `axiom build: cannot
// write DIR: <why>`, and the whole tree around the project and DIR is the
// same after, entry for entry and byte for byte.
func TestBuildOutRefused(t *testing.T) {
	// prebuilt is a genuine previous build at dir, by the command itself.
	prebuilt := func(t *testing.T, work, dir string) {
		t.Helper()
		if code, _, stderr := runAxiom(t, work, "build", "P", "--out", dir); code != 0 {
			t.Fatalf("build --out %s: status %d\n%s", dir, code, stderr)
		}
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, work string)
		out   string
		why   string // $WORK is the work directory, symlinks resolved
	}{
		{"issue repro: a site with .git and src", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "site/index.html"), "x\n")
			writeFile(t, filepath.Join(work, "site/app.js"), "x\n")
			writeFile(t, filepath.Join(work, "site/src/main.ts"), "keep\n")
			writeFile(t, filepath.Join(work, "site/.git/HEAD"), "ref\n")
		}, "site", "it is not empty and holds no previous build (no .axiom-build.json); remove it or write the build elsewhere"},
		{"issue repro: the project with index.html and app.js", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "P/index.html"), "")
			writeFile(t, filepath.Join(work, "P/app.js"), "")
			writeFile(t, filepath.Join(work, "P/.git/HEAD"), "ref\n")
		}, "P", "it is the project itself; write the build to its dist/ (the default) or outside it"},
		{"a directory that contains the project", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "index.html"), "")
			writeFile(t, filepath.Join(work, "app.js"), "")
		}, ".", "it contains the project $WORK/P"},
		{"a missing directory in the project's sources", nil, "P/web/out", "it is inside the project $WORK/P, outside its dist/ and build/, where a build could replace sources"},
		{"a directory of the project's sources", nil, "P/contracts", "it is inside the project $WORK/P, outside its dist/ and build/, where a build could replace sources"},
		{"the project through a symlinked parent", func(t *testing.T, work string) {
			symlink(t, "P", filepath.Join(work, "alias"))
		}, "alias/contracts", "it is inside the project $WORK/P, outside its dist/ and build/, where a build could replace sources"},
		{"a symlink to a directory", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "elsewhere/keep.txt"), "keep\n")
			symlink(t, "elsewhere", filepath.Join(work, "site"))
		}, "site", "it is a symlink; --out names the directory itself, never a symlink to one"},
		{"a symlink to a previous build", func(t *testing.T, work string) {
			prebuilt(t, work, "real")
			symlink(t, "real", filepath.Join(work, "site"))
		}, "site", "it is a symlink; --out names the directory itself, never a symlink to one"},
		{"a symlink as the default dist", func(t *testing.T, work string) {
			prebuilt(t, work, "real")
			symlink(t, "../real", filepath.Join(work, "P/dist"))
		}, "P/dist", "it is a symlink; --out names the directory itself, never a symlink to one"},
		{"a file", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "site"), "keep\n")
		}, "site", "it is a file, not a directory"},
		{"a previous build with a file added", func(t *testing.T, work string) {
			prebuilt(t, work, "site")
			writeFile(t, filepath.Join(work, "site/notes.txt"), "keep\n")
		}, "site", "it holds notes.txt, which axiom build did not write"},
		{"a previous build with a directory added", func(t *testing.T, work string) {
			prebuilt(t, work, "site")
			if err := os.Mkdir(filepath.Join(work, "site/.git"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, "site", "it holds .git/, a directory axiom build did not write"},
		{"a previous build with a file added beside one it wrote", func(t *testing.T, work string) {
			prebuilt(t, work, "site")
			writeFile(t, filepath.Join(work, "site/.well-known/security.txt"), "keep\n")
		}, "site", "it holds .well-known/security.txt, which axiom build did not write"},
		{"a previous build with a file edited", func(t *testing.T, work string) {
			prebuilt(t, work, "site")
			writeFile(t, filepath.Join(work, "site/app.js"), "// mine\n")
		}, "site", "app.js changed since axiom build wrote it"},
		{"a previous build with a file edited to the same size", func(t *testing.T, work string) {
			prebuilt(t, work, "site")
			p := filepath.Join(work, "site/index.html")
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			data[0] ^= 1
			writeFile(t, p, string(data))
		}, "site", "index.html changed since axiom build wrote it"},
		{"a previous build with a symlink in it", func(t *testing.T, work string) {
			prebuilt(t, work, "site")
			symlink(t, "../P", filepath.Join(work, "site/.well-known/project"))
		}, "site", "it holds .well-known/project, a symlink, which axiom build never writes"},
		{"a previous build with a listed file replaced by a symlink", func(t *testing.T, work string) {
			prebuilt(t, work, "site")
			if err := os.Remove(filepath.Join(work, "site/app.css")); err != nil {
				t.Fatal(err)
			}
			symlink(t, "../P/main.acore", filepath.Join(work, "site/app.css"))
		}, "site", "it holds app.css, a symlink, which axiom build never writes"},
		{"a previous build with a FIFO in it", func(t *testing.T, work string) {
			prebuilt(t, work, "site")
			if err := syscall.Mkfifo(filepath.Join(work, "site/app.css"+".pipe"), 0o644); err != nil {
				t.Skip("no FIFOs:", err)
			}
		}, "site", "it holds app.css.pipe, which axiom build did not write"},
		{"a marker that is a FIFO", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "site/index.html"), "x\n")
			if err := syscall.Mkfifo(filepath.Join(work, "site/.axiom-build.json"), 0o644); err != nil {
				t.Skip("no FIFOs:", err)
			}
		}, "site", "its .axiom-build.json is a FIFO, which axiom build never writes"},
		{"a marker that is a symlink to a previous build's", func(t *testing.T, work string) {
			prebuilt(t, work, "real")
			writeFile(t, filepath.Join(work, "site/index.html"), "x\n")
			symlink(t, "../real/.axiom-build.json", filepath.Join(work, "site/.axiom-build.json"))
		}, "site", "its .axiom-build.json is a symlink, which axiom build never writes"},
		{"a marker that is not one", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "site/index.html"), "x\n")
			writeFile(t, filepath.Join(work, "site/.axiom-build.json"), `{"format": "axiom-build/1", "files": [], "extra": 1}`)
		}, "site", `its .axiom-build.json is no build marker: json: unknown field "extra"`},
		{"a marker of another format", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "site/.axiom-build.json"), `{"format": "other/1", "files": []}`)
		}, "site", `its .axiom-build.json is no build marker: format "other/1", want "axiom-build/1"`},
		{"a marker listing a path outside", func(t *testing.T, work string) {
			writeFile(t, filepath.Join(work, "site/.axiom-build.json"), `{"format": "axiom-build/1", "files": [{"path": "../P/main.acore", "size": 1, "sha256": "`+strings.Repeat("0", 64)+`"}]}`)
		}, "site", `its .axiom-build.json is no build marker: invalid path "../P/main.acore": ".." segment 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := scaffold.New(filepath.Join(work, "P")); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, work)
			}
			before := snapshot(t, work)
			code, stdout, stderr := runAxiom(t, work, "build", "P", "--out", tc.out)
			want := fmt.Sprintf("axiom build: cannot write %s: %s\n", tc.out, strings.ReplaceAll(tc.why, "$WORK", work))
			if code != exitFail || stderr != want || stdout != "" {
				t.Errorf("status %d, stderr:\n%s\nwant status 1 and:\n%s\nstdout:\n%s", code, stderr, want, stdout)
			}
			if after := snapshot(t, work); !reflect.DeepEqual(before, after) {
				t.Errorf("the tree changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}
