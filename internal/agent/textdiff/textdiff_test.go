package textdiff

import (
	"math/rand"
	"strings"
	"testing"
)

// lcs is the length of a longest common subsequence, by dynamic
// programming: the number of ' ' a minimal edit script keeps.
func lcs(x, y []string) int {
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				d[i][j] = d[i+1][j+1] + 1
			} else {
				d[i][j] = max(d[i+1][j], d[i][j+1])
			}
		}
	}
	return d[0][0]
}

func TestDiffLinesIsAMinimalScript(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "c", "d"}
	for n := 0; n < 3000; n++ {
		x := make([]string, r.Intn(12))
		y := make([]string, r.Intn(12))
		for i := range x {
			x[i] = words[r.Intn(len(words))]
		}
		for i := range y {
			y[i] = words[r.Intn(len(words))]
		}
		ops := diffLines(x, y)
		var gotX, gotY []string
		i, j, keep := 0, 0, 0
		for _, op := range ops {
			switch op {
			case ' ':
				if x[i] != y[j] {
					t.Fatalf("%v → %v: script %q keeps unequal lines", x, y, ops)
				}
				gotX, gotY = append(gotX, x[i]), append(gotY, y[j])
				i, j, keep = i+1, j+1, keep+1
			case '-':
				gotX = append(gotX, x[i])
				i++
			case '+':
				gotY = append(gotY, y[j])
				j++
			}
		}
		if strings.Join(gotX, ",") != strings.Join(x, ",") || strings.Join(gotY, ",") != strings.Join(y, ",") {
			t.Fatalf("%v → %v: script %q", x, y, ops)
		}
		if keep != lcs(x, y) {
			t.Fatalf("%v → %v: script %q keeps %d lines, %d can be kept", x, y, ops, keep, lcs(x, y))
		}
	}
}

func TestLineDiffHunks(t *testing.T) {
	var a []string
	for i := 1; i <= 30; i++ {
		a = append(a, "line "+string(rune('A'+i%26)))
	}
	b := append([]string(nil), a...)
	b[4] = "changed 5"
	b = append(b[:20], append([]string{"inserted"}, b[20:]...)...)
	hunks := Lines([]byte(strings.Join(a, "\n")+"\n"), []byte(strings.Join(b, "\n")+"\n"), 3)
	if len(hunks) != 2 {
		t.Fatalf("%d hunks: %+v", len(hunks), hunks)
	}
	h := hunks[0]
	if h.OldStart != 2 || h.OldLines != 7 || h.NewStart != 2 || h.NewLines != 7 || h.Lines[3] != "+changed 5" || h.Lines[4] != "-"+a[4] {
		t.Errorf("first hunk %+v", h)
	}
	h = hunks[1]
	if h.OldStart != 18 || h.OldLines != 6 || h.NewStart != 18 || h.NewLines != 7 || h.Lines[3] != "+inserted" {
		t.Errorf("second hunk %+v", h)
	}
	// A new file, and a removed one.
	if h := Lines(nil, []byte("x\ny\n"), 3); len(h) != 1 || h[0].OldStart != 0 || h[0].NewStart != 1 || h[0].NewLines != 2 {
		t.Errorf("added: %+v", h)
	}
	if h := Lines([]byte("x\n"), nil, 3); len(h) != 1 || h[0].OldLines != 1 || h[0].NewStart != 0 {
		t.Errorf("removed: %+v", h)
	}
	if h := Lines([]byte("same\n"), []byte("same\n"), 3); len(h) != 0 {
		t.Errorf("no change: %+v", h)
	}
}
