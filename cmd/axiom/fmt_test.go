package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

const (
	unformatted = "app A { route \"/\" => Home }\npage Home {\nview {  Text(\"hi\") }\n}\n"
	formatted   = "app A { route \"/\" => Home }\n\npage Home {\n  view { Text(\"hi\") }\n}\n"
)

// The scripts cannot see file modes or symlinks portably; these tests can.

func TestFmtKeepsMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.acore")
	if err := os.WriteFile(p, []byte(unformatted), 0o600); err != nil {
		t.Fatal(err)
	}
	// WriteFile is subject to the umask; set the mode we test for.
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := run([]string{"fmt", p}, &out, io.Discard); code != exitOK {
		t.Fatalf("exit status %d", code)
	}
	if out.String() != p+"\n" {
		t.Errorf("stdout %q, want the path", out.String())
	}
	assertFile(t, p, formatted)
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v after fmt, want 0640", fi.Mode().Perm())
	}
}

func TestFmtSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.acore")
	if err := os.WriteFile(real, []byte(unformatted), 0o644); err != nil {
		t.Fatal(err)
	}
	walked := filepath.Join(dir, "walked")
	if err := os.Mkdir(walked, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(walked, "link.acore")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks:", err)
	}

	// A walk does not follow symlinks: they may lead out of the tree.
	if code := run([]string{"fmt", walked}, io.Discard, io.Discard); code != exitOK {
		t.Fatalf("fmt %s: exit status %d", walked, code)
	}
	assertFile(t, real, unformatted)

	// A symlink named on the command line formats its target and stays
	// a symlink.
	if code := run([]string{"fmt", link}, io.Discard, io.Discard); code != exitOK {
		t.Fatalf("fmt %s: exit status %d", link, code)
	}
	assertFile(t, real, formatted)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symlink (%v)", link, err)
	}
}

func assertFile(t *testing.T, p, want string) {
	t.Helper()
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s:\n%s\nwant:\n%s", p, got, want)
	}
}
