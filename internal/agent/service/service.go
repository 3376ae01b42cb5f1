// Package service answers axiom-agent-semantic/v1 requests for one project
// root. Handle is the one entry point every transport calls: it decodes and
// checks the envelope, resolves the workspace and snapshot, runs the
// operation's handler and applies limits, so the three transports only frame
// bytes.
package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/axiomcore/acore/internal/lang/compilecache"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/internal/agent/snapshot"
	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// Version is the service version reported in the manifest.
const Version = "0.1.0"

// EditRules names the edit rules; option fingerprints include it.
const EditRules = "acore-edit-rules/1"

// Config configures a service.
type Config struct {
	Root string
	// Caller scopes workspace ids: the same root and caller get the same id
	// in every process, so one-shot commands can chain.
	Caller string
	// Timeout bounds one request (timeout_ms); zero means the protocol's
	// 30 s.
	Timeout time.Duration
	// MaxInFlight bounds the requests answered at once; more are refused
	// with queue_full. Zero means 16.
	MaxInFlight int
	// Candidates are the candidates the process holds. Services given the
	// same value share their in-memory candidates, as the services of one
	// root in one process must (a store keeps copies in memory); nil gives
	// the service its own.
	Candidates *change.Candidates
	// Failpoints are armed in the service's publisher, for the kill
	// tests; nil arms none.
	Failpoints *publish.Failpoints
	// Compile holds the process's choices for compiles (its main's).
	Compile project.Options
	// NoCompileCache keeps compiles in memory only: every process
	// compiles the project again (to measure a compile, or to rule the
	// cache out).
	NoCompileCache bool
	// Prime reads the project's files in the background as the service
	// starts (snapshot.Store.Prime), for the first capture: a process
	// started to answer requests sets it.
	Prime bool
	// ReadBuffers, when set, makes the buffers the project's files are
	// read into (empty, with room for n bytes): a one-shot process gives
	// memory outside its heap (hugeheap.Buffers), so that Prime reads
	// while the heap is prepared.
	ReadBuffers func(n int) []byte
}

// Service serves one root.
type Service struct {
	root                string
	caller              string
	wsID                string
	store               *snapshot.Store
	toolchain           protocol.Toolchain
	manifest            map[string]any
	manifestFingerprint string
	timeout             time.Duration
	slots               chan struct{}
	pub                 *publish.Publisher
	candidates          *change.Candidates
	stop                chan struct{}
	stopOnce            sync.Once
}

// New returns a service for the project at cfg.Root.
func New(cfg Config) (*Service, error) {
	abs, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", cfg.Root, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("project root %s is not a directory", cfg.Root)
	}
	caller := cfg.Caller
	if caller == "" {
		caller = fmt.Sprintf("uid-%d", os.Getuid())
	}
	s := &Service{root: real, caller: caller, timeout: cfg.Timeout, candidates: cfg.Candidates}
	if s.candidates == nil {
		s.candidates = change.NewCandidates()
	}
	if s.timeout <= 0 {
		s.timeout = protocol.TimeoutMS * time.Millisecond
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 16
	}
	s.slots = make(chan struct{}, cfg.MaxInFlight)
	s.toolchain = Toolchain()
	s.wsID = workspaceID(real, caller)
	s.store = snapshot.NewStore(real, snapshot.Identity{Compiler: s.toolchain.CompilerIdentity, Profile: "acore-ui", Target: "web"}, 0)
	// Snapshots persist under .axiom/state, so that one-shot commands and
	// restarted servers can read the snapshot ids earlier processes gave.
	s.store.Persist()
	s.store.UseOptions(cfg.Compile)
	if cfg.ReadBuffers != nil {
		s.store.ReadInto(cfg.ReadBuffers)
	}
	if cfg.Prime {
		s.store.Prime()
	}
	// Compiles persist too, so that a fresh process reads one instead of
	// compiling the project again.
	if !cfg.NoCompileCache {
		s.store.UseCompileCache(compilecache.New(real, s.toolchain.CompilerIdentity).WithOptions(cfg.Compile))
	}
	s.manifest, s.manifestFingerprint = buildManifest()
	s.pub, s.stop = publish.New(real).Arm(cfg.Failpoints), make(chan struct{})
	s.recoverApplies()
	return s, nil
}

// Wait waits for the state the service writes in the background (the
// compile cache's entries); call it before the process exits.
func (s *Service) Wait() { s.store.Wait() }

// Root returns the canonical root the service serves.
func (s *Service) Root() string { return s.root }

// WorkspaceID returns the id of the workspace of this root and caller.
func (s *Service) WorkspaceID() string { return s.wsID }

