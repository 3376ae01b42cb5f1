//go:build !linux

package hugeheap

// Reserve does nothing where huge pages are not advised this way; it
// reports false.
func Reserve(n int) bool { return false }

func advice() string { return "" }

// NewBuffers returns nil, which gives heap buffers, where huge pages are
// not advised this way.
func NewBuffers(n int) *Buffers { return nil }
