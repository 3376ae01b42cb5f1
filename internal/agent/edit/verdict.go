package edit

import (
	"sort"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// Judge is the one repair verdict of an edited project against its base.
// On a validated base the result must compile cleanly. On a base that is
// not validated the edit is a bounded repair: it must leave fewer errors
// and add none outside the declarations it touched ("<path>: <kind>
// <name>"); the outcome is returned for the answer's repair. A refusal is
// a Compile error with the result's diagnostics.
func Judge(base, result *check.Result, touched []string) (*Repair, *Error) {
	baseErrs, _ := diag.Count(base.Diagnostics)
	resErrs, _ := diag.Count(result.Diagnostics)
	if base.State == check.StateValidated {
		if resErrs == 0 && result.State == check.StateValidated {
			return nil, nil
		}
		return nil, compileFailed(reason.CandidateErrors, ErrorDiagnostics(result), nil,
			"the edited project does not compile: %s (first: %s); nothing was created", diag.Errors(resErrs), firstError(result))
	}
	rep := &Repair{BaseState: base.State, BaseErrors: baseErrs, ResultState: result.State, ResultErrors: resErrs, Touched: capList(touched, 50)}
	regressed := regressedDecls(base, result, touched)
	if len(regressed) > 0 || resErrs >= baseErrs {
		msg := "the repair leaves " + diag.Errors(resErrs) + ", the base had " + strconv.Itoa(baseErrs) + "; a repair must leave fewer"
		if len(regressed) > 0 {
			msg = "the repair adds errors outside the declarations it changes: " + strings.Join(capList(regressed, 5), ", ")
		}
		rep.Regressed = capList(regressed, 50)
		return nil, compileFailed(reason.RepairRegression, ErrorDiagnostics(result), rep, "%s", msg)
	}
	return rep, nil
}

// regressedDecls lists, sorted, the declarations outside touched that have
// more errors in result than in base.
func regressedDecls(base, result *check.Result, touched []string) []string {
	count := func(r *check.Result) map[string]int {
		m := map[string]int{}
		for _, d := range r.Diagnostics {
			if d.Severity == diag.Error {
				m[d.Path+": "+d.Decl]++
			}
		}
		return m
	}
	b, c := count(base), count(result)
	t := map[string]bool{}
	for _, k := range touched {
		t[k] = true
	}
	var out []string
	for k, n := range c {
		if !t[k] && n > b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// MergeSorted returns the union of a and b, sorted.
func MergeSorted(a, b []string) []string {
	set := make(map[string]bool, len(a)+len(b))
	for _, s := range a {
		set[s] = true
	}
	for _, s := range b {
		set[s] = true
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
