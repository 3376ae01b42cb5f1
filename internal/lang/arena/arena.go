// Package arena makes many short strings and slices in shared blocks:
// the compile of a large project makes about 100k node ids, string
// values and short lists, which at one allocation each were half of its
// allocations.
package arena

import "unsafe"

// Strings makes strings whose bytes are written once into a block and
// never changed after, so that each string can point into the block
// instead of owning a copy. A block lives as long as any string made in
// it. The zero value is ready; a Strings serves one goroutine.
type Strings struct{ buf []byte }

// blockSize bounds the bytes a block can hold; longer strings, rare in
// sources, get their own allocation.
const blockSize = 16 << 10

// room returns the block's next n bytes, which the caller fills, taking
// a new block when the current one has not room.
func (a *Strings) room(n int) []byte {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, blockSize)
	}
	at := len(a.buf)
	a.buf = a.buf[:at+n]
	return a.buf[at : at+n : at+n]
}

// Concat returns the concatenation of parts.
func (a *Strings) Concat(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	if n > blockSize/8 {
		b := make([]byte, 0, n)
		for _, p := range parts {
			b = append(b, p...)
		}
		return unsafe.String(&b[0], n)
	}
	b := a.room(n)[:0]
	for _, p := range parts {
		b = append(b, p...)
	}
	return unsafe.String(&b[0], n)
}

// Bytes returns the text of b as a string; b may change after.
func (a *Strings) Bytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > blockSize/8 {
		return string(b)
	}
	r := a.room(len(b))
	copy(r, b)
	return unsafe.String(&r[0], len(r))
}

// Slices cuts slices from blocks of T, each with a capacity of exactly
// its length or the room asked for, so that an append past it copies the
// slice instead of writing into the next one: a large file has about
// 100k short lists (element arguments, view items, properties), which
// growing one item at a time allocated two or three times each. The zero
// value is ready; a Slices serves one goroutine.
type Slices[T any] struct{ buf []T }

// sliceBlock is the items a block holds; longer slices get their own.
const sliceBlock = 512

// Make returns an empty slice with room for n items.
func (a *Slices[T]) Make(n int) []T {
	switch {
	case n == 0:
		return []T{}
	case n > sliceBlock/8:
		return make([]T, 0, n)
	case cap(a.buf)-len(a.buf) < n:
		a.buf = make([]T, 0, sliceBlock)
	}
	at := len(a.buf)
	a.buf = a.buf[:at+n]
	return a.buf[at : at : at+n]
}

// New returns a pointer to a copy of v in a block.
func (a *Slices[T]) New(v T) *T {
	l := append(a.Make(1), v)
	return &l[0]
}

// Cut returns a copy of items, empty but not nil when items is.
func (a *Slices[T]) Cut(items []T) []T {
	return append(a.Make(len(items)), items...)
}
