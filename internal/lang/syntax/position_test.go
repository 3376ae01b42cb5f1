package syntax

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPosition(t *testing.T) {
	cases := []struct {
		name string
		src  string
		off  int
		want Pos
	}{
		{"start", "abc\n", 0, Pos{1, 1}},
		{"ascii", "abc\n", 2, Pos{1, 3}},
		{"at newline", "abc\n", 3, Pos{1, 4}},
		{"second line", "abc\ndef\n", 4, Pos{2, 1}},
		{"end after final newline", "abc\n", 4, Pos{2, 1}},
		{"empty", "", 0, Pos{1, 1}},
		{"two-byte rune", "é=x", 2, Pos{1, 2}},
		{"after two-byte rune", "é=x", 3, Pos{1, 3}},
		{"three-byte rune", "€€x", 6, Pos{1, 3}},
		{"four-byte rune", "😀x", 4, Pos{1, 2}},
		{"mixed line", "a\n\"é😀\" x", 11, Pos{2, 6}},
		{"invalid byte counts one", "\xff\xfex", 2, Pos{1, 3}},
		{"truncated rune counts one per byte", "\xe2\x82x", 2, Pos{1, 3}},
		{"crlf first line end", "ab\r\ncd\r\n", 2, Pos{1, 3}},
		{"crlf cr counts as a column", "ab\r\ncd\r\n", 3, Pos{1, 4}},
		{"crlf second line", "ab\r\ncd\r\n", 4, Pos{2, 1}},
		{"crlf second line col", "ab\r\ncd\r\n", 5, Pos{2, 2}},
		{"crlf after last", "ab\r\ncd\r\n", 8, Pos{3, 1}},
		{"last line without newline", "ab\ncd", 5, Pos{2, 3}},
		{"last line without newline mid", "ab\ncd", 4, Pos{2, 2}},
		{"offset past end clamps", "ab\ncd", 99, Pos{2, 3}},
		{"blank lines", "\n\n\nx", 3, Pos{4, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("t.acore", []byte(c.src))
			if got := f.Position(c.off); got != c.want {
				t.Errorf("File.Position(%d) = %v, want %v", c.off, got, c.want)
			}
			if got := Position([]byte(c.src), lineStarts([]byte(c.src)), c.off); got != c.want {
				t.Errorf("Position(%d) = %v, want %v", c.off, got, c.want)
			}
			var cur Cursor
			if got := cur.Position(f, c.off); got != c.want {
				t.Errorf("Cursor.Position(%d) = %v, want %v", c.off, got, c.want)
			}
		})
	}
}

// TestPositionOfErrors checks diagnostic positions through Dump in a file
// with multibyte text and CRLF line ends.
func TestPositionOfErrors(t *testing.T) {
	src := "page P {\r\n  state s: String = \"é😀\" #\r\n}"
	f := Parse("t.acore", []byte(src))
	if len(f.Errors) == 0 {
		t.Fatal("no errors")
	}
	if got, want := f.Position(int(f.Errors[0].Pos)), (Pos{2, 26}); got != want {
		t.Errorf("error at %v, want %v", got, want)
	}
}

// TestCursor checks that a Cursor answers as File.Position does for
// offsets that grow by small and large steps, go back, jump between
// files and pass the end, as the checker's walks ask them.
func TestCursor(t *testing.T) {
	var b strings.Builder
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		b.WriteString(strings.Repeat(" ", r.IntN(12)))
		if i%7 == 0 {
			b.WriteString("é😀")
		}
		b.WriteString(strings.Repeat("x", r.IntN(30)))
		if i%11 != 0 {
			b.WriteString("\n")
		} else {
			b.WriteString("\n\n\n\n\n\n\n\n\n\n")
		}
	}
	a, z := Parse("a.acore", []byte(b.String())), Parse("z.acore", []byte("one\ntwo\nthree"))
	var cur Cursor
	off := 0
	for range 20000 {
		f := a
		switch k := r.IntN(100); {
		case k < 70:
			off += r.IntN(40)
		case k < 85:
			off += r.IntN(4000)
		case k < 95:
			off = r.IntN(len(a.Src) + 10)
		default:
			f = z
		}
		at := off
		if f == z {
			at = r.IntN(len(z.Src) + 2)
		}
		if got, want := cur.Position(f, at), f.Position(at); got != want {
			t.Fatalf("Cursor.Position(%s, %d) = %v, want %v", f.Path, at, got, want)
		}
		if off > len(a.Src) {
			off = 0
		}
	}
}
