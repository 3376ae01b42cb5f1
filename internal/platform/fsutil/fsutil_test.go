package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidRelPath(t *testing.T) {
	tests := []struct {
		path string
		want string // substring of the error; "" means valid
	}{
		{"main.acore", ""},
		{"pages/home.acore", ""},
		{".axiom/ui.lock", ""},
		{".axiom/dev/contracts/tasks.axiom", ""},
		{"a/b/c/d.e.f", ""},
		{"ünïcode/файл.acore", ""},
		{"...", ""}, // only "." and ".." are special
		{strings.Repeat("a", 1024), ""},
		{"", "empty"},
		{strings.Repeat("a", 1025), "longer than 1024"},
		{"/etc/passwd", "leading slash"},
		{"a//b", "empty segment 2"},
		{"a/", "empty segment 2"},
		{"./a", `"." segment 1`},
		{"a/./b", `"." segment 2`},
		{"..", `".." segment 1`},
		{"a/../b", `".." segment 2`},
		{`a\b`, "backslash"},
		{`..\x`, "backslash"},
		{"a\x00b", "control character 0x00"},
		{"a\nb", "control character 0x0a"},
		{"a\x1fb", "control character 0x1f"},
		{"a\x7fb", "control character 0x7f"},
		{"a\xffb", "not valid UTF-8"},
	}
	for _, tt := range tests {
		err := ValidRelPath(tt.path)
		if tt.want == "" {
			if err != nil {
				t.Errorf("ValidRelPath(%q) = %v, want nil", tt.path, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ValidRelPath(%q) = %v, want error containing %q", tt.path, err, tt.want)
		}
	}
}

// realTempDir returns a temp dir with symlinks resolved, since on some
// systems the temp dir itself sits behind a symlink.
func realTempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestResolve(t *testing.T) {
	outside := realTempDir(t)
	root := realTempDir(t)
	mustMkdir(t, filepath.Join(root, "src"))
	mustWrite(t, filepath.Join(root, "src", "main.acore"), "x")
	mustWrite(t, filepath.Join(root, "file"), "x")
	mustSymlink(t, "src", filepath.Join(root, "insidelink"))
	mustSymlink(t, outside, filepath.Join(root, "outlink"))
	mustSymlink(t, filepath.Join(outside, "secret"), filepath.Join(root, "outfile"))
	mustSymlink(t, "nowhere", filepath.Join(root, "dangling"))
	mustSymlink(t, ".", filepath.Join(root, "self"))
	mustSymlink(t, "..", filepath.Join(root, "src", "up"))
	mustSymlink(t, "../../..", filepath.Join(root, "src", "upup"))

	tests := []struct {
		rel     string
		want    string // expected result relative to root
		escape  bool
		errWant string
	}{
		{rel: "src/main.acore", want: "src/main.acore"},
		{rel: "src/new/deep/file.acore", want: "src/new/deep/file.acore"},
		{rel: "missing", want: "missing"},
		{rel: "insidelink/main.acore", want: "src/main.acore"},
		{rel: "insidelink/new.acore", want: "src/new.acore"},
		{rel: "self", want: "."},
		{rel: "self/src/main.acore", want: "src/main.acore"},
		{rel: "src/up/file", want: "file"},
		{rel: "outlink", escape: true},
		{rel: "outlink/new.acore", escape: true},
		{rel: "outfile", escape: true}, // dangling target outside: still an escape
		{rel: "src/upup", escape: true},
		{rel: "src/upup/x", escape: true},
		{rel: "dangling", escape: true},
		{rel: "dangling/x", escape: true},
		{rel: "file/x", errWant: "not a directory"},
		{rel: "../../x", errWant: `".." segment`},
		{rel: "/abs", errWant: "leading slash"},
	}
	for _, tt := range tests {
		got, err := Resolve(root, tt.rel)
		switch {
		case tt.escape:
			if !errors.Is(err, ErrEscape) {
				t.Errorf("Resolve(%q) = %q, %v; want ErrEscape", tt.rel, got, err)
			}
		case tt.errWant != "":
			if err == nil || !strings.Contains(err.Error(), tt.errWant) || errors.Is(err, ErrEscape) {
				t.Errorf("Resolve(%q) = %q, %v; want error containing %q", tt.rel, got, err, tt.errWant)
			}
		default:
			want := filepath.Join(root, filepath.FromSlash(tt.want))
			if err != nil || got != want {
				t.Errorf("Resolve(%q) = %q, %v; want %q", tt.rel, got, err, want)
			}
		}
	}
}

func TestResolveSymlinkedRoot(t *testing.T) {
	realDir := realTempDir(t)
	mustMkdir(t, filepath.Join(realDir, "a"))
	link := filepath.Join(realTempDir(t), "rootlink")
	mustSymlink(t, realDir, link)

	got, err := Resolve(link, "a/b")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(realDir, "a", "b"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestResolveMissingRoot(t *testing.T) {
	_, err := Resolve(filepath.Join(t.TempDir(), "nope"), "a")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v, want ErrNotExist", err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(t *testing.T, dir string)
		rel      string
		data     string
		perm     os.FileMode
		hookErr  error
		wantErr  bool
		wantData string // content expected at rel afterwards ("" = check absent when wantErr)
	}{
		{name: "create", rel: "f.txt", data: "hello", perm: 0o644, wantData: "hello"},
		{name: "create parents", rel: "a/b/c/f.txt", data: "deep", perm: 0o644, wantData: "deep"},
		{name: "empty data", rel: "empty", data: "", perm: 0o600, wantData: ""},
		{
			name:     "replace",
			setup:    func(t *testing.T, dir string) { mustWrite(t, filepath.Join(dir, "f.txt"), "old") },
			rel:      "f.txt",
			data:     "new",
			perm:     0o640,
			wantData: "new",
		},
		{
			name:     "failure keeps original",
			setup:    func(t *testing.T, dir string) { mustWrite(t, filepath.Join(dir, "f.txt"), "original") },
			rel:      "f.txt",
			data:     "never seen",
			perm:     0o644,
			hookErr:  errors.New("injected failure"),
			wantErr:  true,
			wantData: "original",
		},
		{
			name:     "target is a directory",
			setup:    func(t *testing.T, dir string) { mustMkdir(t, filepath.Join(dir, "d", "sub")) },
			rel:      "d",
			data:     "x",
			perm:     0o644,
			wantErr:  true,
			wantData: "<dir>",
		},
		{
			name:    "parent is a file",
			setup:   func(t *testing.T, dir string) { mustWrite(t, filepath.Join(dir, "p"), "file") },
			rel:     "p/f.txt",
			data:    "x",
			perm:    0o644,
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := realTempDir(t)
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			if tt.hookErr != nil {
				testHookBeforeRename = func(string) error { return tt.hookErr }
				t.Cleanup(func() { testHookBeforeRename = nil })
			}
			target := filepath.Join(dir, filepath.FromSlash(tt.rel))
			err := WriteFileAtomic(target, []byte(tt.data), tt.perm)
			if (err != nil) != tt.wantErr {
				t.Fatalf("WriteFileAtomic err = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.hookErr != nil && !errors.Is(err, tt.hookErr) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.hookErr)
			}
			switch {
			case tt.wantData == "<dir>":
				if fi, err := os.Stat(target); err != nil || !fi.IsDir() {
					t.Errorf("directory target disturbed: %v", err)
				}
			case tt.wantErr && tt.wantData == "":
			default:
				got, err := os.ReadFile(target)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != tt.wantData {
					t.Errorf("content = %q, want %q", got, tt.wantData)
				}
				if !tt.wantErr {
					fi, err := os.Stat(target)
					if err != nil {
						t.Fatal(err)
					}
					if fi.Mode().Perm() != tt.perm {
						t.Errorf("perm = %v, want %v", fi.Mode().Perm(), tt.perm)
					}
				}
			}
			assertNoTemp(t, dir)
		})
	}
}

// assertNoTemp fails if any temp file is left anywhere under dir.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temp file left behind: %s", p)
		}
		return nil
	})
}

