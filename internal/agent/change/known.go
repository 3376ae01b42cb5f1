package change

import (
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/diag"
)

// DiagnosticsOmitted counts diagnostics an answer does not list again
// because the agent has them already: in_base, the base snapshot has them
// too (project.overview on it lists them); in_result, the answer's own
// diagnostics list them.
type DiagnosticsOmitted struct {
	Reason   string `json:"reason"`
	Count    int    `json:"count"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
}

// The reasons of DiagnosticsOmitted.
const (
	OmittedInBase   = "in_base"
	OmittedInResult = "in_result"
)

// Known sorts the diagnostics of a candidate's compile into those its
// base has too (the same code, severity, file, declaration and message,
// wherever the lines moved) and the new ones; the answers of a session
// list the new ones and count the rest.
type Known struct {
	inBase, listed map[protocol.Diagnostic]int
	// New are the candidate's diagnostics the base does not have, in
	// order.
	New []diag.Diagnostic
	// Omitted counts the others; nil when there are none.
	Omitted []DiagnosticsOmitted
}

// KnownFrom compares cand, the diagnostics of a candidate's compile, with
// base, its base snapshot's.
func KnownFrom(base, cand []diag.Diagnostic) *Known {
	key := func(d diag.Diagnostic) string {
		return d.Code + "\x00" + string(d.Severity) + "\x00" + d.Path + "\x00" + d.Decl + "\x00" + d.Message
	}
	had := map[string]int{}
	for _, d := range base {
		had[key(d)]++
	}
	k := &Known{inBase: map[protocol.Diagnostic]int{}, listed: map[protocol.Diagnostic]int{}}
	var o omitted
	for _, d := range cand {
		if had[key(d)] > 0 {
			had[key(d)]--
			k.inBase[wire(d)]++
			o.add(string(d.Severity))
			continue
		}
		k.New = append(k.New, d)
	}
	k.Omitted = o.of(OmittedInBase, nil)
	return k
}

// List is the candidate's new diagnostics, at most max, which the answer
// lists; what it leaves out is in Omitted.
func (k *Known) List(max int) []protocol.Diagnostic {
	out := protocol.Diagnostics(k.New[:min(len(k.New), max)])
	for _, d := range out {
		k.listed[d]++
	}
	return out
}

// Thin is check result r without the diagnostics the base has and, when
// the answer lists its own diagnostics (List), those it lists: each is
// counted in r.DiagnosticsOmitted instead.
func (k *Known) Thin(r CheckResult) CheckResult {
	inBase, listed := copyCounts(k.inBase), copyCounts(k.listed)
	var base, res omitted
	kept := []protocol.Diagnostic{}
	for _, d := range r.Diagnostics {
		switch {
		case inBase[d] > 0:
			inBase[d]--
			base.add(d.Severity)
		case listed[d] > 0:
			listed[d]--
			res.add(d.Severity)
		default:
			kept = append(kept, d)
		}
	}
	r.Diagnostics = kept
	r.DiagnosticsOmitted = res.of(OmittedInResult, base.of(OmittedInBase, nil))
	return r
}

func wire(d diag.Diagnostic) protocol.Diagnostic {
	return protocol.Diagnostics([]diag.Diagnostic{d})[0]
}

func copyCounts(m map[protocol.Diagnostic]int) map[protocol.Diagnostic]int {
	out := make(map[protocol.Diagnostic]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// omitted counts diagnostics by severity.
type omitted struct{ errors, warnings int }

func (o *omitted) add(severity string) {
	if severity == string(diag.Error) {
		o.errors++
	} else {
		o.warnings++
	}
}

// of appends o to list as an entry of reason, when it counts any.
func (o omitted) of(reason string, list []DiagnosticsOmitted) []DiagnosticsOmitted {
	if o.errors+o.warnings == 0 {
		return list
	}
	return append(list, DiagnosticsOmitted{Reason: reason, Count: o.errors + o.warnings, Errors: o.errors, Warnings: o.warnings})
}
