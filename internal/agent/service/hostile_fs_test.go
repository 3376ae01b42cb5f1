package service_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/publish"
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

// TestHostileFilesAreDiagnostics: files the loader cannot or must not read
// are diagnostics on those files; every request keeps working, and a BOM
// is not a syntax error (issue 15: each made requests fail with
// internal, or put the project in the syntax state).
func TestHostileFilesAreDiagnostics(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(t *testing.T, dir string)
		state   string
		message string // in some diagnostic
	}{
		{"names a path cannot hold", func(t *testing.T, dir string) {
			for _, name := range []string{"new\nline.acore", "tab\t.acore", "back\\slash.acore", "bad\xff.acore"} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte("module x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}, "validated", `"new\nline.acore" was not read`},
		{"byte order mark", func(t *testing.T, dir string) {
			main := filepath.Join(dir, "main.acore")
			b, _ := os.ReadFile(main)
			os.WriteFile(main, append([]byte("\uFEFF"), b...), 0o644)
		}, "validated", ""},
		{"main.acore symlinked outside", func(t *testing.T, dir string) {
			main, out := filepath.Join(dir, "main.acore"), filepath.Join(t.TempDir(), "main.acore")
			if err := os.Rename(main, out); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out, main); err != nil {
				t.Fatal(err)
			}
		}, "unavailable", "main.acore is a symlink that points outside the project root"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, dir := taskApp(t)
			c.setup(t, dir)
			o := do(t, s, v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+dir+`"}]}}`)
			expect(t, o, "result.projects.0.semantic_state", c.state)
			ws := s.WorkspaceID()
			o = do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "latest", "params": {"include": ["diagnostics"]}}`)
			if c.message != "" {
				found := false
				for _, d := range o.list("result.diagnostics") {
					if m, _ := d.(map[string]any)["message"].(string); strings.Contains(m, c.message) {
						found = true
					}
				}
				if !found {
					t.Errorf("no diagnostic says %q: %v", c.message, o.get("result.diagnostics"))
				}
			}
			o = do(t, s, v1+`"operation": "node.find", "workspace": "`+ws+`", "snapshot": "latest", "params": {"query": "Add", "limit": 5}}`)
			if o.get("error") != nil && o.str("error.code") == "internal" {
				t.Errorf("node.find: %v", o.get("error"))
			}
		})
	}
}
