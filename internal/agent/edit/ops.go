package edit

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// resolve turns a node reference into the node's id in the current state.
func (a *applier) resolve(r NodeRef, field string) (string, *Error) {
	if r.IsHandle {
		id, ok := a.handles[r.Handle]
		if !ok {
			return "", errorf(reason.UnknownHandle,
				"%s: handle %q is not named by an earlier operation of the batch", field, r.Handle).detail("handles", a.handleNames())
		}
		if id == "" {
			return "", errorf(reason.NodeRemoved, "%s: handle %q names a node that no longer exists in the batch's state", field, r.Handle)
		}
		return id, nil
	}
	if to, ok := a.fwd[r.ID]; ok {
		if to == nil {
			return "", errorf(reason.NodeRemoved, "%s: %s was removed by an earlier operation of the batch", field, r.ID).
				withNode(r.ID)
		}
		return *to, nil
	}
	if _, ok := a.base.Result.Graph.Lookup(r.ID); !ok {
		return "", errorf(reason.NodeUnknown, "%s: %s is not a node of the base snapshot; name nodes the batch creates with a handle", field, r.ID).
			withNode(r.ID).next(Refind, r.ID)
	}
	return r.ID, nil
}

func (a *applier) handleNames() []string {
	out := []string{}
	for h := range a.handles {
		out = append(out, h)
	}
	return out
}

// node resolves r to a node of the current state, in an authored source.
func (a *applier) node(r NodeRef, field string) (*graph.Node, int32, *Error) {
	id, e := a.resolve(r, field)
	if e != nil {
		return nil, 0, e
	}
	g := a.proj.Result.Graph
	i, ok := g.Lookup(id)
	if !ok {
		return nil, 0, errorf(reason.NodeUnknown, "%s: %s is not a node of the batch's current state", field, id).withNode(id)
	}
	n := g.At(i)
	if !isSource(a.proj.Inputs, n.Path) {
		return nil, 0, readOnly("%s is declared in %s, which the project does not author (a contract artifact); edit its source instead", n.ID, n.Path).
			withNode(n.ID)
	}
	return n, i, nil
}

// options lists the current options of node i in one family, with
// fingerprints of the current state, and why none are offered.
func (a *applier) options(n *graph.Node, i int32, family string) ([]EditOption, string) {
	ne := EditsOf(a.opt.SnapshotID, a.proj, i, []string{family}, family == "replace_region", true)
	if len(a.pending[n.Path]) > 0 {
		v := a.version(n)
		for k := range ne.Options {
			ne.Options[k].Fingerprint = OptionFingerprint(a.opt.SnapshotID, n.ID, v, &ne.Options[k])
		}
	}
	why := ""
	if len(ne.Unavailable) > 0 {
		why = ne.Unavailable[0].Reason
	}
	return ne.Options, why
}

func notOffered(family, id, why string) *Error {
	return errorf(reason.EditNotOffered, "%s is not offered for %s: %s", family, id, why).
		withNode(id).
		next(ListEdits, id)
}

// preconditions checks expected_node_version and option.
func (a *applier) preconditions(o *Common, n *graph.Node, opts ...*EditOption) *Error {
	if o.ExpectedNodeVersion != nil {
		if v := a.version(n); v != *o.ExpectedNodeVersion {
			return errorf(reason.NodeVersionMismatch, "%s has version %s, expected %s", n.ID, v, *o.ExpectedNodeVersion).
				withNode(n.ID).next(Reread, n.ID)
		}
	}
	if o.Option != nil {
		for _, op := range opts {
			if op != nil && op.Fingerprint == o.Option.Fingerprint {
				return nil
			}
		}
		return errorf(reason.OptionStale, "option %s (fingerprint %s) is not the current option of %s for this edit",
			o.Option.OptionID, short(o.Option.Fingerprint), n.ID).
			withNode(n.ID).withOption(o.Option.OptionID).
			next(ReadOptions, n.ID)
	}
	return nil
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}

func oldTextMismatch(id string) *Error {
	return errorf(reason.OldTextMismatch, "old_text is not the current text of %s", id).
		withNode(id).next(ReadText, id)
}

