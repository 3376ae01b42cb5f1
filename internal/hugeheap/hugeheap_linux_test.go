package hugeheap

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

var keep [][]byte

// The small objects allocated after Reserve lie in huge pages.
func TestReserveBacksAllocationsWithHugePages(t *testing.T) {
	if a := advice(); a != "madvise" && a != "always" {
		t.Skipf("transparent huge pages are %q here", a)
	}
	if !Reserve(64 << 20) {
		t.Fatal("Reserve: the advice was not taken")
	}
	for range 300_000 {
		keep = append(keep, make([]byte, 100))
	}
	// The mapping of the heap that holds the objects, whatever the rest
	// of the process does: 30 MB of objects make a few 2 MiB pages whole.
	got := anonHugeAt(t, uintptr(unsafe.Pointer(&keep[len(keep)/2][0])))
	keep = nil
	if got < 8<<10 {
		t.Errorf("the heap's mapping has %d KiB in huge pages after Reserve and 30 MB of small objects, want at least 8 MiB", got)
	}
}

func TestReserveNothing(t *testing.T) {
	if Reserve(0) {
		t.Error("Reserve(0) reported advice taken")
	}
}

// Buffers hands out disjoint buffers of its mapping, in huge pages, then
// heap buffers once it is full; goroutines may share it.

// anonHugeAt returns the anonymous memory in huge pages of the mapping
// that holds addr, in KiB: the process's other memory comes and goes as
// the tests before this one release theirs.
func anonHugeAt(t *testing.T, addr uintptr) int {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		// A mapping's line starts with its range, "lo-hi", in hex.
		if f := strings.Fields(line); len(f) > 0 {
			if lo, hi, ok := strings.Cut(f[0], "-"); ok {
				l, err1 := strconv.ParseUint(lo, 16, 64)
				h, err2 := strconv.ParseUint(hi, 16, 64)
				if err1 == nil && err2 == nil {
					in = uint64(addr) >= l && uint64(addr) < h
					continue
				}
			}
		}
		if rest, ok := strings.CutPrefix(line, "AnonHugePages:"); ok && in {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("AnonHugePages: %q", rest)
			}
			return n
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return 0
}
