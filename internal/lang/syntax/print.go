package syntax

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Print reconstructs the file's source from its tokens and the trivia
// between them (spaces, line breaks, comments). For every input it returns
// exactly the bytes that were parsed; the fuzz test holds it to that.
func Print(f *File) []byte {
	var b bytes.Buffer
	b.Grow(len(f.Src))
	at := 0
	ci := 0
	for _, t := range f.Tokens {
		// The gap before t is trivia: whitespace and comments, in order.
		for ci < len(f.Comments) && f.Comments[ci].Pos < t.Pos {
			c := f.Comments[ci]
			b.Write(f.Src[at:c.Pos])
			b.Write(f.Src[c.Pos:c.End])
			at = int(c.End)
			ci++
		}
		b.Write(f.Src[at:t.Pos])
		b.Write(f.Src[t.Pos:t.End])
		at = int(t.End)
	}
	b.Write(f.Src[at:])
	return b.Bytes()
}

// Pos is a line and column, both starting at 1; Column counts Unicode
// scalar values (an invalid byte counts as one).
type Pos struct {
	Line, Column int
}

// Position converts a byte offset of the file to a line and column.
func (f *File) Position(off int) Pos {
	return Position(f.Src, f.Lines, off)
}

// Position converts a byte offset to a line and column, given the offsets
// of line starts.
func Position(src []byte, lines []int32, off int) Pos {
	if off > len(src) {
		off = len(src)
	}
	line := lineOf(lines, 0, off)
	return Pos{Line: line + 1, Column: column(src, int(lines[line]), off)}
}

// lineOf returns the index of the line holding off, searching lines from
// lo on.
func lineOf(lines []int32, lo, off int) int {
	hi := len(lines) - 1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if int(lines[mid]) <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// column counts the Unicode scalar values from the line start at to off,
// plus one.
func column(src []byte, at, off int) int {
	col := 1
	for i := at; i < off; {
		if src[i] < 0x80 {
			i++
		} else {
			_, size := decodeRune(src[i:])
			i += size
		}
		col++
	}
	return col
}

// A Cursor converts offsets to positions as File.Position does, faster
// when the offsets mostly grow, as a walk of a tree in source order asks
// them: it looks first at the few lines after its last answer, where a
// binary search over a large file's lines misses the cache at every step.
// The zero Cursor is ready; one Cursor serves one goroutine.
type Cursor struct {
	f    *File
	line int // the index in f.Lines of the last answer
}

// Position returns the line and column of the byte offset off of f.
func (c *Cursor) Position(f *File, off int) Pos {
	if off > len(f.Src) {
		off = len(f.Src)
	}
	lines := f.Lines
	if c.f != f || c.line >= len(lines) || int(lines[c.line]) > off {
		c.f, c.line = f, lineOf(lines, 0, off)
	} else {
		// Nodes a line or a few apart are the common step.
		l := c.line
		for k := 0; k < 8 && l+1 < len(lines) && int(lines[l+1]) <= off; k++ {
			l++
		}
		if l+1 < len(lines) && int(lines[l+1]) <= off {
			l = lineOf(lines, l, off)
		}
		c.line = l
	}
	return Pos{Line: c.line + 1, Column: column(f.Src, int(lines[c.line]), off)}
}

// Dump renders the tree as indented text with spans, for golden tests and
// debugging.
func Dump(f *File) string {
	var b strings.Builder
	var walk func(v reflect.Value, indent string, label string)
	walk = func(v reflect.Value, indent, label string) {
		if !v.IsValid() {
			return
		}
		if v.Kind() == reflect.Interface {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		t := v.Type()
		switch v.Kind() {
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), indent, label)
			}
			return
		case reflect.Struct:
		default:
			return
		}
		sp := v.FieldByName("Span")
		fmt.Fprintf(&b, "%s%s%s [%d,%d)", indent, label, t.Name(), sp.Field(0).Int(), sp.Field(1).Int())
		for i := 0; i < t.NumField(); i++ {
			fv := v.Field(i)
			switch fv.Kind() {
			case reflect.String:
				fmt.Fprintf(&b, " %s=%q", t.Field(i).Name, fv.String())
			case reflect.Bool:
				if fv.Bool() {
					fmt.Fprintf(&b, " %s", t.Field(i).Name)
				}
			case reflect.Uint8:
				if s, ok := fv.Interface().(fmt.Stringer); ok {
					fmt.Fprintf(&b, " %s=%s", t.Field(i).Name, s)
				}
			}
		}
		b.WriteByte('\n')
		for i := 0; i < t.NumField(); i++ {
			name := t.Field(i).Name
			if name == "Span" {
				continue
			}
			switch v.Field(i).Kind() {
			case reflect.Pointer, reflect.Interface, reflect.Slice:
				walk(v.Field(i), indent+"  ", name+": ")
			}
		}
	}
	if f.Module != nil {
		walk(reflect.ValueOf(f.Module), "", "")
	}
	for _, u := range f.Uses {
		walk(reflect.ValueOf(u), "", "")
	}
	for _, d := range f.Decls {
		walk(reflect.ValueOf(d), "", "")
	}
	for _, e := range f.Errors {
		p := f.Position(int(e.Pos))
		fmt.Fprintf(&b, "error %d:%d %s %s\n", p.Line, p.Column, e.Code, e.Msg)
	}
	return b.String()
}

