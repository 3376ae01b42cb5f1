package position

import "testing"

func TestRoundTrip(t *testing.T) {
	text := []byte("a😀b\r\nçd\n\nx")
	cases := []struct {
		off  int
		enc  Encoding
		want Position
	}{
		{0, UTF16, Position{0, 0}},
		{1, UTF16, Position{0, 1}},
		{5, UTF16, Position{0, 3}}, // after the emoji: 2 UTF-16 units
		{5, UTF8, Position{0, 5}},
		{5, UTF32, Position{0, 2}},
		{6, UTF16, Position{0, 4}}, // the '\r' belongs to the line
		{8, UTF16, Position{1, 0}},
		{10, UTF16, Position{1, 1}}, // 'ç' is 2 bytes, 1 unit
		{10, UTF8, Position{1, 2}},
		{12, UTF16, Position{2, 0}},
		{13, UTF16, Position{3, 0}},
		{14, UTF16, Position{3, 1}},
	}
	m := New(text)
	for _, c := range cases {
		if got := m.Position(c.off, c.enc); got != c.want {
			t.Errorf("Position(%d, %s) = %v, want %v", c.off, c.enc, got, c.want)
		}
		if got, ok := m.Offset(c.want, c.enc); got != c.off || !ok {
			t.Errorf("Offset(%v, %s) = %d %v, want %d", c.want, c.enc, got, ok, c.off)
		}
	}
}

func TestOffsetClamps(t *testing.T) {
	m := New([]byte("ab\ncd"))
	for _, c := range []struct {
		p    Position
		want int
	}{{Position{0, 9}, 2}, {Position{7, 0}, 5}, {Position{1, 9}, 5}} {
		if got, ok := m.Offset(c.p, UTF16); got != c.want || ok {
			t.Errorf("Offset(%v) = %d %v, want %d false", c.p, got, ok, c.want)
		}
	}
}

func TestNegotiate(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want Encoding
	}{{nil, UTF16}, {[]string{"utf-8", "utf-16"}, UTF8}, {[]string{"utf-7", "utf-32"}, UTF32}, {[]string{"x"}, UTF16}} {
		if got := Negotiate(c.in); got != c.want {
			t.Errorf("Negotiate(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func FuzzMapper(f *testing.F) {
	f.Add([]byte("a😀b\r\nçd\n"), 3)
	f.Fuzz(func(t *testing.T, text []byte, off int) {
		m := New(text)
		for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
			p := m.Position(off, enc)
			got, _ := m.Offset(p, enc)
			q := m.Position(got, enc)
			if q != p {
				t.Fatalf("%s: Position(%d) = %v, Offset = %d, Position again = %v", enc, off, p, got, q)
			}
		}
	})
}
