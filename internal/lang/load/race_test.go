//go:build unix

package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/platform/fsutil/swaptest"
)

const secret = "SECRET-OUTSIDE-THE-ROOT"

// outsideTree is a directory outside every project root, holding a file
// and a directory of sources whose content is the secret.
func outsideTree(t *testing.T) (file, dir string) {
	t.Helper()
	out := tree(t, map[string]string{"secret.acore": secret, "dir/leak.acore": secret, "dir/x.axiom": secret})
	return filepath.Join(out, "secret.acore"), filepath.Join(out, "dir")
}

func leaked(in *Inputs) string {
	for _, list := range [][]File{in.Sources, in.Contracts, in.ContractSources} {
		for _, f := range list {
			if strings.Contains(string(f.Data), secret) {
				return f.Path
			}
		}
	}
	return ""
}

// TestLoadRacingSymlinkSwaps loads a project while a file and a directory
// in it keep being swapped for symlinks to files outside the root: no load
// ever returns an outside file's content (issue 15: 32 of 1,500 node.find
// calls did, when the loader checked a path and opened it later).
func TestLoadRacingSymlinkSwaps(t *testing.T) {
	root := tree(t, map[string]string{"main.acore": "app A {}", "sub/leak.acore": "inside", "contracts/c.axiom": "inside"})
	outFile, outDir := outsideTree(t)
	sw := swaptest.New(t)
	sw.File(filepath.Join(root, "leak.acore"), "inside", outFile)
	sw.Dir(filepath.Join(root, "sub"), outDir)
	sw.Dir(filepath.Join(root, "contracts"), outDir)
	deadline := time.Now().Add(swaptest.Duration(t))
	loads, outside := 0, 0
	for time.Now().Before(deadline) {
		in, err := Load(root)
		loads++
		if err != nil {
			continue // a name missing halfway through a swap
		}
		if p := leaked(in); p != "" {
			outside++
			t.Errorf("load %d read %s from outside the root", loads, p)
		}
		for _, s := range in.Skipped {
			if s.Reason != SkipOutside && s.Reason != SkipNotRegular {
				t.Errorf("skipped %+v", s)
			}
		}
	}
	sw.Stop()
	t.Logf("%d loads against %d swaps: %d read from outside", loads, sw.Swaps(), outside)
}

// TestLoadRacingFIFOSwaps loads a project while a source keeps being
// swapped for a FIFO: no load blocks (issue 15: 9 of 150 requests blocked
// until the timeout, leaving a thread stuck in open).
func TestLoadRacingFIFOSwaps(t *testing.T) {
	root := tree(t, map[string]string{"main.acore": "app A {}"})
	sw := swaptest.New(t)
	sw.FIFO(filepath.Join(root, "pipe.acore"), "inside")
	deadline := time.Now().Add(swaptest.Duration(t))
	loads, fifos := 0, 0
	for time.Now().Before(deadline) {
		done := make(chan *Inputs, 1)
		go func() {
			in, _ := Load(root)
			done <- in
		}()
		select {
		case in := <-done:
			loads++
			if in != nil && len(in.Skipped) > 0 {
				fifos++
			}
		case <-time.After(5 * time.Second):
			sw.Stop()
			// Unblock the stuck open so the test process can end.
			if f, err := os.OpenFile(filepath.Join(root, "pipe.acore"), os.O_WRONLY|fsutilNonblock, 0); err == nil {
				f.Close()
			}
			t.Fatalf("load %d blocked for 5 s on a FIFO", loads+1)
		}
	}
	sw.Stop()
	t.Logf("%d loads against %d FIFO swaps: none blocked; %d met the FIFO and skipped it", loads, sw.Swaps(), fifos)
}

// TestLoadListsSkippedFiles: a symlink outside, a FIFO and names the
// protocol cannot address are skipped and listed; the rest of the project
// loads (issue 15: one such name made every request fail).
func TestLoadListsSkippedFiles(t *testing.T) {
	root := tree(t, map[string]string{"main.acore": "app A {}"})
	outFile, _ := outsideTree(t)
	symlink(t, outFile, filepath.Join(root, "out.acore"))
	if err := mkfifo(filepath.Join(root, "pipe.acore")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, name := range []string{"new\nline.acore", "tab\t.acore", "back\\slash.acore", "bad\xff.acore"} {
		write(t, filepath.Join(root, name), "x")
	}
	in, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(in.Sources); len(got) != 1 || got[0] != "main.acore" {
		t.Errorf("Sources = %q", got)
	}
	want := map[string]string{
		"back\\slash.acore": SkipBadName, "bad\xff.acore": SkipBadName, "new\nline.acore": SkipBadName,
		"out.acore": SkipOutside, "pipe.acore": SkipNotRegular, "tab\t.acore": SkipBadName,
	}
	if len(in.Skipped) != len(want) {
		t.Errorf("Skipped = %+v", in.Skipped)
	}
	for _, s := range in.Skipped {
		if want[s.Path] != s.Reason || s.Detail == "" {
			t.Errorf("skipped %q: %s (%s), want %s", s.Path, s.Reason, s.Detail, want[s.Path])
		}
	}
}
