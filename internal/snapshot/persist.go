package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/axiomcore/acore/internal/fsutil"
	"github.com/axiomcore/acore/internal/load"
)

// Snapshots are persisted under .axiom/state so that a later process (a
// one-shot command, a restarted server) can read a snapshot whose files
// have changed on disk since: a manifest per snapshot id lists its inputs
// by digest, and the contents are stored once each, by digest.
const (
	stateDir    = ".axiom/state"
	snapshotDir = stateDir + "/snapshots"
	blobDir     = stateDir + "/blobs"
	// PersistTTL is how long a persisted snapshot stays readable after it
	// was last captured.
	PersistTTL = 7 * 24 * time.Hour
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

func (s *Store) statePath(rel string) (string, error) {
	return fsutil.Resolve(s.root, rel)
}

// persist writes snap's manifest and the contents it lacks. Failing to
// persist only makes the snapshot unreadable from another process later,
// so errors are dropped.
func (s *Store) persist(snap *Snapshot, in *load.Inputs) {
	dir, err := s.statePath(stateDir)
	if err != nil {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	// The service's state is never part of the project's sources.
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); err != nil {
		_ = os.WriteFile(ignore, []byte("# acore-semantic state: snapshots, candidates, journals, receipts\n*\n"), 0o644)
	}
	m := manifest{ID: snap.ID, CapturedAt: snap.CapturedAt}
	add := func(kind string, files ...load.File) {
		for _, f := range files {
			m.Files = append(m.Files, manifestEntry{Kind: kind, Path: f.Path, SHA256: f.SHA256})
			s.putBlob(f)
		}
	}
	add("source", in.Sources...)
	add("contract", in.Contracts...)
	add("contract_source", in.ContractSources...)
	if in.Lock != nil {
		add("lock", *in.Lock)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	if p, err := s.statePath(snapshotDir + "/" + snap.ID + ".json"); err == nil {
		writeQuiet(p, b)
	}
}

func (s *Store) putBlob(f load.File) {
	p, err := s.statePath(blobDir + "/" + f.SHA256[:2] + "/" + f.SHA256)
	if err != nil {
		return
	}
	if _, err := os.Stat(p); err == nil {
		return
	}
	writeQuiet(p, f.Data)
}

// writeQuiet writes through a temporary file and a rename, without fsync:
// a torn file after a crash is caught by its digest when read.
func writeQuiet(p string, data []byte) {
	_ = fsutil.ReplaceFile(p, data, 0o600)
}

// restore rebuilds the inputs of a persisted snapshot, verifying every
// content against its digest.
func (s *Store) restore(id string) (*load.Inputs, time.Time, bool) {
	if !validID(id) {
		return nil, time.Time{}, false
	}
	p, err := s.statePath(snapshotDir + "/" + id + ".json")
	if err != nil {
		return nil, time.Time{}, false
	}
	b, err := os.ReadFile(p)
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
		bp, err := s.statePath(blobDir + "/" + e.SHA256[:2] + "/" + e.SHA256)
		if err != nil {
			return nil, time.Time{}, false
		}
		data, err := os.ReadFile(bp)
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

func validID(id string) bool {
	if len(id) != len("snap-")+32 || id[:5] != "snap-" {
		return false
	}
	for _, c := range id[5:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// sweep removes persisted snapshots past PersistTTL and the contents no
// kept snapshot refers to.
func (s *Store) sweep() {
	dir, err := s.statePath(snapshotDir)
	if err != nil {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	keep := map[string]bool{}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(p)
		var m manifest
		if err != nil || json.Unmarshal(b, &m) != nil || time.Since(m.CapturedAt) > PersistTTL {
			os.Remove(p)
			continue
		}
		for _, f := range m.Files {
			keep[f.SHA256] = true
		}
	}
	bdir, err := s.statePath(blobDir)
	if err != nil {
		return
	}
	filepath.WalkDir(bdir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !keep[d.Name()] {
			if fi, err := d.Info(); err == nil && time.Since(fi.ModTime()) > time.Hour {
				os.Remove(p)
			}
		}
		return nil
	})
}
