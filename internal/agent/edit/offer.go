package edit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// The edit rules of node.edits (edit rules acore-edit-rules/1), family by
// family. Apply refuses exactly what these rules do not offer.
//
//   - set_property: one option per authored literal scalar property the
//     checker marks editable (element properties, a state's initial value,
//     a prop's default, a route's path, literal contract arguments).
//     accepts is the property's type, current_value its value. After
//     every other option, elements get one more per literal scalar
//     property their kind accepts (the catalog's, or the component's
//     props) and the source does not write: unwritten, current_value
//     null.
//   - bind_property: elements only; one option per authored property of
//     type String, Int, Float or Bool for which the owner (page or
//     component) has at least one state of a fitting type (the same type,
//     not optional; a Float property also takes an Int state). states lists
//     them in document order, without the state the property already names.
//   - list_element: elements and conditionals, which are items of a view
//     children list; ops remove and insert; text is the node's exact
//     tight-span source, the old_text of both ops.
//   - declaration: states, lets, queries, mutations and actions get create
//     (positions before and after, anchored on them, of another member),
//     update, and remove when nothing references them (no reads, writes,
//     triggers, calls, invokes or navigates_to edge ends at them); text is
//     the declaration's exact text. Pages and components get create with
//     position first (a member, or a prop first in the parameter list) and
//     before and after (a page, component, model or extern action among the
//     module's top-level declarations), and remove; text is the owner's
//     header, its source from the keyword to the opening brace, the
//     old_text of every op. Models, extern actions and props get create
//     (before and after: a top-level declaration, or a prop), update and
//     remove; text is the declaration's exact text. Removing a page,
//     component, model, extern action or prop that is still referenced
//     elsewhere is left to the compile, whose diagnostic the refusal
//     carries.
//   - set_reference: elements with an on_* handler property whose value is
//     an action name, when the owner has another zero-parameter action;
//     targets lists those actions.
//   - import: module nodes get add, and remove when the file has a use line
//     nothing refers to (symbols lists them); an unused use line's import
//     node gets remove with its text.
//   - replace_region: only on a syntax snapshot: one option per error of
//     code below AC300 (syntax and name errors) inside the node's span
//     (a module's span is its whole file), region = the smallest whole-line
//     region around the error: from the line of the last text before it
//     (a parser reports a missing `)` at the token after the gap) to the
//     line of its end, capped at 200 lines.
//
// Each option's fingerprint is the lowercase hex SHA-256 of its canonical
// input, OptionFingerprintInput: the fields below, each followed by one
// NUL byte, in this order: "acore-edit-option/v1", the snapshot id, the
// node id, the node version, EditRules, kind, property, accepts, states
// joined by ",", targets joined by ",", ops joined by ",", positions
// joined by ",", symbols joined by ",", text, region path, region
// start_line, region end_line (decimal, empty without a region) and
// region old_text. A replace_region option belongs to its file, not to a
// node: its node id and node version are empty. option_id is not part of
// the fingerprint, so the same option has the same fingerprint whatever
// the request that listed it.

// EditRules names the edit rules; option fingerprints include it. The
// service reports the same identity in its toolchain.
const EditRules = "acore-edit-rules/1"

// EditOption is one option of node.edits.
type EditOption struct {
	OptionID    string   `json:"option_id"`
	Fingerprint string   `json:"fingerprint"`
	Kind        string   `json:"kind"`
	Property    string   `json:"property,omitempty"`
	Accepts     string   `json:"accepts,omitempty"`
	States      []string `json:"states,omitempty"`
	Targets     []string `json:"targets,omitempty"`
	Ops         []string `json:"ops,omitempty"`
	Positions   []string `json:"positions,omitempty"`
	Symbols     []string `json:"symbols,omitempty"`
	Text        *string  `json:"text,omitempty"`
	Region      *Region  `json:"region,omitempty"`
	// CurrentValue is a set_property option's current value, as node.get
	// shows it (null for a property not written), so that an agent can
	// build old_value from node.edits alone. Not part of the fingerprint:
	// the node version already changes with it.
	CurrentValue json.RawMessage `json:"current_value,omitempty"`
	// Unwritten marks a set_property option of a property the element's
	// kind accepts and the source does not write yet.
	Unwritten bool `json:"unwritten,omitempty"`
	// Path and OldSHA256 are a file option's: the module and the digest
	// of its content, which the node version already covers (so they are
	// not in the option fingerprint).
	Path      string `json:"path,omitempty"`
	OldSHA256 string `json:"old_sha256,omitempty"`
}

