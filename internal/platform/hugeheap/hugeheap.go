// Package hugeheap backs a short-lived process's heap with transparent
// huge pages.
//
// The Go runtime maps its heap in small pages, so each 4 KiB of it that a
// process first touches is a page fault in which the kernel clears the
// page. On a virtual machine a fault costs several microseconds, and a
// one-shot compile spent more time faulting than compiling. Where the kernel backs memory with 2 MiB pages on
// request (transparent huge pages in "madvise" or "always" mode), Reserve
// makes the allocations that follow fault once per 2 MiB instead, and
// Buffers gives memory outside the heap, in huge pages, for what a process
// reads before Reserve is done.
package hugeheap
