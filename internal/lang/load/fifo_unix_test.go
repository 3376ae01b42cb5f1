//go:build unix

package load

import "syscall"

const fsutilNonblock = syscall.O_NONBLOCK

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
