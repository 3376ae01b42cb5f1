package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// TestEvictionAnswersExpired captures snapshots past a small budget: the
// oldest is evicted and, once the disk no longer has its content, Get
// answers ErrExpired; the newest is kept.
func TestEvictionAnswersExpired(t *testing.T) {
	dir := scaffolded(t)
	s := NewStore(dir, testID, 1)
	first, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.acore")
	src, _ := os.ReadFile(main)
	if err := os.WriteFile(main, append(src, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if first.ID == second.ID {
		t.Fatal("an edit kept the snapshot id")
	}
	if _, err := s.Get(first.ID); !errors.Is(err, ErrExpired) {
		t.Errorf("evicted snapshot: %v", err)
	}
	if got, err := s.Get(second.ID); err != nil || got != second {
		t.Errorf("newest snapshot: %v", err)
	}
	// Restoring the first content recaptures the first id.
	if err := os.WriteFile(main, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(first.ID); err != nil || got.ID != first.ID {
		t.Errorf("recapture of restored content: %v", err)
	}
	changed, err := s.Changed(second)
	if err != nil || len(changed) != 1 || changed[0] != "main.acore" {
		t.Errorf("changed %v %v", changed, err)
	}
}

// TestPersistedSnapshotsOutliveTheProcess reads, from a new store, a
// snapshot whose file has changed on disk since it was captured.
func TestPersistedSnapshotsOutliveTheProcess(t *testing.T) {
	dir := scaffolded(t)
	a := persistent(t, dir)
	first, err := a.Latest()
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.acore")
	src, _ := os.ReadFile(main)
	if err := os.WriteFile(main, append(src, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	b := persistent(t, dir) // another process
	got, err := b.Get(first.ID)
	if err != nil {
		t.Fatalf("persisted snapshot: %v", err)
	}
	if got.ID != first.ID || got.Project.Result.State != "validated" || got.Files["main.acore"] != first.Files["main.acore"] {
		t.Errorf("restored %s %s", got.ID, got.Project.Result.State)
	}
	if ignore, err := os.ReadFile(filepath.Join(dir, ".axiom/state/.gitignore")); err != nil || !strings.Contains(string(ignore), "*") {
		t.Errorf("state folder not ignored: %q %v", ignore, err)
	}
	// A tampered content is not trusted.
	blobs, _ := filepath.Glob(filepath.Join(dir, ".axiom/state/blobs/*/*"))
	for _, p := range blobs {
		os.WriteFile(p, []byte("tampered"), 0o644)
	}
	c := persistent(t, dir)
	if _, err := c.Get(first.ID); !errors.Is(err, ErrExpired) {
		t.Errorf("tampered snapshot: %v", err)
	}
}

// TestPersistSweepsClockProbes: a persistent store reads the file system's
// clock in .axiom/state and leaves no probe there; one a killed process
// left a while ago is removed, a fresh one (another process's, in use) is
// not.
func TestPersistSweepsClockProbes(t *testing.T) {
	dir := scaffolded(t)
	state := filepath.Join(dir, ".axiom", "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	stale, fresh := filepath.Join(state, load.ClockProbePrefix+"stale"), filepath.Join(state, load.ClockProbePrefix+"fresh")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	s := persistent(t, dir)
	if _, err := s.Latest(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(state)
	if err != nil {
		t.Fatal(err)
	}
	var probes []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), load.ClockProbePrefix) {
			probes = append(probes, e.Name())
		}
	}
	if len(probes) != 1 || probes[0] != filepath.Base(fresh) {
		t.Errorf("clock probes left in .axiom/state: %v, want only the fresh one", probes)
	}
}

// TestAddLaterPersistsInTheBackground: a snapshot added with AddLater is
// readable in this process at once and, once persisted returns, from
// another process; a second snapshot sharing its files persists too.
func TestAddLaterPersistsInTheBackground(t *testing.T) {
	dir := scaffolded(t)
	a := persistent(t, dir)
	in, err := load.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range 2 {
		src := append([]byte{}, in.Sources[0].Data...)
		src = append(src, []byte("\n// version "+string(rune('0'+i))+"\n")...)
		edited := *in
		edited.Sources = append([]load.File{}, in.Sources...)
		edited.Sources[0] = load.File{Path: in.Sources[0].Path, Data: src, SHA256: sha(src)}
		snap, persisted := a.AddLater(&edited, project.CompileFrom(nil, &edited))
		if got, err := a.Get(snap.ID); err != nil || got != snap {
			t.Fatalf("added snapshot not readable before it is persisted: %v", err)
		}
		persisted()
		ids = append(ids, snap.ID)
	}
	b := persistent(t, dir) // another process
	for _, sid := range ids {
		if got, err := b.Get(sid); err != nil || got.Project.Result.State != "validated" {
			t.Errorf("snapshot %s from another process: %v", sid, err)
		}
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestSweepAtMostEveryTenMinutes: a store sweeps the state only when the
// last sweep is sweepEvery old; a stale clock probe left meanwhile waits
// for the next sweep.
func TestSweepAtMostEveryTenMinutes(t *testing.T) {
	dir := scaffolded(t)
	state := filepath.Join(dir, ".axiom", "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	persistent(t, dir)
	marker := filepath.Join(dir, sweptMarker)
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("no sweep marker after the first sweep: %v", err)
	}
	stale := filepath.Join(state, load.ClockProbePrefix+"stale")
	if err := os.WriteFile(stale, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	persistent(t, dir)
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("a store swept a minute after the last sweep: %v", err)
	}
	past := time.Now().Add(-sweepEvery - time.Minute)
	if err := os.Chtimes(marker, past, past); err != nil {
		t.Fatal(err)
	}
	persistent(t, dir)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale probe outlived a sweep due: %v", err)
	}
}

// TestManifestRewrittenDaily: a capture of inputs whose manifest was
// written less than refreshEvery ago leaves it as it is; an older one is
// written again, with the new capture time.
func TestManifestRewrittenDaily(t *testing.T) {
	dir := scaffolded(t)
	a := persistent(t, dir)
	snap, err := a.Latest()
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, snapshotDir, snap.ID+".json")
	for _, c := range []struct {
		age     time.Duration
		rewrite bool
	}{{time.Hour, false}, {refreshEvery + time.Hour, true}} {
		at := time.Now().Add(-c.age).Truncate(time.Second)
		if err := os.Chtimes(name, at, at); err != nil {
			t.Fatal(err)
		}
		b := persistent(t, dir) // another process
		if _, err := b.Latest(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if rewritten := !fi.ModTime().Equal(at); rewritten != c.rewrite {
			t.Errorf("manifest %v old: rewritten %v, want %v", c.age, rewritten, c.rewrite)
		}
	}
}

// TestPrimeReadsForTheFirstCapture: the first capture after Prime takes
// the files Prime read and hashed. Proven by a rewrite the stat cannot
// see (same size, the old time put back): the capture has the content
// Prime read, as any later capture of a file verified once would.
func TestPrimeReadsForTheFirstCapture(t *testing.T) {
	dir := scaffolded(t)
	main := filepath.Join(dir, "main.acore")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(main, old, old); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	s := persistent(t, dir)
	s.Prime()
	s.Wait()
	after := bytes.ToUpper(before) // same size
	if err := os.WriteFile(main, after, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(main, old, old); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := snap.Files["main.acore"], sha(before); got != want {
		t.Errorf("first capture after Prime read main.acore again (digest %s, primed %s)", got, want)
	}
}

// testID is the identity of the tests' stores.
var testID = Identity{Compiler: "test", Profile: "acore-ui", Target: "web"}

// scaffolded writes the task-app template into a fresh folder.
func scaffolded(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// persistent returns a store on dir that persists its snapshots, as a
// service process's does.
func persistent(t *testing.T, dir string) *Store {
	t.Helper()
	s := NewStore(dir, testID, 0)
	s.Persist()
	return s
}