// Toolchain returns the identity of this build.
func Toolchain() protocol.Toolchain {
	h := sha256.New()
	h.Write([]byte("acore\x00" + Version + "\x00" + catalog.Version + "\x00" + EditRules))
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, st := range bi.Settings {
			if st.Key == "vcs.revision" {
				h.Write([]byte(st.Value))
			}
		}
	}
	return protocol.Toolchain{Compiler: "acore", CompilerVersion: Version, CompilerIdentity: hex.EncodeToString(h.Sum(nil)),
		EditRules: EditRules, LanguageProfile: "acore-ui", Target: "web"}
}

func workspaceID(root, caller string) string {
	sum := sha256.Sum256([]byte("acore-workspace/v1\x00" + root + "\x00" + caller))
	return "ws-" + hex.EncodeToString(sum[:12])
}

// legacy answers a line that is not a v1 request at all, in the service's
// legacy format.
func legacy(msg string) []byte {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": "invalid_request", "message": msg}})
	return b
}

// Handle answers one request. It never panics and always returns one JSON
// object.
func (s *Service) Handle(ctx context.Context, raw []byte) (out []byte) {
	var resp *protocol.Response
	defer func() {
		if r := recover(); r != nil {
			op := ""
			if resp != nil {
				op = resp.Operation
			}
			out = s.encode(s.errorResponse(op, nil, protocol.Errorf(reason.Panic, "internal error: %v", r)))
		}
	}()
	if e := overBounds(raw); e != nil {
		return s.encode(s.errorResponse("", nil, e))
	}
	raw = bytes.TrimSpace(raw)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		var probe any
		if json.Unmarshal(raw, &probe) == nil {
			return legacy("the request is not a JSON object")
		}
		return legacy("the request is not valid JSON: " + err.Error())
	}
	if top == nil {
		return legacy("the request is not a JSON object")
	}
	if _, ok := top["protocol"]; !ok {
		return legacy(`protocol is missing; it must be "studio/v1"`)
	}
	op := opOf(top) // read before respond fills in the workspace
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		return s.encode(s.errorResponse(op, nil, protocol.Errorf(reason.QueueFull,
			"the service is answering %d requests already; send the same request again", cap(s.slots))))
	}
	// A change.apply reports how far it got when it times out.
	var prog *applyProgress
	if op == "change.apply" {
		prog = newApplyProgress(top)
	}
	// The handler runs on its own goroutine so that a request past
	// timeout_ms is answered; handlers only read immutable snapshots, so
	// one left running cannot corrupt anything (a change.apply left
	// running is settled by its journal: the process exits after
	// answering, see applyTimedOut).
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	timedOut := func() []byte {
		if prog != nil {
			return s.encode(s.applyTimedOut(prog))
		}
		e := protocol.Errorf(reason.Timeout, "the request ran past timeout_ms (%d)", s.timeout.Milliseconds()).
			Detail("timeout_ms", s.timeout.Milliseconds()).Detail("outcome", "not_applied")
		return s.encode(s.errorResponse(op, nil, e))
	}
	if ctx.Err() != nil {
		return timedOut()
	}
	done := make(chan *protocol.Response, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- s.errorResponse(op, nil, protocol.Errorf(reason.Panic, "internal error: %v", r))
			}
		}()
		done <- s.respond(ctx, raw, top, prog)
	}()
	select {
	case resp = <-done:
		return s.encode(resp)
	case <-ctx.Done():
		return timedOut()
	}
}

// overBounds refuses a request over request_max_bytes (as read, blanks
// included) or json_depth_max before it is decoded.
func overBounds(raw []byte) *protocol.Error {
	if len(raw) > protocol.RequestMaxBytes {
		// The one-shot command and serve stop reading one byte past the
		// bound: a request of exactly that many bytes may be of any size
		// above it.
		msg := fmt.Sprintf("the request is %d bytes, more than request_max_bytes (%d)", len(raw), protocol.RequestMaxBytes)
		if len(raw) == protocol.RequestMaxBytes+1 {
			msg = fmt.Sprintf("the request is more than request_max_bytes (%d bytes); reading stopped there", protocol.RequestMaxBytes)
		}
		return protocol.Errorf(reason.RequestTooLarge, "%s", msg)
	}
	if d := protocol.JSONDepth(raw); d > protocol.JSONDepthMax {
		return protocol.Errorf(reason.JSONDepthLimit,
			"the request is nested %d deep, more than json_depth_max (%d)", d, protocol.JSONDepthMax)
	}
	return nil
}

// opOf is the operation a request names, for echoing in early errors.
func opOf(top map[string]json.RawMessage) string {
	var op string
	_ = json.Unmarshal(top["operation"], &op)
	return op
}

func (s *Service) encode(r *protocol.Response) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		b.Reset()
		fmt.Fprintf(&b, `{"error":{"code":"internal","message":%q}}`, err.Error())
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

