// Package candidate keeps proposed changes (candidates) and the request_id
// records that make edit and apply requests idempotent. Both live in
// memory and under the project's .axiom/state/ folder, so that a restarted
// service, or a sequence of one-shot commands, can inspect, apply and
// replay them.
package candidate

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// Candidate states.
const (
	Open      = "open"
	Applied   = "applied"
	Discarded = "discarded"
	Expired   = "expired"
)

// Lifetimes. An open candidate expires a day after its last version; the
// records of requests and receipts are kept for a week, long enough for any
// client to resend after a crash.
const (
	CandidateTTL = 24 * time.Hour
	RecordTTL    = 7 * 24 * time.Hour
)

// StateDir is the project-relative folder of the service's state.
const StateDir = fsutil.StateDir

// File is one file a candidate writes: its content after the change and
// the digests before (nil when created) and after (nil when removed).
type File struct {
	Path    string  `json:"path"`
	Before  *string `json:"before_sha256"`
	After   *string `json:"after_sha256"`
	Content []byte  `json:"content,omitempty"`
}

// Change is "added", "modified" or "removed".
func (f File) Change() string { return publish.ChangeOf(f.Before, f.After) }

// Check is the result of one check on one candidate version.
type Check struct {
	Check       string          `json:"check"`
	Status      string          `json:"status"`
	Diagnostics json.RawMessage `json:"diagnostics"`
	Version     int             `json:"version"`
}

// Candidate is a proposed change: edits applied to a private copy of a
// base snapshot.
type Candidate struct {
	ID               string    `json:"id"`
	Workspace        string    `json:"workspace"`
	Version          int       `json:"version"`
	State            string    `json:"state"`
	Base             string    `json:"base_snapshot"`
	Snapshot         string    `json:"snapshot"`
	RequestID        string    `json:"request_id"`
	InputFingerprint string    `json:"input_fingerprint"`
	ExpiresAt        time.Time `json:"expires_at"`
	// Files are the candidate's files, each with its full content.
	Files []File `json:"files"`
	// Checks holds the results of checks, per version.
	Checks []Check `json:"checks,omitempty"`
	// Data holds what the service records with a version (operations,
	// id map, touched declarations), opaque to this package.
	Data json.RawMessage `json:"data,omitempty"`
	// Receipt is the id of the receipt once applied.
	Receipt string `json:"receipt,omitempty"`
}

// NewID returns a fresh candidate id.
func NewID() string { return "cand-" + randomHex(12) }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // the system's random source failing is not recoverable
	}
	return hex.EncodeToString(b)
}

// ErrNotFound is returned for an id that was never stored or whose record
// is gone.
var ErrNotFound = errors.New("candidate not found")

// Store keeps candidates and request records for one project root.
type Store struct {
	root string
	now  func() time.Time

	mu    sync.Mutex
	cands map[string]*Candidate
}

// NewStore returns the store of the project at root.
func NewStore(root string) *Store {
	return &Store{root: root, now: time.Now, cands: map[string]*Candidate{}}
}

// The kinds of state files, each in its folder kindDir(kind) as
// fileName(name).
const (
	kindCandidates = "candidates"
	kindRequests   = "requests"
)

func kindDir(kind string) string         { return StateDir + "/" + kind }
func fileName(name string) string        { return name + ".json" }
func statePath(kind, name string) string { return kindDir(kind) + "/" + fileName(name) }

// write stores a state file through a handle on the root the kernel
// confines: a state folder symlinked outside the root is refused.
func (s *Store) write(rel string, b []byte) error {
	r, err := fsutil.OpenRoot(s.root)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.ReplaceFile(rel, b, 0o600)
}