// Region is the whole-line region of a replace_region option.
type Region struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	OldText   string `json:"old_text"`
}

// UnavailableEdit is an edit family not offered for a node, and why.
type UnavailableEdit struct {
	Kind string `json:"kind"`
	// Code is the code change.propose answers for the edit: that of
	// edit_not_offered.
	Code   reason.Code `json:"code"`
	Reason string      `json:"reason"`
}

// NodeEdits is the node.edits entry of one node.
type NodeEdits struct {
	Node        string            `json:"node"`
	NodeVersion string            `json:"node_version"`
	Options     []EditOption      `json:"options"`
	Unavailable []UnavailableEdit `json:"unavailable,omitempty"`
}

// regionMaxLines bounds a replace_region region.
const regionMaxLines = 200

// OptionFingerprintInput is the canonical input of an option's
// fingerprint (see the package comment of node.edits above).
func OptionFingerprintInput(snapID, nodeID, nodeVersion string, o *EditOption) []byte {
	var b strings.Builder
	text := ""
	if o.Text != nil {
		text = *o.Text
	}
	rp, rs, re, rt := "", "", "", ""
	if o.Region != nil {
		rp, rs, re, rt = o.Region.Path, strconv.Itoa(o.Region.StartLine), strconv.Itoa(o.Region.EndLine), o.Region.OldText
	}
	for _, f := range []string{"acore-edit-option/v1", snapID, nodeID, nodeVersion, EditRules, o.Kind, o.Property, o.Accepts,
		strings.Join(o.States, ","), strings.Join(o.Targets, ","), strings.Join(o.Ops, ","), strings.Join(o.Positions, ","),
		strings.Join(o.Symbols, ","), text, rp, rs, re, rt} {
		b.WriteString(f)
		b.WriteByte(0)
	}
	return []byte(b.String())
}

// OptionFingerprint is the lowercase hex SHA-256 of OptionFingerprintInput.
func OptionFingerprint(snapID, nodeID, nodeVersion string, o *EditOption) string {
	sum := sha256.Sum256(OptionFingerprintInput(snapID, nodeID, nodeVersion, o))
	return hex.EncodeToString(sum[:])
}

// EditsOf computes the options of node i of project p (snapshot snapID) in the given families,
// with fingerprints and without option ids. listRegion lists
// replace_region as unavailable even on a snapshot that is not syntax.
func EditsOf(snapID string, p *project.Project, i int32, families []string, listRegion, unavailable bool) NodeEdits {
	g := p.Result.Graph
	n := g.At(i)
	r := &editRules{snapID: snapID, p: p, g: g, i: i, n: n, f: p.Headers(n.Path)}
	ne := NodeEdits{Node: n.ID, NodeVersion: g.Version(n), Options: []EditOption{}}
	// The options adding unwritten properties come after every other
	// option, so that the option ids of the authored ones stay as they were.
	var adds []EditOption
	for _, fam := range families {
		var opts []EditOption
		var why string
		switch fam {
		case "set_property":
			opts, why = r.setProperty()
			adds = r.unwrittenOptions()
			for k := range adds {
				adds[k].Fingerprint = OptionFingerprint(snapID, n.ID, g.Version(n), &adds[k])
			}
			if len(adds) > 0 {
				why = ""
			}
		case "bind_property":
			opts, why = r.bindProperty()
		case "list_element":
			opts, why = r.listElement()
		case "declaration":
			opts, why = r.declaration()
		case "set_reference":
			opts, why = r.setReference()
		case "import":
			opts, why = r.importEdits()
		case "file":
			opts, why = r.fileEdits()
		case "rename":
			opts, why = r.rename()
		case "route":
			opts, why = r.route()
		case "replace_region":
			opts, why = r.replaceRegion()
			if len(opts) == 0 && !listRegion && p.Result.State != check.StateSyntax {
				why = ""
			}
		}
		for k := range opts {
			o := &opts[k]
			o.Kind = fam
			if fam == "replace_region" {
				o.Fingerprint = OptionFingerprint(snapID, "", "", o)
			} else {
				o.Fingerprint = OptionFingerprint(snapID, n.ID, g.Version(n), o)
			}
		}
		ne.Options = append(ne.Options, opts...)
		if len(opts) == 0 && unavailable && why != "" {
			ne.Unavailable = append(ne.Unavailable, UnavailableEdit{Kind: fam, Code: reason.EditNotOffered.Code(), Reason: why})
		}
	}
	ne.Options = append(ne.Options, adds...)
	if unavailable && ne.Unavailable == nil {
		ne.Unavailable = []UnavailableEdit{}
	}
	return ne
}

