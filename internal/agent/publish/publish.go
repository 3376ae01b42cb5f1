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
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// Folders under the project root.
const (
	StateDir   = fsutil.StateDir
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
func (f File) Change() string { return ChangeOf(f.Before, f.After) }

// ChangeOf is "added", "modified" or "removed": what a file whose digest
// was before and is after underwent (nil: it did not exist).
func ChangeOf(before, after *string) string {
	switch {
	case before == nil:
		return "added"
	case after == nil:
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
type MismatchError struct {
	Paths []string
	// Kept names the files (beside the ones changed) that hold an
	// external edit an apply displaced and could not put back in place,
	// because the file changed once more in that instant.
	Kept []string
	// Shown is set when the apply's content was in place for an instant
	// before the external edit was found and put back: a writer that read
	// the file then and saved again built on content that is now gone,
	// the one edit of a non-cooperating writer this cannot protect.
	Shown bool
}

func (e *MismatchError) Error() string {
	msg := "files changed on disk: " + strings.Join(e.Paths, ", ")
	if len(e.Kept) > 0 {
		msg += "; an edit made while the apply replaced them is kept in " + strings.Join(e.Kept, ", ")
	}
	return msg
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
	root   string
	sem    chan struct{}
	swept  sync.Once
	points *Failpoints
	// exchange is fsutil.Root.Exchange; tests make it unsupported to
	// prove the publication other systems get.
	exchange func(dir *fsutil.Root, a, b string) error
}

// New returns the publisher of the project at root, with no failpoint
// armed.
func New(root string) *Publisher {
	return &Publisher{root: root, sem: make(chan struct{}, 1), exchange: (*fsutil.Root).Exchange}
}

// Arm arms fp in p (nil arms none) and returns p. Only the command arms
// failpoints, from its environment, for the kill tests.
func (p *Publisher) Arm(fp *Failpoints) *Publisher {
	p.points = fp
	return p
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
	r, err := p.open()
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	if err := r.MkdirAll(StateDir, 0o755); err != nil {
		return fail(err)
	}
	f, err := r.OpenFile(lockFile, os.O_RDWR|os.O_CREATE, 0o600)
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

// open opens the project root. Every file and directory the publisher
// touches is reached through this handle, which the kernel confines to
// the root: a directory swapped for a symlink leading outside while an
// apply runs fails the access instead of redirecting it.
func (p *Publisher) open() (*fsutil.Root, error) { return fsutil.OpenRoot(p.root) }

// target is the project file rel after the symlinks inside the root on
// its way: an apply writes the file a symlinked source designates, as the
// loader reads it. A path leading outside the root wraps fsutil.ErrEscape.
// The lookup only chooses which file inside the root to write; every
// access after it goes through the confined root.
func (p *Publisher) target(rel string) (string, error) {
	abs, err := fsutil.Resolve(p.root, rel)
	if err != nil {
		return "", err
	}
	realRoot, err := filepath.EvalSymlinks(p.root)
	if err != nil {
		return "", err
	}
	t, err := filepath.Rel(realRoot, abs)
	if err != nil {
		return "", err
	}
	t = filepath.ToSlash(t)
	if err := fsutil.ValidRelPath(t); err != nil {
		return "", fmt.Errorf("%s: %w", rel, fsutil.ErrEscape)
	}
	return t, nil
}

// Digest returns the SHA-256 of the project file rel, nil when it does not
// exist. Something other than a regular file there wraps
// fsutil.ErrNotRegular.
func (p *Publisher) Digest(rel string) (*string, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return p.digest(r, rel)
}

func (p *Publisher) digest(r *fsutil.Root, rel string) (*string, error) {
	t, err := p.target(rel)
	if err != nil {
		return nil, err
	}
	data, err := r.ReadFile(t)
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

// Check lists the files whose content on disk is not their Before; a
// file that is no longer a regular file is listed too.
func (p *Publisher) Check(files []File) ([]string, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var bad []string
	for _, f := range files {
		cur, err := p.digest(r, f.Path)
		if errors.Is(err, fsutil.ErrNotRegular) {
			bad = append(bad, f.Path)
			continue
		}
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
// back, returns a nil entry: nothing was written. A file found changed by
// another process, before its replacement or right after it, is a
// *MismatchError once the files already replaced are rolled back. A
// failure that could not be rolled back is an *UnknownError.
func (p *Publisher) Apply(plan Plan, start func(*Entry) bool) (*Entry, error) {
	if err := p.points.pass("before_journal"); err != nil {
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
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	dir := JournalDir + "/" + e.ID
	if err := r.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	discard := func(err error) (*Entry, error) {
		r.RemoveAll(dir)
		return nil, err
	}
	for i, f := range plan.Files {
		t, err := p.target(f.Path)
		if err != nil {
			return discard(err)
		}
		if f.Before == nil {
			if _, err := r.Lstat(t); !errors.Is(err, fs.ErrNotExist) {
				return discard(&MismatchError{Paths: []string{f.Path}})
			}
			continue
		}
		h, fi, err := r.OpenRegular(t)
		if errors.Is(err, fsutil.ErrEscape) {
			return discard(err)
		}
		if err != nil {
			return discard(&MismatchError{Paths: []string{f.Path}})
		}
		data, err := fsutil.ReadAll(h, fi.Size())
		h.Close()
		if err != nil || !same(sum(data), f.Before) {
			return discard(&MismatchError{Paths: []string{f.Path}})
		}
		e.Files[i].Mode = fi.Mode().Perm()
		if err := r.CreateSynced(dir+"/"+backupName(i), data, 0o600, true); err != nil {
			return discard(err)
		}
	}
	if err := p.points.pass("after_backups"); err != nil {
		return discard(err)
	}
	if err := writeEntry(r, e); err != nil {
		return discard(err)
	}
	if err := r.Sync(JournalDir); err != nil {
		return discard(err)
	}
	all := len(plan.Files)
	if err := p.points.pass("after_journal"); err != nil {
		return p.abort(e, err, all)
	}
	for i, f := range plan.Files {
		if err := p.replace(r, e, i, f.Content, f.After == nil); err != nil {
			// A file found changed was not replaced, or was put back:
			// only the files before it are rolled back.
			var mismatch *MismatchError
			if errors.As(err, &mismatch) {
				return p.abort(e, err, i)
			}
			return p.abort(e, err, i+1)
		}
	}
	if err := p.points.pass("after_files"); err != nil {
		return p.abort(e, err, all)
	}
	e.State = Committed
	if err := writeEntry(r, e); err != nil {
		e.State = Pending
		return p.abort(e, err, all)
	}
	_ = p.points.pass("after_commit") // an injected error here changes nothing: the apply is committed
	return e, nil
}

// abort rolls back an apply that failed while writing, considering its
// first n files: the ones it may have replaced. A MismatchError (an
// external write found while replacing) is returned as it is once the
// rollback succeeds: nothing of the apply is left.
func (p *Publisher) abort(e *Entry, cause error, n int) (*Entry, error) {
	state, stuck, err := p.settle(e, false, n)
	if err == nil && state == RolledBack {
		return nil, cause
	}
	if err == nil {
		err = fmt.Errorf("%w; files neither base nor candidate: %s", cause, strings.Join(stuck, ", "))
	}
	return nil, &UnknownError{Entry: e, Err: err}
}

func backupName(i int) string { return fmt.Sprintf("%d.bak", i) }

func writeEntry(r *fsutil.Root, e *Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return r.WriteFileAtomic(JournalDir+"/"+e.ID+"/entry.json", b, 0o600)
}

// tempName is the temp file of one apply beside the file named base; it
// is known, so Reconcile can remove one a kill left.
func tempName(base, journal string) string { return "." + base + "." + journal + ".tmp" }

// asideName is the hard link that keeps the file an apply replaces where
// exchange is not available, until it is verified.
func asideName(base, journal string) string { return "." + base + "." + journal + ".old" }

// keptName is where an apply that could neither keep nor undo its
// replacement of base leaves the file it replaced, so that an external
// edit in it is not lost: Reconcile never removes it.
func keptName(base, journal string) string { return "." + base + "." + journal + ".replaced" }

// splitRel splits a project path into its directory ("." for the root)
// and its last segment.
func splitRel(rel string) (dir, base string) {
	dir, base = path.Split(rel)
	if dir == "" {
		return ".", base
	}
	return strings.TrimSuffix(dir, "/"), base
}

// replace writes file i of e: content, or removes it.
func (p *Publisher) replace(r *fsutil.Root, e *Entry, i int, content []byte, remove bool) error {
	f := e.Files[i]
	n := i + 1
	t, err := p.target(f.Path)
	if err != nil {
		return err
	}
	tempPoint, renamedPoint := fmt.Sprintf("file_%d_temp", n), fmt.Sprintf("file_%d_renamed", n)
	dirRel, base := splitRel(t)
	if f.Before == nil {
		// Only a created file may need its directory created: the
		// directory of a file that had base content must still be there.
		if err := r.MkdirAll(dirRel, 0o755); err != nil {
			return err
		}
	}
	// The directory is opened once: the temp file, the check, the rename
	// and the sync all go through this descriptor, so swapping the
	// directory for a symlink meanwhile cannot move any of them.
	dir, err := r.Dir(dirRel)
	if err != nil {
		return err
	}
	defer dir.Close()
	tmp := tempName(base, e.ID)
	if !remove {
		dir.Remove(tmp)
		if err := dir.CreateSynced(tmp, content, f.Mode, true); err != nil {
			dir.Remove(tmp)
			return err
		}
	}
	if err := p.points.pass(tempPoint); err != nil {
		if !remove {
			dir.Remove(tmp)
		}
		return err
	}
	if err := p.publishFile(dir, base, tmp, e.ID, f, remove); err != nil {
		return err
	}
	if err := p.points.pass(renamedPoint); err != nil {
		return err
	}
	if err := dir.Sync("."); err != nil {
		return err
	}
	return p.points.pass(fmt.Sprintf("after_file_%d", n))
}

// publishFile puts the temp file tmp in place of base (or removes base)
// in dir, so that an external edit of base is never silently lost: it is
// either refused before anything is replaced, or found right after the
// replacement and put back, and reported as a *MismatchError.
//
// Just before the rename, base is opened and held: it must still be the
// regular file with the base content. Where the kernel allows it a read
// lease is taken on it, which fails while anyone has the file open for
// writing and makes anyone opening it for writing from then on wait, and
// break the lease. The temp file is then exchanged with base
// (renameat2 RENAME_EXCHANGE), so the file that was replaced is left
// under the temp name. After the exchange, the replaced file must be the
// held one, its content still the base content and the lease unbroken;
// otherwise the exchange is undone, which puts that very file back.
// Without exchange (other systems, some file systems) base is first hard
// linked aside and the temp file renamed over it, and the same checks and
// undo use the link; an editor's rename landing between the link and the
// rename is the one edit that goes unseen. Without hard links either, the
// held file's content is checked after the rename and written back if it
// changed.
func (p *Publisher) publishFile(dir *fsutil.Root, base, tmp, journal string, f File, remove bool) error {
	mismatch := &MismatchError{Paths: []string{f.Path}}
	if f.Before == nil {
		// Created: a link fails when base exists, where a rename would
		// replace a file created meanwhile.
		err := dir.Link(tmp, base)
		switch {
		case err == nil:
			dir.Remove(tmp)
			return nil
		case errors.Is(err, fs.ErrExist):
			dir.Remove(tmp)
			return mismatch
		}
		if _, err := dir.Lstat(base); !errors.Is(err, fs.ErrNotExist) {
			dir.Remove(tmp)
			return mismatch
		}
		return dir.Rename(tmp, base)
	}
	dropTemp := func() {
		if !remove {
			dir.Remove(tmp)
		}
	}
	held, heldInfo, err := dir.OpenRegular(base)
	if err != nil {
		dropTemp()
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fsutil.ErrNotRegular) || errors.Is(err, fsutil.ErrEscape) {
			return mismatch
		}
		return err
	}
	defer held.Close()
	release, broken, leased, err := fsutil.ReadLease(held)
	if err != nil {
		dropTemp()
		return mismatch // someone is writing it right now
	}
	if leased {
		defer release()
	}
	intact := func() bool {
		if leased && broken() {
			return false
		}
		data, err := fsutil.ReadAll(io.NewSectionReader(held, 0, 1<<62), heldInfo.Size())
		return err == nil && same(sum(data), f.Before)
	}
	if !intact() {
		dropTemp()
		return mismatch
	}
	// A rename over base since it was opened is refused here rather than
	// found after the exchange: undoing an exchange leaves an instant in
	// which a reader sees this apply's content and may build on it.
	if now, err := dir.Lstat(base); err != nil || !os.SameFile(now, heldInfo) {
		dropTemp()
		return mismatch
	}

	// aside is where the file base had ends up: the temp name after an
	// exchange or a removal; without exchange, a hard link made just
	// before the temp file is renamed over base ("" when the file system
	// has no hard links: only the held descriptor keeps that file then).
	aside := tmp
	var ours fs.FileInfo // this apply's temp file
	if remove {
		err = dir.Rename(base, tmp)
	} else if ours, err = dir.Lstat(tmp); err == nil {
		err = p.exchange(dir, tmp, base)
		if errors.Is(err, errors.ErrUnsupported) {
			aside = asideName(base, journal)
			dir.Remove(aside)
			if dir.Link(base, aside) != nil {
				aside = ""
			}
			err = dir.Rename(tmp, base)
		}
	}
	if err != nil {
		dropTemp()
		if aside != tmp && aside != "" {
			dir.Remove(aside)
		}
		return err
	}
	if aside == "" {
		if intact() {
			return nil
		}
		// The held file was written between the check and the rename:
		// put its content back, unless base changed again since.
		data, rerr := fsutil.ReadAll(io.NewSectionReader(held, 0, 1<<62), 0)
		if rerr == nil && sameContent(dir, base, f.After) {
			if rerr = dir.WriteFileAtomic(base, data, f.Mode); rerr == nil {
				return mismatch
			}
		}
		return fmt.Errorf("%s was written by another process while it was replaced, and could not be put back: %v", f.Path, rerr)
	}
	moved, err := dir.Lstat(aside)
	if err == nil && os.SameFile(moved, heldInfo) && intact() {
		return dir.Remove(aside)
	}
	// What was replaced is not the base file as checked: undo, provided
	// base still holds what this apply put there. The very file is put
	// back, so a writer that opened it meanwhile writes into base.
	if (remove && !exists(dir, base)) || (!remove && sameContent(dir, base, f.After)) {
		if err := p.undo(dir, base, tmp, aside, remove); err == nil {
			mismatch.Shown = true
			if remove || aside != tmp {
				return mismatch
			}
			// The exchange back moved to tmp what base held then: this
			// apply's file, unless base changed once more in between.
			if back, err := dir.Lstat(tmp); err == nil && os.SameFile(back, ours) {
				dir.Remove(tmp)
				return mismatch
			}
		}
	}
	// base changed again after the replacement: keep what is at the
	// aside name, an external edit, where a rollback does not remove it.
	kept := keptName(base, journal)
	if err := dir.Rename(aside, kept); err != nil {
		return fmt.Errorf("%s was written by another process while it was replaced; what it replaced is left as %s: %v", f.Path, aside, err)
	}
	mismatch.Kept = []string{path.Join(path.Dir(f.Path), kept)}
	mismatch.Shown = true
	return mismatch
}

// undo puts back the file an apply replaced (at aside) or removed (at
// tmp) in place of base.
func (p *Publisher) undo(dir *fsutil.Root, base, tmp, aside string, remove bool) error {
	switch {
	case remove:
		if err := dir.Link(tmp, base); err != nil {
			return err
		}
		return dir.Remove(tmp)
	case aside == tmp:
		return p.exchange(dir, tmp, base)
	}
	return dir.Rename(aside, base)
}

func exists(dir *fsutil.Root, name string) bool {
	_, err := dir.Lstat(name)
	return !errors.Is(err, fs.ErrNotExist)
}

// sameContent reports whether the file name in dir has the digest want.
func sameContent(dir *fsutil.Root, name string, want *string) bool {
	data, err := dir.ReadFile(name)
	return err == nil && same(sum(data), want)
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
	return p.settle(e, true, len(e.Files))
}

// Rollback is Reconcile that never commits: files with the candidate's
// content are restored too.
func (p *Publisher) Rollback(e *Entry) (state string, stuck []string, err error) {
	return p.settle(e, false, len(e.Files))
}

// settle is Reconcile (commit) or Rollback of the first n files of e; the
// others are not looked at.
func (p *Publisher) settle(e *Entry, commit bool, n int) (state string, stuck []string, err error) {
	r, err := p.open()
	if err != nil {
		return Pending, nil, err
	}
	defer r.Close()
	p.removeTemps(r, e)
	var restore []int
	all := true
	for i, f := range e.Files[:n] {
		cur, err := p.digest(r, f.Path)
		if errors.Is(err, fsutil.ErrNotRegular) {
			stuck = append(stuck, f.Path)
			continue
		}
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
			if err := writeEntry(r, e); err != nil {
				e.State = Pending
				return Pending, nil, err
			}
		}
		return Committed, nil, nil
	}
	dir := JournalDir + "/" + e.ID
	for _, i := range restore {
		f := e.Files[i]
		t, err := p.target(f.Path)
		if err != nil {
			return Pending, nil, err
		}
		dirRel, _ := splitRel(t)
		if f.Before == nil {
			if err := r.Remove(t); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return Pending, nil, err
			}
			if err := r.Sync(dirRel); err != nil {
				return Pending, nil, err
			}
		} else {
			data, err := r.ReadFile(dir + "/" + backupName(i))
			if err != nil {
				return Pending, nil, fmt.Errorf("backup of %s: %w", f.Path, err)
			}
			if !same(sum(data), f.Before) {
				return Pending, nil, fmt.Errorf("backup of %s does not have the base content", f.Path)
			}
			if err := r.WriteFileAtomic(t, data, f.Mode); err != nil {
				return Pending, nil, err
			}
		}
		if err := p.points.pass(fmt.Sprintf("reconcile_restore_%d", i+1)); err != nil {
			return Pending, nil, err
		}
	}
	e.State = RolledBack
	return RolledBack, nil, p.remove(r, e)
}

// removeTemps removes the temp files a killed apply of e may have left,
// and the link to a replaced file when it has the base content (another
// content is an external edit: it is left for a person to look at).
func (p *Publisher) removeTemps(r *fsutil.Root, e *Entry) {
	for _, f := range e.Files {
		t, err := p.target(f.Path)
		if err != nil {
			continue
		}
		dirRel, base := splitRel(t)
		for _, name := range []string{tempName(base, e.ID), asideName(base, e.ID)} {
			rel := path.Join(dirRel, name)
			data, err := r.ReadFile(rel)
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err == nil && (same(sum(data), f.Before) || same(sum(data), f.After)):
				r.Remove(rel)
			default:
				// Another content: an edit an interrupted apply
				// displaced. It is kept for a person to look at.
				r.Rename(rel, path.Join(dirRel, keptName(base, e.ID)))
			}
		}
	}
}

// Remove deletes a settled journal and its backups.
func (p *Publisher) Remove(e *Entry) error {
	r, err := p.open()
	if err != nil {
		return err
	}
	defer r.Close()
	return p.remove(r, e)
}

func (p *Publisher) remove(r *fsutil.Root, e *Entry) error {
	if err := r.RemoveAll(JournalDir + "/" + e.ID); err != nil {
		return err
	}
	return r.Sync(JournalDir)
}

// Entries returns the journals not yet removed, oldest first. A journal
// folder without an entry (a kill before the entry was durable: no project
// file was touched) is removed. Call it holding the lock.
func (p *Publisher) Entries() ([]*Entry, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	list, err := r.ReadDir(JournalDir)
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
		b, err := r.ReadFile(JournalDir + "/" + d.Name() + "/entry.json")
		if errors.Is(err, fs.ErrNotExist) {
			r.RemoveAll(JournalDir + "/" + d.Name())
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

func receiptRel(id string) (string, error) {
	if !validID(id) {
		return "", fmt.Errorf("invalid receipt id %q", id)
	}
	return ReceiptDir + "/" + id + ".json", nil
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

// WriteReceipt stores rc under .axiom/state/receipts.
func (p *Publisher) WriteReceipt(rc *Receipt) error {
	b, err := json.Marshal(rc)
	if err != nil {
		return err
	}
	rel, err := receiptRel(rc.ReceiptID)
	if err != nil {
		return err
	}
	r, err := p.open()
	if err != nil {
		return err
	}
	defer r.Close()
	return r.WriteFileAtomic(rel, b, 0o600)
}

// ReadReceipt returns the stored receipt id; fs.ErrNotExist when none.
func (p *Publisher) ReadReceipt(id string) (*Receipt, error) {
	r, err := p.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readReceipt(r, id)
}

func readReceipt(r *fsutil.Root, id string) (*Receipt, error) {
	rel, err := receiptRel(id)
	if err != nil {
		return nil, err
	}
	b, err := r.ReadFile(rel)
	if err != nil {
		return nil, err
	}
	var rc Receipt
	if err := json.Unmarshal(b, &rc); err != nil {
		return nil, fmt.Errorf("receipt %s: %w", id, err)
	}
	return &rc, nil
}

// Receipts calls fn with each stored receipt until it returns false.
func (p *Publisher) Receipts(fn func(*Receipt) bool) {
	r, err := p.open()
	if err != nil {
		return
	}
	defer r.Close()
	list, _ := r.ReadDir(ReceiptDir)
	for _, d := range list {
		id, ok := strings.CutSuffix(d.Name(), ".json")
		if !ok || !strings.HasPrefix(id, "rcpt-") {
			continue
		}
		if rc, err := readReceipt(r, id); err == nil && !fn(rc) {
			return
		}
	}
}

// SweepOnce is Sweep, the first time it is called on p.
func (p *Publisher) SweepOnce(ttl time.Duration) { p.swept.Do(func() { p.Sweep(ttl) }) }

// Sweep removes receipts older than ttl.
func (p *Publisher) Sweep(ttl time.Duration) {
	r, err := p.open()
	if err != nil {
		return
	}
	defer r.Close()
	list, _ := r.ReadDir(ReceiptDir)
	now := time.Now()
	for _, d := range list {
		if fi, err := d.Info(); err == nil && now.Sub(fi.ModTime()) > ttl {
			r.Remove(ReceiptDir + "/" + d.Name())
		}
	}
}

// Guarantees are the guarantees of this publication (the protocol's
// local_filesystem profile) as the capability manifest lists them; the kill tests (cmd/acore-semantic) prove
// the process-kill ones, the race tests of internal/agent/publish and
// internal/lang/load the ones against other processes.
var Guarantees = []string{
	"rechecks the candidate version, the required checks and every written file's base content before writing",
	"each file replaced atomically: temp file, fsync, rename, fsync of the directory",
	"journal and backups written and synced before the first file",
	"after a process kill at any step the apply ends applied, rolled back, or recovery_required; never a half-written file",
	"a resend with the same request_id never applies twice",
	"nothing outside the project root is read or written, even while another process swaps a file or folder for a symlink: every file and folder is opened through a handle on the root that the kernel confines, the temp file is created and renamed through its folder's handle, and a file is read only when it is a regular file once opened (opened without blocking, so a FIFO never stalls a request)",
	"an external edit is never silently lost: each file is checked again just before its replacement (held open; where the kernel grants a read lease, no one may be writing it and a writer who opens it meanwhile is detected), exchanged in atomically (renameat2 RENAME_EXCHANGE) and the file it replaced verified after; an edit found before the apply writes refuses it, one found after is put back into place, the files already replaced are rolled back, and the answer is precondition_failed (external_write); if the file changed once more in that instant, the displaced edit is kept beside it (.<name>.<journal>.replaced) and the answer names it in details.kept",
	"limits of those two: a folder another process moves out of the root while an apply holds it is followed there; without RENAME_EXCHANGE (systems other than Linux, file systems without it) the file is hard-linked aside and then renamed over, so an editor's rename landing between those two calls is not detected; where the kernel grants no read lease (a file the service's user does not own, file systems without leases), a writer that opened the file before the check and writes after the verification is not detected",
	"not proven against power loss or operating system crashes; no remote publication",
}
