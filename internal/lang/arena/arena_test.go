package arena

import (
	"strings"
	"testing"
)

// TestStrings: strings made from one arena, across blocks and past the
// size a block takes, keep their text while more are made and the bytes
// they were made from change.
func TestStrings(t *testing.T) {
	var a Strings
	type made struct{ got, want string }
	var all []made
	for i := range 5000 {
		n := i % 37
		if i%1000 == 999 {
			n = blockSize/8 + 1
		}
		want := strings.Repeat(string(rune('a'+i%26)), n)
		all = append(all, made{a.Concat(want[:n/2], "", want[n/2:]), want})
		b := []byte(want)
		all = append(all, made{a.Bytes(b), want})
		for j := range b {
			b[j] = 'X' // the bytes change; the string made of them does not
		}
	}
	for i, m := range all {
		if m.got != m.want {
			t.Fatalf("string %d is %q, want %q", i, m.got, m.want)
		}
	}
	if a.Concat() != "" || a.Bytes(nil) != "" {
		t.Error("empty input, non-empty string")
	}
}

// TestSlices: slices cut from shared blocks keep their items while more
// are cut, an append to one never writes into the next, and an empty cut
// is not nil.
func TestSlices(t *testing.T) {
	var a Slices[int]
	var all [][]int
	for i := range 2000 {
		n := i % 7
		if i%500 == 499 {
			n = sliceBlock/8 + 1
		}
		items := make([]int, n)
		for j := range items {
			items[j] = i
		}
		s := a.Cut(items)
		if s == nil || len(s) != n || cap(s) != n {
			t.Fatalf("cut %d: len %d cap %d nil %v, want %d", i, len(s), cap(s), s == nil, n)
		}
		if len(all) > 0 {
			prev := all[len(all)-1]
			all[len(all)-1] = append(prev, -1) // copies: the next is untouched
		}
		all = append(all, s)
	}
	for i, s := range all {
		for j, v := range s {
			if v != i && !(v == -1 && j == len(s)-1) {
				t.Fatalf("slice %d holds %v", i, s)
			}
		}
	}
	if m := a.Make(3); len(m) != 0 || cap(m) != 3 {
		t.Errorf("Make(3): len %d cap %d", len(m), cap(m))
	}
}

// New gives each value its own place, which later values leave alone.
func TestSlicesNew(t *testing.T) {
	var a Slices[int]
	var ps []*int
	for i := range 3 * sliceBlock {
		ps = append(ps, a.New(i))
	}
	for i, p := range ps {
		if *p != i {
			t.Fatalf("value %d reads %d", i, *p)
		}
	}
}
