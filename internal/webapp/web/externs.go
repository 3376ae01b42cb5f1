package web

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// MaxExternsBytes bounds web/externs.js.
const MaxExternsBytes = 1 << 20

// linkExterns reads web/externs.js when the project declares extern
// actions and checks that it exports each of them. It returns the file's
// bytes (nil when no extern is declared) and the build errors: AC601 at
// each extern declaration that the module does not implement.
func (g *gen) linkExterns(root string) ([]byte, []diag.Diagnostic) {
	var decls []*externRef
	for _, f := range g.sources {
		for _, d := range f.Decls {
			if x, ok := d.(*syntax.ExternDecl); ok {
				decls = append(decls, g.externs[x.Name.Name])
			}
		}
	}
	if len(decls) == 0 {
		return nil, nil
	}
	data, why, notRead := readExterns(root)
	exports := Exports(data)
	var ds []diag.Diagnostic
	if notRead {
		// The file the compiler would not read as a source is reported
		// as the compiler reports those (AC506), before the errors it
		// causes.
		ds = append(ds, diag.Diagnostic{Code: diag.FileNotRead, Severity: diag.Warning, Path: ExternsPath, Line: 1, Column: 1,
			Message: fmt.Sprintf("%q was not read: %s", ExternsPath, why)})
	}
	for _, x := range decls {
		name := x.d.Name.Name
		msg := ""
		switch {
		case why != "":
			msg = fmt.Sprintf("extern action %s has no implementation: %s; export a function %s from it", name, why, name)
		case !slices.Contains(exports, name):
			msg = fmt.Sprintf("extern action %s is not exported by %s; add export function %s({...}) { ... }", name, ExternsPath, name)
		default:
			continue
		}
		at := x.f.Position(int(x.d.Name.Pos))
		ds = append(ds, diag.Diagnostic{Code: diag.ExternNotExported, Severity: diag.Error, Path: x.f.Path, Line: at.Line, Column: at.Column,
			Length: len(name), Message: msg, Pos: int(x.d.Name.Pos), End: int(x.d.Name.End)})
	}
	return data, ds
}

// readExterns reads web/externs.js (see readProjectFile).
func readExterns(root string) (data []byte, why string, notRead bool) {
	data, why, notRead, _ = readProjectFile(root, ExternsPath, MaxExternsBytes)
	return data, why, notRead
}

// readProjectFile reads the file rel of the project's web folder as the
// loader reads a source: through the confined root, so that a symlink
// leading outside the project is refused; never through a symlinked
// directory; opened without blocking (a FIFO) and only when it is a
// regular file; and never more than limit and one byte of it (a device, a
// file that grows). When the file cannot be used, why says so, missing
// tells a file that is not there, and notRead the refusals the loader
// lists as not read.
func readProjectFile(root, rel string, limit int64) (data []byte, why string, notRead, missing bool) {
	r, err := fsutil.OpenRoot(root)
	if err != nil {
		return nil, "cannot read " + rel + ": " + err.Error(), false, false
	}
	defer r.Close()
	dir := path.Dir(rel)
	switch fi, err := r.Lstat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, rel + " does not exist", false, true
	case err != nil:
		return nil, "cannot read " + rel + ": " + err.Error(), false, false
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, dir + " is a symlink, and symlinked directories are not followed", true, false
	case !fi.IsDir():
		return nil, rel + " does not exist (" + dir + " is not a directory)", false, true
	}
	switch fi, err := r.Lstat(rel); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, rel + " does not exist", false, true
	case err != nil:
		return nil, "cannot read " + rel + ": " + err.Error(), false, false
	case fi.Mode()&fs.ModeSymlink != 0:
		switch _, err := r.Stat(rel); {
		case errors.Is(err, fsutil.ErrEscape):
			return nil, rel + " is a symlink that points outside the project root", true, false
		case err != nil:
			return nil, rel + " is a symlink that leads nowhere readable: " + err.Error(), true, false
		}
	}
	f, fi, err := r.OpenRegular(rel)
	switch {
	case errors.Is(err, fsutil.ErrEscape):
		return nil, rel + " is a symlink that points outside the project root", true, false
	case errors.Is(err, fsutil.ErrNotRegular):
		return nil, rel + " is not a regular file", true, false
	case errors.Is(err, fs.ErrNotExist):
		return nil, rel + " does not exist", false, true
	case err != nil:
		return nil, "cannot read " + rel + ": " + err.Error(), false, false
	}
	defer f.Close()
	tooBig := func(n int64) string {
		return fmt.Sprintf("%s has %d bytes, more than %d", rel, n, limit)
	}
	if fi.Size() > limit {
		return nil, tooBig(fi.Size()), false, false
	}
	data, err = fsutil.ReadAll(io.LimitReader(f, limit+1), fi.Size())
	switch {
	case err != nil:
		return nil, "cannot read " + rel + ": " + err.Error(), false, false
	case int64(len(data)) > limit:
		return nil, tooBig(int64(len(data))), false, false
	}
	return data, "", false, false
}

var (
	exportDecl = regexp.MustCompile(`(?m)\bexport\s+(?:async\s+)?(?:function\s*\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)`)
	exportList = regexp.MustCompile(`\bexport\s*\{([^}]*)\}`)
)

// Exports lists the names a JavaScript module exports, read by a small
// scanner of `export function name`, `export async function name`,
// `export const|let|var|class name` and `export { a, b as c }`, after
// comments are removed. It does not run or parse the module: names
// exported in other ways (export default, export * from, destructuring)
// are not seen (docs/web.md, "Extern actions").
func Exports(src []byte) []string {
	s := stripComments(string(src))
	var out []string
	for _, m := range exportDecl.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	for _, m := range exportList.FindAllStringSubmatch(s, -1) {
		for _, part := range strings.Split(m[1], ",") {
			f := strings.Fields(part)
			switch {
			case len(f) == 1:
				out = append(out, f[0])
			case len(f) == 3 && f[1] == "as":
				out = append(out, strings.Trim(f[2], `"'`))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// stripComments removes // and /* */ comments and the content of
// string literals.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			// A string's content is blanked: text that looks like an
			// export inside it is not one.
			b.WriteByte(c)
			b.WriteString(strings.Repeat(" ", max(0, min(j, len(s))-i-1)))
			if j < len(s) {
				b.WriteByte(c)
			}
			i = j
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
