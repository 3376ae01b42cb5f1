package edit

import (
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// FileCreate creates a module (a .acore file) or a contract source
// (contracts/<id>.axiom) with the given text; the path must not exist.
type FileCreate struct {
	Path string
	Text string
}

// FileRemove removes a module or a contract source whose content has the
// SHA-256 OldSHA256.
type FileRemove struct {
	Path      string
	OldSHA256 string
}

// FileWrite is one of change.propose's overlay files: raw text for a
// module or a contract source, pinned like a check.run overlay file by the
// SHA-256 of the file it replaces (nil: the file must not exist). It is
// the fallback when no edit family fits, and it goes through the same
// compile and verdict as the other operations.
type FileWrite struct {
	Path   string
	SHA256 *string
	Text   string
}

func (*FileCreate) name() (string, string) { return "file", "create" }
func (*FileRemove) name() (string, string) { return "file", "remove" }
func (*FileWrite) name() (string, string)  { return "file", "write" }

// The file family has none of the common fields: no node to name with a
// handle or pin with a node version.
func (*FileCreate) common() *Common { return nil }
func (*FileRemove) common() *Common { return nil }
func (*FileWrite) common() *Common  { return nil }

// filePath checks that p names a file the batch may write: inside the
// root (permission_denied, path_escape, otherwise) and an input the
// project reads as source, a module or a top-level contract source
// (invalid_arguments, not_an_input, otherwise). The development artifacts
// and the lock are preparation's, never written directly.
func filePath(p string) *Error {
	if strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || path.IsAbs(p) ||
		p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../") ||
		len(p) > 1 && p[1] == ':' {
		return errorf(reason.PathEscape, "path %q leaves the project root: name a project-relative path with forward slashes and no .. segment", p).withPath(p)
	}
	if err := fsutil.ValidRelPath(p); err != nil {
		return errorf(reason.NotAnInput, "path %q is not a project input: %v", p, err).withPath(p)
	}
	dir := path.Dir(p)
	for _, seg := range strings.Split(dir, "/") {
		if seg != "." && (strings.HasPrefix(seg, ".") || seg == "node_modules" || seg == "dist" || seg == "build") {
			return errorf(reason.NotAnInput, "path %q is under %s, which the project does not read as source; artifacts and the lock are re-prepared from contracts/", p, seg).withPath(p)
		}
	}
	switch {
	case strings.HasSuffix(p, ".acore") && path.Base(p) != ".acore":
		return nil
	case strings.HasSuffix(p, ".axiom") && dir == load.ContractSourceDir && path.Base(p) != ".axiom":
		return nil
	}
	return errorf(reason.NotAnInput, "path %q is neither a module (*.acore) nor a contract source (contracts/<id>.axiom)", p).withPath(p)
}

// inputFile returns the file at p among in's sources and contract
// sources, nil when there is none.
func inputFile(in *load.Inputs, p string) *load.File {
	for _, group := range [][]load.File{in.Sources, in.ContractSources} {
		for i := range group {
			if group[i].Path == p {
				return &group[i]
			}
		}
	}
	return nil
}

// fileOp applies a file operation: it checks the path and the
// precondition on the current state, puts the new content (nil: removed)
// in place, re-prepares the contract artifacts and the lock when a
// contract source changes, and compiles. The files it changes are
// recorded in a.written for the result.
func (a *applier) fileOp(i int, o Op) *Error {
	kind, verb := o.name()
	var p string
	var text []byte
	remove := false
	switch o := o.(type) {
	case *FileCreate:
		p, text = o.Path, []byte(o.Text)
	case *FileRemove:
		p, remove = o.Path, true
	case *FileWrite:
		p, text = o.Path, []byte(o.Text)
	}
	if e := filePath(p); e != nil {
		return e
	}
	cur := inputFile(a.proj.Inputs, p)
	switch o := o.(type) {
	case *FileCreate:
		if cur != nil {
			e := errorf(reason.OldTextMismatch, "%s already exists; file create needs a path that does not: remove it first, or edit it", p).withPath(p)
			e.Details = map[string]any{"sha256": cur.SHA256}
			return e
		}
	case *FileRemove:
		if cur == nil {
			return errorf(reason.PathUnknown, "%s is not a file of the project", p).withPath(p)
		}
		if cur.SHA256 != o.OldSHA256 {
			e := errorf(reason.OldTextMismatch, "%s has SHA-256 %s, not old_sha256 %s: read it again", p, cur.SHA256, o.OldSHA256).withPath(p)
			e.Details = map[string]any{"sha256": cur.SHA256}
			return e
		}
	case *FileWrite:
		var have any
		if cur != nil {
			have = cur.SHA256
		}
		if (o.SHA256 == nil) != (cur == nil) || o.SHA256 != nil && *o.SHA256 != cur.SHA256 {
			e := errorf(reason.OverlayMismatch, "%s: the file replaces a file whose SHA-256 is not the one in the state it applies to", p).withPath(p)
			e.Details = map[string]any{"sha256": have}
			return e
		}
		if cur != nil && string(cur.Data) == string(text) {
			return errorf(reason.NoOp, "the file changes nothing: %s already holds that text", p).withPath(p)
		}
	}
	if cm := o.common(); cm != nil && cm.Handle != nil {
		return errorf(reason.Schema, "handle %q: %s %s names no node", *cm.Handle, kind, verb)
	}
	sp := splice{pos: 0, end: 0, text: string(text)}
	if cur != nil {
		sp.end = len(cur.Data)
	}
	entries, nodes, e := a.writeInput(p, cur, text, remove, p, sp)
	if e != nil {
		return e
	}
	a.outcomes = append(a.outcomes, Outcome{Index: i, Kind: kind, Op: verb, Path: p, IDMap: entries, Nodes: nodes})
	return nil
}

// writeInput puts text (removed: none) at p, whose current file is cur,
// re-prepares the contract artifacts and the lock when p is a contract
// source, compiles, and returns the id map of the nodes of idPath around
// sp (sp in idPath's coordinates), and the nodes it asked to change: those
// declared in the files it wrote, before and after, and the ones it added
// elsewhere.
func (a *applier) writeInput(p string, cur *load.File, text []byte, remove bool, idPath string, sp splice) ([]IDMapEntry, []string, *Error) {
	overlay := map[string][]byte{p: text}
	if remove {
		overlay[p] = nil
	}
	in, err := a.proj.Inputs.With(overlay)
	if e := inputsError(err); e != nil {
		return nil, nil, e.withPath(p)
	}
	paths := map[string]bool{p: true} // the files the operation writes
	if strings.HasSuffix(p, ".axiom") {
		prep, err := prepare.Overlay(in)
		var ce *prepare.ContractError
		if errors.As(err, &ce) {
			return nil, nil, compileFailed(reason.CandidateErrors, ce.Diagnostics, nil, "contract source %s cannot be prepared: %v", p, err).withPath(p)
		}
		if err != nil {
			return nil, nil, errorf(reason.Invariant, "preparing %s: %v", p, err)
		}
		if in, err = in.With(prep); err != nil {
			return nil, nil, inputsError(err).withPath(p)
		}
		for q := range prep {
			paths[q] = true
		}
	}
	for q := range paths {
		a.written[q] = true
	}
	if pre := a.proj.Headers(p); pre != nil && cur != nil {
		a.touchSpan(pre, p, 0, len(cur.Data))
	}
	before := a.proj
	if e := a.compileInputs(in); e != nil {
		return nil, nil, e
	}
	entries, added := diffIDs(before.Result.Graph, a.proj.Result.Graph, idPath, sp)
	a.compose(entries, added)
	if post := a.proj.Headers(p); post != nil {
		a.touchSpan(post, p, 0, len(text))
	}
	// With the nodes the new text brought in elsewhere: a contract's,
	// once a module imports it.
	nodes := append([]string(nil), added...)
	for _, g := range []*graph.Graph{before.Result.Graph, a.proj.Result.Graph} {
		for q := range paths {
			for _, k := range g.NodesIn(q) {
				nodes = append(nodes, g.At(k).ID)
			}
		}
	}
	slices.Sort(nodes)
	return entries, slices.Compact(nodes), nil
}

// inputsError is the edit error of a load.Inputs.With failure: a bound
// is resource_limit with its reason.
func inputsError(err error) *Error {
	if err == nil {
		return nil
	}
	var le *load.LimitError
	if errors.As(err, &le) {
		return errorf(le.Reason, "the edited project is over a service bound: %v", le)
	}
	var ni *load.NotInputError
	if errors.As(err, &ni) {
		return errorf(reason.NotAnInput, "%v", ni)
	}
	return errorf(reason.Invariant, "%v", err)
}

// writtenFiles adds to files the content after the batch of each path a
// file operation wrote (nil: removed), when it differs from the base's.
func (a *applier) writtenFiles(files map[string][]byte) {
	for p := range a.written {
		now, was := inputBytes(a.proj.Inputs, p), inputBytes(a.base.Inputs, p)
		switch {
		case now == nil && was == nil:
		case now == nil:
			files[p] = nil
		case was == nil || string(now.Data) != string(was.Data):
			files[p] = now.Data
		}
	}
}

// inputBytes returns the input at p of any kind, the lock included.
func inputBytes(in *load.Inputs, p string) *load.File {
	if p == lock.Path {
		return in.Lock
	}
	if f := inputFile(in, p); f != nil {
		return f
	}
	for i := range in.Contracts {
		if in.Contracts[i].Path == p {
			return &in.Contracts[i]
		}
	}
	return nil
}

// fileEdits is the file family's node.edits option: a module offers its
// removal, with the digest a file remove pins.
func (r *editRules) fileEdits() ([]EditOption, string) {
	if r.n.Kind != graph.KindModule {
		return nil, "file edits create and remove whole modules; " + r.is()
	}
	f := inputFile(r.p.Inputs, r.n.Path)
	if f == nil {
		return nil, "file edits remove a module of the project; " + r.n.Path + " is not one"
	}
	return []EditOption{{Ops: []string{"remove"}, Path: f.Path, OldSHA256: f.SHA256}}, ""
}

// NewDeclarations are the declarations of touched ("<path>: <kind>
// <name>", Result.Touched) that after declares and base does not: code a
// batch adds rather than repairs, which a repair's label must not hide.
func NewDeclarations(base, after *project.Project, touched []string) []string {
	have := func(p *project.Project, path, decl string) bool {
		f := p.Headers(path)
		return f != nil && slices.Contains(declsIn(f, 0, len(f.Src)), decl)
	}
	var out []string
	for _, t := range touched {
		path, decl, ok := strings.Cut(t, ": ")
		if !ok || strings.HasPrefix(decl, "use ") {
			continue
		}
		if have(after, path, decl) && !have(base, path, decl) {
			out = append(out, t)
		}
	}
	return out
}
