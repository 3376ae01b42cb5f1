package project

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A whole compile allocates about twenty times its sources' bytes, of
// which about half stays (the graph and the kept headers). Collecting
// while it runs marks a heap that is still growing, again and again: with
// the default GC percent that is about a fifth of a cold compile's time.
// So while whole compiles run in a process whose heap is small, the GC
// percent is raised to compileGCPercent: the heap then grows by at most
// the compiles' garbage, which the bounds limit (sources_bytes_max), before
// the collection that follows them. In a process that holds more than
// smallHeap, the compile runs at the process's setting.
const (
	compileGCPercent = 400
	smallHeap        = 64 << 20
)

// gcRaise counts the whole compiles running under the raised GC percent,
// and keeps the percent to restore when the last one ends.
var gcRaise struct {
	sync.Mutex
	users int
	prev  int
}

// raiseGC raises the GC percent for a whole compile when the heap is
// small and the process's setting is lower, and returns the function that
// ends it.
func raiseGC() (done func()) {
	gcRaise.Lock()
	defer gcRaise.Unlock()
	if gcRaise.users == 0 {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 || s[0].Value.Uint64() > smallHeap {
			return func() {}
		}
		prev := debug.SetGCPercent(compileGCPercent)
		if prev < 0 || prev >= compileGCPercent {
			// GC off, or already as high: the process's setting stands.
			debug.SetGCPercent(prev)
			return func() {}
		}
		gcRaise.prev = prev
	}
	gcRaise.users++
	return func() {
		gcRaise.Lock()
		defer gcRaise.Unlock()
		if gcRaise.users--; gcRaise.users == 0 {
			debug.SetGCPercent(gcRaise.prev)
		}
	}
}
