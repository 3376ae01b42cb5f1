// Package rename gives a declaration a new name everywhere it is named:
// the engine behind the editor's rename. It rewrites every identifier the
// checker resolved to the declaration (uses in other files, component
// instances' arguments, use lines, routes, a model field's member
// accesses and record labels), compiles the result, and refuses when the
// new name is taken, when a reference would then mean something else, or
// when the compile has errors the project had not.
package rename

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/refs"
)

// Reasons a rename is refused.
const (
	InvalidName  = "invalid_name"  // not an identifier, or a reserved word
	NotRenamable = "not_renamable" // a name the project does not own
	NameTaken    = "name_taken"    // the scope already has the new name
	Breaks       = "breaks"        // a reference would change meaning, or the compile fails
)

// Refusal says why a rename is not made.
type Refusal struct {
	Reason  string
	Message string
}

func (r *Refusal) Error() string { return r.Message }

func refuse(reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// Edit replaces the bytes [Pos, End) of the file at Path with the new
// name.
type Edit struct {
	Path     string
	Pos, End int
}

// Plan is a checked rename.
type Plan struct {
	Old, New string
	// Edits are in path and position order, none overlapping.
	Edits []Edit
	// Candidate is the compile of the project with the edits made.
	Candidate *project.Project
	// Prepared are the paths besides the edits' that the candidate
	// re-prepared: the UI lock, when a field of a local contract is
	// renamed in its source contracts/<id>.axiom and its artifact.
	Prepared []string
}

// reserved are the names the checker refuses for declarations (AC211).
var reserved = map[string]bool{"true": true, "false": true, "null": true, "navigate": true, "if": true, "else": true}

// renamable are the kinds of declaration whose every name the project's
// own sources hold. A contract, its operations and its models are named
// by the backend's artifact too, which a rename of the sources cannot
// change.
var renamable = map[check.ObjKind]bool{
	check.ObjState: true, check.ObjQuery: true, check.ObjMutation: true, check.ObjAction: true,
	check.ObjProp: true, check.ObjParam: true, check.ObjLocal: true, check.ObjExtern: true,
	check.ObjPage: true, check.ObjComponent: true, check.ObjModel: true, check.ObjLet: true,
	check.ObjField: true,
}

// Renamable reports whether o can be renamed, and why not.
func Renamable(ix *refs.Index, o *check.Object) error {
	if o == nil {
		return refuse(NotRenamable, "no declaration is named here")
	}
	if !renamable[o.Kind] {
		return refuse(NotRenamable, "%s %s belongs to a backend contract; rename it in the contract and prepare the project again", o.Kind, o.Name)
	}
	for _, r := range ix.Refs[o] {
		if !r.Def || !strings.HasSuffix(r.Path, ".axiom") {
			continue
		}
		if o.Kind != check.ObjField {
			return refuse(NotRenamable, "model %s is declared by a backend contract (%s); rename it there and prepare the project again", o.Name, r.Path)
		}
		if contractSource(ix.Recorded.Inputs, r.Path) == "" {
			return refuse(NotRenamable, "field %s of %s is declared by %s, a contract with no local source contracts/%s; a published contract is read-only", o.Name, o.Model.Name, r.Path, path.Base(r.Path))
		}
	}
	if !hasDef(ix, o) {
		return refuse(NotRenamable, "%s %s is not declared in this project's sources", o.Kind, o.Name)
	}
	return nil
}

func hasDef(ix *refs.Index, o *check.Object) bool {
	for _, r := range ix.Refs[o] {
		if r.Def {
			return true
		}
	}
	return false
}

// IsIdent reports whether s is an identifier: [A-Za-z_][A-Za-z0-9_]*
// (docs/language.md §2).
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ValidName reports why name cannot name a declaration, or nil.
func ValidName(name string) error {
	if name == "" {
		return refuse(InvalidName, "the new name is empty")
	}
	if !IsIdent(name) {
		return refuse(InvalidName, "%q is not an identifier: identifiers are ASCII letters, digits and _, not starting with a digit", name)
	}
	if reserved[name] {
		return refuse(InvalidName, "%s is reserved and cannot name a declaration (AC211)", name)
	}
	return nil
}

// Rename plans the rename of o to newName in the compile ix indexes.
func Rename(ix *refs.Index, o *check.Object, newName string) (*Plan, error) {
	if err := ValidName(newName); err != nil {
		return nil, err
	}
	if err := Renamable(ix, o); err != nil {
		return nil, err
	}
	if newName == o.Name {
		return nil, refuse(InvalidName, "%s is already called %s", o.Kind, newName)
	}
	if o.Kind == check.ObjField {
		for _, m := range check.Members(&check.Type{Kind: check.TModel, Model: o.Model}) {
			if m.Call && m.Name == newName {
				return nil, refuse(InvalidName, "%s is the method of a record (t.%s(…)); a field called so would be read where the method is meant", newName, newName)
			}
		}
	}
	if err := clash(ix, o, newName); err != nil {
		return nil, err
	}
	base := ix.Recorded
	if base == nil || base.Inputs == nil {
		return nil, refuse(Breaks, "the project could not be compiled")
	}
	plan := &Plan{Old: o.Name, New: newName}
	for _, r := range ix.Refs[o] {
		plan.Edits = append(plan.Edits, Edit{Path: r.Path, Pos: int(r.Ident.Pos), End: int(r.Ident.End)})
		if src := contractSource(base.Inputs, r.Path); src != "" {
			// The artifact is the source's prepared copy: the field is
			// renamed in both, at the same bytes.
			plan.Edits = append(plan.Edits, Edit{Path: src, Pos: int(r.Ident.Pos), End: int(r.Ident.End)})
		}
	}
	sort.Slice(plan.Edits, func(i, j int) bool {
		a, b := plan.Edits[i], plan.Edits[j]
		return a.Path < b.Path || a.Path == b.Path && a.Pos < b.Pos
	})
	texts := map[string][]byte{}
	for path, edits := range byPath(plan.Edits) {
		data := base.Inputs.Data(path)
		if data == nil {
			return nil, refuse(NotRenamable, "%s is named in %s, which the compile did not read", o.Name, path)
		}
		texts[path] = apply(data, edits, newName)
	}
	in, err := base.Inputs.With(texts)
	if err != nil {
		return nil, refuse(Breaks, "the renamed sources cannot be read: %v", err)
	}
	if in, err = reprepare(in, plan); err != nil {
		return nil, err
	}
	cand := project.CompileFrom(base, in)
	plan.Candidate = cand
	if err := verify(ix, o, plan, refs.Build(cand)); err != nil {
		return nil, err
	}
	return plan, nil
}

// contractSource is the local source contracts/<id>.axiom of the
// artifact at p when the artifact is its prepared copy, byte for byte;
// "" otherwise.
func contractSource(in *load.Inputs, p string) string {
	if in == nil || path.Dir(p) != lock.ContractDir {
		return ""
	}
	src := load.ContractSourceDir + "/" + path.Base(p)
	if d := in.Data(src); d == nil || string(d) != string(in.Data(p)) {
		return ""
	}
	return src
}

// reprepare re-prepares the artifacts and the lock of in when the plan
// edits a contract source, so the candidate's lock pins the renamed
// artifact.
func reprepare(in *load.Inputs, plan *Plan) (*load.Inputs, error) {
	edited := map[string]bool{}
	for _, e := range plan.Edits {
		edited[e.Path] = true
	}
	touched := false
	for p := range edited {
		touched = touched || strings.HasPrefix(p, load.ContractSourceDir+"/")
	}
	if !touched {
		return in, nil
	}
	prep, err := prepare.Overlay(in)
	if err != nil {
		return nil, refuse(Breaks, "the renamed contract cannot be prepared: %v", err)
	}
	for p := range prep {
		if !edited[p] {
			plan.Prepared = append(plan.Prepared, p)
		}
	}
	sort.Strings(plan.Prepared)
	out, err := in.With(prep)
	if err != nil {
		return nil, refuse(Breaks, "the re-prepared contract cannot be read: %v", err)
	}
	return out, nil
}

// topLevel are the kinds whose names are unique in the project (docs/
// language.md §4.12); members are unique in their owner.
var topLevel = map[check.ObjKind]bool{check.ObjPage: true, check.ObjComponent: true, check.ObjModel: true, check.ObjExtern: true}

// clash refuses a name another declaration of the same scope has. Locals
// and parameters are held to their meaning by verify instead: a name they
// capture or shadow changes what a reference resolves to.
func clash(ix *refs.Index, o *check.Object, name string) error {
	owner := ownerOf(ix, o)
	if o.Kind == check.ObjField {
		owner = "model " + o.Model.Name
		if o.Model.Index(name) >= 0 {
			return refuse(NameTaken, "%s already has field %s%s", owner, name, defAt(ix, fieldNamed(ix, o.Model, name)))
		}
		return nil
	}
	for other, rs := range ix.Refs {
		if other == o || other.Name != name {
			continue
		}
		taken := topLevel[o.Kind] && topLevel[other.Kind] ||
			owner != "" && ownerOf(ix, other) == owner && other.Kind != check.ObjLocal && other.Kind != check.ObjParam
		if !taken {
			continue
		}
		where := defAt(ix, rs)
		scope := "the project"
		if !topLevel[o.Kind] {
			scope = owner
		}
		return refuse(NameTaken, "%s already has %s %s%s", scope, other.Kind, name, where)
	}
	return nil
}

// defAt is " (path:line)" of the declaring reference among rs, or "".
func defAt(ix *refs.Index, rs []refs.Ref) string {
	for _, r := range rs {
		if r.Def {
			return fmt.Sprintf(" (%s:%d)", r.Path, line(ix, r))
		}
	}
	return ""
}

// fieldNamed are the references of the field of m called name.
func fieldNamed(ix *refs.Index, m *check.Model, name string) []refs.Ref {
	for o, rs := range ix.Refs {
		if o.Kind == check.ObjField && o.Model == m && o.Name == name {
			return rs
		}
	}
	return nil
}

// ownerOf is the graph id of the page or component o is a member of, or
// "" for a declaration of no owner.
func ownerOf(ix *refs.Index, o *check.Object) string {
	if topLevel[o.Kind] || o.Node < 0 || ix.Recorded == nil || ix.Recorded.Result == nil || ix.Recorded.Result.Graph == nil {
		return ""
	}
	if n := ix.Recorded.Result.Graph.At(o.Node); n != nil {
		return n.Owner
	}
	return ""
}

func byPath(edits []Edit) map[string][]Edit {
	m := map[string][]Edit{}
	for _, e := range edits {
		m[e.Path] = append(m[e.Path], e)
	}
	return m
}

// apply makes edits, in position order, to data.
func apply(data []byte, edits []Edit, name string) []byte {
	var out []byte
	last := 0
	for _, e := range edits {
		out = append(out, data[last:e.Pos]...)
		out = append(out, name...)
		last = e.End
	}
	return append(out, data[last:]...)
}

// shifted is where the byte at off of path stands after the plan's edits.
func shifted(plan *Plan, path string, off int) int {
	d := len(plan.New) - len(plan.Old)
	n := 0
	for _, e := range plan.Edits {
		if e.Path == path && e.Pos < off {
			n++
		}
	}
	return off + n*d
}

// verify holds the candidate to the rename's promise: the renamed
// identifiers all name one declaration, nothing else names it, every other
// identifier names what it named before, and the compile has no error the
// project had not.
func verify(ix *refs.Index, o *check.Object, plan *Plan, cx *refs.Index) error {
	var renamed *check.Object
	for _, r := range ix.Refs[o] {
		at, ok := cx.At(r.Path, shifted(plan, r.Path, int(r.Ident.Pos))+1)
		if !ok || at.Obj == nil || at.Ident.Name != plan.New {
			return breaks(ix, cx, plan, "%s:%d would no longer name %s %s", r.Path, line(ix, r), o.Kind, plan.New)
		}
		if renamed == nil {
			renamed = at.Obj
		} else if at.Obj != renamed {
			return refuse(NameTaken, "%s:%d would name another %s called %s", r.Path, line(ix, r), at.Obj.Kind, plan.New)
		}
	}
	if renamed == nil {
		return refuse(Breaks, "%s %s has no references to rename", o.Kind, o.Name)
	}
	if got, want := len(cx.Refs[renamed]), len(ix.Refs[o]); got != want {
		for _, r := range cx.Refs[renamed] {
			if !wasRenamed(ix, o, plan, r) {
				return refuse(NameTaken, "%s:%d names %s %s, which would then mean the renamed %s", r.Path, line(cx, r), kindOf(ix, plan, r), plan.New, o.Kind)
			}
		}
	}
	// Every other identifier keeps its meaning: one that named another
	// declaration called newName must not now name the renamed one
	// (checked above) nor lose what it named.
	for _, other := range sameNamed(ix, plan.New) {
		for _, r := range ix.Refs[other] {
			at, ok := cx.At(r.Path, shifted(plan, r.Path, int(r.Ident.Pos))+1)
			if !ok || at.Obj == nil || at.Obj == renamed {
				return refuse(NameTaken, "%s is taken: %s:%d names %s %s", plan.New, r.Path, line(ix, r), other.Kind, plan.New)
			}
		}
	}
	return newErrors(ix, cx, plan)
}

func breaks(ix, cx *refs.Index, plan *Plan, format string, args ...any) error {
	if err := newErrors(ix, cx, plan); err != nil {
		return err
	}
	return refuse(Breaks, format, args...)
}

func wasRenamed(ix *refs.Index, o *check.Object, plan *Plan, r refs.Ref) bool {
	for _, old := range ix.Refs[o] {
		if old.Path == r.Path && shifted(plan, old.Path, int(old.Ident.Pos)) == int(r.Ident.Pos) {
			return true
		}
	}
	return false
}

// kindOf is what the identifier at r of the candidate named before.
func kindOf(ix *refs.Index, plan *Plan, r refs.Ref) string {
	for _, old := range ix.Idents[r.Path] {
		if shifted(plan, r.Path, int(old.Ident.Pos)) == int(r.Ident.Pos) && old.Obj != nil {
			return old.Obj.Kind.String()
		}
	}
	return "a name"
}

// sameNamed are the declarations of the base called name.
func sameNamed(ix *refs.Index, name string) []*check.Object {
	var out []*check.Object
	for o := range ix.Refs {
		if o.Name == name {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return out
}

// newErrors refuses a candidate with more errors of a code in a file than
// the project had, naming the first.
func newErrors(ix, cx *refs.Index, plan *Plan) error {
	type key struct{ code, path string }
	had := map[key]int{}
	if r := ix.Recorded.Result; r != nil {
		for _, d := range r.Diagnostics {
			if d.Severity == diag.Error {
				had[key{d.Code, d.Path}]++
			}
		}
	}
	if cx.Recorded == nil || cx.Recorded.Result == nil {
		return refuse(Breaks, "the renamed project could not be compiled")
	}
	for _, d := range cx.Recorded.Result.Diagnostics {
		if d.Severity != diag.Error {
			continue
		}
		k := key{d.Code, d.Path}
		if had[k] > 0 {
			had[k]--
			continue
		}
		reason := Breaks
		if d.Code == diag.Duplicate || d.Code == diag.DuplicateOwner {
			reason = NameTaken
		}
		return refuse(reason, "renaming %s to %s gives %s:%d: %s [%s]", plan.Old, plan.New, d.Path, d.Line, d.Message, d.Code)
	}
	return nil
}

func line(ix *refs.Index, r refs.Ref) int {
	if f := ix.Trees[r.Path]; f != nil {
		return f.Position(int(r.Ident.Pos)).Line
	}
	return 0
}
