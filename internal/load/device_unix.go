//go:build unix

package load

import (
	"io/fs"
	"syscall"
)

// device returns the device a file is on, from its stat.
func device(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true
}