func (s *Service) errorResponse(op string, req *protocol.Request, e *protocol.Error) *protocol.Response {
	r := &protocol.Response{Protocol: protocol.Name, Operation: op, Toolchain: s.toolchain,
		Coverage:   protocol.Coverage{Completeness: "unknown", Exhaustive: false, Gaps: []protocol.Gap{}},
		Truncation: protocol.Truncation{Limits: protocol.DefaultLimits, Omissions: []protocol.Omission{}}, Error: e}
	if req != nil {
		r.RequestID = req.RequestID
		r.Truncation.Limits = req.Limits.Apply()
	}
	return r
}

// call is one request being answered.
type call struct {
	s        *Service
	ctx      context.Context
	req      *protocol.Request
	limits   protocol.Applied
	snap     *snapshot.Snapshot
	coverage protocol.Coverage
	trunc    protocol.Truncation
	wsSet    bool
	// overlay names the candidate whose snapshot c.snap is.
	overlay *string
	// progress is a change.apply's progress, which Handle reports when
	// the request times out; nil for other operations.
	progress *applyProgress
	// disk is the capture of the files on disk this call made, if any:
	// the envelope's disk state is compared with it rather than with a
	// second load of the project.
	disk *snapshot.Snapshot
}

// respond answers a request whose envelope top holds; prog is a
// change.apply's progress (nil for other operations).
func (s *Service) respond(ctx context.Context, raw []byte, top map[string]json.RawMessage, prog *applyProgress) *protocol.Response {
	var proto, op string
	_ = json.Unmarshal(top["protocol"], &proto)
	_ = json.Unmarshal(top["operation"], &op)
	if proto != protocol.Name {
		e := protocol.Errorf(reason.ProtocolUnsupported,
			"protocol %s is not supported; this service speaks %s", quoteOr(top["protocol"]), protocol.Name).
			Next("capabilities", "Read the supported protocol and operations", map[string]any{})
		return s.errorResponse(op, nil, e)
	}
	spec, known := byName[op]
	if !known {
		e := protocol.Errorf(reason.UnknownOperation,
			"operation %s is not an operation of %s", quoteOr(top["operation"]), protocol.Name).
			Next("capabilities", "Read the operations this service serves", map[string]any{})
		return s.errorResponse(op, nil, e)
	}
	// Over every transport, a request that omits the workspace is answered
	// for the root the service was started with.
	if spec.Envelope.Workspace == schema.Required {
		if _, ok := top["workspace"]; !ok {
			top["workspace"], _ = json.Marshal(s.wsID)
		}
	}
	// The envelope, with the workspace filled in, is encoded once and both
	// validated and decoded from those bytes.
	env := encodeEnvelope(top)
	var req protocol.Request
	if fe := validateRequest(env); fe != nil {
		_ = json.Unmarshal(env, &req) // what it can, to echo request_id and limits
		return s.errorResponse(op, &req, fe)
	}
	if err := json.Unmarshal(env, &req); err != nil {
		return s.errorResponse(op, &req, protocol.Errorf(reason.Schema, "%v", err))
	}
	c := &call{s: s, ctx: ctx, req: &req, limits: req.Limits.Apply(), coverage: protocol.Complete(), progress: prog}
	c.trunc = protocol.Truncation{Limits: c.limits, Omissions: []protocol.Omission{}}
	resp := &protocol.Response{Protocol: protocol.Name, Operation: op, RequestID: req.RequestID, Toolchain: s.toolchain}
	if spec.Envelope.Workspace != schema.NotAllowed && req.Workspace != nil {
		if *req.Workspace != s.wsID {
			e := protocol.Errorf(reason.WorkspaceUnknown, "workspace %s is not open in this service; its root is %s", *req.Workspace, s.root).
				WithTarget("workspace", *req.Workspace).Next("workspace.open", "Open the project root", map[string]any{"roots": []any{map[string]any{"path": s.root}}})
			return s.errorResponse(op, &req, e)
		}
		resp.Workspace = &s.wsID
		c.wsSet = true
	}
	result, e := spec.run(c)
	if c.snap != nil {
		resp.Snapshot = c.snapshotRef()
	}
	if e != nil {
		r := s.errorResponse(op, &req, e)
		r.Workspace, r.Snapshot = resp.Workspace, resp.Snapshot
		return r
	}
	if op == "workspace.open" {
		resp.Workspace = &s.wsID
	}
	resp.Result = result
	resp.Coverage = c.coverage
	if c.trunc.Used.Bytes == 0 {
		b, _ := json.Marshal(result)
		c.trunc.Used.Bytes = len(b)
	}
	resp.Truncation = c.trunc
	return resp
}