type editRules struct {
	snapID string
	p      *project.Project
	g      *graph.Graph
	i      int32
	n      *graph.Node
	f      *syntax.File
}

func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

func (r *editRules) is() string {
	return r.n.ID + " is " + article(strings.ReplaceAll(r.n.Kind, "_", " "))
}

func (r *editRules) text() *string {
	if r.f == nil || int(r.n.End) > len(r.f.Src) || int(r.n.Pos) > int(r.n.End) {
		return nil
	}
	s := string(r.f.Src[r.n.Pos:r.n.End])
	return &s
}

func (r *editRules) setProperty() ([]EditOption, string) {
	var out []EditOption
	var names []string
	for _, pr := range r.n.Props {
		names = append(names, pr.Name)
		if pr.Editable && pr.Literal && pr.ValuePos >= 0 {
			out = append(out, EditOption{Property: pr.Name, Accepts: pr.Type, CurrentValue: currentValue(pr.Value)})
		}
	}
	if len(out) > 0 {
		return out, ""
	}
	if len(names) == 0 {
		return nil, "set_property sets an authored literal scalar property; " + r.n.ID + " has no properties"
	}
	return nil, fmt.Sprintf("set_property sets an authored literal scalar property; none of the properties of %s is one (%s)", r.n.ID, strings.Join(names, ", "))
}

// ownerMembers returns the owner's member nodes of kind, in document
// order.
func (r *editRules) ownerMembers(kind string) []*graph.Node {
	oi, ok := r.g.Lookup(r.n.Owner)
	if !ok {
		return nil
	}
	var out []*graph.Node
	for _, ei := range r.g.In(oi) {
		e := &r.g.Edges[ei]
		if e.Kind() == graph.EdgeDeclaredIn && r.g.At(e.From).Kind == kind {
			out = append(out, r.g.At(e.From))
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Pos < out[b].Pos })
	return out
}

// fits reports whether a state of type st can be bound to a property of
// type pt.
func fits(pt, st string) bool {
	return pt == st || pt == "Float" && st == "Int"
}

var bindable = map[string]bool{"String": true, "Int": true, "Float": true, "Bool": true}

func (r *editRules) bindProperty() ([]EditOption, string) {
	if r.n.Kind != graph.KindElement {
		return nil, "bind_property binds a property of an element to a state; " + r.is()
	}
	var scalar []graph.Property
	for _, pr := range r.n.Props {
		if bindable[pr.Type] && pr.ValuePos >= 0 {
			scalar = append(scalar, pr)
		}
	}
	if len(scalar) == 0 {
		return nil, "bind_property binds an authored String, Int, Float or Bool property; " + r.n.ID + " has none"
	}
	states := r.ownerMembers(graph.KindState)
	var out []EditOption
	var names []string
	for _, pr := range scalar {
		names = append(names, pr.Name+" ("+pr.Type+")")
		var ids []string
		for _, s := range states {
			if fits(pr.Type, graph.StateType(s)) && !(!pr.Literal && pr.Value == s.Name) {
				ids = append(ids, s.ID)
			}
		}
		if len(ids) > 0 {
			out = append(out, EditOption{Property: pr.Name, Accepts: pr.Type, States: ids})
		}
	}
	if len(out) > 0 {
		return out, ""
	}
	return nil, fmt.Sprintf("bind_property needs a state of %s whose type fits %s, other than the one bound now; %s has none", r.n.Owner, strings.Join(names, ", "), r.n.Owner)
}