func oldValueMismatch(id, prop string, cur any, old string) *Error {
	return errorf(reason.OldValueMismatch, "%s is %s, expected %s", prop, showValue(cur), old).
		withNode(id).withProperty(prop).next(Reread, id)
}

// property finds the one property name of n.
func (a *applier) property(n *graph.Node, name string) (*graph.Property, *Error) {
	var found *graph.Property
	var names []string
	count := 0
	for k := range n.Props {
		names = append(names, n.Props[k].Name)
		if n.Props[k].Name == name {
			count++
			if found == nil {
				found = &n.Props[k]
			}
		}
	}
	if found != nil && n.Kind == graph.KindElement && hasDiagnostic(a.proj, n.Path, diag.DuplicateProperty) {
		// The graph keeps the first of a property given twice (AC304);
		// the source has both. Without an AC304 in the file, no element
		// there has a property twice, and the file is not parsed again.
		if el := findElement(a.proj.File(n.Path), n.Pos); el != nil {
			count = 0
			for k, arg := range el.Args {
				if arg.Name != nil && arg.Name.Name == name || arg.Name == nil && k == 0 && arg.Value != nil && arg.Value.Bounds().Pos == found.ValuePos {
					count++
				}
			}
		}
	}
	if count > 1 {
		return nil, errorf(reason.DuplicateProperty, "%s sets %s %d times; no single authored value to edit", n.ID, name, count).
			withNode(n.ID).withProperty(name)
	}
	if found == nil {
		list := strings.Join(names, ", ")
		if list == "" {
			list = "none"
		}
		return nil, errorf(reason.EditNotOffered, "%s has no authored property %s (its properties: %s)", n.ID, name, list).
			withNode(n.ID).withProperty(name).
			next(ListEdits, n.ID)
	}
	return found, nil
}

func findOption(opts []EditOption, match func(*EditOption) bool) *EditOption {
	for k := range opts {
		if match(&opts[k]) {
			return &opts[k]
		}
	}
	return nil
}

func propNames(opts []EditOption) string {
	var out []string
	for _, o := range opts {
		out = append(out, o.Property)
	}
	return strings.Join(out, ", ")
}

func ownerOf(n *graph.Node) string {
	if n.Kind == graph.KindPage || n.Kind == graph.KindComponent {
		return n.ID
	}
	return n.Owner
}

func (a *applier) setProperty(o *SetProperty) (*change, *Error) {
	n, i, e := a.node(o.Node, "node")
	if e != nil {
		return nil, e
	}
	if !hasProp(n, o.Property) && (n.Kind == graph.KindElement || strings.HasPrefix(o.Property, check.AxagPropPrefix)) {
		return a.addProperty(o, n, i)
	}
	if o.OldAbsent {
		return nil, errorf(reason.OldValueMismatch, "%s of %s is written; old_value is required", o.Property, n.ID).
			withNode(n.ID).withProperty(o.Property).next(Reread, n.ID)
	}
	pr, e := a.property(n, o.Property)
	if e != nil {
		return nil, e
	}
	opts, why := a.options(n, i, "set_property")
	opt := findOption(opts, func(x *EditOption) bool { return x.Property == o.Property && !x.Unwritten })
	if opt == nil {
		if len(opts) > 0 {
			why = fmt.Sprintf("%s is not an authored literal scalar; set_property is offered for %s", o.Property, propNames(opts))
		}
		return nil, notOffered("set_property", n.ID, why).withProperty(o.Property)
	}
	if e := a.preconditions(&o.Common, n, opt); e != nil {
		return nil, e
	}
	cur := a.value(n, pr)
	if !sameValue(cur, o.OldValue) {
		return nil, oldValueMismatch(n.ID, o.Property, cur, o.OldValue.show())
	}
	text, val, ok := literal(o.NewValue, pr.Type)
	if !ok {
		return nil, errorf(reason.IncompatibleValue, "new_value %s does not fit %s of %s, of type %s", o.NewValue.show(), o.Property, n.ID, pr.Type).
			withNode(n.ID).withProperty(o.Property)
	}
	if sameValue(cur, o.NewValue) {
		return nil, errorf(reason.NoOp, "%s of %s is already %s", o.Property, n.ID, showValue(cur)).
			withNode(n.ID).withProperty(o.Property)
	}
	return &change{path: n.Path, sp: splice{pos: int(pr.ValuePos), end: int(pr.ValueEnd), text: text}, deferred: n.Kind != graph.KindRoute,
		key: n.ID + "\x00" + pr.Name, val: val, createdAt: -1, node: n.ID, owner: ownerOf(n), property: o.Property}, nil
}

