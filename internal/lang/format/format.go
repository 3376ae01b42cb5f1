// Package format prints Acore source files in their canonical layout.
//
// The formatter works on the token stream rather than re-printing the
// tree: it keeps every token's text and every line break the author wrote
// (collapsing runs of blank lines), and only decides the white space
// within lines and the indentation. Line breaks are what the parser is
// sensitive to (calls, member access and `from` do not continue across
// one), so keeping them and the tokens keeps the meaning, and the author's
// choice of one-line or multi-line blocks survives. The tree is used only
// to tell the roles of ambiguous tokens (unary or binary `-`, call or
// grouping `(`, lambda bars) and where items and top-level declarations
// start.
package format

import (
	"bytes"
	"fmt"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Source returns the canonical formatting of f, which must have parsed
// without errors: formatting a partial tree could drop or move source.
func Source(f *syntax.File) ([]byte, error) {
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		p := f.Position(int(e.Pos))
		return nil, fmt.Errorf("%s:%d:%d: %s %s (only files without syntax errors are formatted)", f.Path, p.Line, p.Column, e.Code, e.Msg)
	}
	pr := newPrinter(f)
	pr.print()
	return pr.out.Bytes(), nil
}

// Check formats f and reports whether the result differs from its source.
func Check(f *syntax.File) (formatted []byte, changed bool, err error) {
	formatted, err = Source(f)
	if err != nil {
		return nil, false, err
	}
	return formatted, !bytes.Equal(formatted, f.Src), nil
}

// element is a token or a comment, in source order.
type element struct {
	pos, end int
	tok      int // index into f.Tokens, or -1 for a comment
}

type bracket struct {
	kind      syntax.Kind
	lineLevel int // indentation of the line holding the opener
}

type printer struct {
	f     *syntax.File
	roles roles
	out   bytes.Buffer

	stack     []bracket
	lineLevel int
	lineStart bool // nothing written yet on the current line
}

func newPrinter(f *syntax.File) *printer {
	return &printer{f: f, roles: collectRoles(f), lineStart: true}
}

func (p *printer) elements() []element {
	f := p.f
	els := make([]element, 0, len(f.Tokens)+len(f.Comments))
	ci := 0
	for ti, t := range f.Tokens {
		if t.Kind == syntax.EOF {
			break
		}
		for ci < len(f.Comments) && f.Comments[ci].Pos < t.Pos {
			els = append(els, element{int(f.Comments[ci].Pos), int(f.Comments[ci].End), -1})
			ci++
		}
		els = append(els, element{int(t.Pos), int(t.End), ti})
	}
	for ; ci < len(f.Comments); ci++ {
		els = append(els, element{int(f.Comments[ci].Pos), int(f.Comments[ci].End), -1})
	}
	return els
}

func (p *printer) print() {
	els := p.elements()
	if len(els) == 0 {
		return
	}
	forced := p.separators(els)
	prevEnd := 0
	for i, e := range els {
		nl := bytes.Count(p.f.Src[prevEnd:e.pos], []byte{'\n'})
		if i == 0 {
			nl = 0
		} else {
			if nl > 2 {
				nl = 2
			}
			if nl == 2 && (p.isOpener(els[i-1]) || p.isCloser(e)) {
				nl = 1 // no blank line right after `{` or before `}`
			}
			if n, ok := forced[i]; ok {
				nl = n
			}
		}
		if nl > 0 {
			for k := 0; k < nl; k++ {
				p.out.WriteByte('\n')
			}
			p.lineStart = true
		}
		if p.lineStart {
			p.lineLevel = p.indent(e)
			for k := 0; k < p.lineLevel; k++ {
				p.out.WriteString("  ")
			}
		} else if p.space(els[i-1], e) {
			p.out.WriteByte(' ')
		}
		p.lineStart = false
		p.write(e)
		prevEnd = e.end
	}
	p.out.WriteByte('\n')
}

