package load

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/reason"
)

// tree creates files (path -> content) under a fresh real temp dir.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, s := range files {
		write(t, filepath.Join(root, filepath.FromSlash(p)), s)
	}
	return root
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func paths(fs []File) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Path)
	}
	return out
}

func TestLoadLayout(t *testing.T) {
	root := tree(t, map[string]string{
		"main.acore":                          "module m",
		"pages/home.acore":                    "page Home {}",
		"a.acore":                             "a",
		"a-b.acore":                           "ab",
		"a/z.acore":                           "az",
		".hidden.acore":                       "dotfile, not a dot dir",
		"README.md":                           "ignored",
		"main.acore.bak":                      "ignored",
		".git/x.acore":                        "skipped",
		".axiom/state/x.acore":                "skipped",
		"node_modules/pkg/x.acore":            "skipped",
		"dist/x.acore":                        "skipped",
		"pages/build/x.acore":                 "skipped at any depth",
		"contracts/tasks.axiom":               "contract Tasks {}",
		"contracts/sub/billing.axiom":         "contract Billing {}",
		"contracts/notes.txt":                 "ignored",
		"other/tasks.axiom":                   "not under contracts/",
		".axiom/dev/contracts/tasks.axiom":    "artifact",
		".axiom/dev/contracts/readme.txt":     "ignored",
		".axiom/dev/contracts/.old/x.axiom":   "skipped",
		".axiom/ui.lock":                      "{}",
		".axiom/dev/contracts/auth.axiom":     "artifact 2",
		"src/contracts/nested.axiom":          "not the root contracts/",
		"contracts/x.acore":                   "a source, wherever it is",
		".axiom/dev/contracts/ignored.acore":  "not a contract",
		".axiom/dev/contracts/sub/more.axiom": "nested artifact",
	})
	in, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if in.Root != root {
		t.Errorf("Root = %q, want %q", in.Root, root)
	}
	wantSources := []string{".hidden.acore", "a-b.acore", "a.acore", "a/z.acore", "contracts/x.acore", "main.acore", "pages/home.acore"}
	if got := paths(in.Sources); !slices.Equal(got, wantSources) {
		t.Errorf("Sources = %q\nwant      %q", got, wantSources)
	}
	wantContracts := []string{".axiom/dev/contracts/auth.axiom", ".axiom/dev/contracts/sub/more.axiom", ".axiom/dev/contracts/tasks.axiom"}
	if got := paths(in.Contracts); !slices.Equal(got, wantContracts) {
		t.Errorf("Contracts = %q, want %q", got, wantContracts)
	}
	wantCS := []string{"contracts/sub/billing.axiom", "contracts/tasks.axiom"}
	if got := paths(in.ContractSources); !slices.Equal(got, wantCS) {
		t.Errorf("ContractSources = %q, want %q", got, wantCS)
	}
	if in.Lock == nil || in.Lock.Path != ".axiom/ui.lock" || string(in.Lock.Data) != "{}" {
		t.Errorf("Lock = %+v", in.Lock)
	}
	for _, f := range in.Sources {
		sum := sha256.Sum256(f.Data)
		if f.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: SHA256 = %s", f.Path, f.SHA256)
		}
	}
	if f := in.Sources[len(in.Sources)-1]; string(f.Data) != "page Home {}" {
		t.Errorf("%s data = %q", f.Path, f.Data)
	}
}

func TestLoadNoLockNoContracts(t *testing.T) {
	root := tree(t, map[string]string{"main.acore": "x"})
	in, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if in.Lock != nil || len(in.Contracts) != 0 || len(in.ContractSources) != 0 || len(in.Sources) != 1 {
		t.Errorf("got %+v", in)
	}
}

