// Package publish writes candidates to the project's files, the one door
// through which acore-semantic changes user files. An apply is proven
// against a kill of the process at any step:
//
//  1. The caller rechecks, under the publish lock, that every file the
//     candidate writes still has its base content (Check).
//  2. Apply writes a backup of each file's base content and a journal
//     entry (state pending) under .axiom/state/journal/<id>/, synced.
//  3. Each file is replaced atomically: a temp file beside it, fsync,
//     rename, fsync of the directory. A removed file is unlinked.
//  4. The journal entry is marked committed.
//  5. The caller writes the receipt (WriteReceipt) and its records, then
//     removes the journal (Remove).
//
// A journal left behind by a killed process is settled by Reconcile: files
// that all have the candidate's content commit it; files that each have
// the base or the candidate's content are rolled back from the backups;
// a file with any other content leaves the journal pending, for a person
// to look at (recovery_required). Every file is always either whole old or
// whole new content: a temp file is never renamed before it is synced.
package publish

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/axiomcore/acore/internal/fsutil"
)

// Folders under the project root.
const (
	StateDir   = ".axiom/state"
	JournalDir = StateDir + "/journal"
	ReceiptDir = StateDir + "/receipts"
	lockFile   = StateDir + "/publish.lock"
)

// Journal states on disk. A pending journal is pending_reconcile in a
// receipt.
const (
	Pending    = "pending"
	Committed  = "committed"
	RolledBack = "rolled_back"
)

// Receipt outcomes.
const (
	Applied    = "applied"
	NotApplied = "not_applied"
	Unknown    = "unknown"
)

// File is one file an apply writes: its digest before (nil: it must not
// exist) and after (nil: it is removed) and its new content.
type File struct {
	Path    string      `json:"path"`
	Before  *string     `json:"before_sha256"`
	After   *string     `json:"after_sha256"`
	Mode    fs.FileMode `json:"mode,omitempty"`
	Content []byte      `json:"-"`
}

// Change is added, modified or removed.
func (f File) Change() string {
	switch {
	case f.Before == nil:
		return "added"
	case f.After == nil:
		return "removed"
	}
	return "modified"
}

// FileChange is the protocol's fileChange.
type FileChange struct {
	Path   string  `json:"path"`
	Before *string `json:"before_sha256"`
	After  *string `json:"after_sha256"`
	Change string  `json:"change"`
}

// Plan is what one apply writes and what its receipt says.
type Plan struct {
	Workspace        string
	RequestID        string
	Fingerprint      string
	Candidate        string
	CandidateVersion int
	BaseSnapshot     string
	IDMap            json.RawMessage
	Files            []File
}

// Entry is a journal entry.
type Entry struct {
	ID               string          `json:"id"`
	State            string          `json:"state"`
	ReceiptID        string          `json:"receipt_id"`
	Workspace        string          `json:"workspace"`
	RequestID        string          `json:"request_id"`
	Fingerprint      string          `json:"input_fingerprint"`
	Candidate        string          `json:"candidate"`
	CandidateVersion int             `json:"candidate_version"`
	BaseSnapshot     string          `json:"base_snapshot"`
	IDMap            json.RawMessage `json:"id_map"`
	Files            []File          `json:"files"`
	CreatedAt        time.Time       `json:"created_at"`
}

// Receipt is the protocol's receipt.
type Receipt struct {
	ReceiptID        string          `json:"receipt_id"`
	RequestID        string          `json:"request_id"`
	InputFingerprint string          `json:"input_fingerprint"`
	Outcome          string          `json:"outcome"`
	Candidate        string          `json:"candidate"`
	CandidateVersion int             `json:"candidate_version"`
	BaseSnapshot     string          `json:"base_snapshot"`
	ResultSnapshot   string          `json:"result_snapshot,omitempty"`
	Files            []FileChange    `json:"files"`
	IDMap            json.RawMessage `json:"id_map"`
	Journal          JournalRef      `json:"journal"`
	RecordedAt       string          `json:"recorded_at"`
}