func (a *applier) bindProperty(o *BindProperty) (*change, *Error) {
	return a.pointProperty(&o.Common, o.Node, o.Property, o.OldValue, o.Target, "bind_property", "can be bound to",
		func(x *EditOption) []string { return x.States })
}

func (a *applier) setReference(o *SetReference) (*change, *Error) {
	return a.pointProperty(&o.Common, o.Node, o.Property, Value{Kind: ValueString, Text: o.OldValue}, o.Target, "set_reference", "can point at",
		func(x *EditOption) []string { return x.Targets })
}

// pointProperty makes a property name another node of the owner: a state
// (bind_property) or an action (set_reference). The node.edits option of
// the family lists the nodes it may name.
func (a *applier) pointProperty(o *Common, node NodeRef, property string, old Value, target NodeRef, family, verb string,
	allowed func(*EditOption) []string) (*change, *Error) {
	n, i, e := a.node(node, "node")
	if e != nil {
		return nil, e
	}
	pr, e := a.property(n, property)
	if e != nil {
		return nil, e
	}
	tid, e := a.resolve(target, "target")
	if e != nil {
		return nil, e
	}
	opts, why := a.options(n, i, family)
	opt := findOption(opts, func(x *EditOption) bool { return x.Property == property })
	if opt == nil {
		if len(opts) > 0 {
			why = fmt.Sprintf("%s is offered for %s, not %s", family, propNames(opts), property)
		}
		return nil, notOffered(family, n.ID, why).withProperty(property)
	}
	if !slices.Contains(allowed(opt), tid) {
		return nil, notOffered(family, n.ID, fmt.Sprintf("%s %s %s, not %s", property, verb, strings.Join(allowed(opt), ", "), tid)).
			withProperty(property)
	}
	if e := a.preconditions(o, n, opt); e != nil {
		return nil, e
	}
	if cur := a.value(n, pr); !sameValue(cur, old) {
		return nil, oldValueMismatch(n.ID, property, cur, old.show())
	}
	tn, _ := a.proj.Result.Graph.Node(tid)
	return &change{path: n.Path, sp: splice{pos: int(pr.ValuePos), end: int(pr.ValueEnd), text: tn.Name}, createdAt: -1, node: n.ID, owner: ownerOf(n), property: property}, nil
}

// listOption returns the list_element option of n offering op.
func (a *applier) listOption(o *Common, oldText string, n *graph.Node, i int32, op string) (*EditOption, *Error) {
	opts, why := a.options(n, i, "list_element")
	opt := findOption(opts, func(x *EditOption) bool { return slices.Contains(x.Ops, op) })
	if opt == nil {
		return nil, notOffered("list_element "+op, n.ID, why)
	}
	if e := a.preconditions(o, n, opt); e != nil {
		return nil, e
	}
	if opt.Text == nil || oldText != *opt.Text {
		return nil, oldTextMismatch(n.ID)
	}
	return opt, nil
}

func (a *applier) listRemove(o *ListRemove) (*change, *Error) {
	n, i, e := a.node(o.Node, "node")
	if e != nil {
		return nil, e
	}
	if _, e := a.listOption(&o.Common, o.OldText, n, i, "remove"); e != nil {
		return nil, e
	}
	return &change{path: n.Path, sp: removal(a.data(n.Path), int(n.Pos), int(n.End)), createdAt: -1, node: n.ID, owner: ownerOf(n), removes: true}, nil
}

