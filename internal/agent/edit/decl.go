package edit

import (
	"strings"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// The places a declaration goes, by the anchor's kind and the position:
// a member (state, let, query, mutation, action) among the members of a
// page or component, a prop (or page parameter) in its owner's parameter
// list, and a top-level declaration (page, component, model, extern
// action) among the top-level declarations of a module.
const (
	placeMember = "member"
	placeProp   = "prop"
	placeTop    = "top"
)

var placeWhat = map[string]string{
	placeMember: "state, let, query, mutation or action",
	placeProp:   "prop (name: Type, with an optional = default)",
	placeTop:    "page, component, model or extern action",
}

// memberKinds are the kinds of the members a declaration edit creates,
// updates and removes in a page or component.
var memberKinds = map[string]bool{graph.KindState: true, graph.KindLet: true, graph.KindQuery: true, graph.KindMutation: true,
	graph.KindAction: true}

// placeOf is where a declaration created at position of an anchor of
// kind goes.
func placeOf(kind, position string) string {
	switch {
	case memberKinds[kind]:
		return placeMember
	case kind == graph.KindProp:
		return placeProp
	case position == "first":
		return placeMember // or placeProp: the text decides
	}
	return placeTop
}

// parsed is a declaration text parsed in the grammar of one place.
type parsed struct {
	place      string
	kind, name string
	errs       []syntax.Error
	ok         bool
}

// parseDecl parses text in the grammar of place.
func parseDecl(place, text string) parsed {
	var kind, name string
	var errs []syntax.Error
	switch place {
	case placeMember:
		var m syntax.Member
		if m, errs = parseMember(text); m != nil {
			kind, name = memberKindName(m)
		}
	case placeProp:
		var pr *syntax.Param
		if pr, errs = parseProp(text); pr != nil {
			kind, name = graph.KindProp, identName(pr.Name)
		}
	case placeTop:
		var d syntax.Decl
		if d, errs = parseTop(text); d != nil {
			kind, name = topKindName(d)
		}
	}
	return parsed{place: place, kind: kind, name: name, errs: errs, ok: kind != ""}
}

// classify parses text where it is expected (want, and for a first
// position in an owner also as a prop); when it is not that, it says
// which place it is a declaration of, if any.
func classify(text string, want ...string) (got parsed, other *parsed) {
	for _, w := range want {
		if p := parseDecl(w, text); p.ok {
			return p, nil
		} else if w == want[0] {
			got = p
		}
	}
	for _, pl := range []string{placeMember, placeProp, placeTop} {
		if p := parseDecl(pl, text); p.ok {
			return got, &p
		}
	}
	return got, nil
}

// parseProp parses text as one parameter of a component header.
func parseProp(text string) (*syntax.Param, []syntax.Error) {
	pre := "component EditFragment("
	f := syntax.Parse("fragment.acore", []byte(pre+text+") {\n}\n"))
	if len(f.Errors) > 0 {
		return nil, shiftErrors(f.Errors, len(pre))
	}
	if len(f.Decls) != 1 {
		return nil, nil
	}
	od, ok := f.Decls[0].(*syntax.OwnerDecl)
	if !ok || len(od.Params) != 1 {
		return nil, nil
	}
	return od.Params[0], nil
}

// parseTop parses text as one top-level declaration of a module: a page,
// a component, a model or an extern action.
func parseTop(text string) (syntax.Decl, []syntax.Error) {
	f := syntax.Parse("fragment.acore", []byte(text+"\n"))
	if len(f.Errors) > 0 {
		return nil, f.Errors
	}
	if len(f.Decls) != 1 || len(f.Uses) > 0 || f.Module != nil {
		return nil, nil
	}
	switch d := f.Decls[0].(type) {
	case *syntax.OwnerDecl, *syntax.ModelDecl, *syntax.ExternDecl:
		return d, nil
	}
	return nil, nil
}

func topKindName(d syntax.Decl) (string, string) {
	switch d := d.(type) {
	case *syntax.OwnerDecl:
		if d.Kind == syntax.Page {
			return graph.KindPage, identName(d.Name)
		}
		return graph.KindComponent, identName(d.Name)
	case *syntax.ModelDecl:
		return graph.KindModel, identName(d.Name)
	case *syntax.ExternDecl:
		return graph.KindExtension, identName(d.Name)
	}
	return "", ""
}

// wrongPlace refuses a declaration of another place than the anchor and
// position give.
func wrongPlace(n *graph.Node, position, want string, got *parsed) *Error {
	where := map[string]string{
		placeMember: "anchor it on a member (before or after) or on its page or component (first)",
		placeProp:   "anchor it on a prop (before or after) or on its component (first)",
		placeTop:    "anchor it on a page, component, model or extern action, before or after",
	}[got.place]
	return errorf(reason.IncompatibleTarget,
		"declaration create %s %s takes a %s; the declaration is %s %s, which goes elsewhere: %s",
		position, n.ID, placeWhat[want], article(got.kind), got.name, where).withNode(n.ID)
}

// createAt builds the splice of a declaration create that is not a
// member before or after a member (declCreate does that one).
func (a *applier) createAt(n *graph.Node, position, place, text string) (splice, int, *Error) {
	d := a.data(n.Path)
	switch {
	case place == placeTop:
		if position == "before" {
			ls := lineStartAt(d, int(n.Pos))
			if ls > 0 {
				// At the line feed before the anchor's line, outside the
				// anchor: the anchor is not a declaration the edit touches.
				return splice{pos: ls - 1, end: ls - 1, text: "\n" + text + "\n"}, ls, nil
			}
			return splice{pos: ls, end: ls, text: text + "\n\n"}, ls, nil
		}
		return splice{pos: int(n.End), end: int(n.End), text: "\n\n" + text}, int(n.End) + 2, nil
	case place == placeProp && position == "first":
		od := ownerDecl(a.proj.Headers(n.Path), n.Pos)
		if od == nil || od.Name == nil {
			return splice{}, 0, notOffered("declaration create", n.ID, "the owner's header is not in the source")
		}
		if len(od.Params) > 0 {
			return propInsertion(d, int(od.Params[0].Pos), int(od.Params[0].End), false, text)
		}
		at := int(od.Name.End)
		j := at
		for j < int(od.LBrace) && d[j] != '(' {
			j++
		}
		if j < int(od.LBrace) {
			return splice{pos: j + 1, end: j + 1, text: text}, j + 1, nil
		}
		return splice{pos: at, end: at, text: "(" + text + ")"}, at + 1, nil
	case place == placeProp:
		return propInsertion(d, int(n.Pos), int(n.End), position == "after", text)
	}
	return splice{}, 0, notOffered("declaration create", n.ID, "position "+position+" of a "+place)
}

// propInsertion places a parameter before or after the parameter
// [pos, end): on a line of its own when that one is on its own line (a
// header with one parameter a line), otherwise next to it on its line.
func propInsertion(src []byte, pos, end int, after bool, text string) (splice, int, *Error) {
	le := lineEndAt(src, end)
	rest := strings.TrimSpace(string(src[end:le]))
	if blankRun(src[lineStartAt(src, pos):pos]) && (rest == "" || rest == ",") {
		indent := indentAt(src, pos)
		switch {
		case !after:
			ls := lineStartAt(src, pos)
			return splice{pos: ls, end: ls, text: indent + text + ",\n"}, ls + len(indent), nil
		case rest == ",":
			return splice{pos: le, end: le, text: "\n" + indent + text + ","}, le + 1 + len(indent), nil
		}
		return splice{pos: end, end: end, text: ",\n" + indent + text}, end + 2 + len(indent), nil
	}
	if !after {
		return splice{pos: pos, end: pos, text: text + ", "}, pos, nil
	}
	return splice{pos: end, end: end, text: ", " + text}, end + 2, nil
}

// propRemoval deletes the parameter [pos, end) and one comma next to it.
func propRemoval(src []byte, pos, end int) splice {
	j := end
	for j < len(src) && (isBlank(src[j]) || src[j] == '\n') {
		j++
	}
	if j < len(src) && src[j] == ',' {
		j++
		for j < len(src) && isBlank(src[j]) {
			j++
		}
		return splice{pos: pos, end: j}
	}
	i := pos
	for i > 0 && (isBlank(src[i-1]) || src[i-1] == '\n') {
		i--
	}
	if i > 0 && src[i-1] == ',' {
		return splice{pos: i - 1, end: end}
	}
	return splice{pos: pos, end: end}
}

// refuseDecl answers a declaration text that is not one of place.
func refuseDecl(src, text string, p parsed, fr fragment) *Error {
	fr.field, fr.what, fr.sent, fr.text = "declaration", placeWhat[p.place], src, text
	return fr.refuse(p.errs)
}

func (a *applier) checkKept(n *graph.Node, p parsed) *Error {
	if p.kind != n.Kind || p.name != n.Name {
		return errorf(reason.IncompatibleTarget,
			"declaration update keeps kind and name: %s is %s %s, the new declaration is %s %s; create and remove instead", n.ID, n.Kind, n.Name, p.kind, p.name).
			withNode(n.ID)
	}
	return nil
}

func placeOfNode(kind string) string {
	switch {
	case memberKinds[kind]:
		return placeMember
	case kind == graph.KindProp:
		return placeProp
	}
	return placeTop
}
