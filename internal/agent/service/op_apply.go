package service

import (
	"encoding/json"
	"errors"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// change.apply publishes a candidate through internal/agent/publish. The rules,
// in order, all under the publish lock (one apply at a time per root,
// across processes):
//
//   - request_id is looked up first. A recorded receipt of the same input
//     is returned with replayed: true and nothing is written; a record of
//     another input is conflict (request_id_reused).
//   - A journal an interrupted attempt with this request_id left is
//     reconciled: files that all have the candidate's content finish that
//     attempt (its receipt, replayed: true); files that each have the base
//     or the candidate's content are rolled back from the backups and the
//     apply runs again; a file with other content is conflict
//     (recovery_required) naming the paths, and nothing is written.
//   - The candidate must exist in this workspace (not_found), be open
//     (candidate_closed; candidate_applied, retryable none, for one applied
//     under another request_id) and be at expected_candidate_version
//     (candidate_version_mismatch). Each of require_checks must have passed
//     on that version (check_required).
//   - preconditions, when given, must name every file the candidate writes
//     (invalid_arguments, preconditions_incomplete) and each must hold on
//     disk (external_write).
//   - Every written file must still have its base content (a created one
//     must not exist): otherwise conflict (concurrent_candidate) when it has
//     the content another applied candidate on the same base wrote, else
//     precondition_failed (external_write). An input of the base snapshot
//     the candidate does not write that is gone is external_write; one
//     edited or added is listed in base_changes.
//   - Then the journal, the files, the commit, the receipt, the request
//     record and the candidate marked applied; the result snapshot is
//     latest captured after the files are written.
//
// The input fingerprint is candidate.Fingerprint over "acore-apply/v1",
// the workspace id, the candidate id, expected_candidate_version in
// decimal, the preconditions as "path=sha256" (or "path=null") sorted by
// path and joined by ";", and require_checks sorted and joined by ",".

type applyPrecondition struct {
	Path   string  `json:"path"`
	SHA256 *string `json:"sha256"`
}

type applyParams struct {
	Candidate                string              `json:"candidate"`
	ExpectedCandidateVersion int                 `json:"expected_candidate_version"`
	Preconditions            []applyPrecondition `json:"preconditions,omitempty"`
	RequireChecks            []string            `json:"require_checks,omitempty"`
}

type applyResult struct {
	Replayed    bool                `json:"replayed"`
	Receipt     *publish.Receipt    `json:"receipt"`
	BaseChanges []change.FileChange `json:"base_changes,omitempty"`
}

// baseChangesMax bounds base_changes (the schema's maxItems).
const baseChangesMax = 50

func applyFingerprint(ws string, p *applyParams) string {
	pre := make([]string, 0, len(p.Preconditions))
	for _, pc := range p.Preconditions {
		v := "null"
		if pc.SHA256 != nil {
			v = *pc.SHA256
		}
		pre = append(pre, pc.Path+"="+v)
	}
	sort.Strings(pre)
	checks := append([]string(nil), p.RequireChecks...)
	sort.Strings(checks)
	return candidate.Fingerprint("acore-apply/v1", ws, p.Candidate, strconv.Itoa(p.ExpectedCandidateVersion),
		strings.Join(pre, ";"), strings.Join(checks, ","))
}

// applyProgress is what a timed-out change.apply reports: whether the
// attempt had started writing (or reconciling), and its journal entry.
// Handle creates it before the handler runs, from the request as sent.
type applyProgress struct {
	requestID string
	candidate string
	params    json.RawMessage
	req       *protocol.Request // decoded loosely, for echoing request_id

	mu        sync.Mutex
	started   bool
	abandoned bool
	receipt   *publish.Receipt // the unknown receipt of the attempt's journal
}

func newApplyProgress(top map[string]json.RawMessage) *applyProgress {
	p := &applyProgress{params: top["params"]}
	_ = json.Unmarshal(top["request_id"], &p.requestID)
	var params struct {
		Candidate string `json:"candidate"`
	}
	_ = json.Unmarshal(top["params"], &params)
	p.candidate = params.Candidate
	p.req = &protocol.Request{}
	_ = json.Unmarshal(encodeEnvelope(top), p.req)
	return p
}

// Stop asks the transports to end the process once the answers being
// written are out: after a timed-out change.apply, whose attempt may still
// be writing.
func (s *Service) Stop() { s.stopOnce.Do(func() { close(s.stop) }) }

// Stopping is closed when the process should exit after answering.
func (s *Service) Stopping() <-chan struct{} { return s.stop }

// start marks the attempt as writing; false when the answer was already
// given as a timeout with outcome not_applied.
func (p *applyProgress) start(e *publish.Entry) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.abandoned {
		return false
	}
	p.started = true
	if e != nil {
		p.receipt = e.Receipt(publish.Unknown, "")
	}
	return true
}

