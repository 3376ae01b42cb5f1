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
