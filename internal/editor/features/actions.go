package features

import (
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/lang/rename"
)

// CodeActions are the quick fixes the compiler suggests for the
// diagnostics of rel that overlap r: a name the checker does not know,
// with "did you mean X?", is replaced by X.
func CodeActions(fs *Files, rel string, r protocol.Range) []protocol.CommandOrCodeAction {
	text, ok := fs.Snap.Text(rel)
	if !ok {
		return nil
	}
	var out []protocol.CommandOrCodeAction
	for _, d := range fs.Snap.Diagnostics {
		if d.Path != rel || d.End <= d.Pos || d.End > len(text) {
			continue
		}
		name, ok := suggestion(d.Message)
		if !ok || !rename.IsIdent(string(text[d.Pos:d.End])) {
			continue
		}
		dr := fs.Range(rel, d.Pos, d.End)
		if !overlaps(dr, r) {
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
	return out
}

// suggestion is the X of a message ending "; did you mean X?", as the
// checker writes its suggestions.
func suggestion(msg string) (string, bool) {
	const mark = "; did you mean "
	i := strings.LastIndex(msg, mark)
	if i < 0 || !strings.HasSuffix(msg, "?") {
		return "", false
	}
	name := msg[i+len(mark) : len(msg)-1]
	return name, rename.IsIdent(name)
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}
