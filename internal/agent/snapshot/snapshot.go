// Package snapshot captures immutable, content-addressed snapshots of a
// project: its sources, contracts and lock, compiled under one compiler,
// language profile and target. Equal content gives an equal id, so a
// capture of unchanged files reuses the compiled snapshot.
package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
)

// Identity names the compiler build, profile and target in snapshot ids,
// so a snapshot of another build is never mistaken for one of this build.
type Identity struct {
	Compiler string
	Profile  string
	Target   string
}

// Snapshot is one capture.
type Snapshot struct {
	ID         string
	Project    *project.Project
	CapturedAt time.Time
	// Files maps every input path (sources, contracts, contract sources,
	// lock) to its SHA-256.
	Files map[string]string
	// Bytes estimates the snapshot's memory, for the store's budget.
	Bytes int64
}

// Store holds snapshots under a byte budget, evicting the least recently
// used. It is safe for concurrent use.
type Store struct {
	root   string
	id     Identity
	budget int64

	cache      *load.Cache
	persistent bool

	mu    sync.Mutex
	byID  map[string]*Snapshot
	used  map[string]int64 // last use tick
	tick  int64
	total int64
	// expired remembers evicted ids so that they answer snapshot_expired
	// rather than not_found.
	expired map[string]bool
	// last is the snapshot captured or added last: a new capture is
	// compiled from it, so that it rechecks only the modules that changed
	// and shares the rest.
	last *Snapshot
	// compiled, when set, keeps compiles for later processes (see
	// UseCompileCache); saves counts its writes under way, and Prime's
	// read, so that Wait waits for both.
	compiled CompileCache
	saves    sync.WaitGroup
	// primed is closed when the read Prime started is done, nil without
	// one.
	primed chan struct{}
	// opts are what a capture with no project to compile from compiles
	// with (see UseOptions).
	opts project.Options
	// blobs holds the digests whose content this store wrote to the
	// state or found there, so that persisting a snapshot that shares
	// most files with earlier ones writes, and stats, only the new ones.
	blobs map[string]bool
}

// DefaultBudget bounds the memory a store keeps, estimated as
// compiledFactor times the bytes of each snapshot's inputs (a compiled
// snapshot holds its sources, tokens, tree and graph): 1 GiB, which keeps
// about 16 snapshots of a project at sources_bytes_max (4 MiB) and
// thousands of small ones. Past it the least recently used snapshot is
// evicted, and reading it answers snapshot_expired.
const DefaultBudget = 1 << 30

// compiledFactor estimates a compiled snapshot's memory from its input
// bytes, measured on generated projects at the bounds.
const compiledFactor = 16

// NewStore returns a store for the project at root.
func NewStore(root string, id Identity, budget int64) *Store {
	if budget <= 0 {
		budget = DefaultBudget
	}
	return &Store{root: root, id: id, budget: budget, cache: load.NewCache(), byID: map[string]*Snapshot{}, blobs: map[string]bool{}, used: map[string]int64{}, expired: map[string]bool{}}
}

// ErrExpired is returned for an id this store evicted or cannot recapture.
var ErrExpired = errors.New("snapshot expired")

// ID derives a snapshot id from inputs.
func (s *Store) ID(in *load.Inputs) string {
	h := sha256.New()
	for _, p := range []string{"acore-snapshot/v1", s.id.Compiler, s.id.Profile, s.id.Target, in.Fingerprint()} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return IDFromDigest(h.Sum(nil))
}

// A snapshot id is "snap-", 24 hex digits of a digest and 8 hex digits of
// a check over them. The check lets a service tell an id it never issued
// (a typo, an invented id: not_found, snapshot_unknown) from one it issued
// and no longer holds (snapshot_expired), without remembering every id:
// an id that was never issued has the right check by chance once in 2^32.
const (
	idPrefix    = "snap-"
	idDigestHex = 24
	idCheckHex  = 8
)

// IDFromDigest makes a snapshot id from the first bytes of sum, which
// must be at least 12 bytes.
func IDFromDigest(sum []byte) string {
	d := hex.EncodeToString(sum[:idDigestHex/2])
	return idPrefix + d + idCheck(d)
}

func idCheck(digest string) string {
	c := sha256.Sum256([]byte("acore-snapshot-id/v1\x00" + digest))
	return hex.EncodeToString(c[:idCheckHex/2])
}

