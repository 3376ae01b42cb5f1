package service

import (
	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// change.discard closes an open candidate: its state becomes discarded
// and its compiled form is released (released: true). It never undoes an
// applied change: an applied candidate is precondition_failed
// (candidate_applied, retryable none); one already discarded or expired is
// precondition_failed (candidate_closed). With expected_candidate_version,
// another version is precondition_failed (candidate_version_mismatch). An
// unknown id is not_found (candidate_unknown). The record stays readable
// (change.inspect) until it is swept.

type discardParams struct {
	Candidate                string `json:"candidate"`
	ExpectedCandidateVersion *int   `json:"expected_candidate_version,omitempty"`
}

// DiscardResult is the result of change.discard.
type DiscardResult struct {
	Candidate change.WireCandidate `json:"candidate"`
	Released  bool                 `json:"released"`
}

func opChangeDiscard(c *call) (any, *protocol.Error) {
	var p discardParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if _, e := c.getCandidate(p.Candidate, true); e != nil {
		return nil, e
	}
	st := c.s.held()
	st.Mu.Lock()
	defer st.Mu.Unlock()
	cand, e := c.getCandidate(p.Candidate, true)
	if e != nil {
		return nil, e
	}
	if e := candidateOpen(cand); e != nil {
		return nil, e
	}
	if p.ExpectedCandidateVersion != nil && *p.ExpectedCandidateVersion != cand.Version {
		return nil, versionMismatch(cand, *p.ExpectedCandidateVersion)
	}
	cand.State = candidate.Discarded
	if err := st.Store.Put(cand); err != nil {
		return nil, protocol.Errorf(reason.StateIO, "%v", err)
	}
	st.Compiled.Release(cand.ID)
	return DiscardResult{Candidate: change.ToWire(cand), Released: true}, nil
}
