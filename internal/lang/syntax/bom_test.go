package syntax

import "testing"

// TestLeadingBOM: a file saved with a UTF-8 byte order mark parses as the
// same file without it (issue 15: the mark put the project in the syntax
// state); a mark anywhere else is still an illegal character.
func TestLeadingBOM(t *testing.T) {
	for _, c := range []struct {
		src  string
		errs int
	}{
		{"\uFEFFpage P {}\n", 0},
		{"\uFEFF", 0},
		{"page P {}\n\uFEFF", 2}, // illegal character, then no declaration
	} {
		f := Parse("main.acore", []byte(c.src))
		if len(f.Errors) != c.errs {
			t.Errorf("%q: %d diagnostics %v, want %d", c.src, len(f.Errors), f.Errors, c.errs)
		}
	}
}
