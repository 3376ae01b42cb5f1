// Package arena makes many short strings in shared blocks of bytes: the
// compile of a large project makes about 100k node ids and string
// values, which at one allocation each were a fifth of its allocations.
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
