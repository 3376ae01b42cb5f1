package service

import (
	"errors"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// The service bounds on a project's inputs map to resource_limit here,
// wherever the inputs come from: the files on disk, an overlay or a
// candidate. The reference: a limit violation is never compile_failed or a
// failed check; the check could not run.

// limitError is the resource_limit of a bound the loader hit.
func limitError(err error) *protocol.Error {
	var lim *load.LimitError
	if errors.As(err, &lim) {
		e := protocol.Errorf(lim.Reason, "%s", lim.Error())
		if lim.Path != "" {
			e.WithTarget("path", lim.Path)
		}
		return e
	}
	return protocol.Errorf(reason.FileIO, "cannot capture the project: %v", err)
}

// limitDiagnostic returns resource_limit for the first diagnostic of a
// bound (nesting, brackets, import depth) in r: such a compile could not
// run, so it is neither compile_failed nor a failed check. The error
// carries the bound's diagnostics, so the client sees where the bound was
// hit. Every file counts, not only those an overlay or a candidate
// changed: a base over a bound is refused before (resolveSnapshot), so a
// bound hit anywhere is the change's doing, and an import chain one
// changed file makes too deep is reported at another file's use line.
func limitDiagnostic(r *check.Result) *protocol.Error {
	var e *protocol.Error
	for _, d := range r.Diagnostics {
		info, ok := diag.Lookup(d.Code)
		if !ok || info.Reason == reason.None {
			continue
		}
		if e == nil {
			e = protocol.Errorf(info.Reason, "%s:%d:%d: %s", d.Path, d.Line, d.Column, d.Message).WithTarget("path", d.Path)
		}
		if len(e.Diagnostics) < 200 { // the schema's maxItems
			e.Diagnostics = append(e.Diagnostics, protocol.Diagnostics([]diag.Diagnostic{d})...)
		}
	}
	return e
}