func (r *editRules) listElement() ([]EditOption, string) {
	if r.n.Kind != graph.KindElement && r.n.Kind != graph.KindConditional {
		return nil, "list_element removes or inserts the elements and conditionals of a view children list; " + r.is()
	}
	t := r.text()
	if t == nil {
		return nil, "list_element needs the node's source text, which " + r.n.Path + " does not have"
	}
	return []EditOption{{Accepts: "Element", Ops: []string{"remove", "insert"}, Text: t}}, ""
}

// referenced reports whether a relation other than declaration or
// containment ends at node i.
func referenced(g *graph.Graph, i int32) bool {
	for _, ei := range g.In(i) {
		switch g.Edges[ei].Kind() {
		case graph.EdgeDeclaredIn, graph.EdgeChildOf:
		default:
			return true
		}
	}
	return false
}

func (r *editRules) declaration() ([]EditOption, string) {
	switch {
	case memberKinds[r.n.Kind]:
		t := r.text()
		if t == nil {
			return nil, "declaration needs the declaration's source text, which " + r.n.Path + " does not have"
		}
		ops := []string{"create", "update"}
		if !referenced(r.g, r.i) {
			ops = append(ops, "remove")
		}
		return []EditOption{{Ops: ops, Positions: []string{"before", "after"}, Text: t}}, ""
	case r.n.Kind == graph.KindPage, r.n.Kind == graph.KindComponent:
		if r.f != nil {
			for _, d := range r.f.Decls {
				if od, ok := d.(*syntax.OwnerDecl); ok && od.Pos == r.n.Pos && od.LBrace >= od.Pos && int(od.LBrace) < len(r.f.Src) && r.f.Src[od.LBrace] == '{' {
					h := string(r.f.Src[od.Pos : od.LBrace+1])
					return []EditOption{{Ops: []string{"create", "remove"}, Positions: []string{"before", "after", "first"}, Text: &h}}, ""
				}
			}
		}
		return nil, "declaration create needs the header of " + r.n.ID + " with its opening brace, which the source does not have"
	case contractMemberKinds[r.n.Kind] && !isSource(r.p.Inputs, r.n.Path), r.n.Kind == graph.KindContractImport:
		return r.contractOption()
	case r.n.Kind == graph.KindModel, r.n.Kind == graph.KindExtension, r.n.Kind == graph.KindProp:
		t := r.text()
		if t == nil || r.f == nil {
			return nil, "declaration needs the declaration's source text, which " + r.n.Path + " does not have"
		}
		return []EditOption{{Ops: []string{"create", "update", "remove"}, Positions: []string{"before", "after"}, Text: t}}, ""
	}
	return nil, "declaration edits apply to pages, components, models, extern actions, props, states, derived values (let), queries, mutations and actions (and a local contract's operations and models); " + r.is()
}

func (r *editRules) setReference() ([]EditOption, string) {
	if r.n.Kind != graph.KindElement {
		return nil, "set_reference points an on_* handler of an element at another action; " + r.is()
	}
	actions := r.ownerMembers(graph.KindAction)
	byName := map[string]*graph.Node{}
	for _, a := range actions {
		byName[a.Name] = a
	}
	var out []EditOption
	var why string
	for _, pr := range r.n.Props {
		if !strings.HasPrefix(pr.Name, "on_") || pr.Type != "Action" {
			continue
		}
		cur, _ := pr.Value.(string)
		if byName[cur] == nil {
			if why == "" {
				why = fmt.Sprintf("set_reference replaces an action name; %s of %s is %q, not an action of %s", pr.Name, r.n.ID, cur, r.n.Owner)
			}
			continue
		}
		var targets []string
		for _, a := range actions {
			if a.Name != cur && r.g.Signature(a) == a.Name+"()" {
				targets = append(targets, a.ID)
			}
		}
		if len(targets) == 0 {
			if why == "" {
				var others []string
				for _, a := range actions {
					if a.Name != cur {
						others = append(others, a.Name)
					}
				}
				if len(others) == 0 {
					why = fmt.Sprintf("set_reference points %s at another zero-parameter action of %s; %s has no action but %s", pr.Name, r.n.Owner, r.n.Owner, cur)
				} else {
					why = fmt.Sprintf("set_reference points %s at another zero-parameter action of %s; its other actions (%s) take parameters", pr.Name, r.n.Owner, strings.Join(others, ", "))
				}
			}
			continue
		}
		out = append(out, EditOption{Property: pr.Name, Accepts: "Action", Targets: targets})
	}
	if len(out) > 0 {
		return out, ""
	}
	if why == "" {
		why = "set_reference points an on_* handler at another action; " + r.n.ID + " sets no on_* handler"
	}
	return nil, why
}

