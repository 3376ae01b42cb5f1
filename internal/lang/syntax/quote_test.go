package syntax

import (
	"testing"
	"testing/quick"
	"unicode/utf8"
)

// TestQuoteRoundTrip: for any valid UTF-8 string, Quote yields one string
// token that lexes without errors and unquotes back to the string.
func TestQuoteRoundTrip(t *testing.T) {
	check := func(s string) bool {
		if !utf8.ValidString(s) {
			return true
		}
		q := Quote(s)
		var errs []string
		toks, comments := lex([]byte(q), nil, func(pos, end int, code, msg string) { errs = append(errs, code+" "+msg) })
		if len(errs) > 0 || len(comments) > 0 || len(toks) != 2 || toks[0].Kind != String || int(toks[0].End) != len(q) {
			t.Logf("Quote(%q) = %s does not lex as one string: %v", s, q, errs)
			return false
		}
		if got := Unquote([]byte(q)); got != s {
			t.Logf("Unquote(Quote(%q)) = %q", s, got)
			return false
		}
		return true
	}
	for _, s := range []string{"", "a", "\"", "\\", "\n\t\r\x00", "\x01\x1f\x7f", "é😀", "\\u{41}", "a\"b\\c", "\u2028", "\U0010FFFF"} {
		if !check(s) {
			t.Errorf("round trip fails for %q", s)
		}
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 5000}); err != nil {
		t.Error(err)
	}
}

// TestUnquote covers the escapes of string literals, and invalid escapes,
// which Unquote keeps as written.
func TestUnquote(t *testing.T) {
	cases := []struct{ lit, want string }{
		{`"plain"`, "plain"},
		{`"\n\t\r\0\"\\"`, "\n\t\r\x00\"\\"},
		{`"\u{41}\u{e9}\u{1F600}"`, "Aé😀"},
		{`"\u{10FFFF}"`, "\U0010FFFF"},
		{`"\q"`, `\q`},
		{`"\u{}"`, `\u{}`},
		{`"\u{D800}"`, `\u{D800}`},
		{`"\u{110000}"`, `\u{110000}`},
		{`"\u{1234567}"`, `\u{1234567}`},
		{`"\u41"`, `\u41`},
		{`"unterminated`, "unterminated"},
		{`"trailing\`, `trailing\`},
	}
	for _, c := range cases {
		if got := Unquote([]byte(c.lit)); got != c.want {
			t.Errorf("Unquote(%s) = %q, want %q", c.lit, got, c.want)
		}
	}
}

// TestUnquoteQuote: a literal that lexes cleanly keeps its value through
// Unquote and Quote.
func TestUnquoteQuote(t *testing.T) {
	check := func(body string) bool {
		lit := "\"" + body + "\""
		bad := false
		toks, _ := lex([]byte(lit), nil, func(int, int, string, string) { bad = true })
		if bad || len(toks) != 2 || int(toks[0].End) != len(lit) || !utf8.ValidString(body) {
			return true // not a clean literal
		}
		v := Unquote([]byte(lit))
		return Unquote([]byte(Quote(v))) == v
	}
	for _, s := range []string{`\u{1F600}`, `a\nb`, `\\\"`, `\0`} {
		if !check(s) {
			t.Errorf("fails for %s", s)
		}
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 5000}); err != nil {
		t.Error(err)
	}
}

// TestStringValues: a string literal's value read between its quotes,
// when it has no escapes, is the one Unquote gives, for literals with and
// without escapes, empty, unterminated and of several-byte characters.
func TestStringValues(t *testing.T) {
	p := &parser{f: &File{}}
	p.sl = &p.head
	for _, lit := range []string{`""`, `"a"`, `"Add task"`, `"é😀"`, `"a\"b"`, `"a\\b"`, `"tab\t"`, `"\u{1F600}"`, `"unterminated`, `"`, `"x\"`, `"a b c d e f g h"`} {
		p.f.Src = []byte(lit)
		if got, want := p.newString(Token{Kind: String, Pos: 0, End: int32(len(lit))}).Value, Unquote([]byte(lit)); got != want {
			t.Errorf("value of %s is %q, want %q", lit, got, want)
		}
	}
}
