package edit

import (
	"errors"
	"strings"
	"time"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/refs"
	"github.com/axiomcore/acore/internal/lang/rename"
)

// Rename gives a declaration a new name everywhere the project names it.
// It is the one operation that splices more than one file: the rename
// engine (internal/lang/rename, the editor's too) plans and compiles it.
type Rename struct {
	Node    NodeRef
	OldName string
	NewName string
	Common
}

func (*Rename) name() (string, string) { return "rename", "" }

// renameKinds are the node kinds node.edits offers rename on. The rename
// engine has the last word (a contract's model).
var renameKinds = map[string]bool{
	graph.KindPage: true, graph.KindComponent: true, graph.KindProp: true, graph.KindModel: true,
	graph.KindState: true, graph.KindLet: true, graph.KindQuery: true, graph.KindMutation: true, graph.KindAction: true,
	graph.KindExtension: true, graph.KindRoute: true, graph.KindField: true,
}

// rename offers rename on a declaration of an authored module; text is the
// current name, the operation's old_name.
func (r *editRules) rename() ([]EditOption, string) {
	n := r.n
	if !renameKinds[n.Kind] {
		return nil, "rename renames pages, components, props, models, model fields, states, lets, queries, mutations, actions, extern actions and route paths; this is " + article(n.Kind) + " " + n.Kind
	}
	if n.Kind == graph.KindField && r.p.Inputs.ContractSource(n.Path) != nil {
		// A local contract's field is renamed in its source, and the
		// artifact and lock re-prepared.
		name := n.Name
		return []EditOption{{Text: &name}}, ""
	}
	if !strings.HasSuffix(n.Path, ".acore") || !isSource(r.p.Inputs, n.Path) {
		return nil, n.ID + " is declared by " + n.Path + ", which the project's modules do not author; rename it in its contract"
	}
	name := n.Name
	return []EditOption{{Text: &name}}, ""
}

// renameReasons are the protocol reasons of the rename engine's refusals.
var renameReasons = map[string]reason.Reason{
	rename.InvalidName: reason.InvalidName, rename.NotRenamable: reason.NotRenamable,
	rename.NameTaken: reason.NameTaken, rename.Breaks: reason.RenameBreaks,
}

// rename applies operation i, o, in full: unlike the one-splice
// operations it compiles through the rename engine and composes an id map
// over every file it changed.
func (a *applier) rename(i int, o *Rename) *Error {
	n, ni, e := a.renameTarget(o.Node)
	if e != nil {
		return e
	}
	opts, why := a.options(n, ni, "rename")
	if len(opts) == 0 {
		return notOffered("rename", n.ID, why)
	}
	if e := a.preconditions(&o.Common, n, &opts[0]); e != nil {
		return e
	}
	if o.OldName != n.Name {
		return errorf(reason.OldValueMismatch, "%s is named %s, not %s", n.ID, n.Name, o.OldName).
			withNode(n.ID).next(Reread, n.ID)
	}
	if o.Handle != nil {
		if _, dup := a.handles[*o.Handle]; dup {
			return errorf(reason.HandleReused, "handle %q is already used by an earlier operation of the batch", *o.Handle)
		}
	}
	if n.Kind == graph.KindRoute {
		return a.renameRoute(i, n, ni, o)
	}
	t := time.Now()
	ix := refs.Build(a.proj)
	obj := objectOf(ix, n.ID)
	plan, err := rename.Rename(ix, obj, o.NewName)
	a.spent += time.Since(t)
	if err != nil {
		var rf *rename.Refusal
		if !errors.As(err, &rf) {
			return errorf(reason.RenameBreaks, "%s", err).withNode(n.ID)
		}
		return errorf(renameReasons[rf.Reason], "%s", rf.Message).withNode(n.ID).detail("new_name", o.NewName)
	}
	if a.budget > 0 && a.spent > a.budget {
		return errorf(reason.BudgetExhausted,
			"the batch's compiles took %d ms, more than group_compile_budget_ms (%d); split the batch", a.spent.Milliseconds(), a.budget.Milliseconds())
	}
	cand := plan.Candidate
	if e := boundError(cand.Result); e != nil {
		return e
	}
	if cand.Result.Graph == nil {
		return compileFailed(reason.CandidateErrors, ErrorDiagnostics(cand.Result), nil,
			"the project has no node graph after this rename: %s", firstError(cand.Result))
	}
	// plan.Edits are in path order, which touched and owners keep.
	var paths []string
	edits := map[string][]rename.Edit{}
	for _, ed := range plan.Edits {
		if edits[ed.Path] == nil {
			paths = append(paths, ed.Path)
		}
		edits[ed.Path] = append(edits[ed.Path], ed)
	}
	delta := len(plan.New) - len(plan.Old)
	for _, path := range paths {
		list := edits[path]
		if !strings.HasSuffix(path, ".acore") {
			// A local contract's source and artifact: written as a file
			// operation writes them, with the lock the engine re-prepared.
			a.written[path] = true
			continue
		}
		if size := len(a.data(path)) + delta*len(list); size > load.SourceFileBytesMax {
			return errorf(reason.FileTooLarge, "%s would be %d bytes, over source_file_bytes_max (%d)", path, size, load.SourceFileBytesMax)
		}
		a.total += delta * len(list)
		a.changed[path] = true
		pre := a.proj.Headers(path)
		for _, ed := range list {
			a.touchSpan(pre, path, ed.Pos, ed.End)
		}
	}
	if a.total > load.SourcesBytesMax {
		return errorf(reason.SourcesTooLarge, "the sources would total %d bytes, over sources_bytes_max (%d)", a.total, load.SourcesBytesMax)
	}
	for _, p := range plan.Prepared {
		a.written[p] = true
	}
	before := a.proj
	a.proj = cand
	entries := renameIDs(before.Result.Graph, cand.Result.Graph, plan)
	a.compose(entries, nil)
	named := n.ID
	if v, ok := movedTo(entries, n.ID); ok {
		named = v
	}
	for _, ed := range plan.Edits {
		if !strings.HasSuffix(ed.Path, ".acore") {
			continue
		}
		// The renamed declaration is touched, and owns, under its new name
		// too.
		post := cand.Headers(ed.Path)
		pos := shiftedBy(plan, ed.Path, ed.Pos)
		a.touchSpan(post, ed.Path, pos, pos+len(plan.New))
	}
	path := n.Path
	if src := before.Inputs.ContractSource(n.Path); src != nil {
		path = src.Path // a local contract's field: its source is renamed
	}
	out := Outcome{Index: i, Kind: "rename", Path: path, Node: n.ID, IDMap: entries}
	if o.Handle != nil {
		out.Handle = *o.Handle
		a.handles[*o.Handle] = named
	}
	a.outcomes = append(a.outcomes, out)
	return nil
}

