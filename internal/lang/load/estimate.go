package load

import (
	"errors"
	"os"
	"strings"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// errOver ends SourcesOver's walk once the sources pass its bound.
var errOver = errors.New("load: sources over the bound")

// SourcesOver reports whether the .acore files under root total more than
// n bytes, by their stat, stopping as soon as they do. It is an estimate
// for a process deciding how to set itself up before it loads (see
// cmd/acore-semantic): it walks as a load does (the same skipped
// directories, through the confined root, no symlinked directory) but
// reads no file, counts only regular files, and counts nothing it cannot
// list.
func SourcesOver(root string, n int64) bool {
	r, err := fsutil.OpenRoot(root)
	if err != nil {
		return false
	}
	defer r.Close()
	w := &walker{root: root, fs: r}
	var total int64
	err = w.walk(".", func(rel string, in *os.File, name string) error {
		if !strings.HasSuffix(rel, ".acore") {
			return nil
		}
		fi, err := w.lstatEntry(in, rel, name)
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		if total += fi.Size(); total > n {
			return errOver
		}
		return nil
	})
	return errors.Is(err, errOver)
}
