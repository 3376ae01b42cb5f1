package edit

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// How a batch is applied.
//
// The batch works on a private copy of the base's inputs. Every operation
// resolves its node in the state the operations before it left: node ids
// are ids of the base snapshot (or handles), translated through the id
// maps of the earlier operations. An operation that can change ids or
// edges (everything but set_property on a node other than a route) is
// compiled right after it, and its id_map is the difference of the node
// sets before and after, matched by position around the splice. Runs of
// set_property, which only replace literal values, are not compiled one by
// one: their splices are kept in the coordinates of the last compile,
// spans are mapped through them, and the values they wrote are read back
// from an overlay; the next operation of another kind, or the end of the
// batch, compiles them. A batch of 50 set_property operations therefore
// costs one compile.

// maxDiagnostics bounds the diagnostics of an error.
const maxDiagnostics = 200

// Repair is the repairOutcome of a batch on a base that is not validated.
type Repair struct {
	BaseState    string   `json:"base_state"`
	BaseErrors   int      `json:"base_errors"`
	ResultState  string   `json:"result_state"`
	ResultErrors int      `json:"result_errors"`
	Touched      []string `json:"touched"`
	// Regressed, in a refusal's details only, lists the declarations that
	// gained errors outside the broken ones the edit changed.
	Regressed []string `json:"regressed,omitempty"`
}

// applier is the state of one batch.
type applier struct {
	opt    Options
	base   *project.Project
	budget time.Duration
	spent  time.Duration

	// proj is the last compiled state; pending holds the deferred
	// set_property splices since, per file, in proj's coordinates and
	// sorted, cur the resulting bytes and overlay the values they wrote.
	proj    *project.Project
	pending map[string][]splice
	cur     map[string][]byte
	overlay map[string]any
	total   int // bytes of all sources now

	// Ids: fwd maps base ids whose id changed to the current id (nil when
	// removed), rev the other way; created holds current ids of nodes the
	// batch created.
	fwd     map[string]*string
	rev     map[string]string
	created map[string]bool
	handles map[string]string // handle → current id ("" when gone)

	changed    map[string]bool // paths written
	written    map[string]bool // paths file operations wrote, with the artifacts and lock they re-prepared
	touched    []string
	touchedSet map[string]bool
	owners     []string
	ownerSet   map[string]bool
	outcomes   []Outcome
}

// change is what one operation does: one splice of one file.
type change struct {
	path string
	sp   splice
	// deferred: a literal value change that needs no compile (see above);
	// key and val are its overlay entry.
	deferred bool
	key      string
	val      any
	// createdAt is the offset, after the splice, of the node the operation
	// creates (-1: none), of one of createdKinds.
	createdAt    int
	createdKinds []string
	node         string // the target node's current id
	owner        string // the target's owner id, if any
	property     string
	removes      bool // the operation removes its node
}

func apply(base *project.Project, ops []Op, opt Options) (*Result, *Error) {
	if len(ops) == 0 {
		return nil, errorf(reason.Schema, "operations: the batch is empty")
	}
	for i, o := range ops {
		if _, ok := o.(*ReplaceRegion); ok && len(ops) > 1 {
			return nil, at(errorf(reason.RegionAlone,
				"replace_region must be the only operation of its batch; this batch has %d", len(ops)), i)
		}
	}
	if base == nil || base.Result == nil || base.Result.Graph == nil || base.Result.State == check.StateUnavailable {
		var diags []diag.Diagnostic
		if base != nil && base.Result != nil {
			diags = ErrorDiagnostics(base.Result)
		}
		return nil, compileFailed(reason.NotValidated, diags, nil, "the base is unavailable: it has no node graph to edit")
	}
	a := &applier{opt: opt, base: base, budget: opt.CompileBudget, proj: base,
		pending: map[string][]splice{}, cur: map[string][]byte{}, overlay: map[string]any{},
		fwd: map[string]*string{}, rev: map[string]string{}, created: map[string]bool{}, handles: map[string]string{},
		changed: map[string]bool{}, written: map[string]bool{}, touchedSet: map[string]bool{}, ownerSet: map[string]bool{}}
	for _, f := range base.Inputs.Sources {
		a.total += len(f.Data)
	}
	for i, o := range ops {
		if e := a.step(i, o); e != nil {
			return nil, at(e, i)
		}
	}
	last := len(ops) - 1
	if len(a.pending) > 0 && !opt.DryRun {
		if e := a.compile(); e != nil {
			return nil, at(e, last)
		}
	}
	res := &Result{Files: map[string][]byte{}, Operations: a.outcomes, Touched: a.touched, Owners: a.owners}
	if res.Touched == nil {
		res.Touched = []string{}
	}
	if res.Owners == nil {
		res.Owners = []string{}
	}
	for p := range a.changed {
		now := a.data(p)
		if string(now) != string(sourceData(base.Inputs, p)) {
			res.Files[p] = now
		}
	}
	a.writtenFiles(res.Files)
	if len(res.Files) == 0 {
		return nil, at(errorf(reason.NoOp, "the batch changes nothing: its operations leave every file as it was"), last)
	}
	if len(a.pending) == 0 {
		res.Project = a.proj
	}
	res.IDMap = a.composed(res.Project)
	if res.Project == nil || opt.DryRun {
		return res, nil
	}
	if e := a.final(res); e != nil {
		return nil, at(e, last)
	}
	return res, nil
}