// quoteOr shows a request field in a message: a string as itself, any
// other JSON as written.
func quoteOr(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 {
		return "(none)"
	}
	return string(raw)
}

// encodeEnvelope encodes the request's top-level fields back to JSON.
func encodeEnvelope(top map[string]json.RawMessage) []byte {
	b, _ := json.Marshal(top)
	return b
}

// snapshotRef describes c.snap for the response envelope.
func (c *call) snapshotRef() *protocol.Snapshot {
	ref := &protocol.Snapshot{ID: c.snap.ID, SemanticState: c.snap.Project.Result.State, CapturedAt: c.snap.CapturedAt.Format("2006-01-02T15:04:05Z")}
	if c.overlay != nil { // a candidate's snapshot: never captured
		ref.Overlay, ref.CapturedAt = c.overlay, ""
	}
	if c.snap.Files != nil {
		var changed []string
		var err error
		if c.disk != nil {
			changed = snapshot.Diff(c.snap.Files, c.disk.Files)
		} else {
			changed, err = c.s.store.Changed(c.snap)
		}
		if err == nil {
			ref.Disk = &protocol.Disk{State: "unchanged"}
			if len(changed) > 0 {
				ref.Disk = &protocol.Disk{State: "changed", Changed: changed}
			}
		}
	}
	return ref
}

// resolveSnapshot captures latest or finds the named snapshot. A project
// over a load bound has a snapshot too (see overBound), whose reads answer
// the bound's resource_limit.
func (c *call) resolveSnapshot(id string) *protocol.Error {
	var snap *snapshot.Snapshot
	var err error
	if id == "latest" {
		snap, err = c.s.store.Latest()
		if err == nil && snap.Files != nil {
			c.disk = snap
		}
	} else {
		snap, err = c.s.store.Get(id)
		if errors.Is(err, snapshot.ErrExpired) {
			if over, lerr := c.s.store.Latest(); over != nil && lerr != nil && c.s.overBound(over, lerr).ID == id {
				snap, err = over, lerr
			}
		}
	}
	if snap != nil && err != nil {
		snap = c.s.overBound(snap, err)
	}
	if errors.Is(err, snapshot.ErrExpired) {
		return missingSnapshot(id, "project.overview", "Read again on latest")
	}
	if snap == nil {
		return protocol.Errorf(reason.FileIO, "cannot capture the project: %v", err)
	}
	c.snap = snap
	if err != nil {
		return limitError(err)
	}
	// A source file over a bound the compiler enforces (nesting, brackets,
	// import depth) is the same: the snapshot could not be compiled.
	if e := limitDiagnostic(snap.Project.Result); e != nil {
		return e.WithTarget("snapshot", snap.ID)
	}
	switch snap.Project.Result.State {
	case check.StateSyntax, check.StateResolved:
		errs, _ := diag.Count(snap.Project.Result.Diagnostics)
		c.coverage = protocol.Coverage{Completeness: "partial", Exhaustive: false,
			Gaps: []protocol.Gap{{Reason: "broken_source", Detail: fmt.Sprintf("the snapshot is %s: %s", snap.Project.Result.State, diag.Errors(errs))}}}
	}
	return nil
}

// missingSnapshot is the error for a snapshot id the store does not hold:
// snapshot_expired (re-read on latest) for an id this service issued, and
// not_found (snapshot_unknown, do not retry it) for one it never issued,
// which no refresh brings back. next names the read that recovers.
func missingSnapshot(id, next, why string) *protocol.Error {
	if !snapshot.Issued(id) {
		return protocol.Errorf(reason.SnapshotUnknown,
			"%s is not a snapshot id this service issued; use the snapshot.id of an earlier response, or latest", id).
			WithTarget("snapshot", id).Next(next, why, nil)
	}
	return protocol.Errorf(reason.SnapshotEvicted,
		"snapshot %s is not held by this service and the files on disk no longer have its content", id).
		WithTarget("snapshot", id).Next(next, why, nil)
}

// overBound names the capture of a project over a load bound. The store
// holds no such capture: it answers snap-unavailable and the bound's error,
// and an id nobody can name again sent clients from snapshot_expired to
// latest and back, forever. The id is derived from the bound hit (and the
// compiler and root), the same in every process, so a request naming it
// answers the bound's resource_limit for as long as the files on disk hit
// that bound, and snapshot_expired once they no longer do.
func (s *Service) overBound(snap *snapshot.Snapshot, bound error) *snapshot.Snapshot {
	h := sha256.New()
	for _, p := range []string{"acore-over-bound/v1", s.toolchain.CompilerIdentity, s.root, bound.Error()} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	named := *snap
	named.ID = snapshot.IDFromDigest(h.Sum(nil))
	return &named
}
