package syntax

import (
	"github.com/axiomcore/acore/internal/lang/diag"
	"unicode"
	"unicode/utf8"
)

// Bounds on one file's brackets, from the service bounds of the protocol.
// brackets_max counts opening brackets; brackets_total_max counts every
// bracket token, so unbalanced closers are bounded too.
const (
	NestingMax       = 256
	BracketsMax      = 8192
	BracketsTotalMax = 16384
)

// lex splits src into tokens and comments. Lexical errors become Illegal
// tokens (or a String token flagged unterminated) and are reported through
// errf; lexing never stops early, so every byte is covered.
func lex(src []byte, buf []Token, errf func(pos, end int, code, msg string)) (toks []Token, comments []Comment) {
	// About one token per four bytes of source; buf is reused when it has
	// room for that.
	toks = buf[:0]
	if cap(toks) < len(src)/4+1 {
		toks = make([]Token, 0, len(src)/4+1)
	}
	i := 0
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		// A leading UTF-8 byte order mark, as some editors save, is the
		// encoding's mark, not source: skipped like white space.
		i = 3
	}
	nl := false
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			// Runs of indentation are the most common bytes of a file.
			for ; i < len(src); i++ {
				switch src[i] {
				case ' ', '\t', '\r':
					continue
				case '\n':
					nl = true
					continue
				}
				break
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			start := i
			for i < len(src) && src[i] != '\n' {
				i++
			}
			comments = append(comments, Comment{int32(start), int32(i)})
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			start := i
			i += 2
			closed := false
			for i+1 < len(src) {
				if src[i] == '*' && src[i+1] == '/' {
					i += 2
					closed = true
					break
				}
				if src[i] == '\n' {
					nl = true
				}
				i++
			}
			if !closed {
				for i < len(src) {
					if src[i] == '\n' {
						nl = true
					}
					i++
				}
				errf(start, start+2, diag.UnterminatedComment, "block comment is not terminated")
			}
			comments = append(comments, Comment{int32(start), int32(i)})
			continue
		}
		t := Token{Pos: int32(i), NewlineBefore: nl}
		nl = false
		switch {
		case isIdentStart(c):
			i++
			for i < len(src) && isIdentPart(src[i]) {
				i++
			}
			t.Kind = Name
		case c >= '0' && c <= '9':
			t.Kind, i = lexNumber(src, i, errf)
		case c == '"':
			i = lexString(src, i, errf)
			t.Kind = String
		default:
			t.Kind, i = lexPunct(src, i)
			if t.Kind == Illegal {
				r, size := utf8.DecodeRune(src[i:])
				if r == utf8.RuneError && size <= 1 {
					errf(i, i+1, diag.IllegalChar, "invalid UTF-8 byte")
					size = 1
				} else if unicode.IsLetter(r) {
					errf(i, i+size, diag.IllegalChar, "identifiers are ASCII letters, digits and _; "+string(r)+" is not allowed outside strings and comments")
				} else {
					errf(i, i+size, diag.IllegalChar, "unexpected character "+quoteRune(r))
				}
				i += size
			}
		}
		t.End = int32(i)
		toks = append(toks, t)
	}
	toks = append(toks, Token{Kind: EOF, Pos: int32(len(src)), End: int32(len(src)), NewlineBefore: true})
	return toks, comments
}

func quoteRune(r rune) string {
	if r < 0x20 || r == 0x7f {
		const hex = "0123456789abcdef"
		return "U+00" + string(hex[r>>4]) + string(hex[r&15])
	}
	return "'" + string(r) + "'"
}

func isIdentStart(c byte) bool { return identByte[c] == 1 }

func isIdentPart(c byte) bool { return identByte[c] != 0 }

// identByte is 1 for the bytes that start an identifier (ASCII letters
// and _) and 2 for the digits that may follow.
var identByte = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			t[c] = 1
		case c >= '0' && c <= '9':
			t[c] = 2
		}
	}
	return t
}()

