package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"strings"
	"time"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// Snapshots are persisted under .axiom/state so that a later process (a
// one-shot command, a restarted server) can read a snapshot whose files
// have changed on disk since: a manifest per snapshot id lists its inputs
// by digest, and the contents are stored once each, by digest.
const (
	stateDir    = fsutil.StateDir
	snapshotDir = stateDir + "/snapshots"
	blobDir     = stateDir + "/blobs"
	// PersistTTL is how long a persisted snapshot stays readable after it
	// was last captured.
	PersistTTL = 7 * 24 * time.Hour
	// sweptMarker's modification time is when a store last swept the
	// state; another sweeps only sweepEvery later. A sweep reads every
	// manifest and stats every content (3 ms for 50 files), which a
	// one-shot process would otherwise pay before each answer.
	sweptMarker = stateDir + "/swept"
	sweepEvery  = 10 * time.Minute
	// refreshEvery is how old a snapshot's manifest gets before a capture
	// of the same inputs writes it again (see persist): a snapshot stays
	// readable PersistTTL after the capture that last wrote it, at least
	// PersistTTL less refreshEvery after its last capture.
	refreshEvery = 24 * time.Hour
)

type manifest struct {
	ID         string          `json:"id"`
	CapturedAt time.Time       `json:"captured_at"`
	Files      []manifestEntry `json:"files"`
}