// oneLine reports whether b, the source of a node, is its own compact
// form: no line breaks, tabs or comments, no two spaces in a row and none
// at either end, so that tokens are apart by one space or none (most
// conditions and headers, which Compact would otherwise lex again).
func oneLine(b []byte) bool {
	if len(b) > 0 && (b[0] == ' ' || b[len(b)-1] == ' ') {
		return false // Compact drops the space at either end
	}
	for i, c := range b {
		switch c {
		case '\n', '\r', '\t', '/':
			return false
		case ' ':
			if i > 0 && b[i-1] == ' ' {
				return false
			}
		}
	}
	return true
}

// Compact returns the source of [pos, end) on one line: the tokens with a
// single space wherever the source had spaces, line breaks or comments
// between them. Signatures use it, so a declaration written over several
// lines is still summarized on one.
//
// A file without tokens (ParseTree, DropBodies) lexes [pos, end) again.
func (f *File) Compact(pos, end int) string {
	if pos >= 0 && pos <= end && end <= len(f.Src) && oneLine(f.Src[pos:end]) {
		return string(f.Src[pos:end])
	}
	return f.compactTokens(pos, end)
}

// AppendCompact appends Compact(pos, end) to b.
func (f *File) AppendCompact(b []byte, pos, end int) []byte {
	if pos >= 0 && pos <= end && end <= len(f.Src) && oneLine(f.Src[pos:end]) {
		return append(b, f.Src[pos:end]...)
	}
	return append(b, f.compactTokens(pos, end)...)
}

// compactTokens is Compact from the tokens.
func (f *File) compactTokens(pos, end int) string {
	toks := f.Tokens
	src := f.Src
	if toks == nil && pos >= 0 && pos <= end && end <= len(f.Src) {
		// [pos, end) are node bounds, which no token crosses.
		src = f.Src[:end]
		toks, _ = lex(f.Src[pos:end], nil, func(int, int, string, string) {})
		for k := range toks {
			toks[k].Pos += int32(pos)
			toks[k].End += int32(pos)
		}
	}
	i := sort.Search(len(toks), func(i int) bool { return int(toks[i].Pos) >= pos })
	var b strings.Builder
	prev := int32(-1)
	for ; i < len(toks) && int(toks[i].End) <= end && toks[i].Kind != EOF; i++ {
		t := toks[i]
		if prev >= 0 && t.Pos > prev {
			b.WriteByte(' ')
		}
		b.Write(src[t.Pos:t.End])
		prev = t.End
	}
	return b.String()
}
