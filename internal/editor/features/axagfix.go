package features

import (
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/annotate"
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
// is on, adding the annotation when there is none, or leaves out the fact
// the finding is about (Finding.Key).
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
		if len(facts) == 0 && f.Key == "" {
			continue
		}
		if tree == nil {
			tree = syntax.Parse(rel, text)
		}
		pos, _, _ := findingSpan(m, f)
		at, ok := annotate.At(tree, int32(pos))
		if !ok {
			continue
		}
		fix := func(title string, sp annotate.Splice, preferred bool) {
			kind := protocol.CodeActionKindQuickFix
			out = append(out, &protocol.CodeAction{
				Title:       title,
				Kind:        &kind,
				Diagnostics: []protocol.Diagnostic{pd},
				IsPreferred: &preferred,
				Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
					fs.URI(rel): {{Range: fs.Range(rel, sp.Pos, sp.End), NewText: sp.Text}},
				}},
			})
		}
		for _, fact := range facts {
			fix("Declare "+fact.key+": "+fact.value+" in @axag", annotate.SetAxag(text, at, fact.key, fact.value), fact.preferred)
		}
		// A value less restrictive than the contract's, or contradicting
		// it: left out, the contract's stands.
		if sp, ok := annotate.RemoveAxag(text, at, f.Key); f.Key != "" && ok {
			fix("Leave "+f.Key+" out of @axag", sp, true)
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
