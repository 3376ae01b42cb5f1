//go:build unix

package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRootConfines: reads through a Root refuse symlinks leading outside,
// FIFOs (without blocking) and directories, and writes through a symlinked
// folder never land outside.
func TestRootConfines(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
	os.WriteFile(filepath.Join(root, "a.acore"), []byte("a"), 0o644)
	os.Symlink("a.acore", filepath.Join(root, "in.acore"))
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "abs.acore"))
	os.Symlink("../"+filepath.Base(outside)+"/secret", filepath.Join(root, "rel.acore"))
	os.Symlink(outside, filepath.Join(root, "out"))
	os.Mkdir(filepath.Join(root, "dir"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.acore"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r, err := OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		rel  string
		want error // nil: reads "a"
	}{
		{"a.acore", nil},
		{"in.acore", nil},
		{"abs.acore", ErrEscape},
		{"rel.acore", ErrEscape},
		{"out/secret", ErrEscape},
		{"pipe.acore", ErrNotRegular},
		{"dir", ErrNotRegular},
		{"missing.acore", fs.ErrNotExist},
	} {
		data, err := r.ReadFile(c.rel)
		switch {
		case c.want == nil && (err != nil || string(data) != "a"):
			t.Errorf("%s: %q %v", c.rel, data, err)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%s: %v, want %v", c.rel, err, c.want)
		}
	}
	if err := r.WriteFileAtomic("out/new", []byte("x"), 0o644); !errors.Is(err, ErrEscape) {
		t.Errorf("write through a symlinked folder: %v", err)
	}
	if _, err := r.OpenDir("pipe.acore"); !errors.Is(err, ErrNotDir) {
		t.Errorf("OpenDir of a FIFO: %v", err)
	}
	if list, _ := os.ReadDir(outside); len(list) != 1 {
		t.Errorf("outside now holds %v", list)
	}
}
