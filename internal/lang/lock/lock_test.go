package lock

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s mismatch:\n--- got ---\n%s\n--- want ---\n%s", p, got, want)
	}
}

// TestParseMarshalGolden parses each *.input.json and checks that the
// canonical encoding matches the golden file and is a fixed point.
func TestParseMarshalGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.input.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input.json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			l, err := Parse(data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			out := l.Marshal()
			golden(t, name+".golden", out)
			again, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse(canonical): %v", err)
			}
			if !bytes.Equal(again.Marshal(), out) {
				t.Errorf("canonical encoding is not a fixed point")
			}
		})
	}
}

// TestParseInvalidGolden checks that every testdata/invalid/*.json is
// rejected with the message recorded in the matching .err file.
func TestParseInvalidGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/invalid/*.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			l, err := Parse(data)
			if err == nil {
				t.Fatalf("Parse accepted invalid lock: %+v", l)
			}
			golden(t, filepath.Join("invalid", name+".err"), []byte(err.Error()+"\n"))
		})
	}
}

func sampleLock() *Lock {
	return &Lock{
		LockVersion:     1,
		LanguageProfile: "acore-ui",
		Target:          "web",
		CatalogVersion:  "1.0.0",
		Contracts: []Contract{
			{ID: "tasks", Name: "Tasks", Path: ArtifactPath("tasks"), SHA256: strings.Repeat("ab", 32)},
			{ID: "auth", Name: "Auth", Path: ArtifactPath("auth"), SHA256: strings.Repeat("01", 32), Signed: true},
		},
	}
}

func TestMarshalDeterministicAndPure(t *testing.T) {
	l := sampleLock()
	a := l.Marshal()
	if l.Contracts[0].ID != "tasks" {
		t.Errorf("Marshal reordered the caller's contracts")
	}
	l.Contracts[0], l.Contracts[1] = l.Contracts[1], l.Contracts[0]
	if b := l.Marshal(); !bytes.Equal(a, b) {
		t.Errorf("Marshal depends on contract order:\n%s\n%s", a, b)
	}
	if !bytes.HasSuffix(a, []byte("}\n")) || bytes.HasSuffix(a, []byte("\n\n")) {
		t.Errorf("want exactly one trailing newline: %q", a)
	}
	if !bytes.Contains(a, []byte("\n  \"lock_version\": 1,")) {
		t.Errorf("want 2-space indent:\n%s", a)
	}
	if i, j := bytes.Index(a, []byte(`"auth"`)), bytes.Index(a, []byte(`"tasks"`)); i < 0 || j < i {
		t.Errorf("contracts not sorted by id:\n%s", a)
	}
	empty := &Lock{LockVersion: 1, LanguageProfile: "p", Target: "t", CatalogVersion: "v"}
	if !bytes.Contains(empty.Marshal(), []byte(`"contracts": []`)) {
		t.Errorf("nil contracts should marshal as []:\n%s", empty.Marshal())
	}
}

func TestReadWrite(t *testing.T) {
	root := t.TempDir()
	_, _, err := Read(root)
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Read of missing lock: %v, want ErrNotExist", err)
	}

	l := sampleLock()
	if err := Write(root, l); err != nil {
		t.Fatal(err)
	}
	got, data, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, l.Marshal()) {
		t.Errorf("file bytes differ from Marshal")
	}
	if !bytes.Equal(got.Marshal(), data) {
		t.Errorf("round trip changed the lock")
	}
	if c, ok := got.Contract("auth"); !ok || !c.Signed || c.Path != ".axiom/dev/contracts/auth.axiom" {
		t.Errorf("Contract(auth) = %+v, %v", c, ok)
	}
	if _, ok := got.Contract("nope"); ok {
		t.Errorf("Contract(nope) found")
	}
	fi, err := os.Stat(filepath.Join(root, ".axiom", "ui.lock"))
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("lock file mode: %v %v", fi, err)
	}
}

func TestReadInvalidReturnsBytes(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, ".axiom", "ui.lock")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"lock_version":9}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l, data, err := Read(root)
	if err == nil || l != nil || string(data) != `{"lock_version":9}` {
		t.Errorf("Read = %v, %q, %v", l, data, err)
	}
}

func TestWriteRefusesInvalid(t *testing.T) {
	root := t.TempDir()
	l := sampleLock()
	l.Contracts[0].SHA256 = "nothex"
	if err := Write(root, l); err == nil {
		t.Fatal("Write accepted an invalid lock")
	}
	if _, err := os.Stat(filepath.Join(root, ".axiom")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("invalid Write touched the filesystem: %v", err)
	}
}

func TestWriteRefusesSymlinkEscape(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, ".axiom")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := Write(root, sampleLock()); err == nil {
		t.Fatal("Write followed .axiom outside the root")
	}
	if _, err := os.Stat(filepath.Join(outside, "ui.lock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock written outside the root: %v", err)
	}
	if _, _, err := Read(root); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read through escaping symlink: %v", err)
	}
}

func TestArtifactPath(t *testing.T) {
	if got := ArtifactPath("tasks"); got != ".axiom/dev/contracts/tasks.axiom" {
		t.Errorf("ArtifactPath = %q", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/valid.input.json", "testdata/empty.input.json"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"lock_version":1,"lock_version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			return
		}
		// Anything accepted must re-encode canonically and round-trip.
		out := l.Marshal()
		l2, err := Parse(out)
		if err != nil {
			t.Fatalf("canonical output rejected: %v\n%s", err, out)
		}
		if !bytes.Equal(l2.Marshal(), out) {
			t.Fatalf("canonical output not a fixed point")
		}
	})
}
