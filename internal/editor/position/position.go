// Package position converts between byte offsets in a file's text and
// Language Server Protocol positions, whose character counts are code
// units of the encoding the client and server agreed on (UTF-16 unless
// the client offers another).
package position

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// Encoding is a position encoding kind of LSP 3.17.
type Encoding string

const (
	UTF8  Encoding = "utf-8"
	UTF16 Encoding = "utf-16"
	UTF32 Encoding = "utf-32"
)

// Negotiate picks the encoding from what the client offers, in its order
// of preference: the first the server knows, else UTF-16, the one every
// client must support.
func Negotiate(offered []string) Encoding {
	for _, e := range offered {
		switch Encoding(e) {
		case UTF8, UTF16, UTF32:
			return Encoding(e)
		}
	}
	return UTF16
}

// Mapper maps offsets of one text. Lines end at "\n"; a "\r" before it
// belongs to the line, as the LSP counts it.
type Mapper struct {
	text  []byte
	lines []int // byte offset of each line's start
}

// New returns the mapper of text, which it keeps and must not change.
func New(text []byte) *Mapper {
	m := &Mapper{text: text, lines: []int{0}}
	for i, b := range text {
		if b == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// Text is the text mapped.
func (m *Mapper) Text() []byte { return m.text }

// LineEnd is the byte offset of the end of line (zero-based), before its
// line break; the text's end for a line past the last.
func (m *Mapper) LineEnd(line int) int {
	if line+1 >= len(m.lines) {
		return len(m.text)
	}
	end := m.lines[line+1] - 1
	if end > m.lines[line] && m.text[end-1] == '\r' {
		end--
	}
	return end
}

// Position is a zero-based line and character in an encoding.
type Position struct {
	Line, Character uint32
}

// Position returns the position of byte offset off, clamped to the text;
// an offset inside a character counts as its start.
func (m *Mapper) Position(off int, enc Encoding) Position {
	off = max(0, min(off, len(m.text)))
	line := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > off }) - 1
	start := m.lines[line]
	for off > start && off < len(m.text) && !utf8.RuneStart(m.text[off]) {
		off--
	}
	return Position{Line: uint32(line), Character: uint32(units(m.text[start:off], enc))}
}

// Offset returns the byte offset of p. A character past the end of its
// line is the line's end and a line past the last is the end of the
// text, as the LSP asks; ok is false for those.
func (m *Mapper) Offset(p Position, enc Encoding) (off int, ok bool) {
	if int(p.Line) >= len(m.lines) {
		return len(m.text), false
	}
	start := m.lines[p.Line]
	end := len(m.text)
	if int(p.Line)+1 < len(m.lines) {
		end = m.lines[p.Line+1] - 1 // the '\n'
	}
	want := int(p.Character)
	n := 0
	for i := start; i < end; {
		if n >= want {
			return i, n == want
		}
		r, size := utf8.DecodeRune(m.text[i:end])
		n += runeUnits(r, size, enc)
		i += size
	}
	return end, n == want
}

func units(b []byte, enc Encoding) int {
	if enc == UTF8 {
		return len(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += runeUnits(r, size, enc)
		b = b[size:]
	}
	return n
}

func runeUnits(r rune, size int, enc Encoding) int {
	switch enc {
	case UTF8:
		return size
	case UTF32:
		return 1
	}
	if r == utf8.RuneError && size == 1 {
		return 1
	}
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}
