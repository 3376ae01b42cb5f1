// Package suggest finds the name a misspelled one most likely meant, for
// "did you mean" hints in diagnostics and findings.
package suggest

import "strings"

// Closest returns the candidate nearest to name by case-insensitive edit
// distance, if it is at most 2 and at most half of name's length (so that
// short names are not "corrected" into unrelated ones); ties go to the
// candidate that sorts first. It returns "" when none is close enough.
func Closest(name string, candidates []string) string {
	best, bestD := "", 3
	low := strings.ToLower(name)
	for _, c := range candidates {
		if d := Distance(low, strings.ToLower(c)); d < bestD || d == bestD && best != "" && c < best {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > len(name)/2 {
		return ""
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
