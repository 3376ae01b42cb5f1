package load

import (
	"os"
	"path/filepath"
	"strings"
)

// SourcesOver reports whether the .acore files under root total more than
// n bytes, by their directory entries, stopping as soon as they do. It is
// an estimate for a process deciding how to set itself up before it
// loads (see cmd/acore-semantic): it reads no file, follows no symlink,
// skips the directories a load skips, and counts nothing it cannot list.
// Files in a directory are counted before its subdirectories, so a large
// entry module ends the walk early.
func SourcesOver(root string, n int64) bool {
	var total int64
	var visit func(dir string) bool
	visit = func(dir string) bool {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return false
		}
		var subdirs []string
		for _, e := range entries {
			switch {
			case e.Type().IsDir():
				if !skipDir(e.Name()) {
					subdirs = append(subdirs, filepath.Join(dir, e.Name()))
				}
			case e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".acore"):
				if fi, err := e.Info(); err == nil {
					if total += fi.Size(); total > n {
						return true
					}
				}
			}
		}
		for _, d := range subdirs {
			if visit(d) {
				return true
			}
		}
		return false
	}
	return visit(root)
}
