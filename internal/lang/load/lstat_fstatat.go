//go:build linux || darwin

package load

import (
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lstatEntry returns the metadata of the entry name of the open directory
// dir (rel in the project), not following a symlink: one fstatat on the
// directory's descriptor, where a path through the root costs opening
// every directory on the way again. A single path element cannot leave
// the directory, and a stat never blocks.
func (w *walker) lstatEntry(dir *os.File, rel, name string) (fs.FileInfo, error) {
	rc, err := dir.SyscallConn()
	if err != nil {
		return w.fs.Lstat(rel)
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}); err != nil {
		return w.fs.Lstat(rel)
	}
	if serr != nil {
		return nil, &fs.PathError{Op: "lstat", Path: rel, Err: serr}
	}
	return statInfo{name: name, st: st}, nil
}

// statInfo is an fs.FileInfo from a unix.Stat_t.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s statInfo) Name() string       { return s.name }
func (s statInfo) Size() int64        { return s.st.Size }
func (s statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s statInfo) Sys() any           { return &s.st }

func (s statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	case unix.S_IFREG:
	default:
		m |= fs.ModeIrregular
	}
	return m
}
