// Package outdir writes a build into an output directory and replaces
// only what an earlier build wrote there. A build recognises its own
// output by a marker, .axiom-build.json, which lists every file it wrote
// with its size and SHA-256; a directory is replaced only when it is
// missing, empty, or holds nothing but the files its marker lists, each as
// it was written. It never replaces a symlink, a file, the project, a
// directory that contains the project, or a place in the project's
// sources. docs/web.md ("axiom build") states the rule.
package outdir

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// MarkerName is the marker's file name, at the top of the output.
const MarkerName = ".axiom-build.json"

// markerFormat is the marker's "format" value.
const markerFormat = "axiom-build/1"

// maxMarkerBytes bounds the marker a check reads: a build's list of a
// few files is far smaller.
const maxMarkerBytes = 1 << 20

// projectDirs are the directories of a project that may hold a build:
// the compiler never reads them (load skips them), so a build there is
// not mistaken for sources.
var projectDirs = []string{"dist", "build"}

// A RefusedError is an output directory that Check or Write will not
// replace. Why says it in words that follow "cannot write DIR: ".
type RefusedError struct {
	Dir string
	Why string
}

func (e *RefusedError) Error() string { return e.Why }

// A KeptError is a build that was written, whose previous build could not
// be removed: it was moved to Path and holds what Err says.
type KeptError struct {
	Path string
	Err  error
}

func (e *KeptError) Error() string {
	return fmt.Sprintf("the previous build, moved to %s, was not removed: %v", e.Path, e.Err)
}

func (e *KeptError) Unwrap() error { return e.Err }

// marker is the content of .axiom-build.json.
type marker struct {
	Format string  `json:"format"`
	Files  []entry `json:"files"`
}

type entry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// target is an output directory as the checks see it.
type target struct {
	dir    string // as given, for messages
	parent string // the real path of its parent, which may not exist yet
	base   string
}

// Check returns the error Write would refuse dir with as the output of
// the project at project, or nil; it changes nothing.
func Check(dir, project string) error {
	t, err := locate(dir, project)
	if err != nil {
		return err
	}
	return t.check()
}

// Write writes files (slash-separated paths relative to dir, and their
// bytes) as the build of the project at project into dir, replacing what
// a previous build wrote there. Everything is written into a temporary
// directory beside dir, its marker last, and then swapped in, so dir is
// always the previous build or the whole new one, and an error leaves dir
// as it was. A refused dir is a *RefusedError, and nothing on disk
// changes. A *KeptError means the new build is in place but the previous
// one could not be removed.
func Write(dir, project string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for n := range files {
		if err := fsutil.ValidRelPath(n); err != nil || n == MarkerName {
			return fmt.Errorf("output file %q is not a file name a build can write", n)
		}
		names = append(names, n)
	}
	slices.Sort(names)
	t, err := locate(dir, project)
	if err != nil {
		return err
	}
	if err := t.check(); err != nil {
		return err
	}
	if err := os.MkdirAll(t.parent, 0o755); err != nil {
		return err
	}
	pr, err := fsutil.OpenRoot(t.parent)
	if err != nil {
		return err
	}
	defer pr.Close()
	tmp, err := t.writeNew(pr, names, files)
	if err != nil {
		return err
	}
	return t.swap(pr, tmp)
}

// check refuses the output directory unless it is missing, empty or a
// previous build.
func (t *target) check() error {
	if _, err := os.Stat(t.parent); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	pr, err := fsutil.OpenRoot(t.parent)
	if err != nil {
		return err
	}
	defer pr.Close()
	_, err = t.verify(pr, t.base)
	return err
}