// abandon is called when the request timed out: an attempt that has not
// started writing can no longer start.
func (p *applyProgress) abandon() (outcome string, r *publish.Receipt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started {
		p.abandoned = true
		return publish.NotApplied, nil
	}
	return publish.Unknown, p.receipt
}

// applyTimedOut is the answer to a change.apply past timeout_ms. The
// process must exit after it: the attempt may go on writing, and only a
// new process can reconcile it safely.
func (s *Service) applyTimedOut(p *applyProgress) *protocol.Response {
	req := p.req
	outcome, receipt := p.abandon()
	e := protocol.Errorf(reason.Timeout,
		"change.apply ran past timeout_ms (%d); outcome %s: start the service again and send the same request with the same request_id",
		s.timeout.Milliseconds(), outcome).
		Detail("outcome", outcome).Detail("timeout_ms", s.timeout.Milliseconds())
	if p.candidate != "" {
		e.WithTarget("candidate", p.candidate)
	}
	if p.requestID != "" {
		e.WithTarget("request_id", p.requestID)
	}
	if receipt != nil {
		e.Detail("receipt", receipt)
	}
	var params map[string]any
	_ = json.Unmarshal(p.params, &params)
	e.Next("change.apply", "Send the same request again with the same request_id (after restarting the service)", params)
	s.Stop()
	r := s.errorResponse("change.apply", req, e)
	if req != nil && req.Workspace != nil && *req.Workspace == s.wsID {
		r.Workspace = &s.wsID
	}
	return r
}

func opChangeApply(c *call) (any, *protocol.Error) {
	var p applyParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	prog := c.progress
	if prog == nil {
		prog = &applyProgress{}
	}
	for _, pc := range p.Preconditions {
		if err := fsutil.ValidRelPath(pc.Path); err != nil {
			return nil, protocol.Errorf(reason.Schema, "params.preconditions: %v", err).WithTarget("path", pc.Path)
		}
	}
	checks, e := checkNames(p.RequireChecks, false)
	if e != nil {
		return nil, e
	}
	ws, requestID := c.s.wsID, *c.req.RequestID
	fp := applyFingerprint(ws, &p)

	release, err := c.s.pub.Lock(c.ctx)
	if err != nil {
		if c.ctx.Err() != nil { // answered by Handle as the apply's timeout
			return nil, protocol.Errorf(reason.Timeout, "waiting for another apply: %v", err)
		}
		return nil, stateError("taking the publish lock", err)
	}
	defer release()
	c.s.pub.SweepOnce(candidate.RecordTTL) // receipts past the records' lifetime
	st := c.s.held()
	st.Mu.Lock() // no version or state change of a candidate while applying
	defer st.Mu.Unlock()

	if res, e, done := c.s.applyAgain(st, ws, requestID, fp, prog); done {
		return res, e
	}
	cand, e := c.getCandidate(p.Candidate, false)
	if e != nil {
		return nil, e
	}
	if e := applicable(cand, &p, checks, requestID); e != nil {
		return nil, e
	}
	plan := publish.Plan{Workspace: ws, RequestID: requestID, Fingerprint: fp, Candidate: cand.ID,
		CandidateVersion: cand.Version, BaseSnapshot: cand.Base, IDMap: receiptIDMap(cand)}
	written := map[string]bool{}
	for _, f := range cand.Files {
		if _, err := fsutil.Resolve(c.s.root, f.Path); err != nil {
			return nil, pathError(f.Path, err)
		}
		written[f.Path] = true
		plan.Files = append(plan.Files, publish.File{Path: f.Path, Before: f.Before, After: f.After, Content: f.Content})
	}
	if len(plan.Files) == 0 {
		return nil, protocol.Errorf(reason.Invariant, "candidate %s writes no file", cand.ID)
	}
	if e := c.s.preconditions(cand, p.Preconditions, plan.Files); e != nil {
		return nil, e
	}
	changes, gone := c.baseChanges(cand.Base, written)
	if len(gone) > 0 {
		return nil, externalWrite(cand, gone, "inputs of the base snapshot were deleted or renamed")
	}
	r, e := c.s.publishPlan(plan, cand, prog)
	if e != nil {
		return nil, e
	}
	res := applyResult{Receipt: r}
	if len(changes) > 0 {
		res.BaseChanges = changes
	}
	return res, nil
}

