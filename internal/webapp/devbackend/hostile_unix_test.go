//go:build unix

package devbackend

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileArtifacts puts in .axiom/dev/contracts what a cloned
// repository could ship: Open answers at once, each call of that contract
// answers 500 with the compiler's diagnostic for the file, and the other
// contracts keep working.
func TestHostileArtifacts(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.axiom")
	if err := os.WriteFile(outside, []byte("contract Evil {\n  model Secret { id: Int }\n  query list_secrets(): [Secret]\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const rel = ".axiom/dev/contracts/evil.axiom"
	const q = `\".axiom/dev/contracts/evil.axiom\" was not read: `
	for _, tc := range []struct {
		name string
		make func(p string) error
		want string
	}{
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) },
			rel + `:1:1: ` + q + rel + ` is not a regular file (a FIFO) [AC506]`},
		{"a symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) },
			rel + `:1:1: ` + q + rel + ` is a symlink that points outside the project root [AC506]`},
		{"a symlink to a contract outside the project", func(p string) error { return os.Symlink(outside, p) },
			rel + `:1:1: ` + q + rel + ` is a symlink that points outside the project root [AC506]`},
		{"a symlink to a FIFO inside the project", func(p string) error {
			fifo := filepath.Join(filepath.Dir(p), "pipe")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				return err
			}
			return os.Symlink("pipe", p)
		}, rel + `:1:1: ` + q + rel + ` is not a regular file (a FIFO) [AC506]`},
		{"a sparse file of 600 MB", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			if err := f.Truncate(600 << 20); err != nil {
				return err
			}
			return f.Close()
		}, rel + `:1:1: file_too_large: ` + rel + ` is 629145600 bytes, over the limit of 2097152 [AC153]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := taskApp(t)
			if err := tc.make(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				t.Fatal(err)
			}
			type opening struct {
				b   *Backend
				err error
			}
			opened := make(chan opening, 1)
			start := time.Now()
			go func() {
				b, err := Open(root)
				opened <- opening{b, err}
			}()
			var b *Backend
			select {
			case o := <-opened:
				if o.err != nil {
					t.Fatal(o.err)
				}
				b = o.b
			case <-time.After(20 * time.Second):
				t.Fatal("Open has not answered after 20 s")
			}
			t.Logf("Open answered in %v", time.Since(start))
			srv := httptest.NewServer(b)
			defer func() {
				srv.Close()
				b.Close()
			}()
			got := post(t, srv, "/evil/list_secrets", "{}", 500)
			want := `{"error":{"message":"contract evil cannot be used: ` + tc.want + `; replace it with the artifact ` + "`axiom prepare`" + ` writes"}}`
			if got != want {
				t.Errorf("list_secrets answered\n%s\nwant\n%s", got, want)
			}
			post(t, srv, "/tasks/list_tasks", "{}", 200)
		})
	}
}

// TestHostileContractDir puts a FIFO or a symlink out of the project in
// the place of .axiom/dev/contracts: Open fails at once and says why.
func TestHostileContractDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(p string) error
		want string
	}{
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) },
			"development backend: read contract artifacts: .axiom/dev/contracts: not a directory"},
		{"a symlink out of the project", func(p string) error { return os.Symlink(t.TempDir(), p) },
			"path escapes the project root"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := taskApp(t)
			dir := filepath.Join(root, ".axiom", "dev", "contracts")
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(dir); err != nil {
				t.Fatal(err)
			}
			opened := make(chan error, 1)
			go func() {
				b, err := Open(root)
				if err == nil {
					b.Close()
				}
				opened <- err
			}()
			select {
			case err := <-opened:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("Open: %v, want an error containing %q", err, tc.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Open has not answered after 20 s")
			}
		})
	}
}
