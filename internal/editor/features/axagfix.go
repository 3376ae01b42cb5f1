package features

import (
	"bytes"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// axagFact is one fact a quick fix sets in an @axag annotation.
type axagFact struct {
	key, value string // value as Acore writes it: "high" quoted, true bare
	preferred  bool
}

// axagFacts are the facts that mend a finding of the rule on an action of
// actionType ("" when unknown), the likeliest first.
func axagFacts(rule, actionType string) []axagFact {
	switch rule {
	case axag.RuleHighRiskConfirmation:
		return []axagFact{{"confirmation_required", "true", true}}
	case axag.RuleMutationIdempotent:
		return []axagFact{{"idempotent", "true", false}, {"idempotent", "false", false}}
	case axag.RuleDeleteRisk:
		return []axagFact{{"risk_level", `"high"`, true}, {"risk_level", `"critical"`, false}}
	case axag.RuleMutationRisk:
		if actionType == "delete" {
			return []axagFact{{"risk_level", `"high"`, true}, {"risk_level", `"critical"`, false}}
		}
		return []axagFact{{"risk_level", `"low"`, false}, {"risk_level", `"medium"`, false},
			{"risk_level", `"high"`, false}, {"risk_level", `"critical"`, false}}
	}
	return nil
}

// axagFixes are the quick fixes of the AXAG findings of rel that overlap
// r: each sets one fact in the @axag of the member or element the finding
// is on, adding the annotation when there is none.
func axagFixes(fs *Files, rel string, r protocol.Range) []protocol.CommandOrCodeAction {
	m := fs.Mapper(rel)
	if m == nil {
		return nil
	}
	text := m.Text()
	var tree *syntax.File
	var out []protocol.CommandOrCodeAction
	for _, f := range fs.Snap.AxagFindings() {
		if f.File != rel {
			continue
		}
		pd, ok := axagDiagnostic(fs, f)
		if !ok || !Overlaps(pd.Range, r) {
			continue
		}
		facts := axagFacts(f.Rule, actionTypeAt(fs, f))
		if len(facts) == 0 {
			continue
		}
		if tree == nil {
			tree = syntax.Parse(rel, text)
		}
		pos, _, _ := findingSpan(m, f)
		anns, start, ok := annotationsAt(tree, text, int32(pos))
		if !ok {
			continue
		}
		for _, fact := range facts {
			edit := setFact(text, anns, start, fact)
			kind := protocol.CodeActionKindQuickFix
			preferred := fact.preferred
			out = append(out, &protocol.CodeAction{
				Title:       "Declare " + fact.key + ": " + fact.value + " in @axag",
				Kind:        &kind,
				Diagnostics: []protocol.Diagnostic{pd},
				IsPreferred: &preferred,
				Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
					fs.URI(rel): {{Range: fs.Range(rel, edit.pos, edit.end), NewText: edit.text}},
				}},
			})
		}
	}
	return out
}

// actionTypeAt is the action type of the member action the finding is on,
// "" when it is not a member's.
func actionTypeAt(fs *Files, f axag.Finding) string {
	for _, a := range fs.Snap.MemberActions() {
		if a.SourceFile == f.File && a.SourceLine == f.Line && a.SourceColumn == f.Column {
			return a.ActionType
		}
	}
	return ""
}

// annotationsAt finds the member or element whose name starts at pos: its
// annotations and where its declaration starts (after them).
func annotationsAt(f *syntax.File, src []byte, pos int32) ([]*syntax.Annotation, int32, bool) {
	var inView func(items []syntax.ViewItem) ([]*syntax.Annotation, int32, bool)
	inView = func(items []syntax.ViewItem) ([]*syntax.Annotation, int32, bool) {
		for _, it := range items {
			switch it := it.(type) {
			case *syntax.Element:
				if it.Name != nil && it.Name.Pos == pos {
					return it.Annotations, it.Name.Pos, true
				}
				if it.Children != nil {
					if a, s, ok := inView(it.Children.Items); ok {
						return a, s, true
					}
				}
			case *syntax.IfView:
				for _, b := range it.Branches {
					if a, s, ok := inView(b.Items); ok {
						return a, s, true
					}
				}
			}
		}
		return nil, 0, false
	}
	for _, d := range f.Decls {
		o, ok := d.(*syntax.OwnerDecl)
		if !ok {
			continue
		}
		for _, mem := range o.Members {
			var name *syntax.Ident
			var anns []*syntax.Annotation
			var start int32
			switch mem := mem.(type) {
			case *syntax.DataDecl:
				name, anns, start = mem.Name, mem.Annotations, mem.Pos
			case *syntax.ActionDecl:
				name, anns, start = mem.Name, mem.Annotations, mem.Pos
			case *syntax.ViewDecl:
				if a, s, ok := inView(mem.Items); ok {
					return a, s, true
				}
				continue
			default:
				continue
			}
			if name != nil && name.Pos == pos {
				for _, a := range anns {
					start = max(start, a.End)
				}
				for start < name.Pos && (src[start] == ' ' || src[start] == '\t' || src[start] == '\n' || src[start] == '\r') {
					start++
				}
				return anns, start, true
			}
		}
	}
	return nil, 0, false
}

// textEdit replaces the bytes [pos, end) by text.
type textEdit struct {
	pos, end int
	text     string
}

// setFact is the edit that sets fact in the @axag of anns: the value of
// its argument replaced, or the argument added before the closing
// parenthesis; without an @axag, one on its own line before the
// declaration at start (or before it on the line when something precedes
// it there).
func setFact(src []byte, anns []*syntax.Annotation, start int32, fact axagFact) textEdit {
	arg := fact.key + ": " + fact.value
	for _, a := range anns {
		if a.Name == nil || a.Name.Name != "axag" || a.End < 1 || src[a.End-1] != ')' {
			continue
		}
		for _, x := range a.Args {
			if x.Name != nil && x.Name.Name == fact.key && x.Value != nil {
				v := x.Value.Bounds()
				return textEdit{int(v.Pos), int(v.End), fact.value}
			}
		}
		if len(a.Args) == 0 {
			return textEdit{int(a.End - 1), int(a.End - 1), arg}
		}
		return textEdit{int(a.End - 1), int(a.End - 1), ", " + arg}
	}
	lineStart := bytes.LastIndexByte(src[:start], '\n') + 1
	indent := src[lineStart:start]
	if len(bytes.Trim(indent, " \t")) > 0 {
		return textEdit{int(start), int(start), "@axag(" + arg + ") "}
	}
	return textEdit{int(start), int(start), "@axag(" + arg + ")\n" + string(indent)}
}