// applyAgain answers a request_id this service has answered before (its
// record) or whose attempt was interrupted (its journal): replayed,
// finished, recovery_required, or not done (a rolled-back attempt is
// applied again).
func (s *Service) applyAgain(st *change.Held, ws, requestID, fp string, prog *applyProgress) (any, *protocol.Error, bool) {
	if rec, ok := st.Store.Recall(ws, requestID); ok {
		if rec.Operation != "change.apply" || rec.Fingerprint != fp {
			return nil, requestIDReused(requestID), true
		}
		var r publish.Receipt
		if err := json.Unmarshal(rec.Result, &r); err != nil {
			return nil, protocol.Errorf(reason.StateIO, "the record of request_id %s is unreadable: %v", requestID, err), true
		}
		return applyResult{Replayed: true, Receipt: &r}, nil, true
	}
	entries, err := s.pub.Entries()
	if err != nil {
		return nil, stateError("reading the apply journal", err), true
	}
	for _, je := range entries {
		if je.Workspace != ws || je.RequestID != requestID {
			continue
		}
		if je.Fingerprint != fp {
			return nil, requestIDReused(requestID), true
		}
		if !prog.start(je) {
			return nil, protocol.Errorf(reason.Timeout, "timed out"), true
		}
		state := je.State
		var stuck []string
		if state == publish.Pending {
			if state, stuck, err = s.pub.Reconcile(je); err != nil {
				return nil, interrupted(je, err), true
			}
		}
		switch state {
		case publish.Committed:
			r, err := s.finishApply(je)
			if err != nil {
				return nil, interrupted(je, err), true
			}
			return applyResult{Replayed: true, Receipt: r}, nil, true
		case publish.Pending:
			return nil, recoveryRequired(je, stuck), true
		}
		// Rolled back: apply again.
	}
	return nil, nil, false
}

// applicable refuses a candidate that cannot be applied now: applied by
// another request, not open, another version than expected, or a required
// check not passed on its version.
func applicable(cand *candidate.Candidate, p *applyParams, checks []string, requestID string) *protocol.Error {
	if cand.State == candidate.Applied {
		return protocol.Errorf(reason.CandidateApplied,
			"candidate %s was applied by another request (receipt %s); a new request_id does not apply it again", cand.ID, cand.Receipt).
			WithTarget("candidate", cand.ID).WithTarget("request_id", requestID).Detail("receipt_id", cand.Receipt).
			Next("change.inspect", "Read the applied candidate and its receipt", map[string]any{"candidate": cand.ID}).
			Next("changes.since", "Read what the apply changed since the candidate's base, on latest", map[string]any{"since": cand.Base})
	}
	if e := candidateOpen(cand); e != nil {
		return e
	}
	if cand.Version != p.ExpectedCandidateVersion {
		return versionMismatch(cand, p.ExpectedCandidateVersion)
	}
	for _, name := range checks {
		status := "not_run"
		for _, ch := range cand.Checks {
			if ch.Check == name && ch.Version == cand.Version {
				status = ch.Status
			}
		}
		if status != "passed" {
			return protocol.Errorf(reason.CheckRequired,
				"check %s has not passed on version %d of candidate %s (%s)", name, cand.Version, cand.ID, status).
				WithTarget("candidate", cand.ID).Detail("check", name).Detail("status", status).
				Next("check.run", "Run the check on the candidate, then apply again with a new request_id",
					map[string]any{"candidate": cand.ID, "checks": []string{name}})
		}
	}
	return nil
}