// fragment is an operation's source text where the batch would put it:
// the field that holds it, what the agent sent, and the file after the
// splice, with the trimmed text's first byte at at and its later lines
// indented by indent (reindent).
type fragment struct {
	field, what string
	sent, text  string
	path        string
	file        []byte
	at          int
	indent      string
}

// refuse answers a fragment that is not what its field must hold. A text
// over a parser bound (nesting, brackets) is that bound's resource_limit,
// as the same text in a file is: a limit violation is never
// invalid_arguments or compile_failed. A text that does not parse is
// compile_failed (candidate_errors), as the candidate it makes would be:
// the parser's diagnostics sit where the text lands in the file, and
// details.source says where in the agent's own text the first one is. A
// text that parses but is not one such item is invalid_arguments.
func (fr fragment) refuse(errs []syntax.Error) *Error {
	for _, err := range errs {
		if info, ok := diag.Lookup(err.Code); ok && info.Reason != reason.None {
			return errorf(info.Reason, "the operation's source text is over a service bound: %s [%s]", err.Msg, err.Code)
		}
	}
	if len(errs) == 0 {
		return errorf(reason.Schema, "%s must be the source of exactly one %s", fr.field, fr.what)
	}
	if stray, ok := strayCloser(fr.text, fr.field); ok {
		// The wrapper's brackets absorb it, and the parser blames one the
		// agent never wrote: the errors before it stand, the stray closer
		// replaces the rest.
		before := []syntax.Error{}
		for _, err := range errs {
			if err.Pos < stray.Pos {
				before = append(before, err)
			}
		}
		errs = append(before, stray)
	}
	diags := make([]diag.Diagnostic, 0, min(len(errs), maxDiagnostics))
	for _, err := range errs[:min(len(errs), maxDiagnostics)] {
		k := max(0, min(int(err.Pos), len(fr.text)))
		end := max(k, min(int(err.End), len(fr.text)))
		msg := err.Msg
		if int(err.Pos) >= len(fr.text) {
			// The token the parser found is the wrapper's, after the
			// text: what the agent wrote ended there.
			if m, ok := strings.CutSuffix(msg, "found `}`"); ok {
				msg = m + "found the end of the " + fr.field
			}
		}
		off := fr.fileOffset(k)
		p := position(fr.file, off)
		diags = append(diags, diag.Diagnostic{Code: err.Code, Severity: diag.Error, Path: fr.path, Line: p.Line, Column: p.Column,
			Length: utf8.RuneCountInString(fr.text[k:end]), Message: msg, Pos: off, End: fr.fileOffset(end)})
	}
	first := errs[0]
	k := max(0, min(int(first.Pos), len(fr.text)))
	skip := strings.Index(fr.sent, fr.text)
	sp := position([]byte(fr.sent), skip+k)
	e := compileFailed(reason.CandidateErrors, diags, nil, "the %s does not parse: at line %d, column %d of it: %s [%s]",
		fr.field, sp.Line, sp.Column, diags[0].Message, first.Code)
	return e.detail("source", map[string]any{"field": fr.field, "line": sp.Line, "column": sp.Column})
}

// strayCloser finds the first closing bracket of text that closes nothing
// text opened; field names the text.
func strayCloser(text, field string) (syntax.Error, bool) {
	depth := 0
	for _, t := range syntax.Parse("fragment.acore", []byte(text)).Tokens {
		switch t.Kind {
		case syntax.LBrace, syntax.LParen, syntax.LBrack:
			depth++
		case syntax.RBrace, syntax.RParen, syntax.RBrack:
			if depth == 0 {
				return syntax.Error{Span: syntax.Span{Pos: t.Pos, End: t.End}, Code: diag.UnexpectedToken,
					Msg: fmt.Sprintf("`%s` closes a bracket the %s did not open", t.Kind, field)}, true
			}
			depth--
		}
	}
	return syntax.Error{}, false
}

// fileOffset maps offset k of the trimmed text to the file after the
// splice: reindent put indent before each later line that is not blank.
func (fr fragment) fileOffset(k int) int {
	if fr.indent == "" {
		return fr.at + k
	}
	lines := strings.Split(fr.text, "\n")
	shift := 0
	for i := 1; i <= strings.Count(fr.text[:k], "\n"); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			shift += len(fr.indent)
		}
	}
	return fr.at + k + shift
}

