package service

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/snapshot"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// change.propose applies a batch of edits to a private copy of the base
// snapshot (or of an open candidate's current version) through the edit
// engine, compiles it and stores the result as a candidate version.
// edit.plan runs the same steps as a dry run and stores nothing.
//
// The rules, in order:
//
//   - base_snapshot is a snapshot id, never latest (invalid_arguments,
//     base_latest); an id this service never issued is not_found
//     (snapshot_unknown), one it issued and no longer holds
//     snapshot_expired; a base over a service bound is that bound's
//     resource_limit. More than operations_max operations is
//     resource_limit (too_many_operations).
//   - With request_id, the input fingerprint (below) is looked up first: a
//     recorded answer to the same input is returned with replayed: true; a
//     record of another input is conflict (request_id_reused). Only
//     accepted proposals are recorded, so a refused one can be resent with
//     the same request_id once its cause is fixed.
//   - Extending (params.candidate): the candidate must be open
//     (precondition_failed candidate_closed, or candidate_applied, whose
//     retryable is none), its version must be expected_candidate_version
//     (candidate_version_mismatch) and its base must be base_snapshot
//     (invalid_arguments, base_mismatch). The batch applies to the
//     candidate's current version; the new version is version + 1.
//   - The engine applies the batch all or nothing; its refusals are
//     answered as it gives them, with operation_index.
//   - A base that is not the current snapshot (latest is captured) is
//     refused stale_snapshot (base_not_head) only when a file the batch
//     changes differs between the base and the current snapshot; the
//     envelope snapshot of that answer is the current snapshot. Otherwise
//     an older base is fine.
//   - On a validated base the final state must compile without errors
//     (compile_failed, candidate_errors, with the diagnostics and
//     node.edits as next action). On a broken
//     base (syntax or resolved) a bounded repair is accepted: fewer errors
//     than the base and no declaration outside the ones the candidate
//     changes with more errors than before (compile_failed,
//     repair_regression, with details.repair.regressed); the result then
//     carries repair. A bound hit by the candidate's text (nesting,
//     brackets, file sizes) is resource_limit, whether it is in an
//     operation's own source text or in the compiled result. Every
//     compile_failed has the one shape of protocol.CompileFailed.
//
// The input fingerprint (the candidate's input_fingerprint and the key of
// request_id) is candidate.Fingerprint over, in order: "acore-propose/v1",
// the operation, the workspace id, base_snapshot, params.candidate (or
// ""), expected_candidate_version in decimal (or ""), the canonical JSON
// of params.operations and the canonical JSON of params.checks ("null"
// when absent). Canonical JSON has object keys sorted, no insignificant
// space and numbers as written.

type proposeParams struct {
	Candidate                *string           `json:"candidate,omitempty"`
	ExpectedCandidateVersion *int              `json:"expected_candidate_version,omitempty"`
	Operations               []json.RawMessage `json:"operations"`
	Files                    []overlayFile     `json:"files,omitempty"`
	Checks                   json.RawMessage   `json:"checks,omitempty"`
}

type planParams struct {
	Operations []json.RawMessage `json:"operations"`
	Files      []overlayFile     `json:"files,omitempty"`
}

// OperationOutcome is an operationOutcome of the protocol.
type OperationOutcome struct {
	Index   int                `json:"index"`
	Kind    string             `json:"kind"`
	Op      string             `json:"op,omitempty"`
	Created string             `json:"created,omitempty"`
	Handle  string             `json:"handle,omitempty"`
	IDMap   []change.WireIDMap `json:"id_map"`
}

// Evidence is the evidence of a compile.
type Evidence struct {
	Toolchain protocol.Toolchain `json:"toolchain"`
	Inputs    EvidenceInputs     `json:"inputs"`
}

