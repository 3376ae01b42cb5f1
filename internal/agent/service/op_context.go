package service

import (
	"strings"

	"github.com/axiomcore/acore/internal/agent/ctxbuild"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// context.build: opContextBuild checks the params and the expansion refs
// and reports the coverage gaps; internal/agent/ctxbuild builds the context (its
// package comment gives the recipes and how the answer is cut).

type contextParams struct {
	Focus   []string `json:"focus"`
	Purpose string   `json:"purpose"`
	Include []string `json:"include,omitempty"`
	Expand  []string `json:"expand,omitempty"`
}

func opContextBuild(c *call) (any, *protocol.Error) {
	var p contextParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if len(p.Focus) < 1 || len(p.Focus) > 20 {
		return nil, protocol.Errorf(reason.Schema, "params.focus: must have 1 to 20 node ids, not %d", len(p.Focus))
	}
	if !stringSet(ctxbuild.Purposes)[p.Purpose] {
		return nil, protocol.Errorf(reason.Schema, "params.purpose: %q is not one of %s", p.Purpose, strings.Join(ctxbuild.Purposes, ", "))
	}
	for _, in := range p.Include {
		if !stringSet(ctxbuild.Includes)[in] {
			return nil, protocol.Errorf(reason.Schema, "params.include: %q is not one of %s", in, strings.Join(ctxbuild.Includes, ", "))
		}
	}
	if len(p.Expand) > 50 {
		return nil, protocol.Errorf(reason.Schema, "params.expand: at most 50 refs, not %d", len(p.Expand))
	}
	if p.Purpose == "change_schema" {
		return nil, protocol.Errorf(reason.PurposeUnsupported,
			"purpose change_schema needs a backend profile; the acore-ui profile has no schema to change. Use change_input, change_behavior, understand or diagnose").
			Next("capabilities", "Read the profiles this service serves", map[string]any{})
	}
	if e := c.readSnapshot(true); e != nil {
		return nil, e
	}
	focus, e := c.lookup(p.Focus)
	if e != nil {
		return nil, e
	}
	var expanded []int32
	for _, ref := range p.Expand {
		parts := strings.SplitN(ref, ":", 4)
		if len(parts) != 4 || parts[0] != "ctx1" || parts[2] != "node" {
			return nil, protocol.Errorf(reason.RefInvalid, "params.expand: %q is not an expansion ref of context.build", ref)
		}
		if parts[1] != ctxbuild.SnapPrefix(c.snap.ID) {
			return nil, protocol.Errorf(reason.RefSnapshotMismatch,
				"params.expand: %q was made on another snapshot; expansion refs are valid on the snapshot of the response that gave them, not on %s", ref, c.snap.ID).
				WithTarget("snapshot", c.snap.ID)
		}
		idx, e := c.lookup([]string{parts[3]})
		if e != nil {
			return nil, e
		}
		expanded = append(expanded, idx[0])
	}
	inc := ctxbuild.Include(p.Purpose, p.Include)
	if inc["tests"] {
		c.coverage.Completeness, c.coverage.Exhaustive = "partial", false
		c.coverage.Gaps = append(c.coverage.Gaps, protocol.Gap{Reason: "no_tests_in_profile", Detail: "the acore-ui profile has no test associations; no tests are included"})
	}
	if inc["authorization"] {
		c.coverage.Completeness, c.coverage.Exhaustive = "partial", false
		c.coverage.Gaps = append(c.coverage.Gaps, protocol.Gap{Reason: "no_authorization_in_profile", Detail: "the acore-ui profile has no authorization facts; authorization is decided by the backend contract"})
	}
	res, omissions, ie := ctxbuild.Build(c.snap.Project, c.snap.ID, ctxbuild.Request{Purpose: p.Purpose, Focus: focus, FocusIDs: p.Focus,
		Expanded: expanded, Include: p.Include, Limits: c.limits})
	if ie != nil {
		return nil, insufficientContext(ie)
	}
	if len(omissions) > 0 {
		c.trunc.Truncated = true
		c.trunc.Omissions = append(c.trunc.Omissions, omissions...)
	}
	for _, gp := range res.Gaps {
		c.gap(gp.Reason, gp.Detail, gp.Nodes)
	}
	return c.fit(res)
}

// insufficientContext answers required context over the limits. The
// reference gives insufficient_context no reason: it has one cause.
func insufficientContext(e *ctxbuild.InsufficientError) *protocol.Error {
	return protocol.CodeErrorf(reason.CodeInsufficientContext,
		"the required context of %s on %s is %s; it is never cut. Repeat with limits.max_bytes of at least %d (and max_nodes of at least %d), a narrower include, or fewer focus nodes",
		e.Purpose, strings.Join(e.Focus, ", "), e.What, e.RequiredBytes, e.RequiredItems).
		WithTarget("nodes", e.Focus).
		Next("context.build", "Repeat with limits.max_bytes of at least details.required_bytes, or a narrower include", nil).
		Detail("required_bytes", e.RequiredBytes).Detail("required_items", e.RequiredItems).Detail("expand", e.Expand)
}
