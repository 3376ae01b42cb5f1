package edit

import (
	"path"
	"strings"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Declarations of a local development contract: the operations and models
// of contracts/<id>.axiom. Their graph nodes live in the development
// artifact .axiom/dev/contracts/<id>.axiom, which preparation copies byte
// for byte from the source; while the two agree, a node's span in the
// artifact is its span in the source. The edit is made in the source and
// the candidate re-prepares the artifact and the lock (writeInput), so a
// page in the same batch compiles against the new contract.

// placeContract is the place of a contract member.
const placeContract = "contract"

// contractMemberKinds are the kinds of the contract members a
// declaration edit creates, updates and removes.
var contractMemberKinds = map[string]bool{graph.KindOperation: true, graph.KindModel: true}

// contractSpan is the span of contract member n in f, its annotations
// included: the text the declaration option offers and an update or
// remove replaces.
func contractSpan(f *syntax.File, n *graph.Node) (int, int, bool) {
	if f == nil {
		return 0, 0, false
	}
	for _, d := range f.Decls {
		cd, ok := d.(*syntax.ContractDecl)
		if !ok {
			continue
		}
		if n.Kind == graph.KindModel {
			for _, m := range cd.Models {
				if m.Pos == n.Pos {
					return int(m.Pos), int(m.End), true
				}
			}
			continue
		}
		for _, op := range cd.Ops {
			if op.Pos == n.Pos || op.Name != nil && op.Name.Pos >= n.Pos && op.Name.End <= n.End && op.End == n.End {
				pos := op.Pos
				if len(op.Annotations) > 0 && op.Annotations[0].Pos < pos {
					pos = op.Annotations[0].Pos
				}
				return int(pos), int(op.End), true
			}
		}
	}
	return 0, 0, false
}

// contractOption is the declaration option of a contract member, or of
// a local contract itself (its contract_import node): a member created
// first in it, which is how a contract with no members gets one.
func (r *editRules) contractOption() ([]EditOption, string) {
	if r.p.Inputs.ContractSource(r.n.Path) == nil {
		return nil, "declaration edits change a contract in its local source contracts/<id>.axiom; " + r.n.Path + " has none (a published contract is read-only)"
	}
	if r.n.Kind == graph.KindContractImport {
		h, _, ok := contractHeader(r.f, r.n)
		if !ok {
			return nil, "declaration create needs the header of " + r.n.ID + " with its opening brace, which the source does not have"
		}
		return []EditOption{{Ops: []string{"create"}, Positions: []string{"first"}, Text: &h}}, ""
	}
	pos, end, ok := contractSpan(r.f, r.n)
	if !ok {
		return nil, "declaration needs the declaration's source text, which " + r.n.Path + " does not have"
	}
	t := string(r.f.Src[pos:end])
	return []EditOption{{Ops: []string{"create", "update", "remove"}, Positions: []string{"before", "after"}, Text: &t}}, ""
}

// contractHeader is the header of contract n in f, from the keyword to
// the opening brace, and the brace's offset.
func contractHeader(f *syntax.File, n *graph.Node) (string, int, bool) {
	if f == nil {
		return "", 0, false
	}
	for _, d := range f.Decls {
		cd, ok := d.(*syntax.ContractDecl)
		if !ok || cd.Pos != n.Pos {
			continue
		}
		from := cd.Name.End
		for _, a := range cd.Audiences {
			from = max(from, a.End)
		}
		if b := strings.IndexByte(string(f.Src[from:cd.End]), '{'); b >= 0 {
			at := int(from) + b
			return string(f.Src[cd.Pos : at+1]), at, true
		}
	}
	return "", 0, false
}

// firstInContract is the splice that puts text first in the contract
// whose opening brace is at brace in d, on its own line, one indent
// deeper than the contract's; a closing brace on the same line moves to
// the next.
func firstInContract(d []byte, brace int, text string) (splice, int) {
	outer := indentAt(d, brace)
	inner := outer + "  "
	body := "\n" + inner + reindent(text, inner)
	rest := d[brace+1:]
	if k := strings.IndexAny(string(rest), "\n}"); k >= 0 && rest[k] == '}' && strings.TrimSpace(string(rest[:k])) == "" {
		return splice{pos: brace + 1, end: brace + 1 + k, text: body + "\n" + outer}, brace + 2 + len(inner)
	}
	return splice{pos: brace + 1, end: brace + 1, text: body}, brace + 2 + len(inner)
}

// parseContractMember parses text as one member of a contract: an
// operation (with its annotations) or a model.
func parseContractMember(text string) parsed {
	pre := "contract EditFragment audience \"web\" {\n"
	f := syntax.Parse("fragment.axiom", []byte(pre+text+"\n}\n"))
	p := parsed{place: placeContract}
	if len(f.Errors) > 0 {
		p.errs = shiftErrors(f.Errors, len(pre))
		return p
	}
	if len(f.Decls) != 1 {
		return p
	}
	cd, ok := f.Decls[0].(*syntax.ContractDecl)
	if !ok || len(cd.Models)+len(cd.Ops) != 1 {
		return p
	}
	if len(cd.Models) == 1 {
		p.kind, p.name = graph.KindModel, identName(cd.Models[0].Name)
	} else {
		p.kind, p.name = graph.KindOperation, identName(cd.Ops[0].Name)
	}
	p.ok = p.name != ""
	return p
}

// contractDecl applies a declaration operation whose node is a member of
// a contract artifact; done is false when it is not one, for the other
// declarations (and the read-only refusal of a contract without a local
// source).
func (a *applier) contractDecl(i int, o Op) (done bool, _ *Error) {
	var ref NodeRef
	var cm *Common
	var oldText, position, text, field string
	switch o := o.(type) {
	case *DeclCreate:
		ref, cm, oldText, position, text, field = o.Anchor, &o.Common, o.OldText, o.Position, o.Declaration, "anchor"
	case *DeclUpdate:
		ref, cm, oldText, text, field = o.Node, &o.Common, o.OldText, o.Declaration, "node"
	case *DeclRemove:
		ref, cm, oldText, field = o.Node, &o.Common, o.OldText, "node"
	default:
		return false, nil
	}
	id, e := a.resolve(ref, field)
	if e != nil {
		return true, e
	}
	g := a.proj.Result.Graph
	ni, ok := g.Lookup(id)
	if !ok {
		return false, nil
	}
	n := g.At(ni)
	_, create := o.(*DeclCreate)
	first := create && n.Kind == graph.KindContractImport
	if !contractMemberKinds[n.Kind] && !first || isSource(a.proj.Inputs, n.Path) {
		return false, nil
	}
	src := a.proj.Inputs.ContractSource(n.Path)
	if src == nil {
		return true, readOnly("%s is declared in %s, a contract with no local source contracts/%s; a published contract is read-only", n.ID, n.Path, path.Base(n.Path)).withNode(n.ID)
	}
	_, verb := o.name()
	if _, e := a.declOption(cm, oldText, position, n, ni, verb); e != nil {
		return true, e
	}
	pos, end, _ := contractSpan(a.proj.Headers(n.Path), n)
	d := src.Data
	var sp splice
	at := -1
	var p parsed
	switch {
	case first:
		_, brace, _ := contractHeader(a.proj.Headers(n.Path), n)
		text = trimFragment(text)
		sp, at = firstInContract(d, brace, text)
		pos = brace + 1
	case verb == "create":
		text = trimFragment(text)
		sp, at = insertion(d, pos, end, position == "after", text, "\n"+indentAt(d, pos))
	case verb == "update":
		text = trimFragment(text)
		sp = splice{pos: pos, end: end, text: text}
	case verb == "remove":
		sp = removal(d, pos, end)
	}
	if verb != "remove" {
		if p = parseContractMember(text); !p.ok {
			return true, refuseDecl(text, text, p, fragment{path: src.Path, file: sp.apply(d), at: max(at, pos), indent: indentAt(d, pos)}).withNode(n.ID)
		}
		if verb == "update" {
			if e := a.checkKept(n, p); e != nil {
				return true, e
			}
		}
	}
	if cm.Handle != nil && verb == "remove" {
		return true, errorf(reason.Schema, "handle %q: declaration remove removes its node; there is nothing to name", *cm.Handle)
	}
	if cm.Handle != nil {
		if _, dup := a.handles[*cm.Handle]; dup {
			return true, errorf(reason.HandleReused, "handle %q is already used by an earlier operation of the batch", *cm.Handle)
		}
	}
	entries, nodes, e := a.writeInput(src.Path, src, sp.apply(d), false, n.Path, sp)
	if e != nil {
		return true, e
	}
	out := Outcome{Index: i, Kind: "declaration", Op: verb, Path: src.Path, Node: n.ID, IDMap: entries, Nodes: nodes}
	named := n.ID
	switch verb {
	case "create":
		// The anchor is a member (contract_operation:Books.x) or the
		// contract (contract_import:Books).
		contract, _, _ := strings.Cut(strings.TrimPrefix(n.ID, n.Kind+":"), ".")
		named = p.kind + ":" + contract + "." + p.name
		if _, ok := a.proj.Result.Graph.Lookup(named); !ok {
			return true, errorf(reason.Invariant, "declaration create compiled, but the graph has no %s", named)
		}
		out.Created = named
	case "remove":
		named = ""
	}
	if cm.Handle != nil {
		out.Handle = *cm.Handle
		a.handles[*cm.Handle] = named
	}
	a.outcomes = append(a.outcomes, out)
	return true, nil
}