// position is the line and column of byte offset off of src.
func position(src []byte, off int) syntax.Pos {
	lines := []int32{0}
	for i, c := range src[:min(off, len(src))] {
		if c == '\n' {
			lines = append(lines, int32(i+1))
		}
	}
	return syntax.Position(src, lines, off)
}

// trimFragment drops blank lines and blanks around a source fragment.
func trimFragment(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	for strings.HasPrefix(s, "\n") || strings.HasPrefix(s, "\r\n") {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "\r"), "\n")
	}
	return strings.TrimLeft(s, " \t")
}

func (a *applier) listInsert(o *ListInsert) (*change, *Error) {
	n, i, e := a.node(o.Anchor, "anchor")
	if e != nil {
		return nil, e
	}
	if _, e := a.listOption(&o.Common, o.OldText, n, i, "insert"); e != nil {
		return nil, e
	}
	text := trimFragment(o.Element)
	d := a.data(n.Path)
	sp, at := insertion(d, int(n.Pos), int(n.End), o.Position == "after", text, " ")
	item, errs := parseItem(text)
	if item == nil {
		fr := fragment{field: "element", what: "view element or conditional", sent: o.Element, text: text,
			path: n.Path, file: sp.apply(d), at: at, indent: indentAt(d, int(n.Pos))}
		return nil, fr.refuse(errs).withNode(n.ID)
	}
	kind := graph.KindElement
	if _, ok := item.(*syntax.IfView); ok {
		kind = graph.KindConditional
	}
	return &change{path: n.Path, sp: sp, createdAt: at, createdKinds: []string{kind}, node: n.ID, owner: ownerOf(n)}, nil
}

// declOption returns the declaration option of n offering op.
func (a *applier) declOption(o *Common, oldText, position string, n *graph.Node, i int32, op string) (*EditOption, *Error) {
	opts, why := a.options(n, i, "declaration")
	opt := findOption(opts, func(x *EditOption) bool { return slices.Contains(x.Ops, op) })
	if opt == nil && op == "remove" && memberKinds[n.Kind] && referenced(a.proj.Result.Graph, i) {
		return nil, a.stillReferenced(n, i)
	}
	if opt == nil {
		return nil, notOffered("declaration "+op, n.ID, why)
	}
	if op == "create" && !slices.Contains(opt.Positions, position) {
		return nil, notOffered("declaration create", n.ID, fmt.Sprintf("position %s is not offered; positions: %s", position, strings.Join(opt.Positions, ", ")))
	}
	if e := a.preconditions(o, n, opt); e != nil {
		return nil, e
	}
	if opt.Text == nil || oldText != *opt.Text {
		return nil, oldTextMismatch(n.ID)
	}
	return opt, nil
}

func (a *applier) stillReferenced(n *graph.Node, i int32) *Error {
	g := a.proj.Result.Graph
	var by []string
	seen := map[string]bool{}
	for _, ei := range g.In(i) {
		ed := &g.Edges[ei]
		if ed.Kind() == graph.EdgeDeclaredIn || ed.Kind() == graph.EdgeChildOf {
			continue
		}
		id := g.At(ed.From).ID
		if !seen[id] {
			seen[id] = true
			by = append(by, id)
		}
	}
	return errorf(reason.StillReferenced, "%s is still referenced by %s; remove the references first", n.ID, strings.Join(capList(by, 10), ", ")).
		withNode(n.ID).detail("referenced_by", capList(by, 50)).
		next(ListReferences, n.ID)
}

// declTarget resolves the node a declaration operation names in field
// and checks that the declaration family offers verb on it.
func (a *applier) declTarget(o *Common, oldText, position string, r NodeRef, field, verb string) (*graph.Node, *Error) {
	n, i, e := a.node(r, field)
	if e != nil {
		return nil, e
	}
	if _, e := a.declOption(o, oldText, position, n, i, verb); e != nil {
		return nil, e
	}
	return n, nil
}