// preconditions checks the request's preconditions (when given, they name
// every file written, each with its digest on disk), then that every file
// to write still has the content the candidate was based on.
func (s *Service) preconditions(cand *candidate.Candidate, pcs []applyPrecondition, files []publish.File) *protocol.Error {
	if pcs != nil {
		named := map[string]bool{}
		var failed []string
		for _, pc := range pcs {
			named[pc.Path] = true
			cur, err := s.pub.Digest(pc.Path)
			if err != nil {
				return pathError(pc.Path, err)
			}
			if !sameDigest(cur, pc.SHA256) {
				failed = append(failed, pc.Path)
			}
		}
		var missing []string
		for _, f := range files {
			if !named[f.Path] {
				missing = append(missing, f.Path)
			}
		}
		if len(missing) > 0 {
			return protocol.Errorf(reason.PreconditionsIncomplete,
				"params.preconditions must name every file the candidate writes; missing: %s", strings.Join(missing, ", ")).
				WithTarget("paths", missing)
		}
		if len(failed) > 0 {
			return externalWrite(cand, failed, "the preconditions do not hold on disk")
		}
	}
	bad, err := s.pub.Check(files)
	if err != nil {
		return stateError("reading the files to write", err)
	}
	if len(bad) > 0 {
		return s.changedSince(cand, bad)
	}
	return nil
}

// publishPlan writes the plan through the journal and finishes it,
// mapping publish's failures to the answer.
func (s *Service) publishPlan(plan publish.Plan, cand *candidate.Candidate, prog *applyProgress) (*publish.Receipt, *protocol.Error) {
	entry, err := s.pub.Apply(plan, func(e *publish.Entry) bool { return prog.start(e) })
	var mismatch *publish.MismatchError
	var unknown *publish.UnknownError
	switch {
	case errors.Is(err, publish.ErrAbandoned):
		return nil, protocol.Errorf(reason.Timeout, "timed out before writing")
	case errors.As(err, &mismatch):
		e := s.changedSince(cand, mismatch.Paths)
		if len(mismatch.Kept) > 0 {
			// An edit displaced while the file changed once more: where
			// it is, so it is not lost.
			e.Message += "; an edit made while the apply replaced the file is kept in " + strings.Join(mismatch.Kept, ", ")
			e = e.Detail("kept", mismatch.Kept)
		}
		return nil, e
	case errors.As(err, &unknown):
		return nil, interrupted(unknown.Entry, unknown.Err)
	case err != nil:
		if e := stateError("writing the candidate failed and was rolled back", err); e.Code != reason.CodeInternal {
			return nil, e.WithTarget("candidate", cand.ID).Detail("outcome", publish.NotApplied)
		}
		return nil, protocol.Errorf(reason.WriteFailed, "writing the candidate failed and was rolled back: %v", err).
			WithTarget("candidate", cand.ID).Detail("outcome", publish.NotApplied)
	}
	r, err := s.finishApply(entry)
	if err != nil {
		return nil, interrupted(entry, err)
	}
	return r, nil
}

// finishApply finishes a committed apply (publish.Finish): the request
// record and the candidate marked applied are the service's steps. The
// caller holds the publish lock and the candidates' lock.
func (s *Service) finishApply(e *publish.Entry) (*publish.Receipt, error) {
	st := s.held()
	return s.pub.Finish(e, publish.Finisher{
		ResultSnapshot: s.resultSnapshot,
		Record: func(r *publish.Receipt) error {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			return st.Store.Remember(e.Workspace, e.RequestID, candidate.Record{Operation: "change.apply", Fingerprint: e.Fingerprint, Result: b})
		},
		MarkApplied: func(r *publish.Receipt) error {
			cand, err := st.Store.Get(e.Candidate)
			if err != nil || cand.State == candidate.Applied {
				return nil
			}
			cand.State, cand.Receipt = candidate.Applied, r.ReceiptID
			if err := st.Store.Put(cand); err != nil {
				return err
			}
			st.Compiled.Release(cand.ID)
			return nil
		},
	})
}

