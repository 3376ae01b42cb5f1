package devserver

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// watcher watches the directories that hold build inputs. inotify and its
// kin watch one directory at a time, so it adds a watch for every such
// directory, and for each new one as it appears.
type watcher struct {
	root string
	fs   *fsnotify.Watcher
	dirs map[string]bool // watched directories, project-relative ("." is the root)
}

func newWatcher(root string) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher{root: root, fs: fw, dirs: map[string]bool{}}
	w.addTree(".")
	return w, nil
}

func (w *watcher) close() error { return w.fs.Close() }

// watchedDir reports whether a directory can hold build inputs. It follows
// the loader's walk (hidden directories, node_modules, dist and build are
// not sources) and adds the parts of .axiom that are inputs: the lock in
// .axiom and the contract artifacts in .axiom/dev/contracts. The rest of
// .axiom/dev (the development database) and .axiom/state are not.
func watchedDir(rel string) bool {
	if rel == "." {
		return true
	}
	if rel == ".axiom" || rel == ".axiom/dev" || rel == ".axiom/dev/contracts" || strings.HasPrefix(rel, ".axiom/dev/contracts/") {
		return true
	}
	for part := range strings.SplitSeq(rel, "/") {
		switch {
		case part == "node_modules", part == "dist", part == "build", strings.HasPrefix(part, "."):
			return false
		}
	}
	return true
}

// input reports whether the file at rel is a build input: an .acore source,
// a contract source, the extern actions, a contract artifact or the lock.
func input(rel string) bool {
	switch {
	case rel == ".axiom/ui.lock":
		return true
	case strings.HasPrefix(rel, ".axiom/dev/contracts/"):
		return strings.HasSuffix(rel, ".axiom")
	case !watchedDir(path.Dir(rel)) || strings.HasPrefix(rel, ".axiom/"):
		return false
	}
	return strings.HasSuffix(rel, ".acore") || strings.HasPrefix(rel, "contracts/") || rel == "web/externs.js"
}

// addTree watches dir and the directories under it that can hold inputs,
// and reports whether it holds any input file already (created before its
// watch was in place, as with `mkdir -p a/b && cp x.acore a/b`).
func (w *watcher) addTree(dir string) bool {
	found := false
	filepath.WalkDir(filepath.Join(w.root, filepath.FromSlash(dir)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // vanished meanwhile, or unreadable: nothing to watch
		}
		rel := w.rel(p)
		if !d.IsDir() {
			found = found || input(rel)
			return nil
		}
		if !watchedDir(rel) {
			return filepath.SkipDir
		}
		if !w.dirs[rel] && w.fs.Add(p) == nil {
			w.dirs[rel] = true
		}
		return nil
	})
	return found
}

// forget drops the watches of dir and the directories under it, which was
// removed or moved away.
func (w *watcher) forget(dir string) {
	for rel := range w.dirs {
		if rel == dir || strings.HasPrefix(rel, dir+"/") {
			w.fs.Remove(filepath.Join(w.root, filepath.FromSlash(rel)))
			delete(w.dirs, rel)
		}
	}
}

func (w *watcher) rel(p string) string {
	r, err := filepath.Rel(w.root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

// handle updates the watches after ev and returns the changed inputs it
// reports (a directory stands for the inputs in it).
func (w *watcher) handle(ev fsnotify.Event) []string {
	if ev.Op == fsnotify.Chmod {
		return nil
	}
	rel := w.rel(ev.Name)
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			if watchedDir(rel) && w.addTree(rel) {
				return []string{rel}
			}
			return nil
		}
	}
	if (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) && w.dirs[rel] {
		w.forget(rel)
		return []string{rel}
	}
	if input(rel) {
		return []string{rel}
	}
	return nil
}
