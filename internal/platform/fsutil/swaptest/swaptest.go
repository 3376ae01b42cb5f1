//go:build unix

// Package swaptest races a hostile neighbour against acore's file access,
// for the tests that prove nothing outside a project root is read or
// written: goroutines that keep swapping a file or a directory inside the
// root for a symlink leading outside, or for a FIFO, and back.
package swaptest

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// DurationEnv sets how long each race runs, in seconds (default 2), so a
// longer run can be asked for: ACORE_RACE_SECONDS=60 go test ./...
const DurationEnv = "ACORE_RACE_SECONDS"

// Duration is how long each race runs.
func Duration(t testing.TB) time.Duration {
	if s := os.Getenv(DurationEnv); s != "" {
		n, err := strconv.ParseFloat(s, 64)
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want a positive number of seconds", DurationEnv, s)
		}
		return time.Duration(n * float64(time.Second))
	}
	if testing.Short() {
		return 500 * time.Millisecond
	}
	return 2 * time.Second
}

// Swapper runs swaps in the background until Stop.
type Swapper struct {
	t     testing.TB
	stop  chan struct{}
	wg    sync.WaitGroup
	swaps atomic.Int64
}

// New returns a Swapper with nothing running.
func New(t testing.TB) *Swapper {
	s := &Swapper{t: t, stop: make(chan struct{})}
	t.Cleanup(s.Stop)
	return s
}

// Swaps is the number of swaps done so far.
func (s *Swapper) Swaps() int64 { return s.swaps.Load() }

// Stop ends the swaps and waits for them; the last one is undone first,
// so each swapped name is what it was at the start.
func (s *Swapper) Stop() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.wg.Wait()
}

// hold keeps a swapped state for a moment, so that the other side of the
// race meets each state often.
func hold() { time.Sleep(50 * time.Microsecond) }

// run calls step until Stop, counting the steps that swapped, then undo.
func (s *Swapper) run(step func() bool, undo func()) {
	s.wg.Go(func() {
		defer undo()
		for {
			select {
			case <-s.stop:
				return
			default:
			}
			if step() {
				s.swaps.Add(1)
			}
		}
	})
}

// File keeps replacing the file path (created with content) by a symlink
// to outside, and back, each by an atomic rename.
func (s *Swapper) File(path, content, outside string) {
	s.file(path, content, "link", func(tmp string) error { return os.Symlink(outside, tmp) })
}

// FIFO keeps replacing the file path (created with content) by a FIFO,
// and back.
func (s *Swapper) FIFO(path, content string) {
	s.file(path, content, "fifo", func(tmp string) error { return syscall.Mkfifo(tmp, 0o644) })
}

// file keeps renaming what make creates over path, then a regular file
// with content, and so on.
func (s *Swapper) file(path, content, kind string, make func(tmp string) error) {
	dir, base := filepath.Split(path)
	other, file := filepath.Join(dir, ".swap-"+kind+"-"+base), filepath.Join(dir, ".swap-file-"+base)
	put := func() {
		os.WriteFile(file, []byte(content), 0o644)
		os.Rename(file, path)
	}
	put()
	s.run(func() bool {
		os.Remove(other)
		if err := make(other); err != nil {
			s.t.Errorf("swap in a %s: %v", kind, err)
			return false
		}
		err := os.Rename(other, path)
		hold()
		put()
		hold()
		return err == nil
	}, put)
}

// Dir keeps replacing the directory path by a symlink to outside, and
// back: the directory is renamed aside and the symlink renamed in, then
// the other way round.
func (s *Swapper) Dir(path, outside string) {
	aside, link := path+".swap-real", path+".swap-link"
	back := func() {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			os.Remove(path)
		}
		os.Rename(aside, path)
	}
	s.run(func() bool {
		if err := os.Rename(path, aside); err != nil {
			hold()
			return false
		}
		os.Remove(link)
		os.Symlink(outside, link)
		err := os.Rename(link, path)
		// Each state lasts about as long as an apply's fsync, so the
		// swap often falls between two steps of one apply.
		time.Sleep(500 * time.Microsecond)
		back()
		time.Sleep(500 * time.Microsecond)
		return err == nil
	}, back)
}