// renameTarget resolves the node a rename names: a node of an authored
// source, or a field of a local contract, whose source the rename edits.
func (a *applier) renameTarget(r NodeRef) (*graph.Node, int32, *Error) {
	id, e := a.resolve(r, "node")
	if e != nil {
		return nil, 0, e
	}
	g := a.proj.Result.Graph
	if i, ok := g.Lookup(id); ok && g.At(i).Kind == graph.KindField && a.proj.Inputs.ContractSource(g.At(i).Path) != nil {
		return g.At(i), i, nil
	}
	return a.node(r, "node")
}

// objectOf is the declaration of ix whose graph node has id, or nil.
func objectOf(ix *refs.Index, id string) *check.Object {
	if ix.Recorded == nil || ix.Recorded.Result == nil || ix.Recorded.Result.Graph == nil {
		return nil
	}
	g := ix.Recorded.Result.Graph
	for o := range ix.Refs {
		if o.Node >= 0 && int(o.Node) < g.Len() && g.At(o.Node).ID == id {
			return o
		}
	}
	return nil
}

// shiftedBy is where the byte at off of path stands after the plan's
// edits.
func shiftedBy(plan *rename.Plan, path string, off int) int {
	n := 0
	for _, ed := range plan.Edits {
		if ed.Path == path && ed.Pos < off {
			n++
		}
	}
	return off + n*(len(plan.New)-len(plan.Old))
}

// renameIDs is the id_map of a rename from pre to post. A rename changes
// no structure, only names: every node of pre is the node of post of its
// kind at its span shifted through the edits. Ids embed names, so a
// renamed declaration changes its own id and those of everything it
// owns (prop:PageTitle.subtitle under component:PageTitle), and an id
// that names a renamed one elsewhere (an instance's element id) changes
// too; each is reported renamed when its node's name changed, moved when
// only its id did.
func renameIDs(pre, post *graph.Graph, plan *rename.Plan) []IDMapEntry {
	type key struct {
		path     string
		kind     string
		pos, end int
	}
	at := map[key]int32{}
	for k := range int32(post.Len()) {
		n := post.At(k)
		at[key{n.Path, n.Kind, int(n.Pos), int(n.End)}] = k
	}
	entries := []IDMapEntry{}
	for k := range int32(pre.Len()) {
		n := pre.At(k)
		p := shiftedBy(plan, n.Path, int(n.Pos))
		e := shiftedBy(plan, n.Path, int(n.End))
		var to *graph.Node
		if j, ok := at[key{n.Path, n.Kind, p, e}]; ok {
			to = post.At(j)
		} else if j, ok := post.Lookup(n.ID); ok && post.At(j).Kind == n.Kind {
			continue
		}
		if en, ok := mapEntry(n, to); ok {
			entries = append(entries, en)
		}
	}
	sortByBase(pre, entries)
	return entries
}
