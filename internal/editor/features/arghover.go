package features

import (
	"strings"

	"go.lsp.dev/protocol"

	"github.com/axiomcore/acore/internal/lang/catalog"
)

// nameHover describes a name that declares no object: an argument's name
// (of the app, a catalog element, a component, an action, a contract
// operation or an @axag), with its type or values and its doc, and the name of a
// catalog element, with its properties. Like completion it reads the text,
// so half-written code has hovers too.
func nameHover(fs *Files, rel string, p protocol.Position) *protocol.Hover {
	text, ok := fs.Snap.Text(rel)
	if !ok {
		return nil
	}
	off, _ := fs.Offset(rel, p)
	start, end := off, off
	for start > 0 && identByte(text[start-1]) {
		start--
	}
	for end < len(text) && identByte(text[end]) {
		end++
	}
	if start == end || text[start] >= '0' && text[start] <= '9' {
		return nil
	}
	word := string(text[start:end])
	next := end
	for next < len(text) && (text[next] == ' ' || text[next] == '\t') {
		next++
	}
	s := scan(text, start)
	if s.inString {
		return nil
	}
	c := &completer{fs: fs, ix: fs.Snap.Index(), rel: rel, text: text, off: start, start: start}
	var value string
	switch {
	case next < len(text) && text[next] == ':' && (next+1 >= len(text) || text[next+1] != ':'):
		t := s.top()
		if t == nil || t.open != '(' || t.callee == "" && !t.app {
			return nil
		}
		for _, pr := range c.frameParams(t) {
			if pr.name == word {
				what := t.callee + "." + word
				switch {
				case t.app:
					what = "app argument " + word
				case t.annot:
					what = "@" + t.callee + " " + word
				}
				value = "```acore\n" + what + ": " + pr.detail + "\n```\n"
				if pr.doc != "" {
					value += "\n" + pr.doc + "\n"
				}
			}
		}
	default:
		el, ok := catalog.Lookup(word)
		if !ok || start > 0 && text[start-1] == '.' {
			return nil
		}
		var ps []string
		for _, pr := range c.params(word) {
			ps = append(ps, pr.name+": "+pr.detail)
		}
		value = "```acore\nelement " + word + "(" + strings.Join(ps, ", ") + ")\n```\n"
		if el.Doc != "" {
			value += "\n" + el.Doc + "\n"
		}
	}
	if value == "" {
		return nil
	}
	r := fs.Range(rel, start, end)
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: value}, Range: &r}
}
