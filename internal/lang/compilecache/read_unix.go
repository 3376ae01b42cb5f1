//go:build unix

package compilecache

import (
	"os"
	"syscall"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// readEntry maps the entry rel read-only: the pages are the file system's
// cache, so nothing is copied, and the graph's strings and arrays point
// into them. The mapping is never removed, as strings read from a graph
// may outlive it; a process maps an entry when it opens a snapshot it has
// not compiled, which is rare. Entries are replaced by rename and removed
// by unlink, which leave a mapped file whole.
func readEntry(r *fsutil.Root, rel string) ([]byte, error) {
	f, fi, err := r.OpenRegular(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() < int64(headerSize) || fi.Size() > MaxBytes {
		return nil, errCorrupt
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED|mapPopulate)
	if err != nil {
		return nil, os.NewSyscallError("mmap", err)
	}
	return data, nil
}

// release unmaps an entry that was not used.
func release(data []byte) { _ = syscall.Munmap(data) }