func TestLoadRoot(t *testing.T) {
	root := tree(t, map[string]string{"main.acore": "x", "file": "x"})
	link := filepath.Join(t.TempDir(), "link")
	symlink(t, root, link)
	in, err := Load(link)
	if err != nil {
		t.Fatal(err)
	}
	if in.Root != root {
		t.Errorf("Root = %q, want resolved %q", in.Root, root)
	}
	if _, err := Load(filepath.Join(root, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing root: %v, want ErrNotExist", err)
	}
	if _, err := Load(filepath.Join(root, "file")); err == nil {
		t.Errorf("file as root accepted")
	}
}

func TestLoadSymlinks(t *testing.T) {
	outside := tree(t, map[string]string{
		"secret.acore":         "outside",
		"lib/x.acore":          "outside dir",
		"contracts/evil.axiom": "outside contract source",
	})
	root := tree(t, map[string]string{
		"main.acore":           "main",
		"real/shared.acore":    "shared",
		"contracts/a.axiom":    "a",
		"node_modules/m.acore": "module file, target of a link",
	})
	symlink(t, "real/shared.acore", filepath.Join(root, "alias.acore"))                     // inside: read
	symlink(t, "../node_modules/m.acore", filepath.Join(root, "pages/m.acore"))             // inside a skipped dir, still inside: read
	symlink(t, filepath.Join(outside, "secret.acore"), filepath.Join(root, "secret.acore")) // outside: skipped
	symlink(t, "real", filepath.Join(root, "linkdir"))                                      // symlinked dir: not followed
	symlink(t, filepath.Join(outside, "lib"), filepath.Join(root, "lib"))                   // symlinked dir outside: not followed
	symlink(t, "nowhere.acore", filepath.Join(root, "dangling.acore"))                      // dangling: skipped
	symlink(t, "loop.acore", filepath.Join(root, "loop.acore"))                             // loop: skipped
	symlink(t, "real", filepath.Join(root, "dir.acore"))                                    // a dir named .acore: skipped
	symlink(t, filepath.Join(outside, "contracts/evil.axiom"), filepath.Join(root, "contracts/evil.axiom"))

	in, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"alias.acore", "main.acore", "pages/m.acore", "real/shared.acore"}
	if got := paths(in.Sources); !slices.Equal(got, want) {
		t.Errorf("Sources = %q, want %q", got, want)
	}
	if got := paths(in.ContractSources); !slices.Equal(got, []string{"contracts/a.axiom"}) {
		t.Errorf("ContractSources = %q", got)
	}
	if string(in.Sources[0].Data) != "shared" {
		t.Errorf("alias.acore data = %q", in.Sources[0].Data)
	}
}

func TestLoadSymlinkedAxiomDirs(t *testing.T) {
	outside := tree(t, map[string]string{
		"ui.lock":                  "outside lock",
		"dev/contracts/evil.axiom": "outside artifact",
		"contracts/evil2.axiom":    "outside artifact 2",
	})
	for _, tc := range []struct {
		name string
		link string // symlinked project path
		to   string // target under outside
	}{
		{"axiom dir", ".axiom", ""},
		{"dev dir", ".axiom/dev", "dev"},
		{"contracts dir", ".axiom/dev/contracts", "contracts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, map[string]string{"main.acore": "x", ".axiom/keep": ""})
			os.Remove(filepath.Join(root, ".axiom/keep"))
			if tc.link == ".axiom" {
				os.Remove(filepath.Join(root, ".axiom"))
			}
			symlink(t, filepath.Join(outside, tc.to), filepath.Join(root, filepath.FromSlash(tc.link)))
			in, err := Load(root)
			if err != nil {
				t.Fatal(err)
			}
			if len(in.Contracts) != 0 || in.Lock != nil {
				t.Errorf("followed symlinked %s: contracts %q, lock %v", tc.link, paths(in.Contracts), in.Lock)
			}
		})
	}

	t.Run("lock symlink", func(t *testing.T) {
		root := tree(t, map[string]string{"main.acore": "x", "store/lock.json": "inside"})
		symlink(t, "../store/lock.json", filepath.Join(root, ".axiom/ui.lock"))
		in, err := Load(root)
		if err != nil {
			t.Fatal(err)
		}
		if in.Lock == nil || string(in.Lock.Data) != "inside" {
			t.Errorf("lock symlinked inside the root not read: %+v", in.Lock)
		}
		os.Remove(filepath.Join(root, ".axiom/ui.lock"))
		symlink(t, filepath.Join(outside, "ui.lock"), filepath.Join(root, ".axiom/ui.lock"))
		if in, err = Load(root); err != nil || in.Lock != nil {
			t.Errorf("lock symlinked outside the root: %+v, %v", in.Lock, err)
		}
	})
}