// JournalRef is the receipt's journal: its id and state.
type JournalRef struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

// Receipt is the receipt of e with outcome, recorded now.
func (e *Entry) Receipt(outcome, resultSnapshot string) *Receipt {
	state := e.State
	if state == Pending {
		state = "pending_reconcile"
	}
	idMap := e.IDMap
	if len(idMap) == 0 {
		idMap = json.RawMessage("[]")
	}
	r := &Receipt{ReceiptID: e.ReceiptID, RequestID: e.RequestID, InputFingerprint: e.Fingerprint, Outcome: outcome,
		Candidate: e.Candidate, CandidateVersion: e.CandidateVersion, BaseSnapshot: e.BaseSnapshot,
		ResultSnapshot: resultSnapshot, IDMap: idMap, Journal: JournalRef{ID: e.ID, State: state},
		RecordedAt: time.Now().UTC().Format("2006-01-02T15:04:05Z")}
	for _, f := range e.Files {
		r.Files = append(r.Files, FileChange{Path: f.Path, Before: f.Before, After: f.After, Change: f.Change()})
	}
	return r
}

// MismatchError says which files did not have the content an apply
// expected; nothing was written.
type MismatchError struct{ Paths []string }

func (e *MismatchError) Error() string {
	return "files changed on disk: " + strings.Join(e.Paths, ", ")
}

// UnknownError is an apply that failed while writing and could not be
// rolled back: its journal stays pending.
type UnknownError struct {
	Entry *Entry
	Err   error
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("apply %s interrupted and not rolled back: %v", e.Entry.ID, e.Err)
}

func (e *UnknownError) Unwrap() error { return e.Err }

// ErrAbandoned is returned by Apply when its start function refuses: the
// attempt may no longer start writing.
var ErrAbandoned = errors.New("apply abandoned before writing")

// Publisher publishes to one project root. Its lock serializes applies
// and reconciles within the process and, with an advisory file lock,
// across processes.
type Publisher struct {
	root  string
	sem   chan struct{}
	swept sync.Once
}

// New returns the publisher of the project at root.
func New(root string) *Publisher {
	return &Publisher{root: root, sem: make(chan struct{}, 1)}
}

// Lock takes the publish lock, waiting until ctx is done.
func (p *Publisher) Lock(ctx context.Context) (release func(), err error) {
	return p.lock(ctx, true)
}

// TryLock takes the publish lock if it is free now.
func (p *Publisher) TryLock() (release func(), ok bool) {
	r, err := p.lock(context.Background(), false)
	return r, err == nil
}

var errBusy = errors.New("the publish lock is held")

