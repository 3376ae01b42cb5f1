package bench

import (
	"syscall"
	"time"
	"unsafe"
)

// faultCost returns what a first touch of fresh anonymous memory costs
// here: microseconds per 4 KiB page, and milliseconds per 2 MiB with the
// memory advised for transparent huge pages (0 where the advice is not
// taken). A virtual machine's page faults cost several times a bare
// machine's, and a whole compile touches about 90 MB it never had.
func faultCost() (perPage, perHuge float64, err error) {
	const size = 64 << 20
	touch := func(huge bool) (time.Duration, error) {
		// One huge page more, to align the advised range.
		b, err := syscall.Mmap(-1, 0, size+2<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			return 0, err
		}
		defer syscall.Munmap(b)
		off := 0
		if huge {
			off = int((2<<20 - uintptr(addr(b))%(2<<20)) % (2 << 20))
			if err := syscall.Madvise(b[off:off+size], 14); err != nil { // MADV_HUGEPAGE
				return 0, err
			}
		}
		start := time.Now()
		for i := off; i < off+size; i += 4096 {
			b[i] = 1
		}
		return time.Since(start), nil
	}
	small, err := touch(false)
	if err != nil {
		return 0, 0, err
	}
	perPage = float64(small.Microseconds()) / (size / 4096)
	if huge, err := touch(true); err == nil {
		perHuge = float64(huge.Microseconds()) / 1e3 / (size / (2 << 20))
	}
	return perPage, perHuge, nil
}

func addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