type manifestEntry struct {
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// state opens the project root; every state file is reached through it,
// so .axiom/state or a folder in it symlinked outside the root is refused
// rather than written through, and nothing read from it comes from
// outside.
func (s *Store) state() (*fsutil.Root, error) { return fsutil.OpenRoot(s.root) }

// persist writes snap's manifest and the contents it lacks. Failing to
// persist only makes the snapshot unreadable from another process later,
// so errors are dropped.
func (s *Store) persist(snap *Snapshot, in *load.Inputs) {
	r, err := s.state()
	if err != nil {
		return
	}
	defer r.Close()
	name := snapshotDir + "/" + snap.ID + ".json"
	// A manifest is written after every content it lists, so one written
	// less than refreshEvery ago has them all: writing it again would only
	// move its captured_at, which keeps the snapshot from the sweep. Every
	// process used to, at a stat per input (the wide shape's 50 files).
	if recent(r, name, refreshEvery) {
		return
	}
	if err := r.MkdirAll(stateDir, 0o755); err != nil {
		return
	}
	// The service's state is never part of the project's sources.
	ignore := stateDir + "/.gitignore"
	if _, err := r.Lstat(ignore); err != nil {
		_ = r.ReplaceFile(ignore, []byte("# acore-semantic state: snapshots, candidates, journals, receipts\n*\n"), 0o644)
	}
	m := manifest{ID: snap.ID, CapturedAt: snap.CapturedAt}
	stored := true
	add := func(kind string, files ...load.File) {
		for _, f := range files {
			m.Files = append(m.Files, manifestEntry{Kind: kind, Path: f.Path, SHA256: f.SHA256})
			stored = s.putBlob(r, f) && stored
		}
	}
	add("source", in.Sources...)
	add("contract", in.Contracts...)
	add("contract_source", in.ContractSources...)
	if in.Lock != nil {
		add("lock", *in.Lock)
	}
	if !stored {
		// No manifest without its contents: the next capture tries again.
		return
	}
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	// Written through a temporary file and a rename, without fsync: a
	// torn file after a crash is caught by its digest when read.
	_ = r.ReplaceFile(name, b, 0o600)
}

// putBlob writes f's content under its digest unless it is there, and
// reports whether it is. A blob this store has seen is not looked for
// again: another process removes only blobs no manifest younger than
// PersistTTL refers to.
func (s *Store) putBlob(r *fsutil.Root, f load.File) bool {
	s.mu.Lock()
	known := s.blobs[f.SHA256]
	s.mu.Unlock()
	if known {
		return true
	}
	rel := blobDir + "/" + f.SHA256[:2] + "/" + f.SHA256
	if _, err := r.Lstat(rel); err != nil && r.ReplaceFile(rel, f.Data, 0o600) != nil {
		return false
	}
	s.mu.Lock()
	s.blobs[f.SHA256] = true
	s.mu.Unlock()
	return true
}

// restore rebuilds the inputs of a persisted snapshot, verifying every
// content against its digest.
func (s *Store) restore(id string) (*load.Inputs, time.Time, bool) {
	if !Issued(id) {
		return nil, time.Time{}, false
	}
	r, err := s.state()
	if err != nil {
		return nil, time.Time{}, false
	}
	defer r.Close()
	b, err := r.ReadFile(snapshotDir + "/" + id + ".json")
	if err != nil {
		return nil, time.Time{}, false
	}
	var m manifest
	if json.Unmarshal(b, &m) != nil || m.ID != id || time.Since(m.CapturedAt) > PersistTTL {
		return nil, time.Time{}, false
	}
	in := &load.Inputs{Root: s.root}
	for _, e := range m.Files {
		if len(e.SHA256) != 64 || fsutil.ValidRelPath(e.Path) != nil {
			return nil, time.Time{}, false
		}
		data, err := r.ReadFile(blobDir + "/" + e.SHA256[:2] + "/" + e.SHA256)
		if err != nil {
			return nil, time.Time{}, false
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != e.SHA256 {
			return nil, time.Time{}, false
		}
		f := load.File{Path: e.Path, Data: data, SHA256: e.SHA256}
		switch e.Kind {
		case "source":
			in.Sources = append(in.Sources, f)
		case "contract":
			in.Contracts = append(in.Contracts, f)
		case "contract_source":
			in.ContractSources = append(in.ContractSources, f)
		case "lock":
			in.Lock = &f
		default:
			return nil, time.Time{}, false
		}
	}
	return in, m.CapturedAt, s.ID(in) == id
}

// recent reports whether the state file name is a regular file modified
// less than within ago (a manifest refreshEvery, the sweep marker
// sweepEvery).
func recent(r *fsutil.Root, name string, within time.Duration) bool {
	fi, err := r.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	age := time.Since(fi.ModTime())
	return age >= 0 && age < within
}

// sweep removes persisted snapshots past PersistTTL, the contents no kept
// snapshot refers to, and the clock probes of processes killed while they
// read the file system's clock, unless a store swept less than sweepEvery
// ago. What it removes is at least a minute past use, so a sweep skipped
// only leaves files a while longer.
func (s *Store) sweep() {
	r, err := s.state()
	if err != nil {
		return
	}
	defer r.Close()
	if recent(r, sweptMarker, sweepEvery) {
		return
	}
	_ = r.ReplaceFile(sweptMarker, nil, 0o644)
	if entries, err := r.ReadDir(stateDir); err == nil {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), load.ClockProbePrefix) {
				if fi, err := r.Lstat(stateDir + "/" + e.Name()); err == nil && time.Since(fi.ModTime()) > time.Minute {
					r.Remove(stateDir + "/" + e.Name())
				}
			}
		}
	}
	entries, err := r.ReadDir(snapshotDir)
	if err != nil {
		return
	}
	keep := map[string]bool{}
	for _, e := range entries {
		p := snapshotDir + "/" + e.Name()
		b, err := r.ReadFile(p)
		var m manifest
		if err != nil || json.Unmarshal(b, &m) != nil || time.Since(m.CapturedAt) > PersistTTL {
			r.Remove(p)
			continue
		}
		for _, f := range m.Files {
			keep[f.SHA256] = true
		}
	}
	fs.WalkDir(r.FS(), blobDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !keep[d.Name()] {
			if fi, err := r.Lstat(p); err == nil && time.Since(fi.ModTime()) > time.Hour {
				r.Remove(p)
			}
		}
		return nil
	})
}