func (p *Publisher) lock(ctx context.Context, wait bool) (func(), error) {
	if wait {
		select {
		case p.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	} else {
		select {
		case p.sem <- struct{}{}:
		default:
			return nil, errBusy
		}
	}
	fail := func(err error) (func(), error) {
		<-p.sem
		return nil, err
	}
	path, err := p.path(lockFile)
	if err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fail(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fail(err)
	}
	for {
		busy, err := tryLock(f)
		if err != nil {
			f.Close()
			return fail(err)
		}
		if !busy {
			break
		}
		if !wait {
			f.Close()
			return fail(errBusy)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return fail(ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
	return func() {
		_ = unlock(f)
		f.Close()
		<-p.sem
	}, nil
}

func (p *Publisher) path(rel string) (string, error) { return fsutil.Resolve(p.root, rel) }

// Digest returns the SHA-256 of the project file rel, nil when it does not
// exist.
func (p *Publisher) Digest(rel string) (*string, error) {
	abs, err := p.path(rel)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return sum(data), nil
}

func sum(data []byte) *string {
	s := sha256.Sum256(data)
	h := hex.EncodeToString(s[:])
	return &h
}

func same(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// Check lists the files whose content on disk is not their Before.
func (p *Publisher) Check(files []File) ([]string, error) {
	var bad []string
	for _, f := range files {
		cur, err := p.Digest(f.Path)
		if err != nil {
			return nil, err
		}
		if !same(cur, f.Before) {
			bad = append(bad, f.Path)
		}
	}
	return bad, nil
}

func randomID(prefix string) string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return prefix + hex.EncodeToString(b)
}

// Apply writes plan's files under a journal and returns the committed
// entry. Call it holding the lock, after Check. start, when not nil, is
// called with the entry (its ids set, nothing written yet) just before the
// first write; when it returns false nothing is written and the error is
// ErrAbandoned. A failure before any file was replaced, or one rolled
// back, returns a nil entry: nothing was written. A failure that could not
// be rolled back is an *UnknownError.
func (p *Publisher) Apply(plan Plan, start func(*Entry) bool) (*Entry, error) {
	if err := Fail("before_journal"); err != nil {
		return nil, err
	}
	e := &Entry{ID: randomID("jrnl-"), State: Pending, ReceiptID: randomID("rcpt-"), Workspace: plan.Workspace,
		RequestID: plan.RequestID, Fingerprint: plan.Fingerprint, Candidate: plan.Candidate,
		CandidateVersion: plan.CandidateVersion, BaseSnapshot: plan.BaseSnapshot, IDMap: plan.IDMap,
		CreatedAt: time.Now().UTC()}
	for _, f := range plan.Files {
		e.Files = append(e.Files, File{Path: f.Path, Before: f.Before, After: f.After, Mode: 0o644})
	}
	if start != nil && !start(e) {
		return nil, ErrAbandoned
	}
	dir, err := p.path(JournalDir + "/" + e.ID)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	discard := func(err error) (*Entry, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	for i, f := range plan.Files {
		if f.Before != nil {
			abs, err := p.path(f.Path)
			if err != nil {
				return discard(err)
			}
			data, err := os.ReadFile(abs)
			if err != nil || !same(sum(data), f.Before) {
				return discard(&MismatchError{Paths: []string{f.Path}})
			}
			if fi, err := os.Stat(abs); err == nil {
				e.Files[i].Mode = fi.Mode().Perm()
			}
			if err := writeSynced(filepath.Join(dir, backupName(i)), data, 0o600); err != nil {
				return discard(err)
			}
		} else if cur, err := p.Digest(f.Path); err != nil || cur != nil {
			return discard(&MismatchError{Paths: []string{f.Path}})
		}
	}
	if err := Fail("after_backups"); err != nil {
		return discard(err)
	}
	if err := p.writeEntry(e); err != nil {
		return discard(err)
	}
	if err := fsutil.SyncDir(filepath.Dir(dir)); err != nil {
		return discard(err)
	}
	if err := Fail("after_journal"); err != nil {
		return p.abort(e, err)
	}
	for i, f := range plan.Files {
		if err := p.replace(e, i, f.Content, f.After == nil); err != nil {
			return p.abort(e, err)
		}
	}
	if err := Fail("after_files"); err != nil {
		return p.abort(e, err)
	}
	e.State = Committed
	if err := p.writeEntry(e); err != nil {
		e.State = Pending
		return p.abort(e, err)
	}
	_ = Fail("after_commit") // an injected error here changes nothing: the apply is committed
	return e, nil
}

// abort rolls back an apply that failed while writing.
func (p *Publisher) abort(e *Entry, cause error) (*Entry, error) {
	state, stuck, err := p.Rollback(e)
	if err == nil && state == RolledBack {
		return nil, cause
	}
	if err == nil {
		err = fmt.Errorf("%w; files neither base nor candidate: %s", cause, strings.Join(stuck, ", "))
	}
	return nil, &UnknownError{Entry: e, Err: err}
}

func backupName(i int) string { return fmt.Sprintf("%d.bak", i) }

func (p *Publisher) entryPath(id string) (string, error) {
	return p.path(JournalDir + "/" + id + "/entry.json")
}

func (p *Publisher) writeEntry(e *Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	path, err := p.entryPath(e.ID)
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, b, 0o600)
}

// tempName is the temp file of one apply beside a project file; it is
// known, so Reconcile can remove one a kill left.
func tempName(abs, journal string) string {
	return filepath.Join(filepath.Dir(abs), "."+filepath.Base(abs)+"."+journal+".tmp")
}

// replace writes file i of e: content, or removes it.
func (p *Publisher) replace(e *Entry, i int, content []byte, remove bool) error {
	f := e.Files[i]
	n := i + 1
	abs, err := p.path(f.Path)
	if err != nil {
		return err
	}
	tempPoint, renamedPoint := fmt.Sprintf("file_%d_temp", n), fmt.Sprintf("file_%d_renamed", n)
	if remove {
		if err := Fail(tempPoint); err != nil {
			return err
		}
		if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := Fail(renamedPoint); err != nil {
			return err
		}
		if err := fsutil.SyncDir(filepath.Dir(abs)); err != nil {
			return err
		}
	} else if err := writeAtomic(abs, tempName(abs, e.ID), content, f.Mode, tempPoint, renamedPoint); err != nil {
		return err
	}
	return Fail(fmt.Sprintf("after_file_%d", n))
}

// writeAtomic replaces abs with data through the temp file tmp: write,
// fsync, rename, fsync of the directory, passing the failpoints named.
func writeAtomic(abs, tmp string, data []byte, mode fs.FileMode, tempPoint, renamedPoint string) error {
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeSynced(tmp, data, mode); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := Fail(tempPoint); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, abs); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := Fail(renamedPoint); err != nil {
		return err
	}
	return fsutil.SyncDir(dir)
}

// writeSynced creates path with data and mode and fsyncs it.
func writeSynced(path string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode) // not filtered by the umask
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Reconcile settles a pending journal from the files on disk; call it
// holding the lock. When every file has the candidate's content the entry
// is marked committed (state Committed) and the caller finishes the apply.
// When each file has either the base or the candidate's content, the
// candidate's files are restored from the backups and the journal is
// removed (RolledBack); the caller may then apply again. When a file has
// any other content nothing is written and the journal stays pending;
// stuck names those files.
func (p *Publisher) Reconcile(e *Entry) (state string, stuck []string, err error) {
	return p.settle(e, true)
}

// Rollback is Reconcile that never commits: files with the candidate's
// content are restored too.
func (p *Publisher) Rollback(e *Entry) (state string, stuck []string, err error) {
	return p.settle(e, false)
}

func (p *Publisher) settle(e *Entry, commit bool) (state string, stuck []string, err error) {
	p.removeTemps(e)
	var restore []int
	all := true
	for i, f := range e.Files {
		cur, err := p.Digest(f.Path)
		if err != nil {
			return Pending, nil, err
		}
		switch {
		case same(cur, f.After):
			if !same(cur, f.Before) {
				restore = append(restore, i)
			}
		case same(cur, f.Before):
			all = false
		default:
			stuck = append(stuck, f.Path)
		}
	}
	if len(stuck) > 0 {
		return Pending, stuck, nil
	}
	if all && commit {
		if e.State != Committed {
			e.State = Committed
			if err := p.writeEntry(e); err != nil {
				e.State = Pending
				return Pending, nil, err
			}
		}
		return Committed, nil, nil
	}
	dir, err := p.path(JournalDir + "/" + e.ID)
	if err != nil {
		return Pending, nil, err
	}
	for _, i := range restore {
		f := e.Files[i]
		abs, err := p.path(f.Path)
		if err != nil {
			return Pending, nil, err
		}
		if f.Before == nil {
			if err := os.Remove(abs); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return Pending, nil, err
			}
			if err := fsutil.SyncDir(filepath.Dir(abs)); err != nil {
				return Pending, nil, err
			}
		} else {
			data, err := os.ReadFile(filepath.Join(dir, backupName(i)))
			if err != nil {
				return Pending, nil, fmt.Errorf("backup of %s: %w", f.Path, err)
			}
			if !same(sum(data), f.Before) {
				return Pending, nil, fmt.Errorf("backup of %s does not have the base content", f.Path)
			}
			if err := writeAtomic(abs, tempName(abs, e.ID), data, f.Mode, "", ""); err != nil {
				return Pending, nil, err
			}
		}
		if err := Fail(fmt.Sprintf("reconcile_restore_%d", i+1)); err != nil {
			return Pending, nil, err
		}
	}
	e.State = RolledBack
	return RolledBack, nil, p.Remove(e)
}

func (p *Publisher) removeTemps(e *Entry) {
	for _, f := range e.Files {
		if abs, err := p.path(f.Path); err == nil {
			os.Remove(tempName(abs, e.ID))
		}
	}
}

// Remove deletes a settled journal and its backups.
func (p *Publisher) Remove(e *Entry) error {
	dir, err := p.path(JournalDir + "/" + e.ID)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return fsutil.SyncDir(filepath.Dir(dir))
}

// Entries returns the journals not yet removed, oldest first. A journal
// folder without an entry (a kill before the entry was durable: no project
// file was touched) is removed. Call it holding the lock.
func (p *Publisher) Entries() ([]*Entry, error) {
	dir, err := p.path(JournalDir)
	if err != nil {
		return nil, err
	}
	list, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Entry
	for _, d := range list {
		if !d.IsDir() || !strings.HasPrefix(d.Name(), "jrnl-") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, d.Name(), "entry.json"))
		if errors.Is(err, fs.ErrNotExist) {
			os.RemoveAll(filepath.Join(dir, d.Name()))
			continue
		}
		if err != nil {
			return nil, err
		}
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, fmt.Errorf("journal %s: %w", d.Name(), err)
		}
		out = append(out, &e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, nil
}

func (p *Publisher) receiptPath(id string) (string, error) {
	if !validID(id) {
		return "", fmt.Errorf("invalid receipt id %q", id)
	}
	return p.path(ReceiptDir + "/" + id + ".json")
}

func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// WriteReceipt stores r under .axiom/state/receipts.
func (p *Publisher) WriteReceipt(r *Receipt) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	path, err := p.receiptPath(r.ReceiptID)
	if err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, b, 0o600)
}

