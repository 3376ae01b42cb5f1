// Package textdiff computes line diffs: a Myers edit script bounded in
// cost, grouped into unified-diff hunks with context. change.inspect's
// source diffs are its hunks.
package textdiff

import (
	"bytes"
	"strings"
)

// Hunk is a run of changed lines with context.
type Hunk struct {
	OldStart int      `json:"old_start"`
	OldLines int      `json:"old_lines"`
	NewStart int      `json:"new_start"`
	NewLines int      `json:"new_lines"`
	Lines    []string `json:"lines"`
}

// Lines returns the hunks turning a into b, with ctx lines of context.
func Lines(a, b []byte, ctx int) []Hunk {
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	hunks := []Hunk{}
	// Group the edit script into hunks: runs of changes closer than
	// 2*ctx+1 unchanged lines share a hunk.
	type span struct{ i0, i1, j0, j1 int } // a change: x[i0:i1] → y[j0:j1]
	var changes []span
	i, j := 0, 0
	for k := 0; k < len(ops); {
		if ops[k] == ' ' {
			i, j, k = i+1, j+1, k+1
			continue
		}
		s := span{i0: i, j0: j}
		for k < len(ops) && ops[k] != ' ' {
			if ops[k] == '-' {
				i++
			} else {
				j++
			}
			k++
		}
		s.i1, s.j1 = i, j
		changes = append(changes, s)
	}
	for k := 0; k < len(changes); {
		first := k
		for k+1 < len(changes) && changes[k+1].i0-changes[k].i1 <= 2*ctx {
			k++
		}
		last := k
		k++
		start := max(changes[first].i0-ctx, 0)
		end := min(changes[last].i1+ctx, len(x))
		h := Hunk{OldStart: start + 1, NewStart: changes[first].j0 - (changes[first].i0 - start) + 1}
		at := start
		for c := first; c <= last; c++ {
			ch := changes[c]
			for ; at < ch.i0; at++ {
				h.Lines = append(h.Lines, " "+x[at])
			}
			for _, l := range y[ch.j0:ch.j1] {
				h.Lines = append(h.Lines, "+"+l)
			}
			for _, l := range x[ch.i0:ch.i1] {
				h.Lines = append(h.Lines, "-"+l)
			}
			at = ch.i1
		}
		for ; at < end; at++ {
			h.Lines = append(h.Lines, " "+x[at])
		}
		h.OldLines = end - start
		h.NewLines = h.OldLines
		for c := first; c <= last; c++ {
			h.NewLines += (changes[c].j1 - changes[c].j0) - (changes[c].i1 - changes[c].i0)
		}
		if h.OldLines == 0 {
			h.OldStart--
		}
		if h.NewLines == 0 {
			h.NewStart--
		}
		hunks = append(hunks, h)
	}
	return hunks
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := string(b)
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// maxDiffCost bounds the Myers search; past it the differing middle is
// reported as one replacement.
const maxDiffCost = 2000

// diffLines returns an edit script turning x into y: ' ' keeps a line,
// '-' removes one of x, '+' adds one of y. The common prefix and suffix
// are matched first; the middle by Myers' algorithm, bounded by
// maxDiffCost differences.
func diffLines(x, y []string) []byte {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	out := bytes.Repeat([]byte{' '}, pre)
	out = append(out, myers(x[pre:len(x)-suf], y[pre:len(y)-suf])...)
	return append(out, bytes.Repeat([]byte{' '}, suf)...)
}

func myers(x, y []string) []byte {
	n, m := len(x), len(y)
	replace := func() []byte {
		return append(bytes.Repeat([]byte{'-'}, n), bytes.Repeat([]byte{'+'}, m)...)
	}
	if n == 0 || m == 0 {
		return replace()
	}
	maxD := min(n+m, maxDiffCost)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		snap := make([]int, 2*d+1)
		for k := -d; k <= d; k += 2 {
			var xi int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				xi = v[off+k+1]
			} else {
				xi = v[off+k-1] + 1
			}
			yi := xi - k
			for xi < n && yi < m && x[xi] == y[yi] {
				xi, yi = xi+1, yi+1
			}
			v[off+k] = xi
			if xi >= n && yi >= m {
				found = d
			}
		}
		for k := -d; k <= d; k++ {
			snap[k+d] = v[off+k]
		}
		trace = append(trace, snap)
	}
	if found < 0 {
		return replace()
	}
	// Walk back through the trace.
	var rev []byte
	xi, yi := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1]
		get := func(k int) int { return prev[k+d-1] }
		k := xi - yi
		down := k == -d || (k != d && get(k-1) < get(k+1)) // an insertion
		pk := k - 1
		if down {
			pk = k + 1
		}
		px := get(pk)
		py := px - pk
		mx, my := px+1, py // where the move lands
		if down {
			mx, my = px, py+1
		}
		for xi > mx && yi > my {
			rev = append(rev, ' ')
			xi, yi = xi-1, yi-1
		}
		if down {
			rev = append(rev, '+')
		} else {
			rev = append(rev, '-')
		}
		xi, yi = px, py
	}
	for xi > 0 && yi > 0 {
		rev = append(rev, ' ')
		xi, yi = xi-1, yi-1
	}
	out := make([]byte, len(rev))
	for i, c := range rev {
		out[len(rev)-1-i] = c
	}
	return out
}
