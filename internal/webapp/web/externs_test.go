package web

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/platform/fsutil/swaptest"
	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// TestExternsRefused: web/externs.js is read as the loader reads a
// source. One that leads outside the project, through its own symlink or
// a symlinked web/, or that is not a regular file (a FIFO, a device) is
// not read and is reported with the compiler's AC506 beside the AC601 of
// each extern action; one over the bound is AC601. None of them hangs the
// build or is read into memory, and none is copied into the output.
func TestExternsRefused(t *testing.T) {
	const valid = "export function share() {}\nexport function track() {}\n"
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "externs.js"), []byte(valid), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := func(why string) []string {
		return []string{
			"main.acore:6:15: error: extern action share has no implementation: " + why + "; export a function share from it [AC601]",
			"main.acore:7:15: error: extern action track has no implementation: " + why + "; export a function track from it [AC601]",
		}
	}
	notRead := func(why string) []string {
		return append([]string{`web/externs.js:1:1: warning: "web/externs.js" was not read: ` + why + " [AC506]"}, errs(why)...)
	}
	for _, tc := range []struct {
		name string
		// setup replaces the project's web/externs.js; web/ is a real
		// directory without it.
		setup func(t *testing.T, dir string)
		want  []string // nil: the build succeeds with the valid module
	}{
		{"symlinked web/ outside the project", func(t *testing.T, dir string) {
			rm(t, filepath.Join(dir, "web"))
			ln(t, outside, filepath.Join(dir, "web"))
		}, notRead("web is a symlink, and symlinked directories are not followed")},
		{"symlinked web/ inside the project", func(t *testing.T, dir string) {
			rm(t, filepath.Join(dir, "web"))
			write(t, filepath.Join(dir, "frontend/externs.js"), valid)
			ln(t, "frontend", filepath.Join(dir, "web"))
		}, notRead("web is a symlink, and symlinked directories are not followed")},
		{"a symlink outside the project", func(t *testing.T, dir string) {
			ln(t, filepath.Join(outside, "externs.js"), filepath.Join(dir, "web/externs.js"))
		}, notRead("web/externs.js is a symlink that points outside the project root")},
		{"a relative symlink outside the project", func(t *testing.T, dir string) {
			rel, err := filepath.Rel(filepath.Join(dir, "web"), filepath.Join(outside, "externs.js"))
			if err != nil {
				t.Fatal(err)
			}
			ln(t, rel, filepath.Join(dir, "web/externs.js"))
		}, notRead("web/externs.js is a symlink that points outside the project root")},
		{"a symlink to /dev/zero", func(t *testing.T, dir string) {
			ln(t, "/dev/zero", filepath.Join(dir, "web/externs.js"))
		}, notRead("web/externs.js is a symlink that points outside the project root")},
		{"a dangling symlink", func(t *testing.T, dir string) {
			ln(t, "missing.js", filepath.Join(dir, "web/externs.js"))
		}, notRead("web/externs.js is a symlink that leads nowhere readable: statat web/externs.js: no such file or directory")},
		{"a FIFO", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "web/externs.js"), 0o644); err != nil {
				t.Skip("no FIFOs:", err)
			}
		}, notRead("web/externs.js is not a regular file")},
		{"a directory", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "web/externs.js"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, notRead("web/externs.js is not a regular file")},
		{"a sparse file of 600 MB", func(t *testing.T, dir string) {
			f, err := os.Create(filepath.Join(dir, "web/externs.js"))
			if err == nil {
				err = f.Truncate(600 << 20)
			}
			if err == nil {
				err = f.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
		}, errs("web/externs.js has 629145600 bytes, more than 1048576")},
		{"one byte over the bound", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "web/externs.js"), valid+strings.Repeat(" ", MaxExternsBytes+1-len(valid)))
		}, errs("web/externs.js has 1048577 bytes, more than 1048576")},
		{"a symlink inside the project", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "lib/externs.js"), valid)
			ln(t, "../lib/externs.js", filepath.Join(dir, "web/externs.js"))
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, "testdata/rich")
			rm(t, filepath.Join(dir, "web/externs.js"))
			tc.setup(t, dir)
			done := make(chan *Output, 1)
			go func() { done <- build1(t, dir) }()
			var out *Output
			select {
			case out = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("the build did not end within 30 s")
			}
			var got []string
			for _, d := range out.Diagnostics {
				if d.Code == "AC506" || d.Code == "AC601" {
					got = append(got, d.Path+":"+itoa(d.Line)+":"+itoa(d.Column)+": "+string(d.Severity)+": "+d.Message+" ["+d.Code+"]")
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			switch {
			case out.Failed != (tc.want != nil):
				t.Errorf("failed %v", out.Failed)
			case !out.Failed && string(out.Files["externs.js"]) != valid:
				t.Errorf("externs.js is %q, not the module", out.Files["externs.js"])
			}
		})
	}
}

