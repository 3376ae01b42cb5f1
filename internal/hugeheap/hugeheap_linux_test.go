package hugeheap

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// anonHuge returns the process's anonymous memory in huge pages, in KiB.
func anonHuge(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("AnonHugePages: %q", rest)
			}
			return n
		}
	}
	t.Skip("the kernel reports no AnonHugePages")
	return 0
}

var keep [][]byte

// The small objects allocated after Reserve lie in huge pages.
func TestReserveBacksAllocationsWithHugePages(t *testing.T) {
	if a := advice(); a != "madvise" && a != "always" {
		t.Skipf("transparent huge pages are %q here", a)
	}
	before := anonHuge(t)
	if !Reserve(64 << 20) {
		t.Fatal("Reserve: the advice was not taken")
	}
	for range 300_000 {
		keep = append(keep, make([]byte, 100))
	}
	after := anonHuge(t)
	keep = nil
	// 30 MB of objects: at least a few of their 2 MiB pages are whole.
	if after-before < 8<<10 {
		t.Errorf("AnonHugePages grew by %d KiB after Reserve and 30 MB of small objects, want at least 8 MiB", after-before)
	}
}

func TestReserveNothing(t *testing.T) {
	if Reserve(0) {
		t.Error("Reserve(0) reported advice taken")
	}
}