// ReadReceipt returns the stored receipt id; fs.ErrNotExist when none.
func (p *Publisher) ReadReceipt(id string) (*Receipt, error) {
	path, err := p.receiptPath(id)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Receipt
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("receipt %s: %w", id, err)
	}
	return &r, nil
}

// Receipts calls fn with each stored receipt until it returns false.
func (p *Publisher) Receipts(fn func(*Receipt) bool) {
	dir, err := p.path(ReceiptDir)
	if err != nil {
		return
	}
	list, _ := os.ReadDir(dir)
	for _, d := range list {
		id, ok := strings.CutSuffix(d.Name(), ".json")
		if !ok || !strings.HasPrefix(id, "rcpt-") {
			continue
		}
		if r, err := p.ReadReceipt(id); err == nil && !fn(r) {
			return
		}
	}
}

// SweepOnce is Sweep, the first time it is called on p.
func (p *Publisher) SweepOnce(ttl time.Duration) { p.swept.Do(func() { p.Sweep(ttl) }) }

// Sweep removes receipts older than ttl.
func (p *Publisher) Sweep(ttl time.Duration) {
	dir, err := p.path(ReceiptDir)
	if err != nil {
		return
	}
	list, _ := os.ReadDir(dir)
	now := time.Now()
	for _, d := range list {
		if fi, err := d.Info(); err == nil && now.Sub(fi.ModTime()) > ttl {
			os.Remove(filepath.Join(dir, d.Name()))
		}
	}
}
