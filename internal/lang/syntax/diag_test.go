package syntax

import (
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/diag"
)

// TestSyntaxCodes proves that every syntax diagnostic code is produced by
// some input, and by the input one would expect.
func TestSyntaxCodes(t *testing.T) {
	cases := []struct {
		code string
		src  string
	}{
		{diag.UnexpectedToken, "page P {\n  state = 1\n}\n"},
		{diag.UnterminatedString, "page P {\n  state s: String = \"abc\n}\n"},
		{diag.UnterminatedString, "page P {\n  state s: String = \"abc"},
		{diag.UnterminatedComment, "page P {}\n/* never closed"},
		{diag.IllegalChar, "page P {\n  state s: Int = #\n}\n"},
		{diag.IllegalChar, "page P\xff {}\n"},
		{diag.BadEscape, "page P {\n  state s: String = \"\\q\"\n}\n"},
		{diag.BadEscape, "page P {\n  state s: String = \"\\u{D800}\"\n}\n"},
		{diag.BadEscape, "page P {\n  state s: String = \"\\u{110000}\"\n}\n"},
		{diag.BadNumber, "page P {\n  state s: Int = 12ab\n}\n"},
		{diag.Unclosed, "page P {\n  view {\n    Text(\"a\"\n  }\n}\n"},
		{diag.Unclosed, "page P {\n  view {}\n"},
		{diag.Misplaced, "page P {}\nuse model M from \"m\"\n"},
		{diag.Misplaced, "@a(x: 1)\ncontract C {}\n"},
		{diag.StatementSeparator, "page P {\n  action a() {\n    x = 1 y = 2\n  }\n}\n"},
		{diag.StatementSeparator, "model M {\n  a: Int b: Int\n}\n"},
		{diag.TooManySyntaxErrors, "page P {\n" + strings.Repeat("  state x\n", 60) + "}\n"},
		{diag.TooManySyntaxErrors, strings.Repeat("# ", 1000)},
		{diag.NestingLimit, strings.Repeat("(", NestingMax+1)},
		{diag.NestingLimit, "page P {\n  state s: Bool = " + strings.Repeat("!", 2*maxRecursion) + "x\n}\n"},
		{diag.NestingLimit, "page P {\n  state s: Fn = " + strings.Repeat("|| ", 2*maxRecursion) + "x\n}\n"},
		{diag.BracketLimit, strings.Repeat("()", BracketsMax) + "{}"},
		{diag.BracketsTotalLimit, strings.Repeat(")", BracketsTotalMax+1)},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		f := Parse("t.acore", []byte(c.src))
		found := false
		for _, e := range f.Errors {
			if e.Code == c.code {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: not produced by %.60q; got %v", c.code, c.src, f.Errors)
		}
		seen[c.code] = true
	}
	for _, info := range diag.All() {
		if info.Code >= "AC101" && info.Code <= "AC152" && !seen[info.Code] {
			t.Errorf("syntax code %s (%s) has no test case", info.Code, info.Title)
		}
	}
}

// TestBracketBounds checks that the bracket bounds stop the parse early,
// with the limit code only, quickly and without a panic.
func TestBracketBounds(t *testing.T) {
	cases := []struct {
		name, src, code string
	}{
		{"nesting 256", "page P {\n  state s: Int = " + strings.Repeat("(", NestingMax-1) + "1" + strings.Repeat(")", NestingMax-1) + "\n}\n", ""},
		{"nesting 257 parens", strings.Repeat("(", NestingMax+1) + strings.Repeat(")", NestingMax+1), diag.NestingLimit},
		{"nesting 257 mixed", "page P {" + strings.Repeat("{[(", (NestingMax+1)/3+1), diag.NestingLimit},
		{"opening 8192", strings.Repeat("()", BracketsMax), ""},
		{"opening 8193", strings.Repeat("()", BracketsMax) + "(", diag.BracketLimit},
		{"opening unbalanced", strings.Repeat("(\n)", BracketsMax+1), diag.BracketLimit},
		{"total 16384", strings.Repeat(")", BracketsTotalMax), ""},
		{"total 16385 closers", strings.Repeat(")", BracketsTotalMax+1), diag.BracketsTotalLimit},
		{"total mixed", strings.Repeat("}", BracketsTotalMax) + "(", diag.BracketsTotalLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			f := Parse("t.acore", []byte(c.src))
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("Parse took %v", d)
			}
			if f.Limit != c.code {
				t.Fatalf("Limit = %q, want %q", f.Limit, c.code)
			}
			if c.code == "" {
				for _, e := range f.Errors {
					if e.Code == diag.NestingLimit || e.Code == diag.BracketLimit || e.Code == diag.BracketsTotalLimit {
						t.Errorf("unexpected limit error %v", e)
					}
				}
				return
			}
			if len(f.Errors) != 1 || f.Errors[0].Code != c.code {
				t.Errorf("Errors = %v, want the one %s", f.Errors, c.code)
			}
			if f.Module != nil || len(f.Uses) != 0 || len(f.Decls) != 0 {
				t.Errorf("tree is not empty after a bound stopped the parse")
			}
			if string(Print(f)) != c.src {
				t.Errorf("Print does not reproduce the source")
			}
		})
	}
}

// TestRecursionBound checks inputs that recurse without brackets: the
// parser's own depth bound must hold them.
func TestRecursionBound(t *testing.T) {
	for _, src := range []string{
		"page P {\n  state s: Int = " + strings.Repeat("-", 100000) + "1\n}\n",
		"page P {\n  state s: Fn = " + strings.Repeat("|a| ", 50000) + "a\n}\n",
		"page P {\n  action a() {\n    " + strings.Repeat("if x {} else ", 20000) + "{}\n  }\n}\n",
		"page P {\n  view {\n    " + strings.Repeat("if x {} else ", 20000) + "{}\n  }\n}\n",
		"page P {\n  state s: Int = " + strings.Repeat("a + ", 100000) + "1\n}\n",
	} {
		start := time.Now()
		f := Parse("t.acore", []byte(src))
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Parse took %v", d)
		}
		if string(Print(f)) != src {
			t.Errorf("Print does not reproduce the source")
		}
	}
}

// TestErrorCap: lexical and syntax errors together stop at maxErrors, then
// one AC110.
func TestErrorCap(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("#", 100000),
		strings.Repeat("\xff", 100000),
		"page P {\n" + strings.Repeat("  state x # Int\n", 1000) + "}\n",
	} {
		f := Parse("t.acore", []byte(src))
		if len(f.Errors) != maxErrors+1 || f.Errors[maxErrors].Code != diag.TooManySyntaxErrors {
			t.Errorf("%d errors for %.20q, want %d ending with %s", len(f.Errors), src, maxErrors+1, diag.TooManySyntaxErrors)
		}
	}
}
