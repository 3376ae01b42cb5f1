package service

import (
	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// check.run runs the checks compile, repair and axag (see runChecks) on a
// candidate's current version, or on the envelope snapshot with overlay
// files in place of (or in addition to) its inputs.
//
//   - A failed check is a result with status failed and ok: false, never an
//     error. A check name this build does not run is unsupported_operation
//     (unknown_check): there is no result to give for it.
//   - On a candidate the results are recorded on its current version, so
//     change.apply's require_checks can rely on them; the envelope snapshot
//     is the candidate's (overlay set). params.files and the envelope
//     snapshot do not go with params.candidate (invalid_arguments).
//   - Overlay files: each sha256 must be the SHA-256 of the file the
//     content replaces in the snapshot, null for a file the snapshot does
//     not have; otherwise the caller's view of that file is out of date:
//     stale_snapshot (overlay_mismatch) with details.sha256, the
//     snapshot's digest (null when it has no such file). stale_snapshot is
//     the code check.run's result schema lists for this (its x-errors have
//     no precondition_failed). A path may appear once (invalid_arguments,
//     duplicate_path) and must be a project input. The contents together
//     may be at most check_content_max_bytes (resource_limit,
//     content_too_large), and at most check_files_max files
//     (resource_limit, too_many_files). files [] (or none) checks the
//     snapshot as it is.
//   - The repair check of an overlay counts as changed the top-level
//     declarations whose text the overlay changes.
//   - A bound the snapshot or the overlay hits (nesting, brackets, import
//     depth, file sizes) is resource_limit with the bound's reason: the
//     check could not run, so it is never a failed compile check.

type overlayFile struct {
	Path    string  `json:"path"`
	Content string  `json:"content"`
	SHA256  *string `json:"sha256"`
}

type checkParams struct {
	Candidate *string       `json:"candidate,omitempty"`
	Files     []overlayFile `json:"files,omitempty"`
	Checks    []string      `json:"checks"`
}

// CheckRunResult is the result of check.run.
type CheckRunResult struct {
	OK        bool                 `json:"ok"`
	Candidate string               `json:"candidate,omitempty"`
	Checks    []change.CheckResult `json:"checks"`
}

func opCheckRun(c *call) (any, *protocol.Error) {
	var p checkParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	names, e := checkNames(p.Checks, false)
	if e != nil {
		return nil, e
	}
	if p.Candidate != nil {
		if c.req.Snapshot != nil || p.Files != nil {
			return nil, protocol.Errorf(reason.CandidateWithSnapshot,
				"check.run takes either params.candidate, or the envelope snapshot with params.files, not both")
		}
		return c.checkCandidate(*p.Candidate, names)
	}
	if c.req.Snapshot == nil {
		return nil, protocol.Errorf(reason.Schema,
			"check.run needs params.candidate or the envelope snapshot").WithTarget("field", "snapshot")
	}
	if len(p.Files) > protocol.CheckFilesMax {
		return nil, protocol.Errorf(reason.TooManyFiles,
			"%d overlay files, more than check_files_max (%d)", len(p.Files), protocol.CheckFilesMax)
	}
	total := 0
	for _, f := range p.Files {
		total += len(f.Content)
	}
	if total > protocol.CheckContentMaxBytes {
		return nil, protocol.Errorf(reason.ContentTooLarge,
			"the overlay files hold %d bytes, more than check_content_max_bytes (%d)", total, protocol.CheckContentMaxBytes)
	}
	if e := c.readSnapshot(false); e != nil {
		return nil, e
	}
	base := c.snap.Project
	cand := base
	var touched []string
	if len(p.Files) > 0 {
		if c.snap.Files == nil {
			return nil, protocol.Errorf(reason.SnapshotUnavailable,
				"snapshot %s could not be captured within the service bounds; overlay files need a captured snapshot", c.snap.ID)
		}
		files := map[string][]byte{}
		for _, f := range p.Files {
			if _, dup := files[f.Path]; dup {
				return nil, protocol.Errorf(reason.DuplicatePath, "params.files names %s twice", f.Path).WithTarget("path", f.Path)
			}
			cur, exists := c.snap.Files[f.Path]
			if (f.SHA256 == nil) == exists || (f.SHA256 != nil && *f.SHA256 != cur) {
				var have any
				if exists {
					have = cur
				}
				return nil, protocol.Errorf(reason.OverlayMismatch,
					"%s: the overlay replaces a file whose SHA-256 is not the one in snapshot %s", f.Path, c.snap.ID).
					WithTarget("path", f.Path).Detail("sha256", have).
					Next("node.get", "Re-read the file's nodes on the snapshot and rebuild the overlay from its content", nil)
			}
			files[f.Path] = []byte(f.Content)
		}
		in, e := overlayInputs(base.Inputs, files)
		if e != nil {
			return nil, e
		}
		cand = project.CompileFrom(base, in)
		for p := range files {
			touched = append(touched, changedDecls(base.Headers(p), cand.Headers(p))...)
		}
		if e := limitDiagnostic(cand.Result); e != nil {
			return nil, e
		}
	}
	results := change.RunChecks(names, base, cand, touched)
	return CheckRunResult{OK: change.AllPassed(results), Checks: results}, nil
}

func (c *call) checkCandidate(id string, names []string) (any, *protocol.Error) {
	cand, cc, data, e := c.openCandidate(id)
	if e != nil {
		return nil, e
	}
	results := change.RunChecks(names, cc.Base.Project, cc.Project, data.Touched)
	if e := c.recordChecks(cand, results); e != nil {
		return nil, e
	}
	return CheckRunResult{OK: change.AllPassed(results), Candidate: cand.ID, Checks: results}, nil
}

// changedDecls names, as "<path>: <kind> <name>", the top-level
// declarations of before and after that overlap the bytes between their
// common prefix and common suffix.
func changedDecls(before, after *syntax.File) []string {
	if after == nil && before == nil {
		return nil
	}
	var a, b []byte
	if before != nil {
		a = before.Src
	}
	if after != nil {
		b = after.Src
	}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []string
	collect := func(f *syntax.File, lo, hi int) {
		if f == nil {
			return
		}
		for _, d := range f.Decls {
			s := d.Bounds()
			if int(s.Pos) <= hi && lo <= int(s.End) {
				if name := check.DeclName(d); name != "" {
					out = append(out, f.Path+": "+name)
				}
			}
		}
		for _, u := range f.Uses {
			if int(u.Pos) <= hi && lo <= int(u.End) {
				out = append(out, f.Path+": use "+u.Name.Name)
			}
		}
	}
	collect(before, pre, len(a)-suf)
	collect(after, pre, len(b)-suf)
	return out
}