func at(e *Error, i int) *Error {
	if e.OperationIndex == nil {
		e.OperationIndex = &i
	}
	return e
}

// final checks the compiled final state: validated, or a bounded repair
// of a base that was not. This is the one repair verdict of a batch; the
// service judges no second time.
func (a *applier) final(res *Result) *Error {
	r := res.Project.Result
	if e := boundError(r); e != nil {
		return e
	}
	base := a.base.Result
	if a.opt.Base != nil {
		base = a.opt.Base
	}
	rep, e := Judge(base, r, MergeSorted(a.opt.Touched, a.touched))
	if e != nil {
		return e
	}
	res.Repair = rep
	return nil
}

// boundError turns a service bound hit by the edited project into
// resource_limit.
func boundError(r *check.Result) *Error {
	for _, d := range r.Diagnostics {
		if d.Severity != diag.Error {
			continue
		}
		if info, ok := diag.Lookup(d.Code); ok && info.Reason != reason.None {
			e := errorf(info.Reason, "the edited project is over a service bound: %s: %s", d.Path, d.Message)
			e.Diagnostics = ErrorDiagnostics(r)
			return e
		}
	}
	return nil
}

func firstError(r *check.Result) string {
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			return d.Path + ":" + itoa(d.Line) + ":" + itoa(d.Column) + ": " + d.Message + " [" + d.Code + "]"
		}
	}
	return "state " + r.State
}

func capList(l []string, n int) []string {
	if len(l) > n {
		return l[:n]
	}
	if l == nil {
		return []string{}
	}
	return l
}

func sourceData(in *load.Inputs, path string) []byte {
	for i := range in.Sources {
		if in.Sources[i].Path == path {
			return in.Sources[i].Data
		}
	}
	return nil
}

func isSource(in *load.Inputs, path string) bool {
	for i := range in.Sources {
		if in.Sources[i].Path == path {
			return true
		}
	}
	return false
}

// data returns the current bytes of path.
func (a *applier) data(path string) []byte {
	if d, ok := a.cur[path]; ok {
		return d
	}
	return sourceData(a.proj.Inputs, path)
}

// mapOff maps an offset of proj's file at path through its pending
// splices.
func (a *applier) mapOff(path string, off int) int {
	d := 0
	for _, s := range a.pending[path] {
		if off >= s.end {
			d += s.delta()
		}
	}
	return off + d
}

// text returns the current text of node n of proj.
func (a *applier) text(n *graph.Node) string {
	d := a.data(n.Path)
	p, e := a.mapOff(n.Path, int(n.Pos)), a.mapOff(n.Path, int(n.End))
	if p < 0 || e > len(d) || p > e {
		return ""
	}
	return string(d[p:e])
}

// version returns the current version of node n of proj.
func (a *applier) version(n *graph.Node) string {
	if len(a.pending[n.Path]) == 0 {
		return a.proj.Result.Graph.Version(n)
	}
	return graph.Fingerprint(n.Kind, n.Name, n.Path, []byte(a.text(n)))
}

// value returns the current value of property pr of n.
func (a *applier) value(n *graph.Node, pr *graph.Property) any {
	if v, ok := a.overlay[n.ID+"\x00"+pr.Name]; ok {
		return v
	}
	return pr.Value
}