func lexNumber(src []byte, i int, errf func(pos, end int, code, msg string)) (Kind, int) {
	start := i
	for i < len(src) && (src[i] >= '0' && src[i] <= '9' || src[i] == '_') {
		i++
	}
	kind := Int
	if i+1 < len(src) && src[i] == '.' && src[i+1] >= '0' && src[i+1] <= '9' {
		kind = Float
		i++
		for i < len(src) && (src[i] >= '0' && src[i] <= '9' || src[i] == '_') {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && src[j] >= '0' && src[j] <= '9' {
			kind = Float
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			i = j
		}
	}
	if i < len(src) && isIdentStart(src[i]) {
		for i < len(src) && isIdentPart(src[i]) {
			i++
		}
		errf(start, i, diag.BadNumber, "malformed number "+string(src[start:i]))
	}
	return kind, i
}

// lexString scans a double-quoted string. Strings do not span lines: an
// unterminated string ends at the line break so that one missing quote does
// not swallow the rest of the file.
func lexString(src []byte, i int, errf func(pos, end int, code, msg string)) int {
	start := i
	i++
	for i < len(src) {
		switch src[i] {
		case '"':
			return i + 1
		case '\\':
			if i+1 >= len(src) || src[i+1] == '\n' {
				i++
				continue
			}
			switch src[i+1] {
			case '"', '\\', 'n', 't', 'r', '0':
			case 'u':
				j := i + 2
				if j < len(src) && src[j] == '{' {
					k := j + 1
					for k < len(src) && isHex(src[k]) && k-j <= 6 {
						k++
					}
					if k < len(src) && src[k] == '}' && k > j+1 && validScalar(src[j+1:k]) {
						i = k + 1
						continue
					}
				}
				errf(i, i+2, diag.BadEscape, `invalid unicode escape; write \u{XXXX}`)
			default:
				r, size := utf8.DecodeRune(src[i+1:])
				errf(i, i+1+size, diag.BadEscape, "unknown escape \\"+string(r)+`; use \", \\, \n, \t, \r, \0 or \u{XXXX}`)
				i += 1 + size
				continue
			}
			i += 2
			continue
		case '\n':
			errf(start, i, diag.UnterminatedString, "string is not terminated before the end of the line")
			return i
		}
		i++
	}
	errf(start, i, diag.UnterminatedString, "string is not terminated before the end of the file")
	return i
}

// validScalar reports whether hex digits name a Unicode scalar value: not
// a surrogate and at most U+10FFFF, so that \u{...} always decodes to the
// rune written.
func validScalar(hex []byte) bool {
	var r rune
	for _, c := range hex {
		r = r*16 + rune(hexVal(c))
	}
	return r <= 0x10FFFF && (r < 0xD800 || r > 0xDFFF)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func lexPunct(src []byte, i int) (Kind, int) {
	c := src[i]
	next := byte(0)
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch c {
	case '{':
		return LBrace, i + 1
	case '}':
		return RBrace, i + 1
	case '(':
		return LParen, i + 1
	case ')':
		return RParen, i + 1
	case '[':
		return LBrack, i + 1
	case ']':
		return RBrack, i + 1
	case ',':
		return Comma, i + 1
	case ':':
		return Colon, i + 1
	case '.':
		return Dot, i + 1
	case '=':
		switch next {
		case '>':
			return Arrow, i + 2
		case '=':
			return Eq, i + 2
		}
		return Assign, i + 1
	case '|':
		if next == '|' {
			return OrOr, i + 2
		}
		return Pipe, i + 1
	case '&':
		if next == '&' {
			return AndAnd, i + 2
		}
	case '!':
		if next == '=' {
			return NotEq, i + 2
		}
		return Not, i + 1
	case '<':
		if next == '=' {
			return LessEq, i + 2
		}
		return Less, i + 1
	case '>':
		if next == '=' {
			return GreatEq, i + 2
		}
		return Greater, i + 1
	case '+':
		return Plus, i + 1
	case '-':
		return Minus, i + 1
	case '*':
		return Star, i + 1
	case '/':
		return Slash, i + 1
	case '%':
		return Percent, i + 1
	case '?':
		if next == '?' {
			return Coalesce, i + 2
		}
		return Question, i + 1
	case '@':
		return At, i + 1
	case ';':
		return Semi, i + 1
	}
	return Illegal, i
}

// Unquote returns the value of a string literal's source text (with its
// quotes). Invalid escapes are kept as written; the lexer reported them.
func Unquote(lit []byte) string {
	if len(lit) >= 1 && lit[0] == '"' {
		lit = lit[1:]
	}
	if len(lit) >= 1 && lit[len(lit)-1] == '"' {
		lit = lit[:len(lit)-1]
	}
	simple := true
	for _, c := range lit {
		if c == '\\' {
			simple = false
			break
		}
	}
	if simple {
		return string(lit)
	}
	out := make([]byte, 0, len(lit))
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c != '\\' || i+1 >= len(lit) {
			out = append(out, c)
			continue
		}
		i++
		switch lit[i] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case '0':
			out = append(out, 0)
		case '"', '\\':
			out = append(out, lit[i])
		case 'u':
			j := i + 1
			if j < len(lit) && lit[j] == '{' {
				k := j + 1
				for k < len(lit) && isHex(lit[k]) && k-j <= 6 {
					k++
				}
				if k < len(lit) && lit[k] == '}' && k > j+1 && validScalar(lit[j+1:k]) {
					var r rune
					for _, c := range lit[j+1 : k] {
						r = r*16 + rune(hexVal(c))
					}
					out = utf8.AppendRune(out, r)
					i = k
					continue
				}
			}
			out = append(out, '\\', 'u')
		default:
			out = append(out, '\\', lit[i])
		}
	}
	return string(out)
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// Quote returns the Acore string literal for s.
func Quote(s string) string {
	out := make([]byte, 0, len(s)+2)
	out = append(out, '"')
	for _, r := range s {
		switch r {
		case '"':
			out = append(out, '\\', '"')
		case '\\':
			out = append(out, '\\', '\\')
		case '\n':
			out = append(out, '\\', 'n')
		case '\t':
			out = append(out, '\\', 't')
		case '\r':
			out = append(out, '\\', 'r')
		case 0:
			out = append(out, '\\', '0')
		default:
			if r < 0x20 || r == 0x7f {
				const hex = "0123456789abcdef"
				out = append(out, '\\', 'u', '{', hex[r>>4], hex[r&15], '}')
				continue
			}
			out = utf8.AppendRune(out, r)
		}
	}
	return string(append(out, '"'))
}

func decodeRune(b []byte) (rune, int) {
	r, size := utf8.DecodeRune(b)
	if size == 0 {
		size = 1
	}
	return r, size
}
