//go:build !linux

package fsutil

import (
	"errors"
	"os"
)

// Exchange is not available here: it wraps errors.ErrUnsupported, and
// callers rename and verify instead.
func (r *Root) Exchange(a, b string) error { return errors.ErrUnsupported }

// ErrOpenForWriting is returned by ReadLease when another open file
// description has the file open for writing.
var ErrOpenForWriting = errors.New("the file is open for writing")

// ReadLease is not available here: ok is false and callers check the
// content instead.
func ReadLease(f *os.File) (release func(), broken func() bool, ok bool, err error) {
	return nil, nil, false, nil
}
