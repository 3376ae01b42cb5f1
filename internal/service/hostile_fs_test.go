package service_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/publish"
)

// TestApplyRefusedForGood: the service's state or journal symlinked
// outside the root, and an immutable file, are conditions retrying cannot
// fix: permission_denied with a reason and retryable none, nothing written
// outside, the file untouched (issue 15: internal/same_request).
func TestApplyRefusedForGood(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(t *testing.T, dir, outside string) bool
		reason string
	}{
		{"journal symlinked outside", func(t *testing.T, dir, outside string) bool {
			return os.Symlink(outside, filepath.Join(dir, filepath.FromSlash(publish.JournalDir))) == nil
		}, "path_escape"},
		{"state symlinked outside", func(t *testing.T, dir, outside string) bool {
			state := filepath.Join(dir, filepath.FromSlash(publish.StateDir))
			return os.RemoveAll(state) == nil && os.Symlink(outside, state) == nil
		}, "path_escape"},
		{"immutable file", func(t *testing.T, dir, outside string) bool {
			main := filepath.Join(dir, "main.acore")
			if exec.Command("chattr", "+i", main).Run() != nil {
				return false
			}
			t.Cleanup(func() { exec.Command("chattr", "-i", main).Run() })
			return true
		}, "policy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, dir := taskApp(t)
			base := applyBase(t, s)
			after := renamed(t, dir)
			before := readFile(t, dir, "main.acore")
			cand := putCandidate(t, s, base, map[string]*string{"main.acore": &after}, false)
			outside := t.TempDir()
			if !c.setup(t, dir, outside) {
				t.Skip("cannot set the condition up here (chattr needs CAP_LINUX_IMMUTABLE and a file system with attributes)")
			}
			o := do(t, s, applyReq("a1", cand.ID, 1, ``))
			expect(t, o, "error.code", "permission_denied")
			expect(t, o, "error.reason", c.reason)
			expect(t, o, "error.retryable", "none")
			if readFile(t, dir, "main.acore") != before {
				t.Error("main.acore was written")
			}
			if list, _ := os.ReadDir(outside); len(list) > 0 {
				t.Errorf("written outside the root: %v", list)
			}
		})
	}
}
