//go:build unix

package load

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// device returns the device a file is on, from its stat.
func device(fi fs.FileInfo) (uint64, bool) {
	switch st := fi.Sys().(type) {
	case *syscall.Stat_t:
		return uint64(st.Dev), true
	case *unix.Stat_t:
		return uint64(st.Dev), true
	}
	return 0, false
}
