// Package gcpolicy holds the collector settings the mains choose from:
// each main decides whether and when to call one, so no library changes
// the process's collector.
package gcpolicy

import (
	"os"
	"runtime"
	"runtime/debug"
)

// Service sets the collector of a process that serves agents, unless
// the user set GOGC or GOMEMLIMIT: off from the start until the heap first
// reaches ServiceStartHeap, then at the default percent. A whole compile
// allocates about twenty times its sources and keeps about half; collecting
// while the first one runs marks a heap that is still growing, again and
// again, and frees little. The collection at ServiceStartHeap, or the first
// one the program asks for, ends the start.
func Service() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := debug.SetMemoryLimit(ServiceStartHeap)
	percent := debug.SetGCPercent(-1)
	// Not a tiny allocation, which may share its block and never be
	// collected.
	start := new([32]byte)
	runtime.AddCleanup(start, func(struct{}) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}, struct{}{})
}

// ServiceStartHeap is the heap a service process grows to before its
// first collection: about what the first compile of a project at the
// bounds (sources_bytes_max) allocates.
const ServiceStartHeap = 128 << 20
