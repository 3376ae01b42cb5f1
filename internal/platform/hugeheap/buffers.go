package hugeheap

import "sync/atomic"

// Buffers is memory for byte buffers outside the Go heap, backed by huge
// pages where the kernel allows: a short-lived process reads its inputs
// into it while Reserve is still preparing the heap, on the other core,
// instead of into small pages of the heap as it is then. The memory is
// never unmapped: a process makes one Buffers and keeps what it gives out
// until it exits. It is safe for concurrent use.
type Buffers struct {
	mem  []byte
	used atomic.Int64
}

// Make returns an empty buffer with capacity n, from b while it has room
// and from the heap after; a nil b gives heap buffers.
func (b *Buffers) Make(n int) []byte {
	if b != nil && n > 0 {
		if end := b.used.Add(int64(n)); end <= int64(len(b.mem)) {
			return b.mem[end-int64(n) : end-int64(n) : end]
		}
	}
	return make([]byte, 0, n)
}