func (a *applier) declCreate(o *DeclCreate) (*change, *Error) {
	n, e := a.declTarget(&o.Common, o.OldText, o.Position, o.Anchor, "anchor", "create")
	if e != nil {
		return nil, e
	}
	text := trimFragment(o.Declaration)
	d := a.data(n.Path)
	place := placeOf(n.Kind, o.Position)
	want := []string{place}
	if place == placeMember && !memberKinds[n.Kind] {
		want = append(want, placeProp)
	}
	p, other := classify(text, want...)
	if !p.ok && other != nil {
		return nil, wrongPlace(n, o.Position, place, other)
	}
	target := place
	if p.ok {
		target = p.place
	}
	var sp splice
	var at int
	switch {
	case target != placeMember:
		if sp, at, e = a.createAt(n, o.Position, target, text); e != nil {
			return nil, e
		}
	case o.Position == "first":
		od := ownerDecl(a.proj.Headers(n.Path), n.Pos)
		if od == nil {
			return nil, notOffered("declaration create", n.ID, "the owner's header has no opening brace")
		}
		sp, at = firstMember(d, od, text)
	default:
		sp, at = insertion(d, int(n.Pos), int(n.End), o.Position == "after", text, "\n"+indentAt(d, int(n.Pos)))
	}
	if !p.ok {
		file := sp.apply(d)
		return nil, refuseDecl(o.Declaration, text, p, fragment{path: n.Path, file: file, at: at, indent: indentAt(file, at)}).withNode(n.ID)
	}
	owner := ownerOf(n)
	if target == placeTop {
		owner = "" // a new top-level declaration changes no page or component it is next to
	}
	return &change{path: n.Path, sp: sp, createdAt: at, createdKinds: []string{p.kind}, node: n.ID, owner: owner}, nil
}

func ownerDecl(f *syntax.File, pos int32) *syntax.OwnerDecl {
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if od, ok := d.(*syntax.OwnerDecl); ok && od.Pos == pos && od.LBrace >= od.Pos && int(od.LBrace) < len(f.Src) && f.Src[od.LBrace] == '{' {
			return od
		}
	}
	return nil
}

// firstMember places a member first in an owner, after its header line.
func firstMember(src []byte, od *syntax.OwnerDecl, text string) (splice, int) {
	ownerIndent := indentAt(src, int(od.Pos))
	indent := ownerIndent + "  "
	if len(od.Members) > 0 {
		mp := int(od.Members[0].Bounds().Pos)
		if blankRun(src[lineStartAt(src, mp):mp]) {
			indent = indentAt(src, mp)
		}
	}
	body := reindent(text, indent)
	after := int(od.LBrace) + 1
	le := lineEndAt(src, after)
	if blankRun(src[after:le]) && le < len(src) {
		return splice{pos: le + 1, end: le + 1, text: indent + body + "\n"}, le + 1 + len(indent)
	}
	j := after
	for j < len(src) && isBlank(src[j]) {
		j++
	}
	tail := "\n" + indent
	if j < len(src) && src[j] == '}' {
		tail = "\n" + ownerIndent
	}
	return splice{pos: after, end: j, text: "\n" + indent + body + tail}, after + 1 + len(indent)
}

func (a *applier) declUpdate(o *DeclUpdate) (*change, *Error) {
	n, e := a.declTarget(&o.Common, o.OldText, "", o.Node, "node", "update")
	if e != nil {
		return nil, e
	}
	text := trimFragment(o.Declaration)
	sp := splice{pos: int(n.Pos), end: int(n.End), text: text}
	p := parseDecl(placeOfNode(n.Kind), text)
	if !p.ok {
		return nil, refuseDecl(o.Declaration, text, p, fragment{path: n.Path, file: sp.apply(a.data(n.Path)), at: int(n.Pos)}).withNode(n.ID)
	}
	if e := a.checkKept(n, p); e != nil {
		return nil, e
	}
	return &change{path: n.Path, sp: sp, createdAt: -1, node: n.ID, owner: ownerOf(n)}, nil
}