// read reads a state file, confined like write.
func (s *Store) read(rel string) ([]byte, error) {
	r, err := fsutil.OpenRoot(s.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadFile(rel)
}

// Put stores c (a copy), in memory and on disk.
func (s *Store) Put(c *Candidate) error { return s.put(c, nil) }

// put is Put, writing into spare when it is not nil.
func (s *Store) put(c *Candidate, spare *fsutil.Spare) error {
	cp := *c
	b, err := json.Marshal(&cp)
	if err == nil {
		err = s.writeInto(spare, kindCandidates, c.ID, b)
	}
	if err != nil {
		return fmt.Errorf("store candidate %s: %w", c.ID, err)
	}
	s.mu.Lock()
	s.cands[c.ID] = &cp
	s.mu.Unlock()
	return nil
}

// Get returns a copy of the candidate with id. An open candidate past its
// expiry is returned with state expired.
func (s *Store) Get(id string) (*Candidate, error) {
	if !validName(id) {
		return nil, ErrNotFound
	}
	s.mu.Lock()
	c, ok := s.cands[id]
	s.mu.Unlock()
	if !ok {
		b, err := s.read(statePath(kindCandidates, id))
		if err != nil {
			return nil, ErrNotFound
		}
		c = &Candidate{}
		if err := json.Unmarshal(b, c); err != nil {
			return nil, fmt.Errorf("candidate %s: the stored record is unreadable: %w", id, err)
		}
		s.mu.Lock()
		s.cands[id] = c
		s.mu.Unlock()
	}
	cp := *c
	if cp.State == Open && s.now().After(cp.ExpiresAt) {
		cp.State = Expired
	}
	return &cp, nil
}

// validName accepts ids made by this package and rejects anything that
// could address another file.
func validName(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// Record is what a request_id stands for: the fingerprint of the request's
// input and the answer recorded for it.
type Record struct {
	Operation   string          `json:"operation"`
	Fingerprint string          `json:"input_fingerprint"`
	Result      json.RawMessage `json:"result,omitempty"`
	RecordedAt  time.Time       `json:"recorded_at"`
}

func recordName(workspace, requestID string) string {
	sum := sha256.Sum256([]byte("acore-request/v1\x00" + workspace + "\x00" + requestID))
	return hex.EncodeToString(sum[:16])
}

// Remember records the answer to request_id in workspace.
func (s *Store) Remember(workspace, requestID string, r Record) error {
	return s.remember(workspace, requestID, r, nil)
}

// remember is Remember, writing into spare when it is not nil.
func (s *Store) remember(workspace, requestID string, r Record, spare *fsutil.Spare) error {
	r.RecordedAt = s.now().UTC()
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return s.writeInto(spare, kindRequests, recordName(workspace, requestID), b)
}

// writeInto writes the state file name of kind through spare, or as
// write does when spare is nil.
func (s *Store) writeInto(spare *fsutil.Spare, kind, name string, b []byte) error {
	if spare == nil {
		return s.write(statePath(kind, name), b)
	}
	return spare.Replace(fileName(name), b)
}

// Reserved are the state files one proposal writes, its candidate and
// its request record, created in the background from when the proposal
// starts (see fsutil.Spare): creating a file costs more than the rest of
// its write, and the proposal compiles meanwhile. A file whose spare
// could not be made is written as Put and Remember write it.
type Reserved struct {
	s    *Store
	done chan struct{}
	mu   sync.Mutex
	cand *fsutil.Spare
	req  *fsutil.Spare
}

// Reserve starts creating the files of one proposal; the caller must
// Release what it reserved.
func (s *Store) Reserve() *Reserved {
	r := &Reserved{s: s, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		root, err := fsutil.OpenRoot(s.root)
		if err != nil {
			return
		}
		defer root.Close()
		// Unused or failed, a spare is only a missed saving.
		r.cand, _ = root.CreateSpare(kindDir(kindCandidates), 0o600)
		r.req, _ = root.CreateSpare(kindDir(kindRequests), 0o600)
	}()
	return r
}

// take waits for the spares and hands out *p once.
func (r *Reserved) take(p **fsutil.Spare) *fsutil.Spare {
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	sp := *p
	*p = nil
	return sp
}

// Put is Store.Put through the reserved candidate file.
func (r *Reserved) Put(c *Candidate) error { return r.s.put(c, r.take(&r.cand)) }

// Remember is Store.Remember through the reserved request record.
func (r *Reserved) Remember(workspace, requestID string, rec Record) error {
	return r.s.remember(workspace, requestID, rec, r.take(&r.req))
}

// Release removes the reserved files that were not written.
func (r *Reserved) Release() {
	for _, p := range []**fsutil.Spare{&r.cand, &r.req} {
		if sp := r.take(p); sp != nil {
			sp.Discard()
		}
	}
}

// Recall returns the record of request_id in workspace, if one is kept.
func (s *Store) Recall(workspace, requestID string) (*Record, bool) {
	b, err := s.read(statePath(kindRequests, recordName(workspace, requestID)))
	if err != nil {
		return nil, false
	}
	var r Record
	if json.Unmarshal(b, &r) != nil || s.now().Sub(r.RecordedAt) > RecordTTL {
		return nil, false
	}
	return &r, true
}

// Sweep removes candidates and records past their lifetime; the service
// calls it when it starts.
func (s *Store) Sweep() {
	now := s.now()
	r, err := fsutil.OpenRoot(s.root)
	if err != nil {
		return
	}
	defer r.Close()
	for kind, ttl := range map[string]time.Duration{kindCandidates: CandidateTTL + RecordTTL, kindRequests: RecordTTL} {
		dir := kindDir(kind)
		entries, _ := r.ReadDir(dir)
		for _, e := range entries {
			if fi, err := r.Lstat(dir + "/" + e.Name()); err == nil && now.Sub(fi.ModTime()) > ttl {
				r.Remove(dir + "/" + e.Name())
			}
		}
	}
}

// Fingerprint is the lowercase hex SHA-256 of parts joined by NUL bytes:
// the canonical input fingerprint of a request.
func Fingerprint(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// CanonicalJSON re-encodes raw with sorted object keys and no
// insignificant space; numbers keep their written form. Request
// fingerprints hash it, so that the same request written otherwise has
// the same fingerprint.
func CanonicalJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "null"
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
