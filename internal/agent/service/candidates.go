package service

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/snapshot"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// Candidates are kept by internal/agent/candidate, in memory and under
// .axiom/state, so that another process (a one-shot command, a restarted
// server) can inspect, check, apply and discard them. A candidate records
// its base snapshot and the full content of every file it writes; its
// compiled form is rebuilt from these when a process does not hold it, so
// candidate snapshots need no persistence of their own.
//
// A candidate's snapshot id is the snapshot id its inputs would have if
// they were on disk (snapshot.Store.ID of the base's inputs with the
// candidate's files): once the candidate is applied, capturing latest gives
// that id.

// Candidates returns the candidate store of the service's root. Every
// Service given the same Config.Candidates shares it, so use it (not a
// second candidate.NewStore) to read or write candidates: the store keeps
// copies in memory.
func (s *Service) Candidates() *candidate.Store { return s.held().Store }

// held is what the process holds of the root's candidates.
func (s *Service) held() *change.Held { return s.candidates.Of(s.root) }

// getCandidate reads candidate id: not_found (candidate_unknown) when no
// record exists, not_found (candidate_expired) when an open candidate is
// past its expiry.
func (c *call) getCandidate(id string, allowExpired bool) (*candidate.Candidate, *protocol.Error) {
	cand, err := c.s.held().Store.Get(id)
	if errors.Is(err, candidate.ErrNotFound) {
		return nil, protocol.Errorf(reason.CandidateUnknown, "candidate %s is not known to this workspace", id).
			WithTarget("candidate", id).Next("change.propose", "Propose the change again", nil)
	}
	if err != nil {
		return nil, protocol.Errorf(reason.StateIO, "%v", err)
	}
	if cand.Workspace != "" && cand.Workspace != c.s.wsID {
		return nil, protocol.Errorf(reason.CandidateUnknown, "candidate %s is not known to this workspace", id).
			WithTarget("candidate", id)
	}
	if cand.State == candidate.Expired && !allowExpired {
		return nil, protocol.Errorf(reason.CandidateExpired, "candidate %s expired at %s", id, cand.ExpiresAt.UTC().Format(time.RFC3339)).
			WithTarget("candidate", id).Next("change.propose", "Propose the change again on a current snapshot", nil)
	}
	return cand, nil
}

// compileCandidate returns the compiled candidate: from the cache, or
// rebuilt from its base snapshot and files.
func (c *call) compileCandidate(cand *candidate.Candidate) (*change.Compiled, *protocol.Error) {
	st := c.s.held()
	if cc := st.Compiled.Get(cand.ID, cand.Version); cc != nil {
		return cc, nil
	}
	base, err := c.s.store.Get(cand.Base)
	if err != nil || base == nil {
		return nil, protocol.Errorf(reason.SnapshotEvicted,
			"the base snapshot %s of candidate %s is no longer held and the files on disk no longer have its content", cand.Base, cand.ID).
			WithTarget("candidate", cand.ID).Next("change.propose", "Propose the change again on latest", nil)
	}
	in, lerr := overlayInputs(base.Project.Inputs, change.Overlay(cand.Files))
	if lerr != nil {
		return nil, lerr
	}
	if id := c.s.store.ID(in); id != cand.Snapshot {
		return nil, protocol.Errorf(reason.CandidateUnreadable,
			"candidate %s was stored by another compiler build (its snapshot %s is %s here)", cand.ID, cand.Snapshot, id).
			WithTarget("candidate", cand.ID).Next("change.propose", "Propose the change again on latest", nil)
	}
	cc := &change.Compiled{Base: base, Project: project.CompileFrom(base.Project, in)}
	c.s.store.Add(in, cc.Project)
	st.Compiled.Put(cand.ID, cand.Version, cc)
	return cc, nil
}

// overlayInputs returns base with files replaced, added or (nil content)
// removed (load.Inputs.With): a path that is no input is invalid_arguments
// (not_an_input), a bound resource_limit.
func overlayInputs(base *load.Inputs, files map[string][]byte) (*load.Inputs, *protocol.Error) {
	in, err := base.With(files)
	var ni *load.NotInputError
	if errors.As(err, &ni) {
		return nil, protocol.Errorf(reason.NotAnInput, "%s", ni.Error()).WithTarget("path", ni.Path)
	}
	if err != nil {
		return nil, limitError(err)
	}
	return in, nil
}

// checkNames validates and deduplicates check names, with compile first
// when withCompile. An unknown name is unsupported_operation
// (unknown_check): a check that cannot be named is not a failed check.
func checkNames(names []string, withCompile bool) ([]string, *protocol.Error) {
	var out []string
	seen := map[string]bool{}
	if withCompile {
		out, seen[change.CheckCompile] = append(out, change.CheckCompile), true
	}
	for _, n := range names {
		if n != change.CheckCompile && n != change.CheckRepair && n != change.CheckAxag {
			return nil, protocol.Errorf(reason.UnknownCheck,
				"check %q is not a check of this build; the checks are compile, repair and axag", n).
				WithTarget("check", n).Next("capabilities", "Read the checks this build runs", map[string]any{})
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// recordChecks stores check results on the candidate's current version
// (Candidate.Checks), replacing earlier results of the same checks on that
// version, so that change.apply's require_checks sees them. A candidate
// that moved to another version or state meanwhile is left alone.
func (c *call) recordChecks(cand *candidate.Candidate, results []change.CheckResult) *protocol.Error {
	st := c.s.held()
	st.Mu.Lock()
	defer st.Mu.Unlock()
	cur, err := st.Store.Get(cand.ID)
	if err != nil || cur.Version != cand.Version || cur.State != candidate.Open {
		return nil
	}
	for _, r := range results {
		diags, _ := json.Marshal(r.Diagnostics)
		kept := make([]candidate.Check, 0, len(cur.Checks)+1) // cur shares its arrays with the store
		for _, old := range cur.Checks {
			if old.Check != r.Check || old.Version != cur.Version {
				kept = append(kept, old)
			}
		}
		cur.Checks = append(kept, candidate.Check{Check: r.Check, Status: r.Status, Diagnostics: diags, Version: cur.Version})
	}
	if err := st.Store.Put(cur); err != nil {
		return stateError("storing the candidate", err)
	}
	return nil
}

// candidateSnapshot makes the envelope snapshot of an answer about a
// candidate: its snapshot, with overlay naming it.
// openCandidate loads candidate id, compiles it, makes its snapshot the
// one the answer names, and decodes its data: what change.inspect and
// check.run on a candidate read.
func (c *call) openCandidate(id string) (*candidate.Candidate, *change.Compiled, *change.Data, *protocol.Error) {
	cand, e := c.getCandidate(id, true)
	if e != nil {
		return nil, nil, nil, e
	}
	cc, e := c.compileCandidate(cand)
	if e != nil {
		return nil, nil, nil, e
	}
	c.candidateSnapshot(cand, cc)
	data, err := change.ReadData(cand)
	if err != nil {
		return nil, nil, nil, protocol.Errorf(reason.StateIO, "%v", err)
	}
	return cand, cc, data, nil
}

func (c *call) candidateSnapshot(cand *candidate.Candidate, cc *change.Compiled) {
	c.snap = &snapshot.Snapshot{ID: cand.Snapshot, Project: cc.Project}
	id := cand.ID
	c.overlay = &id
}
