package change

import (
	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/project"
)

// CheckResult is a checkResult of the protocol.
type CheckResult struct {
	Check       string                `json:"check"`
	Status      string                `json:"status"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
	// Axag is the summary of the axag check (checkResult allows more
	// properties than the schema names).
	Axag *AxagSummary `json:"axag,omitempty"`
	// DiagnosticsOmitted counts the diagnostics of the check that the
	// answer does not list in it (see Known).
	DiagnosticsOmitted []DiagnosticsOmitted `json:"diagnostics_omitted,omitempty"`
}

// Checks this build runs.
const (
	CheckCompile = "compile"
	CheckRepair  = "repair"
	CheckAxag    = "axag"
)

// AxagSummary is what the axag check adds to its result: the conformance
// level of the candidate's AXAG manifest and of its base's, so that an
// agent sees an edit that lowers it, each action's level and what keeps it
// from the next, and the findings.
type AxagSummary struct {
	Level     string        `json:"level"`
	BaseLevel string        `json:"base_level"`
	Actions   int           `json:"actions"`
	Levels    []AxagLevel   `json:"action_levels"`
	Findings  []AxagFinding `json:"findings"`
}

// AxagFinding is a finding with the node it is on, when it is on one (a
// query or mutation member, an action member, an element): the node whose
// axag.<key> property set_property changes to mend it.
type AxagFinding struct {
	axag.Finding
	Node string `json:"node,omitempty"`
}

// AxagLevel is one action's conformance level and the fields it misses
// for the next level.
type AxagLevel struct {
	Intent  string   `json:"intent"`
	Level   string   `json:"level"`
	Missing []string `json:"missing"`
}

// RunChecks runs the named checks on cand, a change of base touching the
// declarations in touched.
//
//   - compile passes when the candidate compiles to a validated state
//     without errors; its diagnostics are all of the compile's (at most 200),
//     warnings included.
//   - repair passes when no declaration outside touched has more errors
//     than in the base, and the candidate has fewer errors than a broken
//     base (or none, on a validated base); its diagnostics are the
//     candidate's errors.
//   - axag passes when the candidate's AXAG manifest (internal/axag,
//     built from the compiled project) has no error finding; its
//     diagnostics are the findings (at most 200), and its axag summary
//     gives the levels of the candidate and of the base.
func RunChecks(names []string, base, cand *project.Project, touched []string) []CheckResult {
	out := make([]CheckResult, 0, len(names))
	for _, n := range names {
		switch n {
		case CheckCompile:
			r := CheckResult{Check: n, Status: "passed", Diagnostics: protocol.Diagnostics(cand.Result.Diagnostics[:min(len(cand.Result.Diagnostics), 200)])}
			if n, _ := diag.Count(cand.Result.Diagnostics); cand.Result.State != check.StateValidated || n > 0 {
				r.Status = "failed"
			}
			out = append(out, r)
		case CheckRepair:
			r := CheckResult{Check: n, Status: "passed", Diagnostics: protocol.Diagnostics(edit.ErrorDiagnostics(cand.Result))}
			if _, e := edit.Judge(base.Result, cand.Result, touched); e != nil { // the one repair verdict
				r.Status = "failed"
			}
			out = append(out, r)
		case CheckAxag:
			out = append(out, axagCheck(base, cand))
		}
	}
	return out
}

// AllPassed reports whether every result passed.
func AllPassed(rs []CheckResult) bool {
	for _, r := range rs {
		if r.Status != "passed" {
			return false
		}
	}
	return true
}

// nodeAt is the id of the node of p named at line and column of path, or
// "".
func nodeAt(p *project.Project, path string, line, col int) string {
	g := p.Result.Graph
	if g == nil || path == "" {
		return ""
	}
	for _, i := range g.NodesIn(path) {
		if n := g.At(i); int(n.Line) == line && int(n.Column) == col {
			return n.ID
		}
	}
	return ""
}

// axagCheck runs the axag check on cand, a change of base.
func axagCheck(base, cand *project.Project) CheckResult {
	m, fs := axag.ManifestFor(cand, axag.Options{})
	sum := &AxagSummary{Level: m.Conformance, BaseLevel: m.Conformance, Actions: len(m.Actions), Levels: []AxagLevel{}, Findings: []AxagFinding{}}
	for _, f := range fs {
		sum.Findings = append(sum.Findings, AxagFinding{Finding: f, Node: nodeAt(cand, f.File, f.Line, f.Column)})
	}
	if base != cand {
		bm, _ := axag.ManifestFor(base, axag.Options{})
		sum.BaseLevel = bm.Conformance
	}
	for _, a := range m.Actions {
		l, miss := axag.Gaps(a)
		if miss == nil {
			miss = []string{}
		}
		sum.Levels = append(sum.Levels, AxagLevel{Intent: a.Intent, Level: l, Missing: miss})
	}
	r := CheckResult{Check: CheckAxag, Status: "passed", Diagnostics: []protocol.Diagnostic{}, Axag: sum}
	for _, f := range fs {
		if f.Severity == axag.SeverityError {
			r.Status = "failed"
		}
		if len(r.Diagnostics) == 200 || (f.Severity != axag.SeverityError && f.Severity != axag.SeverityWarning) {
			continue
		}
		d := protocol.Diagnostic{Code: f.Rule, Severity: f.Severity, Path: f.File, Line: max(f.Line, 1), Column: max(f.Column, 1), Message: f.Message}
		if d.Path == "" {
			d.Path = check.Entry
		}
		if f.Fix != "" {
			d.Message += " (fix: " + f.Fix + ")"
		}
		r.Diagnostics = append(r.Diagnostics, d)
	}
	return r
}