func (a *applier) declRemove(o *DeclRemove) (*change, *Error) {
	n, e := a.declTarget(&o.Common, o.OldText, "", o.Node, "node", "remove")
	if e != nil {
		return nil, e
	}
	d := a.data(n.Path)
	sp := removal(d, int(n.Pos), int(n.End))
	if n.Kind == graph.KindProp {
		sp = propRemoval(d, int(n.Pos), int(n.End))
	}
	return &change{path: n.Path, sp: sp, createdAt: -1, node: n.ID, owner: ownerOf(n), removes: true}, nil
}

// module returns the module node of path.
func (a *applier) module(path string) (*graph.Node, int32, *Error) {
	g := a.proj.Result.Graph
	i, ok := g.Lookup("module:" + path)
	if !ok || !isSource(a.proj.Inputs, path) {
		return nil, 0, errorf(reason.PathUnknown, "%s is not a module (.acore source) of the project", path).withPath(path)
	}
	return g.At(i), i, nil
}

func (a *applier) importAdd(o *ImportAdd) (*change, *Error) {
	n, i, e := a.module(o.Path)
	if e != nil {
		return nil, e
	}
	opts, why := a.options(n, i, "import")
	opt := findOption(opts, func(x *EditOption) bool { return slices.Contains(x.Ops, "add") })
	if opt == nil {
		return nil, notOffered("import add", n.ID, why)
	}
	if e := a.preconditions(&o.Common, n, opt); e != nil {
		return nil, e
	}
	if !validIdent(o.Symbol) {
		return nil, errorf(reason.Schema, "symbol: %q is not an identifier", o.Symbol)
	}
	if o.From == "" || strings.ContainsAny(o.From, "\n\r") {
		return nil, errorf(reason.Schema, "from: must be a module path on one line")
	}
	f := a.proj.Headers(o.Path)
	for _, u := range f.Uses {
		if u.Name != nil && u.Name.Name == o.Symbol && u.Kind.String() == o.ImportKind && u.From != nil && u.From.Value == o.From {
			return nil, errorf(reason.NoOp, "%s already has `%s`", o.Path, f.Text(u)).withPath(o.Path)
		}
	}
	line := "use " + o.ImportKind + " " + o.Symbol + " from " + syntax.Quote(o.From)
	d := a.data(o.Path)
	var sp splice
	var at int
	switch {
	case len(f.Uses) > 0:
		le := lineEndAt(d, int(f.Uses[len(f.Uses)-1].End))
		sp, at = splice{pos: le, end: le, text: "\n" + line}, le+1
	case f.Module != nil:
		le := lineEndAt(d, int(f.Module.End))
		sp, at = splice{pos: le, end: le, text: "\n\n" + line}, le+2
	default:
		sep := "\n"
		if len(d) > 0 {
			sep = "\n\n"
		}
		sp, at = splice{pos: 0, end: 0, text: line + sep}, 0
	}
	return &change{path: o.Path, sp: sp, createdAt: at, createdKinds: []string{graph.KindImport}, node: n.ID}, nil
}

func (a *applier) importRemove(o *ImportRemove) (*change, *Error) {
	n, i, e := a.module(o.Path)
	if e != nil {
		return nil, e
	}
	f := a.proj.Headers(o.Path)
	var use *syntax.UseDecl
	for _, u := range f.Uses {
		if u.Name != nil && u.Name.Name == o.Symbol {
			use = u
			break
		}
	}
	if use == nil {
		return nil, notOffered("import remove", n.ID, fmt.Sprintf("%s has no use line importing %s", o.Path, o.Symbol))
	}
	opts, why := a.options(n, i, "import")
	opt := findOption(opts, func(x *EditOption) bool {
		return slices.Contains(x.Ops, "remove") && slices.Contains(x.Symbols, o.Symbol)
	})
	if opt == nil {
		if len(opts) > 0 {
			return nil, errorf(reason.StillReferenced, "%s still refers to %s; remove its uses first", o.Path, o.Symbol).
				withNode(n.ID).withPath(o.Path)
		}
		return nil, notOffered("import remove", n.ID, why)
	}
	cands := []*EditOption{opt}
	target := n
	if j, ok := a.proj.Result.Graph.Lookup("import:" + o.Path + "#" + o.Symbol); ok {
		in := a.proj.Result.Graph.At(j)
		iopts, _ := a.options(in, j, "import")
		for k := range iopts {
			cands = append(cands, &iopts[k])
		}
		if o.ExpectedNodeVersion != nil && *o.ExpectedNodeVersion == a.version(in) {
			target = in
		}
	}
	if e := a.preconditions(&o.Common, target, cands...); e != nil {
		return nil, e
	}
	if o.OldText != f.Text(use) {
		return nil, oldTextMismatch(n.ID)
	}
	return &change{path: o.Path, sp: removal(a.data(o.Path), int(use.Pos), int(use.End)), createdAt: -1, node: n.ID, removes: true}, nil
}