// resultSnapshot is the id of the snapshot of the files on disk now: the
// id latest would capture, computed from the inputs' digests without
// compiling them (the store compiles it when it is first read).
func (s *Service) resultSnapshot() string {
	if id, err := s.store.DiskID(); err == nil {
		return id
	}
	if snap, err := s.store.Latest(); err == nil {
		return snap.ID
	}
	return ""
}

// recoverApplies settles the journals killed applies left, when the
// service starts: committed ones are finished, interrupted ones whose files
// each have the base or the candidate's content are committed or rolled
// back, and ones with other content stay for a change.apply with their
// request_id to report (recovery_required). It does nothing, and takes no
// lock, when there is no journal.
func (s *Service) recoverApplies() {
	dir, err := fsutil.Resolve(s.root, publish.JournalDir)
	if err != nil {
		return
	}
	if list, err := os.ReadDir(dir); err != nil || len(list) == 0 {
		return
	}
	release, ok := s.pub.TryLock()
	if !ok {
		return // another process is applying; it or a later start settles them
	}
	defer release()
	st := s.held()
	st.Mu.Lock()
	defer st.Mu.Unlock()
	entries, _ := s.pub.Entries()
	for _, e := range entries {
		state := e.State
		if state == publish.Pending {
			state, _, _ = s.pub.Reconcile(e)
		}
		if state == publish.Committed {
			_, _ = s.finishApply(e)
		}
	}
	s.pub.SweepOnce(candidate.RecordTTL)
}

// receiptIDMap is the candidate's id_map, composed over its versions, as
// a receipt gives it.
func receiptIDMap(cand *candidate.Candidate) json.RawMessage {
	d, err := change.ReadData(cand)
	if err != nil {
		return json.RawMessage("[]")
	}
	b, err := json.Marshal(change.ToWireIDMap(d.IDMap))
	if err != nil {
		return json.RawMessage("[]")
	}
	return b
}

// baseChanges compares the inputs of the base snapshot the candidate does
// not write with the disk: gone lists the deleted ones; changes the edited
// and added ones. Without the base snapshot (evicted, and the disk changed)
// the comparison is skipped.
func (c *call) baseChanges(baseID string, written map[string]bool) (changes []change.FileChange, gone []string) {
	base, err := c.s.store.Get(baseID)
	if err != nil || base == nil || base.Files == nil {
		return nil, nil
	}
	changed, err := c.s.store.Changed(base)
	if err != nil {
		return nil, nil
	}
	for _, path := range changed {
		if written[path] {
			continue
		}
		var before *string
		if sum, ok := base.Files[path]; ok {
			before = &sum
		}
		after, err := c.s.pub.Digest(path)
		if err != nil {
			continue
		}
		switch {
		case after == nil && before != nil:
			gone = append(gone, path)
		case before == nil && after != nil:
			changes = append(changes, change.FileChange{Path: path, Before: nil, After: after, Change: "added"})
		case before != nil:
			changes = append(changes, change.FileChange{Path: path, Before: before, After: after, Change: "modified"})
		}
	}
	if len(changes) > baseChangesMax {
		changes = changes[:baseChangesMax]
	}
	return changes, gone
}

// changedSince answers files that no longer have the candidate's base
// content: concurrent_candidate when one holds what another applied
// candidate on the same base wrote, external_write otherwise.
func (s *Service) changedSince(cand *candidate.Candidate, paths []string) *protocol.Error {
	bad := stringSet(paths)
	var other *publish.Receipt
	s.pub.Receipts(func(r *publish.Receipt) bool {
		if r.Outcome != publish.Applied || r.Candidate == cand.ID || r.BaseSnapshot != cand.Base {
			return true
		}
		for _, f := range r.Files {
			if !bad[f.Path] {
				continue
			}
			if cur, err := s.pub.Digest(f.Path); err == nil && sameDigest(cur, f.After) {
				other = r
				return false
			}
		}
		return true
	})
	if other != nil {
		return protocol.Errorf(reason.ConcurrentCandidate,
			"candidate %s, on the same base snapshot, was applied first and wrote %s; read again and propose again",
			other.Candidate, strings.Join(paths, ", ")).
			WithTarget("candidate", cand.ID).WithTarget("paths", paths).
			Detail("candidate", other.Candidate).Detail("receipt_id", other.ReceiptID).Detail("result_snapshot", other.ResultSnapshot).
			Next("change.discard", "Discard this candidate", map[string]any{"candidate": cand.ID}).
			Next("changes.since", "See what the other apply changed, then propose again on latest", map[string]any{"since": cand.Base})
	}
	return externalWrite(cand, paths, "files the candidate writes changed on disk since its base snapshot")
}