// unusedUses returns the use lines of path that the checker reports as
// unused, as symbol names.
func unusedUses(res *check.Result, path string) []string {
	var out []string
	for _, d := range res.Diagnostics {
		if d.Code == diag.UnusedImport && d.Path == path {
			out = append(out, strings.Fields(d.Message)[0])
		}
	}
	return out
}

func (r *editRules) importEdits() ([]EditOption, string) {
	switch r.n.Kind {
	case graph.KindModule:
		ops := []string{"add"}
		syms := unusedUses(r.p.Result, r.n.Path)
		if len(syms) > 0 {
			ops = append(ops, "remove")
		}
		return []EditOption{{Ops: ops, Symbols: syms}}, ""
	case graph.KindImport:
		for _, s := range unusedUses(r.p.Result, r.n.Path) {
			if s == r.n.Name {
				return []EditOption{{Ops: []string{"remove"}, Symbols: []string{s}, Text: r.text()}}, ""
			}
		}
		return nil, "import remove takes out a use line nothing refers to; " + r.n.Path + " still refers to " + r.n.Name
	}
	return nil, "import edits add and remove the use lines of a module; " + r.is()
}

func (r *editRules) replaceRegion() ([]EditOption, string) {
	res := r.p.Result
	if res.State != check.StateSyntax {
		return nil, "replace_region is offered only on a syntax snapshot, around its syntax errors; " + r.snapID + " is " + res.State
	}
	if r.f == nil {
		return nil, "replace_region needs a source file; " + r.n.Path + " is not one"
	}
	var out []EditOption
	seen := map[[2]int]bool{}
	for _, d := range res.Diagnostics {
		if d.Severity != diag.Error || d.Path != r.n.Path || d.Code >= "AC300" {
			continue
		}
		if r.n.Kind != graph.KindModule && (d.Pos < int(r.n.Pos) || int(d.Pos) >= int(r.n.End)) {
			continue
		}
		reg := lineRegion(r.f, d.Pos, d.End)
		key := [2]int{reg.StartLine, reg.EndLine}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, EditOption{Region: &reg})
	}
	if len(out) == 0 {
		return nil, "replace_region is offered around syntax errors; the source of " + r.n.ID + " has none"
	}
	return out, ""
}

// lineRegion is the smallest whole-line region of f holding [pos, end)
// and the last non-blank text before pos, at most regionMaxLines lines.
func lineRegion(f *syntax.File, pos, end int) Region {
	pos = max(0, min(pos, len(f.Src)))
	end = max(pos, min(end, len(f.Src)))
	if end > pos && f.Src[end-1] == '\n' {
		end--
	}
	// An error is reported at the token after the broken text (`expected
	// ), found if`): the region starts at the line of the text before it.
	from := pos
	for from > 0 && strings.ContainsRune(" \t\r\n", rune(f.Src[from-1])) {
		from--
	}
	if from > 0 {
		from--
	}
	start := f.Position(from).Line
	last := f.Position(end).Line
	if last-start+1 > regionMaxLines {
		last = start + regionMaxLines - 1
	}
	lo := lineStart(f, start)
	hi := len(f.Src)
	if last < len(f.Lines) {
		hi = lineStart(f, last+1)
	}
	txt := string(f.Src[lo:hi])
	txt = strings.TrimSuffix(txt, "\n")
	txt = strings.TrimSuffix(txt, "\r")
	return Region{Path: f.Path, StartLine: start, EndLine: last, OldText: txt}
}

func lineStart(f *syntax.File, line int) int {
	if line-1 < len(f.Lines) && line >= 1 {
		return int(f.Lines[line-1])
	}
	return len(f.Src)
}