func (a *applier) replaceRegion(o *ReplaceRegion) (*change, *Error) {
	n, i, e := a.module(o.Path)
	if e != nil {
		return nil, e
	}
	if a.proj.Result.State != check.StateSyntax {
		return nil, notOffered("replace_region", n.ID, "replace_region is offered only on a syntax snapshot, around its syntax errors; this base is "+a.proj.Result.State)
	}
	opts, why := a.options(n, i, "replace_region")
	opt := findOption(opts, func(x *EditOption) bool {
		return x.Region != nil && x.Region.Path == o.Path && x.Region.StartLine == o.StartLine && x.Region.EndLine == o.EndLine
	})
	if opt == nil {
		if len(opts) > 0 {
			var regs []string
			for _, x := range opts {
				regs = append(regs, fmt.Sprintf("%d-%d", x.Region.StartLine, x.Region.EndLine))
			}
			why = fmt.Sprintf("no region %d-%d is offered in %s; regions: %s", o.StartLine, o.EndLine, o.Path, strings.Join(regs, ", "))
		}
		return nil, notOffered("replace_region", n.ID, why)
	}
	if o.Option.Fingerprint != opt.Fingerprint {
		return nil, errorf(reason.OptionStale, "option %s is not the current region option of %s lines %d-%d", o.Option.OptionID, o.Path, o.StartLine, o.EndLine).
			withPath(o.Path).next(ReadRegions, n.ID)
	}
	if o.OldText != opt.Region.OldText {
		return nil, oldTextMismatch(n.ID)
	}
	if lines := strings.Count(o.NewText, "\n") + 1; lines > regionMaxLines {
		return nil, errorf(reason.Schema, "new_text: has %d lines, more than %d", lines, regionMaxLines)
	}
	f := a.proj.Headers(o.Path)
	lo := lineStart(f, o.StartLine)
	sp := splice{pos: lo, end: lo + len(opt.Region.OldText), text: o.NewText}
	return &change{path: o.Path, sp: sp, createdAt: -1, node: n.ID}, nil
}

// findElement returns the element of f that starts at pos.
func findElement(f *syntax.File, pos int32) *syntax.Element {
	if f == nil {
		return nil
	}
	var walk func(items []syntax.ViewItem) *syntax.Element
	walk = func(items []syntax.ViewItem) *syntax.Element {
		for _, it := range items {
			s := it.Bounds()
			if pos < s.Pos || pos >= s.End {
				continue
			}
			switch it := it.(type) {
			case *syntax.Element:
				if it.Pos == pos {
					return it
				}
				if it.Children != nil {
					return walk(it.Children.Items)
				}
			case *syntax.IfView:
				for _, b := range it.Branches {
					if el := walk(b.Items); el != nil {
						return el
					}
				}
			}
		}
		return nil
	}
	for _, d := range f.Decls {
		od, ok := d.(*syntax.OwnerDecl)
		if !ok || pos < od.Pos || pos >= od.End {
			continue
		}
		for _, m := range od.Members {
			if v, ok := m.(*syntax.ViewDecl); ok {
				if el := walk(v.Items); el != nil {
					return el
				}
			}
		}
	}
	return nil
}

// hasDiagnostic reports whether p's compile has a diagnostic of code in
// the file at path.
func hasDiagnostic(p *project.Project, path, code string) bool {
	for _, d := range p.Result.Diagnostics {
		if d.Code == code && d.Path == path {
			return true
		}
	}
	return false
}
