//go:build unix

package fsutil

import "syscall"

// openNonblock makes opening a FIFO return at once instead of waiting for
// a writer; reads of regular files ignore it.
const openNonblock = syscall.O_NONBLOCK

// syncDirs: directories can be opened and fsynced.
const syncDirs = true

// openDirectory makes opening anything but a directory fail.
const openDirectory = syscall.O_DIRECTORY