func externalWrite(cand *candidate.Candidate, paths []string, why string) *protocol.Error {
	return protocol.Errorf(reason.ExternalWrite, "%s: %s; nothing was written", why, strings.Join(paths, ", ")).
		WithTarget("candidate", cand.ID).WithTarget("paths", paths).
		Next("change.discard", "Discard this candidate", map[string]any{"candidate": cand.ID}).
		Next("changes.since", "See what changed, then propose again on latest", map[string]any{"since": cand.Base})
}

func recoveryRequired(e *publish.Entry, paths []string) *protocol.Error {
	return protocol.Errorf(reason.RecoveryRequired,
		"an interrupted apply (journal %s) left files that match neither the base nor the candidate: %s; nothing was written. "+
			"Show the paths to the user; once they hold either the base or the candidate's content, send the same request again",
		e.ID, strings.Join(paths, ", ")).
		WithTarget("candidate", e.Candidate).WithTarget("request_id", e.RequestID).WithTarget("paths", paths).
		Detail("journal", e.ID).Detail("paths", paths).Detail("receipt", e.Receipt(publish.Unknown, ""))
}

// interrupted answers an apply whose writing failed and could not be
// rolled back, or whose journal could not be settled: its outcome is
// unknown until the same request is sent again.
func interrupted(e *publish.Entry, err error) *protocol.Error {
	pe := protocol.Errorf(reason.ApplyInterrupted,
		"the apply (journal %s) was interrupted: %v; send the same request again with the same request_id", e.ID, err).
		WithTarget("candidate", e.Candidate).WithTarget("request_id", e.RequestID).
		Detail("outcome", publish.Unknown).Detail("receipt", e.Receipt(publish.Unknown, ""))
	return pe
}

func requestIDReused(requestID string) *protocol.Error {
	return protocol.Errorf(reason.RequestIDReused,
		"request_id %s was used for a different request; use a new request_id", requestID).WithTarget("request_id", requestID)
}

func pathError(path string, err error) *protocol.Error {
	if errors.Is(err, fsutil.ErrEscape) {
		return protocol.Errorf(reason.PathEscape, "%s leaves the project root", path).WithTarget("path", path)
	}
	if e := deniedError(err); e != nil {
		return e.WithTarget("path", path)
	}
	return protocol.Errorf(reason.FileIO, "%s: %v", path, err).WithTarget("path", path)
}

// stateError answers a failure to read or write the project's files or
// the service's state under .axiom/state: one that retrying cannot fix is
// permission_denied (retryable none), anything else internal.
func stateError(what string, err error) *protocol.Error {
	if errors.Is(err, fsutil.ErrEscape) {
		return protocol.Errorf(reason.PathEscape,
			"%s: a path on the way points outside the project root (a symlinked .axiom/state, journal or folder?): %v", what, err)
	}
	if e := deniedError(err); e != nil {
		return protocol.Errorf(e.Reason, "%s: %s", what, e.Message)
	}
	return protocol.Errorf(reason.StateIO, "%s: %v", what, err)
}

// deniedError is permission_denied for an error the operating system
// refused: policy for EPERM (an immutable or append-only file, a
// read-only mount's rule), not_owner for EACCES (the file's permissions).
// It is nil for any other error.
func deniedError(err error) *protocol.Error {
	switch {
	case errors.Is(err, syscall.EPERM):
		return protocol.Errorf(reason.Policy,
			"the operating system does not permit it (an immutable or append-only file?): %v", err)
	case errors.Is(err, os.ErrPermission):
		return protocol.Errorf(reason.NotOwner,
			"the file's permissions do not allow it: %v", err)
	}
	return nil
}

func sameDigest(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