func TestWriteFileAtomicReplacesSymlinkNotTarget(t *testing.T) {
	// Rename replaces the directory entry; it must not write through a
	// symlink at the target path (callers resolve first if they mean to).
	dir := realTempDir(t)
	victim := filepath.Join(dir, "victim")
	mustWrite(t, victim, "keep")
	link := filepath.Join(dir, "link")
	mustSymlink(t, victim, link)
	if err := WriteFileAtomic(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep" {
		t.Errorf("symlink target modified: %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink != 0 {
		t.Errorf("link not replaced by a regular file: %v", err)
	}
}

func FuzzValidRelPath(f *testing.F) {
	for _, s := range []string{"main.acore", "a/b", "../../x", "a//b", "/a", `a\b`, "a\x00", ".axiom/ui.lock"} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, p string) {
		if ValidRelPath(p) != nil {
			return
		}
		// A valid path joined under a root never leaves it lexically.
		j := filepath.Join(root, filepath.FromSlash(p))
		if !within(root, j) || j == root {
			t.Fatalf("valid path %q joins to %q outside %q", p, j, root)
		}
		if filepath.ToSlash(filepath.Clean(filepath.FromSlash(p))) != p {
			t.Fatalf("valid path %q is not clean", p)
		}
	})
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func TestReplaceFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b.json")
	for _, content := range []string{"first", "second, longer"} {
		if err := ReplaceFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want 0600", fi.Mode().Perm())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), ".*tmp*")); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}

// Escapes names paths that leave the root: absolute, drive-lettered or
// with a .. segment, with either slash.
func TestEscapes(t *testing.T) {
	for p, want := range map[string]bool{"a/b.acore": false, "/etc/passwd": true, `\x`: true, "C:/x": true, "a/../../b": true, `a\..\b`: true, "a..b/c": false} {
		if got := Escapes(p); got != want {
			t.Errorf("Escapes(%q) = %v, want %v", p, got, want)
		}
	}
}

// A spare is created empty, then written under its name with the spare's
// mode, and leaves nothing behind when used or discarded.
func TestSpare(t *testing.T) {
	dir := realTempDir(t)
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, content := range []string{"first", "second, longer"} {
		sp, err := r.CreateSpare("a/b", 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if err := sp.Replace("c.json", []byte(content)); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "a", "b", "c.json")
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want 0600", fi.Mode().Perm())
		}
	}
	sp, err := r.CreateSpare("a/b", 0o600)
	if err != nil {
		t.Fatal(err)
	}
	sp.Discard()
	for _, name := range []string{"../../c.json", "d/c.json", ""} {
		sp, err := r.CreateSpare("a/b", 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if err := sp.Replace(name, []byte("x")); err == nil {
			t.Errorf("Replace(%q) wrote outside the spare's directory", name)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "a", "b", ".*")); len(left) > 0 {
		t.Errorf("spares left: %v", left)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "a", "*.json")); len(left) > 0 {
		t.Errorf("written outside the spare's directory: %v", left)
	}
	outside := realTempDir(t)
	mustSymlink(t, outside, filepath.Join(dir, "out"))
	if _, err := r.CreateSpare("out", 0o600); err == nil {
		t.Error("a spare was created through a symlink out of the root")
	}
	if left, _ := os.ReadDir(outside); len(left) > 0 {
		t.Errorf("files outside the root: %v", left)
	}
}
