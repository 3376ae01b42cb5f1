package syntax

import "testing"

// TestCompactWithoutTokens compares Compact on a file with its tokens and
// from ParseTree, without them, on every span between two token bounds.
func TestCompactWithoutTokens(t *testing.T) {
	src := []byte("page Home {\n  state draft: String = \"a  b\" // note\n  action go(x: Int = 1) {\n    draft = \"\"\n  }\n  view { Text(\"hi\", /* c */ style: \"title\") }\n}\n")
	with := Parse("main.acore", src)
	without := ParseTree("main.acore", src)
	toks := with.Tokens
	for i := range toks {
		for j := i; j < len(toks); j++ {
			pos, end := int(toks[i].Pos), int(toks[j].End)
			if got, want := without.Compact(pos, end), with.Compact(pos, end); got != want {
				t.Fatalf("Compact(%d, %d) = %q without tokens, %q with", pos, end, got, want)
			}
		}
	}
}