// build1 is Build that reports its error to the test from any goroutine.
func build1(t *testing.T, dir string) *Output {
	out, err := Build(dir, Options{})
	if err != nil {
		t.Error(err)
		return &Output{Failed: true}
	}
	return out
}

func rm(t *testing.T, p string) {
	t.Helper()
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
}

func ln(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExternsRacingSwaps builds while web/externs.js, or web/, keeps
// being swapped for a symlink to an outside module, or for a FIFO: no
// build blocks, and none copies the outside module (a check of the path
// and a read of it later, as before, could be raced to either).
func TestExternsRacingSwaps(t *testing.T) {
	const inside = "export function share() {}\nexport function track() {}\n"
	outside := t.TempDir()
	write(t, filepath.Join(outside, "externs.js"), "export function share() { /* outside */ }\nexport function track() {}\n")
	for _, tc := range []struct {
		name string
		swap func(sw *swaptest.Swapper, dir string)
	}{
		{"file to symlink", func(sw *swaptest.Swapper, dir string) {
			sw.File(filepath.Join(dir, "web/externs.js"), inside, filepath.Join(outside, "externs.js"))
		}},
		{"web/ to symlink", func(sw *swaptest.Swapper, dir string) {
			write(t, filepath.Join(dir, "web/externs.js"), inside)
			sw.Dir(filepath.Join(dir, "web"), outside)
		}},
		{"file to FIFO", func(sw *swaptest.Swapper, dir string) {
			sw.FIFO(filepath.Join(dir, "web/externs.js"), inside)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, "testdata/rich")
			rm(t, filepath.Join(dir, "web/externs.js"))
			sw := swaptest.New(t)
			tc.swap(sw, dir)
			deadline := time.Now().Add(swaptest.Duration(t))
			builds, refused := 0, 0
			for time.Now().Before(deadline) {
				done := make(chan *Output, 1)
				go func() { done <- build1(t, dir) }()
				select {
				case out := <-done:
					builds++
					switch got := string(out.Files["externs.js"]); {
					case out.Failed:
						refused++
					case got != inside:
						t.Fatalf("build %d copied %q", builds, got)
					}
				case <-time.After(10 * time.Second):
					sw.Stop()
					t.Fatalf("build %d did not end within 10 s", builds+1)
				}
			}
			sw.Stop()
			t.Logf("%d builds against %d swaps: %d refused the swapped file, none read it", builds, sw.Swaps(), refused)
		})
	}
}

// TestExternsInChromium: an extern action runs in the page, for both forms
// of app.js: the bundle of axiom build keeps web/externs.js a module of
// its own and calls its export.
func TestExternsInChromium(t *testing.T) {
	dir := copyDir(t, "testdata/rich")
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	for _, min := range []bool{false, true} {
		t.Run(fmt.Sprintf("minified=%v", min), func(t *testing.T) {
			out, err := Build(dir, Options{Minify: min})
			if err != nil || out.Failed {
				t.Fatalf("build: %v %v", err, out.Diagnostics)
			}
			srv := serveBuild(t, out.Files, nil)
			p := browsertest.New(t)
			p.InitScript(`window.logs = []; const log = console.log; console.log = (...a) => { window.logs.push(a.join(" ")); log(...a); };`)
			p.Navigate(srv.URL + "/")
			p.WaitText("Notes: 0")
			p.Type("input[placeholder='New note']", "milk")
			p.Press("input[placeholder='New note']", "\r")
			p.WaitFor("the extern track ran", `window.logs.includes("track add 1")`)
		})
	}
}
