// Package fsutil holds the filesystem primitives every writer in acore goes
// through: project-relative path validation, root-confined resolution and
// atomic file replacement. Centralising them keeps the guarantee "nothing is
// ever written outside the project root" in one audited place.
package fsutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"
)

// StateDir is the project-relative folder of the service's own state:
// persisted snapshots, candidates, request records, the publish journal
// and receipts. Every package that keeps state there names it by this.
const StateDir = ".axiom/state"

// RelPathMaxBytes is the longest project-relative path ValidRelPath accepts.
const RelPathMaxBytes = 1024

// ErrEscape is wrapped by Resolve when a path would land outside the root
// (or when that cannot be ruled out, as with a dangling symlink).
var ErrEscape = errors.New("path escapes the project root")

// ValidRelPath reports whether p is a well-formed project-relative path:
// non-empty, at most RelPathMaxBytes bytes, valid UTF-8, forward slashes
// only, no leading slash, no empty, "." or ".." segment and no control
// character. The error names the rule that failed. The rules make a path
// unambiguous and portable, so it can be compared as a string, printed in
// JSON and line-based formats, and joined under a root without escaping.
func ValidRelPath(p string) error {
	switch {
	case p == "":
		return errors.New("invalid path: empty")
	case len(p) > RelPathMaxBytes:
		return fmt.Errorf("invalid path %.40q...: longer than %d bytes (%d)", p, RelPathMaxBytes, len(p))
	case !utf8.ValidString(p):
		return fmt.Errorf("invalid path %q: not valid UTF-8", p)
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c == 0x7f {
			return fmt.Errorf("invalid path %q: control character 0x%02x at byte %d", p, c, i)
		}
		if c == '\\' {
			return fmt.Errorf("invalid path %q: backslash at byte %d (use forward slashes)", p, i)
		}
	}
	if p[0] == '/' {
		return fmt.Errorf("invalid path %q: leading slash (must be relative to the project root)", p)
	}
	for i, seg := range strings.Split(p, "/") {
		switch seg {
		case "":
			return fmt.Errorf("invalid path %q: empty segment %d", p, i+1)
		case ".":
			return fmt.Errorf("invalid path %q: \".\" segment %d", p, i+1)
		case "..":
			return fmt.Errorf("invalid path %q: \"..\" segment %d", p, i+1)
		}
	}
	return nil
}

// Escapes reports a path that points outside the project root: absolute,
// or with a .. segment.
func Escapes(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\") || (len(p) > 1 && p[1] == ':') {
		return true
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
	}
	return false
}

// Resolve joins the valid relative path rel under root and returns the
// absolute, symlink-resolved path it designates. Symlinks are resolved on
// the longest existing prefix; components that do not exist yet are
// appended literally, so Resolve also works for files about to be created.
// The result must lie inside the symlink-resolved root (or be the root);
// otherwise the error wraps ErrEscape. A dangling symlink along the way also
// wraps ErrEscape, since writing through it could create a file anywhere.
func Resolve(root, rel string) (string, error) {
	if err := ValidRelPath(rel); err != nil {
		return "", err
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("resolve root %q: %w", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(absRoot)
	if err != nil {
		return "", fmt.Errorf("resolve root %q: %w", root, err)
	}

	segs := strings.Split(rel, "/")
	cur := realRoot
	for i, seg := range segs {
		next := filepath.Join(cur, seg)
		fi, err := os.Lstat(next)
		if errors.Is(err, os.ErrNotExist) {
			// Nothing below here exists, so no further symlink can
			// redirect the path: append the rest as written.
			cur = filepath.Join(append([]string{cur}, segs[i:]...)...)
			break
		}
		if err != nil {
			return "", fmt.Errorf("resolve %q: %w", rel, err)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			resolved, err := filepath.EvalSymlinks(next)
			if errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("resolve %q: dangling symlink %q: %w", rel, strings.Join(segs[:i+1], "/"), ErrEscape)
			}
			if err != nil {
				return "", fmt.Errorf("resolve %q: %w", rel, err)
			}
			next = resolved
		}
		cur = next
	}

	if !within(realRoot, cur) {
		return "", fmt.Errorf("resolve %q: resolves to %q, outside %q: %w", rel, cur, realRoot, ErrEscape)
	}
	return cur, nil
}

// within reports whether p is root or lies below it. Both must be clean
// absolute paths.
func within(root, p string) bool {
	if p == root {
		return true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(p, prefix)
}

// testHookBeforeRename, when set by tests, runs after the temp file is
// written and synced, just before the rename; an error aborts the write.
var testHookBeforeRename func(tmp string) error

// WriteFileAtomic replaces path with data so that readers see either the old
// content or the new one, never a partial file, and the new content survives
// a crash once WriteFileAtomic returns. It writes a temp file in the same
// directory (rename is only atomic within one filesystem), fsyncs it, renames
// it over path and fsyncs the directory so the rename itself is durable.
// Missing parent directories are created with mode 0o755. The file gets
// exactly perm (not filtered by the umask). On any failure the temp file is
// removed and the original, if any, is untouched.
//
// WriteFileAtomic does not confine path to a project root; callers pass a
// path obtained from Resolve.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return writeAtomic(path, data, perm, true)
}

// ReplaceFile is WriteFileAtomic without the fsyncs: readers still see the
// old content or the new, and a killed process leaves one or the other,
// but after a power loss the file may be old or empty. It is for state the
// service can rebuild or do without (candidates, request records), where
// the fsyncs would cost milliseconds on every request.
func ReplaceFile(path string, data []byte, perm os.FileMode) error {
	return writeAtomic(path, data, perm, false)
}

func writeAtomic(path string, data []byte, perm os.FileMode, sync bool) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmpName := tmp.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				tmp.Close()
			}
			os.Remove(tmpName)
		}
	}()

	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// CreateTemp uses 0o600; set the requested mode before the file
	// becomes visible under its final name.
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if sync {
		if err := tmp.Sync(); err != nil {
			return fmt.Errorf("write %s: sync: %w", path, err)
		}
	}
	closed = true
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if testHookBeforeRename != nil {
		if err := testHookBeforeRename(tmpName); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !sync {
		return nil
	}
	if err := SyncDir(dir); err != nil {
		// The new content is in place; only its durability is in doubt.
		// Report it, but there is no temp file left to remove.
		return fmt.Errorf("write %s: sync directory: %w", path, err)
	}
	return nil
}

// SyncDir fsyncs a directory so a rename in it is durable. Windows cannot
// open directories for syncing and commits renames itself.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
