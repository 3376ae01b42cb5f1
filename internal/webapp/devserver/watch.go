package devserver

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/axiomcore/acore/internal/platform/fsutil"
	"github.com/fsnotify/fsnotify"
)

// watcher watches the directories that hold build inputs. inotify and its
// kin watch one directory at a time, so it adds a watch for every such
// directory, and for each new one as it appears.
type watcher struct {
	root string
	dir  *fsutil.Root // root, opened: directories are listed through it
	fs   *fsnotify.Watcher
	dirs map[string]bool // watched directories, project-relative ("." is the root)
}

func newWatcher(root string) (*watcher, error) {
	dir, err := fsutil.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		dir.Close()
		return nil, err
	}
	w := &watcher{root: root, dir: dir, fs: fw, dirs: map[string]bool{}}
	w.addTree(".")
	return w, nil
}

func (w *watcher) close() error { return errors.Join(w.fs.Close(), w.dir.Close()) }

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
// a contract source, the extern actions, the stylesheet, a contract
// artifact or the lock.
func input(rel string) bool {
	switch {
	case rel == ".axiom/ui.lock":
		return true
	case strings.HasPrefix(rel, ".axiom/dev/contracts/"):
		return strings.HasSuffix(rel, ".axiom")
	case !watchedDir(path.Dir(rel)) || strings.HasPrefix(rel, ".axiom/"):
		return false
	}
	return strings.HasSuffix(rel, ".acore") || strings.HasPrefix(rel, "contracts/") || rel == "web/externs.js" || rel == "web/styles.css"
}

// addTree watches dir and the directories under it that can hold inputs,
// and reports whether it holds any input file already (created before its
// watch was in place, as with `mkdir -p a/b && cp x.acore a/b`). It lists
// directories as the loader does: through the confined root and without
// blocking (a FIFO in a directory's place is no directory), never
// following a symlink out of the root.
func (w *watcher) addTree(dir string) bool {
	if !watchedDir(dir) {
		return false
	}
	f, err := w.dir.OpenDir(dir)
	if err != nil {
		return false // vanished meanwhile, or unreadable: nothing to watch
	}
	// Watched before it is listed: a file created meanwhile is listed or
	// seen.
	if !w.dirs[dir] && w.fs.Add(filepath.Join(w.root, filepath.FromSlash(dir))) == nil {
		w.dirs[dir] = true
	}
	list, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return false
	}
	found := false
	for _, d := range list {
		rel := path.Join(dir, d.Name())
		if d.IsDir() {
			found = w.addTree(rel) || found
		} else {
			found = found || input(rel)
		}
	}
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