// compile compiles the current state.
func (a *applier) compile() *Error {
	in := *a.proj.Inputs
	in.Sources = append([]load.File(nil), in.Sources...)
	for i := range in.Sources {
		if d, ok := a.cur[in.Sources[i].Path]; ok {
			sum := sha256.Sum256(d)
			in.Sources[i].Data, in.Sources[i].SHA256 = d, hex.EncodeToString(sum[:])
		}
	}
	return a.compileInputs(&in)
}

// compileInputs compiles in as the current state.
func (a *applier) compileInputs(in *load.Inputs) *Error {
	t := time.Now()
	p := project.CompileFrom(a.proj, in)
	a.spent += time.Since(t)
	a.proj, a.pending, a.cur, a.overlay = p, map[string][]splice{}, map[string][]byte{}, map[string]any{}
	if a.budget > 0 && a.spent > a.budget {
		return errorf(reason.BudgetExhausted,
			"the batch's compiles took %d ms, more than group_compile_budget_ms (%d); split the batch", a.spent.Milliseconds(), a.budget.Milliseconds())
	}
	if e := boundError(p.Result); e != nil {
		return e
	}
	if p.Result.Graph == nil {
		return compileFailed(reason.CandidateErrors, ErrorDiagnostics(p.Result), nil,
			"the project has no node graph after this operation: %s", firstError(p.Result))
	}
	return nil
}

// step applies operation i.
func (a *applier) step(i int, o Op) *Error {
	kind, verb := o.name()
	if kind != "set_property" && len(a.pending) > 0 {
		if e := a.compile(); e != nil {
			return e
		}
	}
	switch o := o.(type) {
	case *FileCreate, *FileRemove, *FileWrite:
		if e := a.fileOp(i, o); e != nil {
			return e
		}
		a.total = 0
		for _, f := range a.proj.Inputs.Sources {
			a.total += len(f.Data)
		}
		return nil
	case *Rename:
		return a.rename(i, o)
	case *DeclCreate, *DeclUpdate, *DeclRemove:
		if done, e := a.contractDecl(i, o); done {
			return e
		}
	}
	var c *change
	var e *Error
	switch o := o.(type) {
	case *SetProperty:
		c, e = a.setProperty(o)
	case *BindProperty:
		c, e = a.bindProperty(o)
	case *SetReference:
		c, e = a.setReference(o)
	case *ListRemove:
		c, e = a.listRemove(o)
	case *ListInsert:
		c, e = a.listInsert(o)
	case *DeclCreate:
		c, e = a.declCreate(o)
	case *DeclUpdate:
		c, e = a.declUpdate(o)
	case *DeclRemove:
		c, e = a.declRemove(o)
	case *ImportAdd:
		c, e = a.importAdd(o)
	case *ImportRemove:
		c, e = a.importRemove(o)
	case *ReplaceRegion:
		c, e = a.replaceRegion(o)
	case *RouteAdd:
		c, e = a.routeAdd(o)
	case *RouteRemove:
		c, e = a.routeRemove(o)
	}
	if e != nil {
		return e
	}
	var handle *string
	if cm := o.common(); cm != nil {
		handle = cm.Handle
	}
	if handle != nil {
		if _, dup := a.handles[*handle]; dup {
			return errorf(reason.HandleReused, "handle %q is already used by an earlier operation of the batch", *handle)
		}
		if c.removes {
			return errorf(reason.Schema, "handle %q: %s %s removes its node; there is nothing to name", *handle, kind, verb)
		}
	}
	d := a.data(c.path)
	oldSeg := a.segment(c)
	if oldSeg == c.sp.text {
		return errorf(reason.NoOp, "the operation changes nothing: %s already holds that text", c.path)
	}
	delta := len(c.sp.text) - len(oldSeg)
	if newLen := len(d) + delta; newLen > load.SourceFileBytesMax {
		return errorf(reason.FileTooLarge, "%s would be %d bytes, over source_file_bytes_max (%d)", c.path, newLen, load.SourceFileBytesMax)
	}
	if a.total+delta > load.SourcesBytesMax {
		return errorf(reason.SourcesTooLarge, "the sources would total %d bytes, over sources_bytes_max (%d)", a.total+delta, load.SourcesBytesMax)
	}
	a.total += delta
	a.changed[c.path] = true
	if c.owner != "" {
		a.owner(c.owner)
	}
	a.touchSpan(a.proj.Headers(c.path), c.path, c.sp.pos, c.sp.end)
	out := Outcome{Index: i, Kind: kind, Op: verb, Path: c.path, Node: c.node, Property: c.property, IDMap: []IDMapEntry{}}
	if handle != nil {
		out.Handle = *handle
	}
	if c.deferred {
		a.defer1(c)
		if handle != nil {
			a.handles[*handle] = c.node
		}
		a.outcomes = append(a.outcomes, out)
		return nil
	}
	before := a.proj
	a.pending[c.path] = []splice{c.sp}
	a.cur[c.path] = c.sp.apply(d)
	if e := a.compile(); e != nil {
		return e
	}
	entries, added := diffIDs(before.Result.Graph, a.proj.Result.Graph, c.path, c.sp)
	a.compose(entries, added)
	out.IDMap = entries
	post := a.proj.Headers(c.path)
	// A removal leaves an empty range, which would name the declaration
	// that now starts there; the removed one was touched before.
	if post != nil && (len(c.sp.text) > 0 || !c.removes) {
		end := c.sp.pos + len(c.sp.text)
		a.touchSpan(post, c.path, c.sp.pos, end)
	}
	named := c.node
	if c.createdAt >= 0 {
		named = a.findCreated(c)
		out.Created = named
	} else if c.removes {
		named = ""
	} else if v, ok := movedTo(entries, c.node); ok {
		named = v
	}
	if handle != nil {
		a.handles[*handle] = named
	}
	a.outcomes = append(a.outcomes, out)
	return nil
}