// separators returns the line breaks forced before elements: the layout of
// the file's top level (module, a blank line, the use lines, a blank line,
// declarations one blank line apart). The break goes before the first
// comment on its own line above an item, or before the item itself.
func (p *printer) separators(els []element) map[int]int {
	forced := map[int]int{}
	byTok := map[int]int{}
	for i, e := range els {
		if e.tok >= 0 {
			byTok[e.tok] = i
		}
	}
	prevKind := topNone
	for _, it := range p.roles.top {
		i, ok := byTok[it.tok]
		if !ok {
			continue
		}
		if prevKind != topNone {
			n := 2
			if prevKind == topUse && it.kind == topUse {
				n = 1
			}
			// Comments between the previous item and this one: those on
			// the previous item's last line stay there; the break goes
			// before the first one on a line of its own.
			k := i
			for k > 1 && els[k-1].tok < 0 {
				k--
			}
			j := i
			for m := k; m < i; m++ {
				if p.newlineBetween(els[m-1], els[m]) {
					j = m
					break
				}
			}
			forced[j] = n
		}
		prevKind = it.kind
	}
	return forced
}

func (p *printer) newlineBetween(a, b element) bool {
	return bytes.IndexByte(p.f.Src[a.end:b.pos], '\n') >= 0
}

func (p *printer) kind(e element) syntax.Kind {
	if e.tok < 0 {
		return syntax.EOF
	}
	return p.f.Tokens[e.tok].Kind
}

func (p *printer) isOpener(e element) bool {
	switch p.kind(e) {
	case syntax.LBrace, syntax.LParen, syntax.LBrack:
		return true
	}
	return false
}

func (p *printer) isCloser(e element) bool {
	switch p.kind(e) {
	case syntax.RBrace, syntax.RParen, syntax.RBrack:
		return true
	}
	return false
}

// indent returns the indentation level of a line that starts with e.
// Inside brackets it is one more than the line of the opener; a closer
// goes back to the opener's line; inside braces (and at top level) a line
// that does not start an item continues the previous one, one level in.
func (p *printer) indent(e element) int {
	base, inBrace := 0, true
	if n := len(p.stack); n > 0 {
		top := p.stack[n-1]
		if p.isCloser(e) {
			return top.lineLevel
		}
		base = top.lineLevel + 1
		inBrace = top.kind == syntax.LBrace
	}
	if e.tok >= 0 && inBrace && !p.roles.itemStart[e.pos] {
		return base + 1
	}
	return base
}

// space reports whether a space separates a and b on one line.
func (p *printer) space(a, b element) bool {
	ka, kb := p.kind(a), p.kind(b)
	if a.tok < 0 || b.tok < 0 {
		// Comments within a line keep a space on both sides, except
		// against a bracket or a comma that hugs its neighbour.
		if b.tok < 0 {
			return ka != syntax.LParen && ka != syntax.LBrack
		}
		return kb != syntax.RParen && kb != syntax.RBrack && kb != syntax.Comma
	}
	r := &p.roles
	switch {
	case ka == syntax.LParen, ka == syntax.LBrack, ka == syntax.Dot, ka == syntax.At:
		return false
	case ka == syntax.Minus && kb == syntax.Minus && r.unary[a.pos]:
		return true // - -x, which `--x` would misrepresent
	case r.unary[a.pos], ka == syntax.Pipe && r.lambda[a.pos]:
		return false
	case kb == syntax.RParen, kb == syntax.RBrack, kb == syntax.Comma, kb == syntax.Colon, kb == syntax.Dot, kb == syntax.Question, kb == syntax.Semi:
		return false
	case kb == syntax.Pipe && !r.lambda[b.pos]:
		return false // the bar closing lambda parameters
	case kb == syntax.LParen && !r.paren[b.pos]:
		return false // call, arguments or parameters
	case kb == syntax.LBrack && r.index[b.pos]:
		return false // x[i]
	case ka == syntax.LBrace && kb == syntax.RBrace:
		return false // {}
	}
	return true
}

func (p *printer) write(e element) {
	text := p.f.Src[e.pos:e.end]
	if e.tok < 0 {
		p.out.Write(cleanComment(text))
		return
	}
	p.out.Write(text)
	switch p.kind(e) {
	case syntax.LBrace, syntax.LParen, syntax.LBrack:
		p.stack = append(p.stack, bracket{p.kind(e), p.lineLevel})
	case syntax.RBrace, syntax.RParen, syntax.RBrack:
		if len(p.stack) > 0 {
			p.stack = p.stack[:len(p.stack)-1]
		}
	}
}

// cleanComment removes trailing white space from each line of a comment
// (and so the CR of CRLF line ends); the text is otherwise kept as written.
func cleanComment(text []byte) []byte {
	if !bytes.ContainsAny(text, " \t\r") {
		return text
	}
	lines := bytes.Split(text, []byte{'\n'})
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " \t\r")
	}
	return bytes.Join(lines, []byte{'\n'})
}
