package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompact compares Compact, on a file with its tokens and from
// ParseTree without them, with the compact form read off the tokens, on
// every span from a token's start to another's end or to the next
// token's start (as signatures end before a brace): the shortcut for
// spans that are their own compact form must agree with the tokens.
func TestCompact(t *testing.T) {
	srcs := map[string][]byte{"inline.acore": []byte("page Home {\n  state draft: String = \"a  b\" // note\n  action go(x: Int = 1) {\n    draft = \"\"\n  }\n  view { Text(\"hi\", /* c */ style: \"title\") }\n  view { if a  &&  b { Text(\"x / y\") } }\n}\n")}
	names, err := filepath.Glob("testdata/parse/*.acore")
	if err != nil || len(names) == 0 {
		t.Fatalf("no parse testdata: %v", err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs[name] = b
	}
	fast := 0
	for name, src := range srcs {
		with := Parse(name, src)
		without := ParseTree(name, src)
		toks := with.Tokens
		for i := range toks {
			for j := i; j < len(toks) && j < i+40; j++ {
				ends := []int{int(toks[j].End)}
				if j+1 < len(toks) {
					ends = append(ends, int(toks[j+1].Pos))
				}
				for _, end := range ends {
					pos := int(toks[i].Pos)
					want := with.compactTokens(pos, end)
					if got := with.Compact(pos, end); got != want {
						t.Fatalf("%s: Compact(%d, %d) = %q with tokens, want %q", name, pos, end, got, want)
					}
					if got := without.Compact(pos, end); got != want {
						t.Fatalf("%s: Compact(%d, %d) = %q without tokens, want %q", name, pos, end, got, want)
					}
					if oneLine(src[pos:end]) {
						fast++
					}
				}
			}
		}
	}
	if fast == 0 || !strings.Contains(string(srcs["inline.acore"]), "  ") {
		t.Fatalf("no span took the shortcut (%d)", fast)
	}
}
