package devbackend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// TestReadArtifactChanged changes an artifact after it was opened and
// measured, before it is read: the read is the file as it was opened, or
// the compiler's AC506 saying it changed, never a mix of two versions.
func TestReadArtifactChanged(t *testing.T) {
	const old = "contract K {\n  model A { id: Int }\n}\n"
	const rel = lock.ContractDir + "/k.axiom"
	const changed = rel + `:1:1: "` + rel + `" was not read: ` + rel + ` changed while it was read [AC506]; replace it with the artifact ` + "`axiom prepare`" + ` writes`
	for _, tc := range []struct {
		name   string
		change func(p string) error
		want   string // the bytes read, else the error
	}{
		{"replaced by a rename", func(p string) error {
			if err := os.WriteFile(p+".new", []byte("contract L {}\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(p+".new", p)
		}, old},
		{"removed", os.Remove, old},
		{"rewritten shorter in place", func(p string) error { return os.WriteFile(p, []byte("contract K {}\n"), 0o644) }, changed},
		{"rewritten longer in place", func(p string) error {
			return os.WriteFile(p, []byte(old+"// and a comment that makes it longer\n"), 0o644)
		}, changed},
		{"rewritten in place at the same size", func(p string) error {
			if err := os.WriteFile(p, []byte(strings.Replace(old, "A", "B", 1)), 0o644); err != nil {
				return err
			}
			// A clock tick apart, as two writes by a person or a tool are.
			later := time.Now().Add(time.Second)
			return os.Chtimes(p, later, later)
		}, changed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := fsutil.OpenRoot(root)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			f, fi, err := r.OpenRegular(rel)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := tc.change(p); err != nil {
				t.Fatal(err)
			}
			data, err := readOpened(f, fi, rel)
			got := string(data)
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("read %q, want %q", got, tc.want)
			}
		})
	}
}
