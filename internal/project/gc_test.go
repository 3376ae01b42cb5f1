package project

import (
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
	runtime.GC()
	// Two compiles at once: raised until the last one ends.
	end1 := raiseGC()
	end2 := raiseGC()
	if got := gcPercent(); got != compileGCPercent {
		t.Fatalf("GC percent %d during two compiles, want %d", got, compileGCPercent)
	}
	end1()
	if got := gcPercent(); got != compileGCPercent {
		t.Fatalf("GC percent %d while one compile still runs, want %d", got, compileGCPercent)
	}
	end2()
	if got := gcPercent(); got != 100 {
		t.Fatalf("GC percent %d after the compiles, want 100", got)
	}
	// A process's own higher setting, or GC off, stands.
	for _, own := range []int{800, -1} {
		debug.SetGCPercent(own)
		end := raiseGC()
		if got := gcPercent(); got != own {
			t.Errorf("GC percent %d during a compile with GOGC %d", got, own)
		}
		end()
		if got := gcPercent(); got != own {
			t.Errorf("GC percent %d after a compile with GOGC %d", got, own)
		}
	}
	debug.SetGCPercent(100)
	// A large heap: the compile runs at the process's setting.
	big := make([][]byte, 0, 100)
	for range 100 {
		big = append(big, make([]byte, 1<<20))
	}
	runtime.GC()
	end := raiseGC()
	if got := gcPercent(); got != 100 {
		t.Errorf("GC percent %d during a compile with %d MiB live, want 100", got, len(big))
	}
	end()
	runtime.KeepAlive(big)
}
