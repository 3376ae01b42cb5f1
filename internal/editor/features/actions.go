package features

import (
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/lang/rename"
)

// CodeActions are the quick fixes the compiler suggests for the
// diagnostics of rel that overlap r: a misspelled name with a
// Suggestion is replaced by it; an AXAG finding gets the facts that mend
// it (axagFixes), when the snapshot's findings are made or make says to
// make them.
func CodeActions(fs *Files, rel string, r protocol.Range, make bool) []protocol.CommandOrCodeAction {
	text, ok := fs.Snap.Text(rel)
	if !ok {
		return nil
	}
	var out []protocol.CommandOrCodeAction
	for _, d := range fs.Snap.Diagnostics {
		if d.Path != rel || d.End <= d.Pos || d.End > len(text) {
			continue
		}
		name := d.Suggestion
		if name == "" || !rename.IsIdent(string(text[d.Pos:d.End])) {
			continue
		}
		dr := fs.Range(rel, d.Pos, d.End)
		if !Overlaps(dr, r) {
			continue
		}
		pd := protocol.Diagnostic{Range: dr, Severity: severity(d.Severity), Code: protocol.String(d.Code),
			Source: protocol.NewOptional("acore"), Message: protocol.String(d.Message)}
		preferred, kind := true, protocol.CodeActionKindQuickFix
		out = append(out, &protocol.CodeAction{
			Title:       "Change " + string(text[d.Pos:d.End]) + " to " + name,
			Kind:        &kind,
			Diagnostics: []protocol.Diagnostic{pd},
			IsPreferred: &preferred,
			Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
				fs.URI(rel): {{Range: dr, NewText: name}},
			}},
		})
	}
	if make || fs.Snap.AxagMade() {
		out = append(out, axagFixes(fs, rel, r)...)
	}
	return out
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// Overlaps reports whether the ranges a and b share a position.
func Overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}