func TestLoadLimits(t *testing.T) {
	big := strings.Repeat("x", 100)
	many := map[string]string{}
	for i := range 5 {
		many[filepath.Join("m", string(rune('a'+i))+".acore")] = "x"
	}
	tests := []struct {
		name   string
		files  map[string]string
		lim    Limits
		reason reason.Reason
		path   string
		limit  int64
		got    int64
	}{
		{
			name:   "source file too large",
			files:  map[string]string{"main.acore": "x", "pages/big.acore": big},
			lim:    Limits{SourceFileBytes: 99},
			reason: reason.FileTooLarge, path: "pages/big.acore", limit: 99, got: 100,
		},
		{
			name:  "exactly at the file limit",
			files: map[string]string{"big.acore": big},
			lim:   Limits{SourceFileBytes: 100},
		},
		{
			name:   "contract artifact too large",
			files:  map[string]string{"main.acore": "x", ".axiom/dev/contracts/t.axiom": big},
			lim:    Limits{SourceFileBytes: 50},
			reason: reason.FileTooLarge, path: ".axiom/dev/contracts/t.axiom", limit: 50, got: 100,
		},
		{
			name:   "lock too large",
			files:  map[string]string{"main.acore": "x", ".axiom/ui.lock": big},
			lim:    Limits{SourceFileBytes: 50},
			reason: reason.FileTooLarge, path: ".axiom/ui.lock", limit: 50, got: 100,
		},
		{
			name:   "too many modules",
			files:  many,
			lim:    Limits{SourceFiles: 4},
			reason: reason.TooManyModules, path: "m/e.acore", limit: 4, got: 5,
		},
		{
			name:  "exactly at the module limit",
			files: many,
			lim:   Limits{SourceFiles: 5},
		},
		{
			name:   "sources too large",
			files:  map[string]string{"a.acore": big, "b.acore": big, "c.acore": big},
			lim:    Limits{SourcesBytes: 299},
			reason: reason.SourcesTooLarge, limit: 299, got: 300,
		},
		{
			name:   "snapshot too large",
			files:  map[string]string{"a.acore": big, ".axiom/dev/contracts/t.axiom": big, ".axiom/ui.lock": "xx"},
			lim:    Limits{SourcesBytes: 100, SnapshotBytes: 201},
			reason: reason.SnapshotTooLarge, limit: 201, got: 202,
		},
		{
			name:   "contract sources count toward the snapshot",
			files:  map[string]string{"a.acore": big, "contracts/t.axiom": big},
			lim:    Limits{SnapshotBytes: 199},
			reason: reason.SnapshotTooLarge, limit: 199, got: 200,
		},
		{
			name:  "skipped files do not count",
			files: map[string]string{"a.acore": "x", "node_modules/big.acore": big, ".git/big.acore": big, "notes.txt": big},
			lim:   Limits{SourceFileBytes: 10, SnapshotBytes: 10},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t, tt.files)
			in, err := LoadWith(root, tt.lim)
			if tt.reason == reason.None {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("got %v, %v; want LimitError %s", in, err, tt.reason)
			}
			want := LimitError{Reason: tt.reason, Path: tt.path, Limit: tt.limit, Got: tt.got}
			if *le != want {
				t.Errorf("got %+v, want %+v", *le, want)
			}
			if !strings.HasPrefix(le.Error(), tt.reason.String()+": ") || (tt.path != "" && !strings.Contains(le.Error(), tt.path)) {
				t.Errorf("message %q should start with the reason and name the file", le.Error())
			}
		})
	}
}

