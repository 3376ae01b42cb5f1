package edit

import (
	"bytes"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// splice replaces [pos, end) of a file with text.
type splice struct {
	pos, end int
	text     string
}

func (s splice) apply(src []byte) []byte {
	out := make([]byte, 0, len(src)-(s.end-s.pos)+len(s.text))
	out = append(out, src[:s.pos]...)
	out = append(out, s.text...)
	return append(out, src[s.end:]...)
}

func (s splice) delta() int { return len(s.text) - (s.end - s.pos) }

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// lineStart returns the offset of the first byte of off's line.
func lineStartAt(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineEnd returns the offset of the line feed ending off's line, or
// len(src).
func lineEndAt(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(src)
}

func blankRun(b []byte) bool {
	for _, c := range b {
		if !isBlank(c) {
			return false
		}
	}
	return true
}

// alone reports whether [pos, end) has only blanks before it and after it
// on its lines.
func alone(src []byte, pos, end int) bool {
	return blankRun(src[lineStartAt(src, pos):pos]) && blankRun(src[end:lineEndAt(src, end)])
}

// indentAt returns the leading blanks of off's line.
func indentAt(src []byte, off int) string {
	ls := lineStartAt(src, off)
	i := ls
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[ls:i])
}

// reindent prefixes every line of text after the first that is not blank
// with indent.
func reindent(text, indent string) string {
	if indent == "" || !strings.Contains(text, "\n") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			lines[i] = indent + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// removal deletes [pos, end) cleanly: its whole lines when nothing else is
// on them (and one of two blank lines it leaves around), otherwise the
// span and the blanks that separate it from its neighbours on the line.
func removal(src []byte, pos, end int) splice {
	if alone(src, pos, end) {
		ls, le := lineStartAt(src, pos), lineEndAt(src, end)
		if le == len(src) {
			// The last line: take the line feed before it instead.
			if ls > 0 {
				ls--
			}
			return splice{pos: ls, end: le}
		}
		le++ // the line feed
		// A blank line before and after: keep one of them.
		if ls > 0 && le < len(src) {
			prev := lineStartAt(src, ls-1)
			next := lineEndAt(src, le)
			if blankRun(src[prev:ls-1]) && blankRun(src[le:next]) && next < len(src) {
				le = next + 1
			}
		}
		return splice{pos: ls, end: le}
	}
	j := end
	for j < len(src) && isBlank(src[j]) {
		j++
	}
	if j < len(src) && src[j] != '\n' {
		return splice{pos: pos, end: j}
	}
	i := pos
	for i > 0 && isBlank(src[i-1]) {
		i--
	}
	return splice{pos: i, end: j}
}

// insertion places text before or after the item [pos, end): on its own
// line with the item's indentation when the item is alone on its lines,
// otherwise on the item's line separated by sep. It returns the splice and
// the offset of text's first byte in the new source.
func insertion(src []byte, pos, end int, after bool, text, sep string) (splice, int) {
	indent := indentAt(src, pos)
	body := reindent(text, indent)
	if alone(src, pos, end) {
		if !after {
			ls := lineStartAt(src, pos)
			return splice{pos: ls, end: ls, text: indent + body + "\n"}, ls + len(indent)
		}
		le := lineEndAt(src, end)
		if le == len(src) {
			return splice{pos: le, end: le, text: "\n" + indent + body}, le + 1 + len(indent)
		}
		return splice{pos: le + 1, end: le + 1, text: indent + body + "\n"}, le + 1 + len(indent)
	}
	if !after {
		return splice{pos: pos, end: pos, text: body + sep}, pos
	}
	return splice{pos: end, end: end, text: sep + body}, end + len(sep)
}

// declsIn names the top-level declarations and use lines of f that
// [pos, end) touches (for an empty range: that contain pos), as diag.Decl
// spells them.
func declsIn(f *syntax.File, pos, end int) []string {
	var out []string
	hit := func(s syntax.Span) bool {
		p, e := int(s.Pos), int(s.End)
		if end > pos {
			return p < end && pos < e
		}
		return p <= pos && pos < e
	}
	for _, u := range f.Uses {
		if hit(u.Span) && u.Name != nil {
			out = append(out, "use "+u.Name.Name)
		}
	}
	for _, d := range f.Decls {
		if !hit(d.Bounds()) {
			continue
		}
		switch d := d.(type) {
		case *syntax.OwnerDecl:
			out = append(out, d.Kind.String()+" "+identName(d.Name))
		case *syntax.AppDecl:
			out = append(out, "app "+identName(d.Name))
		case *syntax.ModelDecl:
			out = append(out, "model "+identName(d.Name))
		case *syntax.ExternDecl:
			out = append(out, "extern "+identName(d.Name))
		case *syntax.ContractDecl:
			out = append(out, "contract "+identName(d.Name))
		}
	}
	return out
}

func identName(id *syntax.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}

// ownersIn returns the page and component ids of f that [pos, end)
// touches.
func ownersIn(f *syntax.File, pos, end int) []string {
	var out []string
	for _, d := range f.Decls {
		od, ok := d.(*syntax.OwnerDecl)
		if !ok || od.Name == nil {
			continue
		}
		p, e := int(od.Pos), int(od.End)
		if end > pos && p < end && pos < e || end <= pos && p <= pos && pos < e {
			out = append(out, od.Kind.String()+":"+od.Name.Name)
		}
	}
	return out
}

// parseMember parses text as one member of a page: it returns the member
// when text is exactly one state, let, query, mutation or action
// declaration without errors.
func parseMember(text string) (syntax.Member, []syntax.Error) {
	src := "page EditFragment {\n" + text + "\n}\n"
	f := syntax.Parse("fragment.acore", []byte(src))
	if len(f.Errors) > 0 {
		return nil, shiftErrors(f.Errors, len("page EditFragment {\n"))
	}
	if len(f.Decls) != 1 {
		return nil, nil
	}
	od, ok := f.Decls[0].(*syntax.OwnerDecl)
	if !ok || len(od.Members) != 1 {
		return nil, nil
	}
	switch od.Members[0].(type) {
	case *syntax.StateDecl, *syntax.LetDecl, *syntax.DataDecl, *syntax.ActionDecl:
		return od.Members[0], nil
	}
	return nil, nil
}

// parseItem parses text as one view item: an element or a conditional.
func parseItem(text string) (syntax.ViewItem, []syntax.Error) {
	pre := "page EditFragment {\n  view {\n"
	src := pre + text + "\n  }\n}\n"
	f := syntax.Parse("fragment.acore", []byte(src))
	if len(f.Errors) > 0 {
		return nil, shiftErrors(f.Errors, len(pre))
	}
	if len(f.Decls) != 1 {
		return nil, nil
	}
	od, ok := f.Decls[0].(*syntax.OwnerDecl)
	if !ok || len(od.Members) != 1 {
		return nil, nil
	}
	v, ok := od.Members[0].(*syntax.ViewDecl)
	if !ok || len(v.Items) != 1 {
		return nil, nil
	}
	switch v.Items[0].(type) {
	case *syntax.Element, *syntax.IfView:
		return v.Items[0], nil
	}
	return nil, nil
}

func shiftErrors(errs []syntax.Error, by int) []syntax.Error {
	out := make([]syntax.Error, len(errs))
	for i, e := range errs {
		e.Pos -= int32(by)
		e.End -= int32(by)
		out[i] = e
	}
	return out
}

func memberKindName(m syntax.Member) (string, string) {
	switch m := m.(type) {
	case *syntax.StateDecl:
		return "state", identName(m.Name)
	case *syntax.LetDecl:
		return "let", identName(m.Name)
	case *syntax.DataDecl:
		return m.Kind.String(), identName(m.Name)
	case *syntax.ActionDecl:
		return "action", identName(m.Name)
	}
	return "", ""
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// literal returns the Acore literal of v for a property of type typ, and
// the value node.get will show for it. ok is false when the value does
// not fit the type.
func literal(v Value, typ string) (text string, val any, ok bool) {
	optional := strings.HasSuffix(typ, "?")
	base := strings.TrimSuffix(typ, "?")
	switch v.Kind {
	case ValueNull:
		if optional || typ == "" {
			return "null", nil, true
		}
	case ValueString:
		if base == "String" || typ == "" {
			return syntax.Quote(v.Text), v.Text, true
		}
	case ValueBool:
		if base == "Bool" || typ == "" {
			return strconv.FormatBool(v.Bool), v.Bool, true
		}
	case ValueNumber:
		s := v.Text
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return "", nil, false
		}
		if base == "Int" || typ == "" && r.IsInt() {
			if !r.IsInt() || !r.Num().IsInt64() {
				return "", nil, false
			}
			n := r.Num().Int64()
			return strconv.FormatInt(n, 10), n, true
		}
		if base == "Float" || typ == "" {
			if !strings.ContainsAny(s, ".eE") {
				n, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					return "", nil, false
				}
				return s, n, true
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsInf(f, 0) {
				return "", nil, false
			}
			return s, f, true
		}
	}
	return "", nil, false
}

// sameValue reports whether cur, a node's value (a string, an int64 or a
// float64, a bool or nil), is v. Numbers are equal by value: 2 is 2.0.
func sameValue(cur any, v Value) bool {
	switch c := cur.(type) {
	case nil:
		return v.Kind == ValueNull
	case string:
		return v.Kind == ValueString && c == v.Text
	case bool:
		return v.Kind == ValueBool && c == v.Bool
	}
	if v.Kind != ValueNumber {
		return false
	}
	want, ok := new(big.Rat).SetString(v.Text)
	if !ok {
		return false
	}
	var got *big.Rat
	switch c := cur.(type) {
	case int64:
		got = new(big.Rat).SetInt64(c)
	case int:
		got = new(big.Rat).SetInt64(int64(c))
	case float64:
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return false
		}
		// The shortest decimal that reads back as c, as node.get shows
		// it, not c's exact binary value: 0.1 is 0.1.
		got, _ = new(big.Rat).SetString(strconv.FormatFloat(c, 'g', -1, 64))
	default:
		return false
	}
	return got.Cmp(want) == 0
}

// show is v as the request wrote it, for messages.
func (v Value) show() string {
	switch v.Kind {
	case ValueBool:
		return strconv.FormatBool(v.Bool)
	case ValueNumber, ValueOther:
		return v.Text
	case ValueString:
		return quote(v.Text)
	}
	return "null"
}

// showValue is a node's value as node.get shows it, for messages.
func showValue(cur any) string {
	switch c := cur.(type) {
	case nil:
		return "null"
	case string:
		return quote(c)
	case bool:
		return strconv.FormatBool(c)
	case int64:
		return strconv.FormatInt(c, 10)
	case int:
		return strconv.Itoa(c)
	case float64:
		return floatText(c)
	}
	return "?"
}

// floatText writes f as node.get does: the shortest decimal, in exponent
// form below 1e-6 and from 1e21 on.
func floatText(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "?"
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, 64)
	if format == 'e' {
		// e-07 is e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b)
}

// quote writes s as a quoted string the way node.get shows strings:
// quotes, backslashes and control characters escaped, U+2028 and U+2029
// too, invalid UTF-8 as U+FFFD, everything else as it is.
func quote(s string) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			b.WriteString(`\u202`)
			b.WriteByte(hex[r&0xf])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
