package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/axiomcore/acore/internal/lang/format"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

const fmtUsage = `usage: axiom fmt [--check] [paths...]

Format Acore files in place and print each file rewritten. A path is an
.acore or .axiom file, or a directory whose .acore files are formatted
(recursively, skipping directories named .*, node_modules, dist and
build). paths default to the current directory. A file with syntax errors
is reported and left untouched.

flags:
  --check  write nothing; print the files that would change and exit 1
           if there are any
`

func runFmt(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("fmt", flag.ContinueOnError)
	checkOnly := fset.Bool("check", false, "")
	paths, code, ok := parseArgs(fset, args, fmtUsage, stdout, stderr)
	if !ok {
		return code
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	status := exitOK
	fail := func(err error) {
		fmt.Fprintf(stderr, "axiom fmt: %v\n", err)
		status = exitFail
	}
	seen := map[string]bool{}
	for _, p := range paths {
		files, err := fmtFiles(p)
		if err != nil {
			fail(err)
		}
		for _, f := range files {
			// The same file reached twice ("axiom fmt . main.acore") is
			// formatted once.
			key, err := filepath.Abs(f.target)
			if err != nil {
				key = f.target
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			changed, err := fmtFile(f, *checkOnly, stderr)
			switch {
			case errors.Is(err, errSyntax):
				status = exitFail // the diagnostics are printed
			case err != nil:
				fail(err)
			case changed:
				fmt.Fprintln(stdout, f.path)
				if *checkOnly {
					status = exitFail
				}
			}
		}
	}
	return status
}

// fmtTarget is one file to format: path as shown to the user, target the
// file actually rewritten (different when path is a symlink).
type fmtTarget struct {
	path, target string
}

// fmtFiles returns the files that path names: itself when it is a file,
// its .acore files when it is a directory.
func fmtFiles(path string) ([]fmtTarget, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s: no such file or directory", path)
		}
		return nil, err
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		if !strings.HasSuffix(path, ".acore") && !strings.HasSuffix(path, ".axiom") {
			return nil, fmt.Errorf("%s: not an .acore or .axiom file", path)
		}
		// Rewriting a symlink by rename would replace the link with a
		// plain file; write to what it points at instead.
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, err
		}
		return []fmtTarget{{path, target}}, nil
	}
	var files []fmtTarget
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != path && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		// Only regular files: a symlink met in a walk may lead out of the
		// tree the user named. Contracts (.axiom) are left alone in a walk:
		// the development artifacts are pinned by hash in the UI lock, and
		// the published sources belong to the backend team.
		if d.Type().IsRegular() && strings.HasSuffix(p, ".acore") {
			files = append(files, fmtTarget{p, p})
		}
		return nil
	})
	return files, err
}

// skipDir reports whether a walk must not enter a directory with this
// name. It is the rule internal/lang/load applies to project roots, so that fmt
// touches the files check reads.
func skipDir(name string) bool {
	switch name {
	case "node_modules", "dist", "build":
		return true
	}
	return strings.HasPrefix(name, ".")
}

// errSyntax marks a file left alone because it does not parse; its
// diagnostics are printed already.
var errSyntax = errors.New("syntax errors")

// fmtFile formats one file, rewriting it unless checkOnly, and reports
// whether its formatting changed.
func fmtFile(f fmtTarget, checkOnly bool, stderr io.Writer) (bool, error) {
	fi, err := os.Stat(f.target)
	if err != nil {
		return false, err
	}
	src, err := os.ReadFile(f.target)
	if err != nil {
		return false, err
	}
	tree := syntax.Parse(f.path, src)
	if len(tree.Errors) > 0 {
		// Formatting a tree with skipped source could move or lose text;
		// the user fixes the errors first.
		for _, e := range tree.Errors {
			pos := tree.Position(int(e.Pos))
			fmt.Fprintf(stderr, "%s:%d:%d: error: %s [%s]\n", f.path, pos.Line, pos.Column, e.Msg, e.Code)
		}
		return false, errSyntax
	}
	out, changed, err := format.Check(tree)
	if err != nil {
		return false, fmt.Errorf("%s: %v", f.path, err)
	}
	if !changed || checkOnly {
		return changed, nil
	}
	if err := fsutil.WriteFileAtomic(f.target, out, fi.Mode().Perm()); err != nil {
		return false, err
	}
	return true, nil
}
