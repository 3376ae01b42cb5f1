package hugeheap

import (
	"os"
	"strconv"
	"strings"
	"sync"
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
func TestBuffers(t *testing.T) {
	if a := advice(); a != "madvise" && a != "always" {
		t.Skipf("transparent huge pages are %q here", a)
	}
	const size = 8 << 20
	b := NewBuffers(size)
	if b == nil {
		t.Fatal("NewBuffers: nil")
	}
	lo, hi := uintptr(unsafe.Pointer(unsafe.SliceData(b.mem))), uintptr(unsafe.Pointer(unsafe.SliceData(b.mem)))+size
	if lo%(2<<20) != 0 {
		t.Errorf("the buffers start at %#x, not at a 2 MiB boundary", lo)
	}
	var wg sync.WaitGroup
	got := make([][]byte, 64)
	for g := range 4 {
		wg.Go(func() {
			for k := g; k < len(got); k += 4 {
				got[k] = b.Make(200 << 10)
				got[k] = append(got[k], make([]byte, 200<<10)...)
				for i := range got[k] {
					got[k][i] = byte(k)
				}
			}
		})
	}
	wg.Wait()
	inside := 0
	for k, buf := range got {
		if len(buf) != 200<<10 {
			t.Fatalf("buffer %d: length %d", k, len(buf))
		}
		for i, c := range buf {
			if c != byte(k) {
				t.Fatalf("buffer %d byte %d is %d: buffers overlap", k, i, c)
			}
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(buf))); p >= lo && p < hi {
			inside++
		}
	}
	// 8 MiB holds 40 buffers of 200 KiB; the other 24 come from the heap.
	if inside != 40 {
		t.Errorf("%d buffers came from the mapping, want 40", inside)
	}
	if got := anonHugeAt(t, lo); got < 4<<10 {
		t.Errorf("the buffers' mapping has %d KiB in huge pages after they were filled, want at least 4 MiB", got)
	}
}

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
