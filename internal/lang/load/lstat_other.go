//go:build !linux && !darwin

package load

import (
	"io/fs"
	"os"
)

// lstatEntry returns the metadata of rel, not following a symlink,
// through the confined root.
func (w *walker) lstatEntry(_ *os.File, rel, _ string) (fs.FileInfo, error) {
	return w.fs.Lstat(rel)
}
