package load

import (
	"io/fs"
	"os"

	"github.com/axiomcore/acore/internal/platform/fsutil"
	"golang.org/x/sys/unix"
)

// stampUnnamed creates a file in d without a name (O_TMPFILE) and returns
// its metadata. Nothing is left in d, even by a process killed meanwhile:
// the file goes when its descriptor closes. File systems without unnamed
// files fail it.
func stampUnnamed(d *fsutil.Root) (fs.FileInfo, error) {
	dir, err := d.OpenDir(".")
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd, oerr := -1, error(nil)
	if err := rc.Control(func(dfd uintptr) {
		fd, oerr = unix.Openat(int(dfd), ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	}); err != nil {
		return nil, err
	}
	if oerr != nil {
		return nil, &fs.PathError{Op: "openat", Path: ". (O_TMPFILE)", Err: oerr}
	}
	f := os.NewFile(uintptr(fd), "unnamed clock probe")
	defer f.Close()
	return f.Stat()
}
