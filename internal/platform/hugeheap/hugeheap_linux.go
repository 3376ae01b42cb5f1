package hugeheap

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"unsafe"
)

// madvHugepage is MADV_HUGEPAGE, which package syscall does not name.
const madvHugepage = 14

// Reserve grows the heap by n bytes of address space, advises the kernel
// to back that space with huge pages, and frees it again, so that the
// allocations that follow take their pages from it. It costs one garbage
// collection of the heap as it is (a few milliseconds at a process's
// start) and no memory until the space is used. It reports whether the
// advice was taken; where it was not, nothing changed but the collection.
//
// A long-lived process should not call it: the kernel may later gather
// the collector's released pages back into huge pages, and hold memory
// the process gave back.
func Reserve(n int) bool {
	if advice() == "never" || n <= 0 {
		return false
	}
	// A fresh large allocation is address space the heap maps for it and
	// never touches (the kernel's pages are zero), so the advice reaches
	// pages before their first fault.
	b := make([]byte, n)
	err := syscall.Madvise(b, madvHugepage)
	b = nil
	// The collection frees the space to the page allocator, which hands
	// out the lowest free addresses first: the new spans come from it.
	runtime.GC()
	return err == nil
}

func advice() string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	// The mode in use is the bracketed one: "always [madvise] never".
	s := string(b)
	i, j := strings.IndexByte(s, '['), strings.IndexByte(s, ']')
	if i < 0 || j < i {
		return ""
	}
	return s[i+1 : j]
}

// NewBuffers maps n bytes for buffers, advised for huge pages; nil when
// the kernel gives no huge pages this way or the mapping fails.
func NewBuffers(n int) *Buffers {
	if advice() == "never" || n <= 0 {
		return nil
	}
	// Huge pages back the 2 MiB-aligned parts of a mapping: one more 2 MiB
	// leaves room to start at a boundary.
	const huge = 2 << 20
	mem, err := syscall.Mmap(-1, 0, n+huge, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil
	}
	if err := syscall.Madvise(mem, madvHugepage); err != nil {
		syscall.Munmap(mem)
		return nil
	}
	skip := (huge - int(uintptr(unsafe.Pointer(unsafe.SliceData(mem))))%huge) % huge
	return &Buffers{mem: mem[skip : skip+n : skip+n]}
}