// EvidenceInputs are the inputs a compile read: each source with its
// digest, the fingerprint of everything else it read (contracts, contract
// sources, lock) and of all inputs together.
type EvidenceInputs struct {
	Sources                 []EvidenceFile `json:"sources"`
	DependenciesFingerprint string         `json:"dependencies_fingerprint"`
	Fingerprint             string         `json:"fingerprint"`
}

// EvidenceFile is one input with its digest.
type EvidenceFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Impact lists the nodes a change affects.
type Impact struct {
	Nodes []string `json:"nodes"`
	More  bool     `json:"more,omitempty"`
}

// RepairOutcome is a repairOutcome of the protocol: the edit engine's
// Repair, so a refusal's details.repair has one shape wherever the
// verdict was reached.
type RepairOutcome = edit.Repair

// ProposeResult is the result of change.propose.
type ProposeResult struct {
	Candidate   change.WireCandidate  `json:"candidate"`
	Replayed    bool                  `json:"replayed"`
	Operations  []OperationOutcome    `json:"operations"`
	IDMap       []change.WireIDMap    `json:"id_map"`
	Files       []change.FileChange   `json:"files"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
	// DiagnosticsOmitted counts the candidate's diagnostics that its base
	// has too, which Diagnostics leaves out (change.Known).
	DiagnosticsOmitted []change.DiagnosticsOmitted `json:"diagnostics_omitted,omitempty"`
	Checks             []change.CheckResult        `json:"checks"`
	Evidence           Evidence                    `json:"evidence"`
	Impact             *Impact                     `json:"impact,omitempty"`
	Repair             *RepairOutcome              `json:"repair,omitempty"`
}

// batch is a batch of edits applied to a base: what change.propose and
// edit.plan share.
type batch struct {
	base *snapshot.Snapshot
	// from is the project the batch applied to: the base, or the
	// candidate's current version when extending.
	from *project.Project
	prev *candidate.Candidate
	res  *edit.Result
}

func proposeFingerprint(c *call, p *proposeParams) string {
	cand, ver := "", ""
	if p.Candidate != nil {
		cand = *p.Candidate
	}
	if p.ExpectedCandidateVersion != nil {
		ver = strconv.Itoa(*p.ExpectedCandidateVersion)
	}
	ops, _ := json.Marshal(p.Operations)
	parts := []string{"acore-propose/v1", c.req.Operation, c.s.wsID, *c.req.BaseSnapshot, cand, ver,
		candidate.CanonicalJSON(ops), candidate.CanonicalJSON(p.Checks)}
	if len(p.Files) > 0 {
		// Only a request with files fingerprints them, so the fingerprint
		// of every other request is what it always was.
		files, _ := json.Marshal(p.Files)
		parts = append(parts, candidate.CanonicalJSON(files))
	}
	return candidate.Fingerprint(parts...)
}

// applyBatch resolves the base, checks an extended candidate, runs the
// engine and refuses a stale base.
func (c *call) applyBatch(ops []json.RawMessage, files []overlayFile, candID *string, expected *int, dryRun bool) (*batch, *protocol.Error) {
	baseID := *c.req.BaseSnapshot
	if baseID == "latest" {
		return nil, protocol.Errorf(reason.BaseLatest,
			"base_snapshot must be a snapshot id, not latest: name the snapshot you read the nodes and values on").
			WithTarget("field", "base_snapshot").Next("project.overview", "Read latest to get its snapshot id", map[string]any{})
	}
	if e := c.resolveSnapshot(baseID); e != nil {
		return nil, e
	}
	b := &batch{base: c.snap, from: c.snap.Project}
	if c.snap.Project.Result.Graph == nil || c.snap.Project.Result.State == check.StateUnavailable {
		return nil, c.notCompiled()
	}
	snapID, opt := baseID, edit.Options{}
	if candID != nil {
		prev, e := c.getCandidate(*candID, true)
		if e != nil {
			return nil, e
		}
		if e := candidateOpen(prev); e != nil {
			return nil, e
		}
		if expected == nil || prev.Version != *expected {
			exp := 0
			if expected != nil {
				exp = *expected
			}
			return nil, versionMismatch(prev, exp)
		}
		if prev.Base != baseID {
			return nil, protocol.Errorf(reason.BaseMismatch,
				"candidate %s is based on %s, not on base_snapshot %s; send its base_snapshot", prev.ID, prev.Base, baseID).
				WithTarget("candidate", prev.ID).Detail("base_snapshot", prev.Base)
		}
		cc, e := c.compileCandidate(prev)
		if e != nil {
			return nil, e
		}
		// The verdict judges the candidate, all versions, against its base.
		data, err := change.ReadData(prev)
		if err != nil {
			return nil, protocol.Errorf(reason.StateIO, "%v", err)
		}
		b.prev, b.from, snapID = prev, cc.Project, prev.Snapshot
		opt.Base, opt.Touched = c.snap.Project.Result, data.Touched
	}
	var decoded []edit.Op
	if len(ops) > 0 || len(files) == 0 {
		d, e := DecodeOperations(ops)
		if e != nil {
			return nil, e
		}
		decoded = d
	}
	writes, e := fileWrites(files, len(decoded))
	if e != nil {
		return nil, e
	}
	decoded = append(decoded, writes...)
	// The files on disk are captured while the batch compiles, for
	// staleBase.
	captured := make(chan *snapshot.Snapshot, 1)
	go func() {
		latest, err := c.s.store.Latest()
		if err != nil {
			latest = nil
		}
		captured <- latest
	}()
	opt.SnapshotID, opt.EditRules, opt.DryRun, opt.CompileBudget = snapID, EditRules, dryRun, protocol.GroupCompileBudgetMS*time.Millisecond
	res, ee := edit.Apply(b.from, decoded, opt)
	latest := <-captured
	if ee != nil {
		return nil, editError(ee, opNodes(decoded))
	}
	b.res = res
	if e := c.staleBase(b, latest, opNodes(decoded)); e != nil {
		return nil, e
	}
	return b, nil
}

// staleBase refuses a base that is not latest, the current snapshot, when
// a file the batch changes differs there. Its next actions map the nodes
// the batch edits, then read them again.
func (c *call) staleBase(b *batch, latest *snapshot.Snapshot, nodes []string) *protocol.Error {
	if latest == nil || latest.Files == nil {
		return nil
	}
	c.disk = latest
	if latest.ID == b.base.ID {
		return nil
	}
	var changed []string
	for p := range b.res.Files {
		if b.base.Files[p] != latest.Files[p] {
			changed = append(changed, p)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	c.snap = latest
	since := map[string]any{"since": b.base.ID}
	if len(nodes) > 0 {
		since["scope"] = map[string]any{"nodes": nodes}
	}
	var get map[string]any
	if len(nodes) > 0 {
		get = map[string]any{"nodes": nodes}
	}
	return protocol.Errorf(reason.BaseNotHead,
		"base_snapshot %s is not the current snapshot of the workspace (%s) and the files this request changes differ there", b.base.ID, latest.ID).
		WithTarget("snapshot", b.base.ID).
		Next("changes.since", "Map the ids you hold to the current snapshot (snapshot.id of this response)", since).
		Next("node.get", "Re-read the nodes on the current snapshot (snapshot.id of this response) and rebuild the request", get)
}

func candidateOpen(cand *candidate.Candidate) *protocol.Error {
	switch cand.State {
	case candidate.Open:
		return nil
	case candidate.Applied:
		return protocol.Errorf(reason.CandidateApplied,
			"candidate %s was applied; it cannot change any more (propose a new change on latest)", cand.ID).
			WithTarget("candidate", cand.ID).
			Next("change.inspect", "Read the applied candidate and its receipt", map[string]any{"candidate": cand.ID}).
			Next("changes.since", "Read what the apply changed since the candidate's base, on latest", map[string]any{"since": cand.Base}).
			Next("change.propose", "Propose a new change on latest", nil)
	case candidate.Expired:
		return protocol.Errorf(reason.CandidateClosed,
			"candidate %s expired at %s", cand.ID, cand.ExpiresAt.UTC().Format(time.RFC3339)).
			WithTarget("candidate", cand.ID).Next("change.propose", "Propose the change again on latest", nil)
	}
	return protocol.Errorf(reason.CandidateClosed, "candidate %s is %s", cand.ID, cand.State).
		WithTarget("candidate", cand.ID).Next("change.propose", "Propose the change again", nil)
}

func versionMismatch(cand *candidate.Candidate, expected int) *protocol.Error {
	return protocol.Errorf(reason.CandidateVersionMismatch,
		"candidate %s is at version %d, not %d", cand.ID, cand.Version, expected).
		WithTarget("candidate", cand.ID).Detail("version", cand.Version).
		Next("change.inspect", "Review the candidate's current version", map[string]any{"candidate": cand.ID})
}

func opChangePropose(c *call) (any, *protocol.Error) {
	var p proposeParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if (p.Candidate == nil) != (p.ExpectedCandidateVersion == nil) {
		return nil, protocol.Errorf(reason.Schema,
			"params: candidate and expected_candidate_version go together").WithTarget("field", "params.expected_candidate_version")
	}
	var checks []string
	if len(p.Checks) > 0 {
		if err := json.Unmarshal(p.Checks, &checks); err != nil {
			return nil, protocol.Errorf(reason.Schema, "params.checks: %v", err)
		}
	}
	names, e := checkNames(checks, true)
	if e != nil {
		return nil, e
	}
	if c.req.RequestID == nil {
		return nil, protocol.Errorf(reason.Schema, "change.propose needs a request_id").WithTarget("field", "request_id")
	}
	fp := proposeFingerprint(c, &p)
	requestID := *c.req.RequestID
	st := c.s.held()
	defer st.LockRequest(c.s.wsID, requestID)()
	if rec, ok := st.Store.Recall(c.s.wsID, requestID); ok {
		return c.replay(rec, requestID, fp)
	}
	// The files the candidate and its record go to are created while the
	// batch compiles.
	rsv := st.Store.Reserve()
	defer rsv.Release()
	b, e := c.applyBatch(p.Operations, p.Files, p.Candidate, p.ExpectedCandidateVersion, false)
	if e != nil {
		return nil, e
	}
	res := b.res
	if res.Project == nil {
		return nil, protocol.Errorf(reason.Invariant, "the edit engine returned no compiled candidate")
	}

	candFiles, in, proj, e := b.compile()
	if e != nil {
		return nil, e
	}
	// What the candidate adds up to, over its versions.
	data, err := change.Extend(b.prev, res, b.base.Project.Result)
	if err != nil {
		return nil, protocol.Errorf(reason.StateIO, "%v", err)
	}
	checkResults := change.RunChecks(names, b.base.Project, proj, data.Touched)
	// The candidate's snapshot is readable like any other: node.get and
	// the other reads accept its id. It is written to the state while the
	// answer is built and the candidate stored, and before it is sent.
	_, persisted := c.s.store.AddLater(in, proj)
	defer persisted()
	cand := c.newVersion(b, in, candFiles, data, names, checkResults, fp)

	// The version is written while the answer is built: the impact takes
	// about as long as the write.
	stored := make(chan *protocol.Error, 1)
	go func() { stored <- storeVersion(st, rsv, b.prev, cand) }()
	out := c.proposeResult(b, cand, proj, in, checkResults, res.Repair, data)

	// The version is stored, then the answer to its request_id.
	if e := <-stored; e != nil {
		return nil, e
	}
	if e := c.recordVersion(st, rsv, b, cand, proj, out, fp); e != nil {
		return nil, e
	}
	c.snap = b.base
	return out, nil
}

// recordVersion keeps the stored version cand compiled (in place of the
// version it extends) and records out as the answer to its request_id,
// in the request record rsv reserved.
func (c *call) recordVersion(st *change.Held, rsv *candidate.Reserved, b *batch, cand *candidate.Candidate, proj *project.Project, out *ProposeResult, fp string) *protocol.Error {
	st.Compiled.Put(cand.ID, cand.Version, &change.Compiled{Base: b.base, Project: proj})
	if b.prev != nil {
		st.Compiled.Drop(b.prev.ID, b.prev.Version)
	}
	recorded, _ := json.Marshal(out)
	// The result's size, which respond would otherwise encode it again for.
	c.trunc.Used.Bytes = len(recorded)
	if err := rsv.Remember(c.s.wsID, cand.RequestID, candidate.Record{Operation: c.req.Operation, Fingerprint: fp, Result: recorded}); err != nil {
		return protocol.Errorf(reason.StateIO, "candidate %s was created but its request_id could not be recorded: %v", cand.ID, err)
	}
	return nil
}

// newVersion is the candidate version a change.propose creates: a new
// candidate, or the next version of b.prev, with its files, the checks
// run on it and what it adds up to (data, to which it adds its version).
func (c *call) newVersion(b *batch, in *load.Inputs, files []candidate.File, data *change.Data, names []string, checkResults []change.CheckResult, fp string) *candidate.Candidate {
	now := time.Now().UTC()
	cand := &candidate.Candidate{ID: candidate.NewID(), Workspace: c.s.wsID, Version: 1, State: candidate.Open, Base: b.base.ID,
		Snapshot: c.s.store.ID(in), RequestID: *c.req.RequestID, InputFingerprint: fp, ExpiresAt: now.Add(candidate.CandidateTTL), Files: files}
	if b.prev != nil {
		cand.ID, cand.Version = b.prev.ID, b.prev.Version+1
		cand.Checks = append([]candidate.Check(nil), b.prev.Checks...) // not the store's array
	}
	for _, r := range checkResults {
		diags, _ := json.Marshal(r.Diagnostics)
		cand.Checks = append(cand.Checks, candidate.Check{Check: r.Check, Status: r.Status, Diagnostics: diags, Version: cand.Version})
	}
	data.Versions = append(data.Versions, change.VersionData{Version: cand.Version, RequestID: *c.req.RequestID, InputFingerprint: fp,
		Operations: b.res.Operations, IDMap: b.res.IDMap, Checks: names, CreatedAt: now})
	cand.Data, _ = json.Marshal(data)
	return cand
}

// proposeResult is change.propose's answer for cand, version of batch b
// compiled to proj.
func (c *call) proposeResult(b *batch, cand *candidate.Candidate, proj *project.Project, in *load.Inputs, checkResults []change.CheckResult, repair *RepairOutcome, data *change.Data) *ProposeResult {
	// The diagnostics the base has too are counted, not listed, and a
	// check lists none its result lists already.
	known := change.KnownFrom(b.base.Project.Result.Diagnostics, proj.Result.Diagnostics)
	out := &ProposeResult{Candidate: change.ToWire(cand), Operations: make([]OperationOutcome, 0, len(b.res.Operations)),
		IDMap: change.ToWireIDMap(b.res.IDMap), Files: change.FileChangesOf(cand.Files), Diagnostics: known.List(200),
		DiagnosticsOmitted: known.Omitted, Evidence: Evidence{Toolchain: c.s.toolchain, Inputs: evidenceInputs(in)}, Repair: repair}
	for _, r := range checkResults {
		out.Checks = append(out.Checks, known.Thin(r))
	}
	for _, o := range b.res.Operations {
		out.Operations = append(out.Operations, OperationOutcome{Index: o.Index, Kind: o.Kind, Op: o.Op, Created: o.Created,
			Handle: o.Handle, IDMap: change.ToWireIDMap(o.IDMap)})
	}
	if g := proj.Result.Graph; g != nil && b.base.Project.Result.Graph != nil {
		paths := make([]string, len(cand.Files))
		for i, f := range cand.Files {
			paths[i] = f.Path
		}
		diff := change.SemanticDiff(b.base.Project.Result.Graph, g, paths, data)
		ids, more := change.AffectedIDs(g, diff, 200)
		out.Impact = &Impact{Nodes: ids, More: more}
	}
	return out
}

// compile compiles the candidate of batch b: its files, the inputs they
// make on the base's, and the compiled project (the engine's when its
// inputs are those, compiled again otherwise). A bound hit is
// resource_limit.
func (b *batch) compile() ([]candidate.File, *load.Inputs, *project.Project, *protocol.Error) {
	files, overlay := change.Files(b.prev, b.base.Project.Inputs.Digests(), b.res.Files)
	if len(files) == 0 {
		return nil, nil, nil, protocol.Errorf(reason.NoOp, "the batch changes no file")
	}
	in, e := overlayInputs(b.base.Project.Inputs, overlay)
	if e != nil {
		return nil, nil, nil, e
	}
	proj := b.res.Project
	if proj.Inputs == nil || proj.Inputs.Fingerprint() != in.Fingerprint() {
		proj = project.CompileFrom(b.base.Project, in)
	}
	if e := limitDiagnostic(proj.Result); e != nil {
		return nil, nil, nil, e
	}
	return files, in, proj, nil
}

// storeVersion stores cand, a new candidate or the version after prev,
// unless prev was closed or extended meanwhile, in the file rsv reserved.
func storeVersion(st *change.Held, rsv *candidate.Reserved, prev, cand *candidate.Candidate) *protocol.Error {
	st.Mu.Lock()
	defer st.Mu.Unlock()
	if prev != nil {
		cur, err := st.Store.Get(prev.ID)
		if err == nil && cur.State != candidate.Open {
			return candidateOpen(cur)
		}
		if err == nil && cur.Version != prev.Version {
			return versionMismatch(cur, prev.Version)
		}
	}
	if err := rsv.Put(cand); err != nil {
		return stateError("storing the candidate", err)
	}
	return nil
}

// replay answers a request_id seen before: its recorded result, or
// conflict when the input differs.
func (c *call) replay(rec *candidate.Record, requestID, fp string) (any, *protocol.Error) {
	if rec.Operation != c.req.Operation || rec.Fingerprint != fp {
		return nil, protocol.Errorf(reason.RequestIDReused,
			"request_id %s was used for a different request (%s with input_fingerprint %s); use a new request_id", requestID, rec.Operation, rec.Fingerprint).
			WithTarget("request_id", requestID)
	}
	var out map[string]any
	if err := json.Unmarshal(rec.Result, &out); err != nil {
		return nil, protocol.Errorf(reason.StateIO, "the recorded answer to request_id %s is unreadable: %v", requestID, err)
	}
	out["replayed"] = true
	if base, err := c.s.store.Get(*c.req.BaseSnapshot); err == nil && base != nil {
		c.snap = base
	}
	return out, nil
}

func opEditPlan(c *call) (any, *protocol.Error) {
	var p planParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	b, e := c.applyBatch(p.Operations, p.Files, nil, nil, true)
	if e != nil {
		if e.Code != reason.CodeUnsupportedOperation || e.OperationIndex == nil || *e.OperationIndex >= len(p.Operations) {
			return nil, e
		}
		return planRefused(p.Operations, e), nil
	}
	res := b.res
	g := b.base.Project.Result.Graph
	out := map[string]any{"outcome": "supported"}
	owners := []map[string]any{}
	for _, id := range res.Owners {
		o := map[string]any{"node": id}
		if n, ok := g.Node(id); ok {
			o["kind"], o["path"] = n.Kind, n.Path
		} else if k, _, ok := strings.Cut(id, ":"); ok {
			o["kind"] = k
		}
		if _, ok := o["path"]; !ok {
			continue // owners come with their file
		}
		owners = append(owners, o)
	}
	out["owners"] = owners
	ops := make([]map[string]any, 0, len(p.Operations))
	for i, raw := range p.Operations {
		o := planOp(i, raw, "supported")
		if i < len(res.Operations) {
			r := res.Operations[i]
			if r.Node != "" {
				o["node"] = r.Node
			}
			if r.Path != "" {
				o["path"] = r.Path
			}
			if r.Op != "" {
				o["op"] = r.Op
			}
		}
		if _, ok := o["path"]; !ok {
			if id, ok := o["node"].(string); ok {
				if n, ok := g.Node(id); ok {
					o["path"] = n.Path
				}
			}
		}
		ops = append(ops, o)
	}
	// Raw files follow the operations, as change.propose reports them.
	for k, f := range p.Files {
		ops = append(ops, map[string]any{"index": len(p.Operations) + k, "kind": "file", "op": "write", "path": f.Path, "outcome": "supported"})
	}
	out["operations"] = ops
	out["id_map"] = change.ToWireIDMap(res.IDMap)
	files := make([]string, 0, len(res.Files))
	for path := range res.Files {
		files = append(files, path)
	}
	sort.Strings(files)
	out["files"] = files
	required := []string{change.CheckCompile}
	if b.base.Project.Result.State != check.StateValidated {
		required = append(required, change.CheckRepair)
	}
	out["required_checks"] = required
	return out, nil
}

// planRefused is edit.plan's answer for a batch the engine refuses as not
// offered (unsupported) or not implemented by this build
// (required_but_missing): operations before the refused one are
// supported, later ones not_checked.
func planRefused(raw []json.RawMessage, e *protocol.Error) map[string]any {
	outcome := "unsupported"
	if e.Reason == reason.NotImplemented {
		outcome = "required_but_missing"
	}
	at := *e.OperationIndex
	ops := make([]map[string]any, 0, len(raw))
	for i, r := range raw {
		state := "supported"
		switch {
		case i == at:
			state = outcome
		case i > at:
			state = "not_checked"
		}
		o := planOp(i, r, state)
		if i == at {
			o["reason"] = e.Reason
		}
		ops = append(ops, o)
	}
	reason := e.Message
	if len(reason) > 2000 {
		reason = reason[:2000]
	}
	return map[string]any{"outcome": outcome, "reason": reason, "owners": []any{}, "operations": ops, "files": []string{}}
}

// planOp is an operation of edit.plan's answer as far as its request
// says: index, kind, node and property.
func planOp(i int, raw json.RawMessage, outcome string) map[string]any {
	var op struct {
		Kind     string          `json:"kind"`
		Op       string          `json:"op"`
		Node     json.RawMessage `json:"node"`
		Anchor   json.RawMessage `json:"anchor"`
		Property string          `json:"property"`
		Path     string          `json:"path"`
	}
	_ = json.Unmarshal(raw, &op)
	o := map[string]any{"index": i, "kind": op.Kind, "outcome": outcome}
	node := op.Node
	if len(node) == 0 {
		node = op.Anchor
	}
	var id string
	if json.Unmarshal(node, &id) == nil && id != "" {
		o["node"] = id
	}
	if op.Property != "" {
		o["property"] = op.Property
	}
	if op.Path != "" {
		o["path"] = op.Path
	}
	return o
}

func evidenceInputs(in *load.Inputs) EvidenceInputs {
	ev := EvidenceInputs{Sources: make([]EvidenceFile, 0, len(in.Sources)), Fingerprint: in.Fingerprint()}
	for _, f := range in.Sources {
		ev.Sources = append(ev.Sources, EvidenceFile{Path: f.Path, SHA256: f.SHA256})
	}
	deps := &load.Inputs{Contracts: in.Contracts, ContractSources: in.ContractSources, Lock: in.Lock}
	ev.DependenciesFingerprint = deps.Fingerprint()
	return ev
}