// locate resolves dir and refuses it when it is a symlink or not a
// directory, or by its place: the project, a directory that contains it,
// or a directory in the project outside its dist/ and build/.
func locate(dir, project string) (*target, error) {
	refuse := func(why string, args ...any) (*target, error) {
		return nil, &RefusedError{Dir: dir, Why: fmt.Sprintf(why, args...)}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	switch fi, err := os.Lstat(abs); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return refuse("it is a symlink; --out names the directory itself, never a symlink to one")
	case fi.Mode().IsRegular():
		return refuse("it is a file, not a directory")
	case !fi.IsDir():
		return refuse("it is %s, not a directory", fsutil.FileType(fi.Mode()))
	}
	proj, err := filepath.Abs(project)
	if err == nil {
		proj, err = filepath.EvalSymlinks(proj)
	}
	if err != nil {
		return nil, fmt.Errorf("the project %s: %w", project, err)
	}
	parent, err := realPath(filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	t := &target{dir: dir, parent: parent, base: filepath.Base(abs)}
	real := filepath.Join(parent, t.base)
	switch {
	case real == proj:
		return refuse("it is the project itself; write the build to its dist/ (the default) or outside it")
	case within(real, proj):
		return refuse("it contains the project %s", proj)
	case within(proj, real):
		rel, err := filepath.Rel(proj, real)
		if err != nil {
			return nil, err
		}
		first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		if !slices.Contains(projectDirs, first) {
			return refuse("it is inside the project %s, outside its dist/ and build/, where a build could replace sources", proj)
		}
	}
	return t, nil
}

// realPath is p with the symlinks of its longest existing prefix
// resolved and the missing rest appended as written.
func realPath(p string) (string, error) {
	cur, rest := p, ""
	for {
		_, err := os.Lstat(cur)
		if err == nil {
			break
		}
		parent := filepath.Dir(cur)
		if !errors.Is(err, fs.ErrNotExist) || parent == cur {
			return "", err
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
	r, err := filepath.EvalSymlinks(cur)
	if err != nil {
		return "", err
	}
	return filepath.Join(r, rest), nil
}

// within reports whether p is root or lies below it; both are clean and
// absolute.
func within(root, p string) bool {
	if p == root {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// verify checks that the entry name of pr may be replaced: missing, an
// empty directory, or a previous build. It returns the previous build's
// marker, nil when there is none.
func (t *target) verify(pr *fsutil.Root, name string) (*marker, error) {
	refuse := func(why string, args ...any) (*marker, error) {
		return nil, &RefusedError{Dir: t.dir, Why: fmt.Sprintf(why, args...)}
	}
	fi, err := pr.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return refuse("it is a symlink; --out names the directory itself, never a symlink to one")
	case !fi.IsDir():
		return refuse("it is not a directory")
	}
	d, err := pr.Dir(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	list, err := d.ReadDir(".")
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, nil
	}
	m, why := readMarker(d)
	if why != "" {
		return refuse("%s", why)
	}
	if why := m.matches(d); why != "" {
		return refuse("%s", why)
	}
	return m, nil
}

// readMarker reads and validates the marker of the directory d, or says
// why there is none.
func readMarker(d *fsutil.Root) (*marker, string) {
	fi, err := d.Lstat(MarkerName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "it is not empty and holds no previous build (no " + MarkerName + "); remove it or write the build elsewhere"
	case err != nil:
		return nil, "cannot read its " + MarkerName + ": " + err.Error()
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, "its " + MarkerName + " is a symlink, which axiom build never writes"
	case !fi.Mode().IsRegular():
		return nil, "its " + MarkerName + " is " + fsutil.FileType(fi.Mode()) + ", which axiom build never writes"
	}
	f, fi, err := d.OpenRegular(MarkerName)
	if err != nil {
		return nil, "cannot read its " + MarkerName + ": " + err.Error()
	}
	defer f.Close()
	if fi.Size() > maxMarkerBytes {
		return nil, fmt.Sprintf("its %s has %d bytes, more than %d: it is no build marker", MarkerName, fi.Size(), maxMarkerBytes)
	}
	data, err := fsutil.ReadAll(io.LimitReader(f, maxMarkerBytes+1), fi.Size())
	if err != nil {
		return nil, "cannot read its " + MarkerName + ": " + err.Error()
	}
	m, err := parseMarker(data)
	if err != nil {
		return nil, "its " + MarkerName + " is no build marker: " + err.Error()
	}
	return m, ""
}

func parseMarker(data []byte) (*marker, error) {
	if len(data) > maxMarkerBytes {
		return nil, fmt.Errorf("more than %d bytes", maxMarkerBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m marker
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the object")
	}
	if m.Format != markerFormat {
		return nil, fmt.Errorf("format %q, want %q", m.Format, markerFormat)
	}
	seen := map[string]bool{}
	for _, e := range m.Files {
		if err := fsutil.ValidRelPath(e.Path); err != nil {
			return nil, err
		}
		switch {
		case e.Path == MarkerName:
			return nil, fmt.Errorf("it lists itself")
		case seen[e.Path]:
			return nil, fmt.Errorf("%s is listed twice", e.Path)
		case e.Size < 0:
			return nil, fmt.Errorf("%s has size %d", e.Path, e.Size)
		case !validSHA256(e.SHA256):
			return nil, fmt.Errorf("%s has sha256 %q, not 64 lowercase hex digits", e.Path, e.SHA256)
		}
		seen[e.Path] = true
	}
	return &m, nil
}

func validSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// dirs returns the directories the marker's files need, deepest first.
func (m *marker) dirs() []string {
	set := map[string]bool{}
	for _, e := range m.Files {
		for d := path.Dir(e.Path); d != "."; d = path.Dir(d) {
			set[d] = true
		}
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b string) int {
		if n := strings.Count(b, "/") - strings.Count(a, "/"); n != 0 {
			return n
		}
		return strings.Compare(a, b)
	})
	return out
}

// matches says why the directory d holds more than, or other than, the
// marker's files as they were written, or returns "". A listed file that
// is missing does not matter: there is nothing of it to lose.
func (m *marker) matches(d *fsutil.Root) string {
	files := map[string]entry{}
	for _, e := range m.Files {
		files[e.Path] = e
	}
	dirs := map[string]bool{}
	for _, dir := range m.dirs() {
		dirs[dir] = true
	}
	var walk func(rel string) string
	walk = func(rel string) string {
		list, err := d.ReadDir(rel)
		if err != nil {
			return "cannot read " + rel + ": " + err.Error()
		}
		for _, de := range list {
			p := path.Join(rel, de.Name())
			switch t := de.Type(); {
			case p == MarkerName:
			case t&fs.ModeSymlink != 0:
				return "it holds " + p + ", a symlink, which axiom build never writes"
			case t.IsDir():
				if !dirs[p] {
					return "it holds " + p + "/, a directory axiom build did not write"
				}
				if why := walk(p); why != "" {
					return why
				}
			default:
				e, ok := files[p]
				if !ok || !t.IsRegular() {
					return "it holds " + p + ", which axiom build did not write"
				}
				if why := unchanged(d, e); why != "" {
					return why
				}
			}
		}
		return ""
	}
	return walk(".")
}

// unchanged says how the file e of d differs from what the build wrote,
// or returns "". It reads at most the size the build wrote, plus one byte.
func unchanged(d *fsutil.Root, e entry) string {
	f, fi, err := d.OpenRegular(e.Path)
	if err != nil {
		return "cannot read " + e.Path + ": " + err.Error()
	}
	defer f.Close()
	changed := e.Path + " changed since axiom build wrote it"
	if fi.Size() != e.Size {
		return changed
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, e.Size+1))
	if err != nil {
		return "cannot read " + e.Path + ": " + err.Error()
	}
	if n != e.Size || hex.EncodeToString(h.Sum(nil)) != e.SHA256 {
		return changed
	}
	return ""
}

// writeNew writes the files and then their marker into a new temporary
// directory of pr named after base, and returns its name. The marker is
// written last, synced and renamed into place, so a directory with a
// marker holds every file it lists, whole.
func (t *target) writeNew(pr *fsutil.Root, names []string, files map[string][]byte) (string, error) {
	tmp := "." + t.base + ".new-" + randomSuffix()
	if err := os.Mkdir(filepath.Join(t.parent, tmp), 0o755); err != nil {
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			_ = pr.RemoveAll(tmp)
		}
	}()
	d, err := pr.Dir(tmp)
	if err != nil {
		return "", err
	}
	defer d.Close()
	m := marker{Format: markerFormat, Files: make([]entry, 0, len(names))}
	for _, n := range names {
		if err := d.MkdirAll(path.Dir(n), 0o755); err != nil {
			return "", err
		}
		if err := d.CreateSynced(n, files[n], 0o644, true); err != nil {
			return "", err
		}
		sum := sha256.Sum256(files[n])
		m.Files = append(m.Files, entry{Path: n, Size: int64(len(files[n])), SHA256: hex.EncodeToString(sum[:])})
	}
	for _, dir := range m.dirs() {
		if err := d.Sync(dir); err != nil {
			return "", err
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	if err := d.WriteFileAtomic(MarkerName, append(data, '\n'), 0o644); err != nil {
		return "", err
	}
	ok = true
	return tmp, nil
}

// swap puts the complete build tmp in the place of t.base and removes
// what it replaced. The replaced entry is checked again once it is out
// of the way, and put back when it no longer verifies (a file was added
// to it meanwhile), so that only what a build wrote is ever removed.
func (t *target) swap(pr *fsutil.Root, tmp string) error {
	discard := func(err error) error {
		_ = pr.RemoveAll(tmp)
		return err
	}
	if _, err := pr.Lstat(t.base); errors.Is(err, fs.ErrNotExist) {
		if err := pr.Rename(tmp, t.base); err != nil {
			return discard(err)
		}
		return pr.Sync(".")
	}
	err := pr.Exchange(tmp, t.base)
	if errors.Is(err, errors.ErrUnsupported) {
		return t.swapByRename(pr, tmp)
	}
	if err != nil {
		return discard(err)
	}
	// tmp now names what t.base named.
	m, err := t.verify(pr, tmp)
	if err != nil {
		if xerr := pr.Exchange(tmp, t.base); xerr != nil {
			return fmt.Errorf("%w; what it held is now at %s, and putting it back failed: %v", err, filepath.Join(t.parent, tmp), xerr)
		}
		return discard(err)
	}
	return t.removeOld(pr, tmp, m)
}

// swapByRename is swap where the file system cannot exchange two names:
// the old entry moves aside before the new build takes its name.
func (t *target) swapByRename(pr *fsutil.Root, tmp string) error {
	old := "." + t.base + ".old-" + randomSuffix()
	if err := pr.Rename(t.base, old); err != nil {
		_ = pr.RemoveAll(tmp)
		return err
	}
	m, err := t.verify(pr, old)
	if err == nil {
		err = pr.Rename(tmp, t.base)
	}
	if err != nil {
		if perr := pr.Rename(old, t.base); perr != nil {
			err = fmt.Errorf("%w; what it held is now at %s, and putting it back failed: %v", err, filepath.Join(t.parent, old), perr)
		}
		_ = pr.RemoveAll(tmp)
		return err
	}
	return t.removeOld(pr, old, m)
}

// removeOld removes the replaced build old: the files its marker lists,
// the marker, their directories and then old itself, each by name and
// never recursively, so that a file added meanwhile stays, with old.
func (t *target) removeOld(pr *fsutil.Root, old string, m *marker) error {
	kept := func(err error) error { return &KeptError{Path: filepath.Join(t.parent, old), Err: err} }
	if m != nil {
		d, err := pr.Dir(old)
		if err != nil {
			return kept(err)
		}
		defer d.Close()
		for _, e := range m.Files {
			if err := d.Remove(e.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return kept(err)
			}
		}
		if err := d.Remove(MarkerName); err != nil {
			return kept(err)
		}
		for _, dir := range m.dirs() {
			if err := d.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return kept(err)
			}
		}
	}
	if err := pr.Remove(old); err != nil {
		return kept(err)
	}
	if err := pr.Sync("."); err != nil {
		return err
	}
	return nil
}

func randomSuffix() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
