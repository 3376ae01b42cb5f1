package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/axiomcore/acore/internal/axag"
)

// TestManifestNotRegular: a manifest that is a device (/dev/zero never
// ends), a FIFO (its open waits for a writer) or a directory, or that is
// over axag.MaxManifestBytes, is refused at once by every command that
// reads one.
func TestManifestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(axag.MaxManifestBytes + 1); err != nil { // sparse
		t.Fatal(err)
	}
	f.Close()
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "web")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ manifest, want string }{
		{"/dev/zero", "not a regular file (a device)"},
		{link, "not a regular file (a device)"},
		{fifo, "not a regular file (a FIFO)"},
		{dir, "not a regular file (a directory)"},
		{big, "more than the 16777216"},
	}
	for _, c := range cases {
		for _, args := range [][]string{
			{"validate", "--manifest", c.manifest},
			{"validate", src, "--manifest", c.manifest},
			{"tools", "--manifest", c.manifest, "--output", filepath.Join(dir, "out")},
		} {
			start := time.Now()
			_, stderr, code := axagRun(t, dir, args...)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("%v: %v", args, d)
			}
			if code != exitFail || !strings.Contains(stderr, c.want) {
				t.Errorf("%v: exit %d, %s", args, code, stderr)
			}
		}
	}
	// A web source that is a FIFO, named on the command line, is refused
	// the same way.
	page := filepath.Join(dir, "page.html")
	if err := syscall.Mkfifo(page, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := axagRun(t, dir, "validate", page); code != exitFail || !strings.Contains(stderr, "not a regular file (a FIFO)") {
		t.Errorf("exit %d, %s", code, stderr)
	}
}

// TestTextOutputIsPrintable: intents, attribute names, values and file
// names with escape sequences reach standard output escaped.
func TestTextOutputIsPrintable(t *testing.T) {
	dir := t.TempDir()
	esc := "\x1b]0;owned\x07\x1b[2J\u202e"
	src := `<b axag-intent="t.` + esc + `" axag-action-type="read"></b>` +
		`<b axag-intent="x.y` + esc + `" axag-action-type="delete" axag-risk-level="low"></b>` +
		`<p axag-` + esc + `="1"></p><script>`
	if err := os.WriteFile(filepath.Join(dir, "p"+esc+".html"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "m.json")
	if err := os.WriteFile(manifest, []byte(`{"version": "1.1.0", "actions": [{"intent": "a`+strings.ReplaceAll(strings.ReplaceAll(esc, "\x1b", `\u001b`), "\x07", `\u0007`)+`"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate", "."}, {"generate", ".", "--manifest", "-"}, {"validate", "--manifest", manifest},
		{"validate", ".", "--format", "github"}, {"validate", ".", "--level", "full", "--format", "github"}} {
		stdout, stderr, _ := axagRun(t, dir, args...)
		if !strings.Contains(stdout+stderr, `\x1b]0;owned`) {
			t.Errorf("%v: escapes not shown:\n%s%s", args, stdout, stderr)
		}
		if args[1] == "--manifest" || args[0] == "generate" {
			stdout = "" // the manifest itself is JSON
		}
		if i := strings.IndexFunc(stdout+stderr, func(r rune) bool { return r != '\n' && unicode.IsControl(r) || r == '\u202e' }); i >= 0 {
			t.Errorf("%v: a control character in the output:\n%q", args, stdout+stderr)
		}
	}
}