func movedTo(entries []IDMapEntry, id string) (string, bool) {
	for _, e := range entries {
		if *e.OldID == id {
			if e.NewID == nil {
				return "", true
			}
			return *e.NewID, true
		}
	}
	return "", false
}

// segment returns the current text of the range c replaces, which is in
// proj's coordinates.
func (a *applier) segment(c *change) string {
	for _, s := range a.pending[c.path] {
		if s.pos == c.sp.pos && s.end == c.sp.end {
			return s.text
		}
	}
	src := sourceData(a.proj.Inputs, c.path)
	if len(a.pending[c.path]) == 0 {
		src = a.data(c.path)
	}
	return string(src[c.sp.pos:c.sp.end])
}

// defer1 records a deferred literal splice.
func (a *applier) defer1(c *change) {
	list := a.pending[c.path]
	replaced := false
	for k := range list {
		if list[k].pos == c.sp.pos && list[k].end == c.sp.end {
			list[k] = c.sp
			replaced = true
		}
	}
	if !replaced {
		list = append(list, c.sp)
		sort.Slice(list, func(x, y int) bool { return list[x].pos < list[y].pos })
	}
	a.pending[c.path] = list
	a.cur[c.path] = applyAll(sourceData(a.proj.Inputs, c.path), list)
	a.overlay[c.key] = c.val
}

// applyAll returns src with list, splices in position order that do not
// overlap, applied.
func applyAll(src []byte, list []splice) []byte {
	out := make([]byte, 0, len(src)+64)
	prev := 0
	for _, s := range list {
		out = append(out, src[prev:s.pos]...)
		out = append(out, s.text...)
		prev = s.end
	}
	return append(out, src[prev:]...)
}

// touchSpan touches the declarations of path's header tree f that
// [pos, end) overlaps, and owns their owners.
func (a *applier) touchSpan(f *syntax.File, path string, pos, end int) {
	for _, dn := range declsIn(f, pos, end) {
		a.touch(path + ": " + dn)
	}
	for _, ow := range ownersIn(f, pos, end) {
		a.owner(ow)
	}
}

func (a *applier) touch(s string) {
	if !a.touchedSet[s] {
		a.touchedSet[s] = true
		a.touched = append(a.touched, s)
	}
}

func (a *applier) owner(s string) {
	if !a.ownerSet[s] {
		a.ownerSet[s] = true
		a.owners = append(a.owners, s)
	}
}

// findCreated returns the id of the node the operation created.
func (a *applier) findCreated(c *change) string {
	g := a.proj.Result.Graph
	for _, k := range g.NodesIn(c.path) {
		n := g.At(k)
		if int(n.Pos) == c.createdAt && slices.Contains(c.createdKinds, n.Kind) {
			return n.ID
		}
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }
