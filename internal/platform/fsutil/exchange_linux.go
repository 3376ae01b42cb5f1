package fsutil

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Exchange atomically swaps the directory entries a and b, two names in
// the directory r was opened on (renameat2 with RENAME_EXCHANGE): each
// name then designates what the other did. Publishing a file this way
// leaves the file it replaced under the temp file's name, so the writer
// can verify that what it replaced is what it meant to replace, and swap
// back if not. It wraps ErrUnsupported where the file system or the
// kernel cannot exchange.
func (r *Root) Exchange(a, b string) error {
	d, err := r.r.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	fd := int(d.Fd())
	err = unix.Renameat2(fd, a, fd, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return fmt.Errorf("exchange %s and %s: %v: %w", a, b, err, errors.ErrUnsupported)
	}
	if err != nil {
		return &os.LinkError{Op: "renameat2", Old: a, New: b, Err: err}
	}
	return nil
}

// ErrOpenForWriting is returned by ReadLease when another open file
// description has the file open for writing.
var ErrOpenForWriting = errors.New("the file is open for writing")

// ReadLease takes a read lease on f (opened read-only): it succeeds only
// when no one has the file open for writing, and from then on anyone who
// opens it for writing or truncates it waits until the lease is released,
// and breaks it. broken reports whether that happened. Where leases are
// not available (a file the process does not own, a file system without
// them) it returns ok false and nil: the caller checks the content
// instead. A file open for writing wraps ErrOpenForWriting.
func ReadLease(f *os.File) (release func(), broken func() bool, ok bool, err error) {
	fd := int(f.Fd())
	switch err := unixFcntl(fd, unix.F_SETLEASE, unix.F_RDLCK); {
	case errors.Is(err, unix.EAGAIN):
		return nil, nil, false, fmt.Errorf("%s: %w", f.Name(), ErrOpenForWriting)
	case err != nil:
		return nil, nil, false, nil
	}
	release = func() { _ = unixFcntl(fd, unix.F_SETLEASE, unix.F_UNLCK) }
	broken = func() bool {
		t, err := unix.FcntlInt(uintptr(fd), unix.F_GETLEASE, 0)
		return err != nil || t != unix.F_RDLCK
	}
	return release, broken, true, nil
}

func unixFcntl(fd, cmd, arg int) error {
	_, err := unix.FcntlInt(uintptr(fd), cmd, arg)
	return err
}