// Issued reports whether id has the form of the ids snapshot stores
// issue, its check included: false means no store ever issued it.
func Issued(id string) bool {
	h, ok := strings.CutPrefix(id, idPrefix)
	if !ok || len(h) != idDigestHex+idCheckHex {
		return false
	}
	for _, r := range h {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return idCheck(h[:idDigestHex]) == h[idDigestHex:]
}

// DiskID returns the id of the snapshot Latest would capture now, from
// the inputs' digests (read through the store's cache of unchanged files),
// without compiling them.
func (s *Store) DiskID() (string, error) {
	in, err := load.LoadCached(s.root, load.DefaultLimits(), s.cache)
	if err != nil {
		return "", err
	}
	return s.ID(in), nil
}

// Latest captures the files on disk now. A bound hit while loading is not
// an error: the snapshot is unavailable and carries the diagnostic.
func (s *Store) Latest() (*Snapshot, error) {
	if s.primed != nil {
		<-s.primed
	}
	in, err := load.LoadCached(s.root, load.DefaultLimits(), s.cache)
	var lim *load.LimitError
	if errors.As(err, &lim) {
		p, perr := s.opts.Open(s.root)
		if perr != nil {
			return nil, perr
		}
		return &Snapshot{ID: "snap-unavailable", Project: p, CapturedAt: time.Now().UTC()}, lim
	}
	if err != nil {
		return nil, err
	}
	id := s.ID(in)
	s.mu.Lock()
	if snap, ok := s.byID[id]; ok {
		s.touch(id)
		s.mu.Unlock()
		return snap, nil
	}
	base := s.base()
	s.mu.Unlock()
	snap := &Snapshot{ID: id, CapturedAt: time.Now().UTC(), Files: files(in)}
	// The inputs are written to the state while they compile: the writes
	// need nothing from the compile, and a one-shot process must not exit
	// before they are done.
	persisted := make(chan struct{})
	go func() {
		defer close(persisted)
		if s.persistent {
			s.persist(snap, in)
		}
	}()
	snap.Project = s.compile(base, in)
	snap.Bytes = estimate(in, snap.Project)
	<-persisted
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev, ok := s.byID[id]; ok { // captured concurrently
		s.touch(id)
		return prev, nil
	}
	s.byID[id] = snap
	s.last = snap
	delete(s.expired, id)
	s.total += snap.Bytes
	s.touch(id)
	s.evict(id)
	return snap, nil
}

// CompileCache keeps compiled projects by their inputs across processes
// (the compile cache, internal/lang/compilecache).
type CompileCache interface {
	// Load returns the compile of in, or nil.
	Load(in *load.Inputs) *project.Project
	// Save keeps p, the compile of in.
	Save(in *load.Inputs, p *project.Project) error
}

// UseOptions makes the store compile with o (the process's choices, see
// project.Options). Call it before the store is shared.
func (s *Store) UseOptions(o project.Options) { s.opts = o }

// UseCompileCache makes the store read a capture's compile from c when a
// recheck cannot make it (a fresh process, or one whose last snapshot was
// read from c), and write every whole compile it makes to c in the
// background (see Wait). Call it before the store is shared.
func (s *Store) UseCompileCache(c CompileCache) { s.compiled = c }

// Prime reads and hashes the project's files into the store's file cache
// in the background, so that the first capture finds them read: a process
// that starts to answer a request primes while it reads and checks the
// request (a one-shot workspace.open on the wide shape spent 6 to 12 ms
// reading and hashing after it had). Latest waits for it, and so does
// Wait. Call it once, before the store is shared.
func (s *Store) Prime() {
	s.primed = make(chan struct{})
	s.saves.Add(1)
	go func() {
		defer s.saves.Done()
		defer close(s.primed)
		// Errors and limits are the capture's to report.
		_, _ = load.LoadCached(s.root, load.DefaultLimits(), s.cache)
	}()
}

// ReadInto makes the store read files into buffers that make returns (see
// load.Cache.Buffers). Call it before the first capture or Prime.
func (s *Store) ReadInto(make func(n int) []byte) { s.cache.Buffers(make) }

// Wait waits for the compile cache's writes under way and for Prime's
// read: a process waits before it exits, so that the next one finds its
// compile and no clock probe of the read is left behind.
func (s *Store) Wait() { s.saves.Wait() }

// compile compiles in, from base when that rechecks it, otherwise from
// the compile cache when it holds in's compile.
func (s *Store) compile(base *project.Project, in *load.Inputs) *project.Project {
	if s.compiled != nil && (base == nil || base.FromCache()) {
		if p := s.compiled.Load(in); p != nil {
			return p
		}
	}
	p := s.opts.CompileFrom(base, in)
	if s.compiled == nil {
		return p
	}
	// A recheck is not written: it costs a few milliseconds here, and
	// writing the whole graph again after every edit would cost more.
	if p.Changed == nil {
		s.saves.Add(1)
		go func() {
			defer s.saves.Done()
			_ = s.compiled.Save(in, p)
		}()
	}
	return p
}

// base returns the project a new capture is compiled from, or nil. The
// caller holds s.mu.
func (s *Store) base() *project.Project {
	if s.last == nil {
		return nil
	}
	return s.last.Project
}

// estimate is the memory a compiled snapshot adds: compiledFactor times
// its input bytes, or only its rechecked sources' when it shares the rest
// with the project it was compiled from.
func estimate(in *load.Inputs, p *project.Project) int64 {
	var n int64
	if p.Changed != nil {
		changed := map[string]bool{}
		for _, path := range p.Changed {
			changed[path] = true
		}
		for _, f := range in.Sources {
			if changed[f.Path] {
				n += compiledFactor * int64(len(f.Data))
			}
		}
		return n
	}
	for _, f := range allFiles(in) {
		n += compiledFactor * int64(len(f.Data))
	}
	return n
}

// Get returns the snapshot with id. An id this store does not hold is
// recaptured from disk when the disk still has its content; otherwise the
// error is ErrExpired.
func (s *Store) Get(id string) (*Snapshot, error) {
	s.mu.Lock()
	if snap, ok := s.byID[id]; ok {
		s.touch(id)
		s.mu.Unlock()
		return snap, nil
	}
	s.mu.Unlock()
	snap, err := s.Latest()
	if err == nil && snap.ID == id {
		return snap, nil
	}
	if s.persistent {
		if in, at, ok := s.restore(id); ok {
			s.mu.Lock()
			base := s.base()
			s.mu.Unlock()
			p := s.compile(base, in)
			snap := &Snapshot{ID: id, Project: p, CapturedAt: at, Files: files(in), Bytes: estimate(in, p)}
			s.mu.Lock()
			defer s.mu.Unlock()
			if prev, ok := s.byID[id]; ok {
				return prev, nil
			}
			s.byID[id] = snap
			s.total += snap.Bytes
			s.touch(id)
			s.evict(id)
			return snap, nil
		}
	}
	return nil, ErrExpired
}

// Add registers a compiled project whose inputs are in, such as a
// candidate's base plus its files, so that its id can be read like any
// captured snapshot (and, when persistent, from later processes).
func (s *Store) Add(in *load.Inputs, p *project.Project) *Snapshot {
	snap, persisted := s.AddLater(in, p)
	persisted()
	return snap
}

// AddLater is Add that writes the snapshot to the state while the caller
// goes on: the snapshot is readable in this process at once, and from
// later processes once persisted (which the caller must call, and which
// waits for the writes) has returned.
func (s *Store) AddLater(in *load.Inputs, p *project.Project) (*Snapshot, func()) {
	id := s.ID(in)
	s.mu.Lock()
	if snap, ok := s.byID[id]; ok {
		s.touch(id)
		s.mu.Unlock()
		return snap, func() {}
	}
	snap := &Snapshot{ID: id, Project: p, CapturedAt: time.Now().UTC(), Files: files(in), Bytes: estimate(in, p)}
	s.byID[id] = snap
	s.last = snap
	delete(s.expired, id)
	s.total += snap.Bytes
	s.touch(id)
	s.evict(id)
	s.mu.Unlock()
	if !s.persistent {
		return snap, func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.persist(snap, in)
	}()
	return snap, func() { <-done }
}

// Persist makes the store keep every snapshot it captures under the
// project's .axiom/state, and read them back in later processes. It also
// removes persisted snapshots past PersistTTL. Captures then read the file
// system's clock in .axiom/state (see load.Cache.ProbeClock), so that
// files written just before are trusted by their stat after one read.
func (s *Store) Persist() {
	s.persistent = true
	s.sweep()
	if r, err := s.state(); err == nil {
		if r.MkdirAll(stateDir, 0o755) == nil {
			s.cache.ProbeClock(stateDir)
		}
		r.Close()
	}
}

// Changed lists the input paths whose content on disk differs from snap
// (added, removed or edited), sorted.
func (s *Store) Changed(snap *Snapshot) ([]string, error) {
	in, err := load.LoadCached(s.root, load.DefaultLimits(), s.cache)
	if err != nil {
		return nil, err
	}
	return Diff(snap.Files, files(in)), nil
}

// Diff lists the paths whose digest differs between two snapshots' Files
// (added, removed or edited), sorted.
func Diff(a, b map[string]string) []string {
	var out []string
	for p, sum := range a {
		if b[p] != sum {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func (s *Store) touch(id string) {
	s.tick++
	s.used[id] = s.tick
}

// evict drops least recently used snapshots over the budget, never keep.
func (s *Store) evict(keep string) {
	for s.total > s.budget && len(s.byID) > 1 {
		oldest, tick := "", int64(-1)
		for id, t := range s.used {
			if id != keep && (tick < 0 || t < tick) {
				oldest, tick = id, t
			}
		}
		if oldest == "" {
			return
		}
		s.total -= s.byID[oldest].Bytes
		delete(s.byID, oldest)
		delete(s.used, oldest)
		s.expired[oldest] = true
	}
}

func allFiles(in *load.Inputs) []load.File {
	out := append([]load.File{}, in.Sources...)
	out = append(out, in.Contracts...)
	out = append(out, in.ContractSources...)
	if in.Lock != nil {
		out = append(out, *in.Lock)
	}
	return out
}

func files(in *load.Inputs) map[string]string {
	m := map[string]string{}
	for _, f := range allFiles(in) {
		m[f.Path] = f.SHA256
	}
	return m
}
