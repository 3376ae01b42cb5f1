package project

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// CompileGC changes the GC percent while whole compiles run, for a
// process that decides so (see Options.GC). A whole compile allocates
// about twenty times its sources' bytes, of which about half stays (the
// graph and the kept headers). Collecting while it runs marks a heap that
// is still growing, again and again: with the default GC percent that is
// about a fifth of a cold compile's time. While whole compiles run in a
// process whose live heap is at most SmallHeap bytes, the GC percent is
// Percent: the heap then grows by at most the compiles' garbage, which the
// bounds limit (sources_bytes_max), before the collection that follows
// them. In a process that holds more, compiles run at its own setting.
// The zero value changes nothing. It is safe for concurrent use.
type CompileGC struct {
	// Percent is the GC percent during compiles; -1 turns the collector
	// off. A process whose own setting is off, or at least as high, keeps
	// it.
	Percent   int
	SmallHeap uint64
	// Headroom bounds the heap's growth while the collector is off: the
	// memory limit is then at most the live heap plus Headroom, so that
	// many compiles at once are still collected (0: no bound).
	Headroom uint64

	mu sync.Mutex
	// users counts the compiles running under the changed percent;
	// prev and prevLimit are the percent and memory limit to restore when
	// the last one ends.
	users     int
	prev      int
	prevLimit int64
}

// Begin changes the GC percent for a whole compile when the heap is small
// and the process's setting is lower, and returns the function that ends
// the change.
func (g *CompileGC) Begin() (end func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.users == 0 {
		if g.Percent == 0 {
			return func() {}
		}
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 || s[0].Value.Uint64() > g.SmallHeap {
			return func() {}
		}
		live := s[0].Value.Uint64()
		prev := debug.SetGCPercent(g.Percent)
		if prev < 0 || g.Percent >= 0 && prev >= g.Percent {
			// GC off, or already as high: the process's setting stands.
			debug.SetGCPercent(prev)
			return func() {}
		}
		g.prev, g.prevLimit = prev, debug.SetMemoryLimit(-1)
		if g.Percent < 0 && g.Headroom > 0 {
			debug.SetMemoryLimit(min(g.prevLimit, int64(min(live+g.Headroom, math.MaxInt64/2))))
		}
	}
	g.users++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.users--; g.users == 0 {
			debug.SetMemoryLimit(g.prevLimit)
			debug.SetGCPercent(g.prev)
		}
	}
}
