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

func TestRaiseGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	want := func(when string, pct int) {
		t.Helper()
		if got := gcPercent(); got != pct {
			t.Errorf("GC percent %d %s, want %d", got, when, pct)
		}
	}
	runtime.GC()
	// Two compiles at once: raised until the last one ends.
	end1 := raiseGC()
	end2 := raiseGC()
	want("during two compiles", compileGCPercent)
	end1()
	want("while one compile still runs", compileGCPercent)
	end2()
	want("after the compiles", 100)
	// A process's own higher setting, or GC off, stands.
	for _, own := range []int{800, -1} {
		debug.SetGCPercent(own)
		end := raiseGC()
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
	end := raiseGC()
	want(fmt.Sprintf("during a compile with %d MiB live", len(big)), 100)
	end()
	runtime.KeepAlive(big)
}
