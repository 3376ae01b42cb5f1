package project

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
)

// gcPercent reads the GC percent without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestCompileGC(t *testing.T) {
	g := &CompileGC{Percent: 400, SmallHeap: 64 << 20}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	want := func(when string, pct int) {
		t.Helper()
		if got := gcPercent(); got != pct {
			t.Errorf("GC percent %d %s, want %d", got, when, pct)
		}
	}
	runtime.GC()
	// Two compiles at once: raised until the last one ends.
	end1 := g.Begin()
	end2 := g.Begin()
	want("during two compiles", g.Percent)
	end1()
	want("while one compile still runs", g.Percent)
	end2()
	want("after the compiles", 100)
	// A process's own higher setting, or GC off, stands.
	for _, own := range []int{800, -1} {
		debug.SetGCPercent(own)
		end := g.Begin()
		want(fmt.Sprintf("during a compile with GOGC %d", own), own)
		end()
		want(fmt.Sprintf("after a compile with GOGC %d", own), own)
	}
	debug.SetGCPercent(100)
	// A large heap: the compile runs at the process's setting.
	big := make([][]byte, 0, 100)
	for range 100 {
		big = append(big, make([]byte, 1<<20))
	}
	runtime.GC()
	end := g.Begin()
	want(fmt.Sprintf("during a compile with %d MiB live", len(big)), 100)
	end()
	runtime.KeepAlive(big)
	// Off: the collector stops during compiles unless the process's
	// setting is off already; the zero value changes nothing.
	runtime.GC()
	off := &CompileGC{Percent: -1, SmallHeap: 64 << 20, Headroom: 256 << 20}
	limit := debug.SetMemoryLimit(-1)
	end = off.Begin()
	want("during a compile with the collector off", -1)
	if got := debug.SetMemoryLimit(-1); got > 64<<20+256<<20 {
		t.Errorf("memory limit %d during a compile with the collector off, want at most the live heap and the headroom", got)
	}
	end()
	want("after a compile with the collector off", 100)
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit %d after a compile, want %d", got, limit)
	}
	end = (&CompileGC{}).Begin()
	want("during a compile with the zero CompileGC", 100)
	end()
}
