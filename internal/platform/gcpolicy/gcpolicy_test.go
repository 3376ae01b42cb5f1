package gcpolicy

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcSetting reads the GC percent and the memory limit without changing
// them.
func gcSetting() (percent int, limit int64) {
	percent = debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// A service process starts with the collector off under a memory limit
// and, after its first collection, collects at the setting it had before.
func TestService(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: Service leaves the collector alone")
	}
	percent, limit := gcSetting()
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	Service()
	if p, l := gcSetting(); p != -1 || l != ServiceStartHeap {
		t.Fatalf("after Service: GC percent %d, memory limit %d; want -1 and %d", p, l, int64(ServiceStartHeap))
	}
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, l := gcSetting()
		if p == percent && l == limit {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the first collection: GC percent %d, memory limit %d; want %d and %d", p, l, percent, limit)
		}
		runtime.GC() // cleanups run after a collection's sweep, on their own goroutine
		time.Sleep(time.Millisecond)
	}
	if limit != math.MaxInt64 {
		t.Logf("the test process had a memory limit of %d", limit)
	}
}