// TestLoadHugeFileNotRead uses a sparse 3 GiB file: if Load read it before
// checking its size the test would exhaust memory or time out.
func TestLoadHugeFileNotRead(t *testing.T) {
	root := tree(t, map[string]string{"main.acore": "x"})
	f, err := os.Create(filepath.Join(root, "huge.acore"))
	if err != nil {
		t.Fatal(err)
	}
	const size = 3 << 30
	if err := f.Truncate(size); err != nil {
		f.Close()
		t.Skipf("cannot create sparse file: %v", err)
	}
	f.Close()
	_, err = Load(root)
	var le *LimitError
	if !errors.As(err, &le) || le.Reason != reason.FileTooLarge || le.Path != "huge.acore" || le.Got != size || le.Limit != SourceFileBytesMax {
		t.Fatalf("got %v, want file_too_large for huge.acore", err)
	}
}

func TestDefaultLimits(t *testing.T) {
	if SourceFileBytesMax != 2097152 || SourceFilesMax != 64 || SourcesBytesMax != 4194304 || SnapshotBytesMax != 67108864 {
		t.Fatal("service bounds changed")
	}
	want := Limits{SourceFileBytesMax, SourceFilesMax, SourcesBytesMax, SnapshotBytesMax}
	if DefaultLimits() != want || (Limits{}).withDefaults() != want {
		t.Errorf("defaults = %+v, %+v", DefaultLimits(), Limits{}.withDefaults())
	}
	got := Limits{SourceFiles: 3}.withDefaults()
	if got.SourceFiles != 3 || got.SnapshotBytes != SnapshotBytesMax {
		t.Errorf("partial limits = %+v", got)
	}
}

func TestFingerprint(t *testing.T) {
	base := map[string]string{
		"main.acore":                       "main",
		"b.acore":                          "b",
		"contracts/tasks.axiom":            "src",
		".axiom/dev/contracts/tasks.axiom": "artifact",
		".axiom/ui.lock":                   "{}",
	}
	fp := func(files map[string]string) string {
		t.Helper()
		in, err := Load(tree(t, files))
		if err != nil {
			t.Fatal(err)
		}
		return in.Fingerprint()
	}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range base {
			m[a] = b
		}
		if v == "<delete>" {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	h := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }

	f0 := fp(base)
	// The canonical text, spelled out: moving the project must not change it.
	canonical := "acore-inputs/v1\n" +
		"source\tb.acore\t" + h("b") + "\n" +
		"source\tmain.acore\t" + h("main") + "\n" +
		"contract\t.axiom/dev/contracts/tasks.axiom\t" + h("artifact") + "\n" +
		"contract_source\tcontracts/tasks.axiom\t" + h("src") + "\n" +
		"lock\t.axiom/ui.lock\t" + h("{}") + "\n"
	if f0 != h(canonical) {
		t.Errorf("fingerprint %s does not match the documented canonical form", f0)
	}
	if fp(base) != f0 {
		t.Errorf("fingerprint differs between two roots with the same content")
	}
	for _, tc := range []struct{ name, path, data string }{
		{"source content", "b.acore", "B"},
		{"new source", "c.acore", ""},
		{"contract content", ".axiom/dev/contracts/tasks.axiom", "artifact2"},
		{"contract source content", "contracts/tasks.axiom", "src2"},
		{"lock content", ".axiom/ui.lock", "{ }"},
		{"lock removed", ".axiom/ui.lock", "<delete>"},
		{"file renamed", "b.acore", "<delete>"},
	} {
		if fp(with(tc.path, tc.data)) == f0 {
			t.Errorf("%s: fingerprint unchanged", tc.name)
		}
	}
	// Sorting is part of the definition, not the caller's job.
	in, err := Load(tree(t, base))
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(in.Sources)
	if in.Fingerprint() != f0 {
		t.Errorf("fingerprint depends on slice order")
	}
}
