package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/webapp/outdir"
	"github.com/axiomcore/acore/internal/webapp/web"
)

const buildUsage = `usage: axiom build [dir] [--out DIR] [--backend URL]

Compile the validated project in dir into a static web app: index.html,
app.js, app.css (the theme, unless the app takes theme: "none"),
axag-manifest.json (also under .well-known/) and, when the project declares
extern actions, externs.js (a copy of web/externs.js).
dir defaults to the current directory. Serve the output with any static file
server that answers unknown paths with index.html; docs/web.md describes it.

A project that is not validated prints its diagnostics as
path:line:col: severity: message [code], exits with status 1 and writes
nothing: the previous build stays as it was. What the AXAG rules find in the
manifest is printed too (as axag validate prints it); the app is built all
the same, and axiom check fails on its errors.

flags:
  --out DIR      the output directory (default <dir>/dist); it is replaced
                 when it is missing, empty or holds a previous build
                 unchanged (the files its .axiom-build.json lists), and
                 refused otherwise: a symlink, a file, the project or a
                 directory containing it, a directory in the project
                 outside its dist/ and build/, or one with other files
  --backend URL  the base URL of contract calls: http(s)://host[/path], or a
                 path such as /api on the serving origin (default: the
                 serving origin)

SOURCE_DATE_EPOCH, when set, is the manifest's generated_at; otherwise it
is 1970-01-01T00:00:00Z, so that the same sources give the same bytes.
`

func runBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	out := fs.String("out", "", "")
	backend := fs.String("backend", "", "")
	pos, code, ok := parseArgs(fs, args, buildUsage, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 1 {
		return usageError(stderr, "build", "expected at most one directory", buildUsage)
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	if msg := notADir(dir); msg != "" {
		fmt.Fprintf(stderr, "axiom build: %s\n", msg)
		return exitFail
	}
	if msg := checkBackend(*backend); msg != "" {
		return usageError(stderr, "build", msg, buildUsage)
	}
	opts := web.Options{Backend: strings.TrimSuffix(*backend, "/"), Minify: true}
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return usageError(stderr, "build", fmt.Sprintf("SOURCE_DATE_EPOCH %q is not a number of seconds", s), buildUsage)
		}
		opts.GeneratedAt = time.Unix(n, 0).UTC()
	}
	dest := *out
	if dest == "" {
		dest = filepath.Join(dir, "dist")
	}
	// A refused --out is said before the compile, and again by the write
	// if it changed meanwhile.
	if err := outdir.Check(dest, dir); err != nil {
		fmt.Fprintf(stderr, "axiom build: cannot write %s: %v\n", dest, err)
		return exitFail
	}
	res, err := web.Build(dir, opts)
	if err != nil {
		fmt.Fprintf(stderr, "axiom build: %v\n", err)
		return exitFail
	}
	for _, d := range res.Diagnostics {
		printDiagnostic(stdout, d)
	}
	nerr, nwarn := diag.Count(res.Diagnostics)
	if res.Failed {
		fmt.Fprintf(stdout, "%s: not built, %s, %s\n", filepath.Base(absRoot(dir)), plural(nerr, "error"), plural(nwarn, "warning"))
		return exitFail
	}
	var kept *outdir.KeptError
	switch err := outdir.Write(dest, dir, res.Files); {
	case errors.As(err, &kept):
		fmt.Fprintf(stderr, "axiom build: %v\n", err)
	case err != nil:
		fmt.Fprintf(stderr, "axiom build: cannot write %s: %v\n", dest, err)
		return exitFail
	}
	// The page is what a browser loads for it: index.html and the
	// scripts and stylesheets beside it (app.js, app.css, the project's
	// styles.css and externs.js).
	size := 0
	for n, b := range res.Files {
		if !strings.Contains(n, "/") && slices.Contains([]string{".html", ".js", ".css"}, filepath.Ext(n)) {
			size += len(b)
		}
	}
	for _, f := range res.Findings {
		printFinding(stdout, res.Inputs, f)
	}
	more, _ := axagSummary(res.Findings)
	fmt.Fprintf(stdout, "%s: built %s (%d files, page %d bytes), %s%s\n", filepath.Base(absRoot(dir)), dest, len(res.Files), size, plural(nwarn, "warning"), more)
	return exitOK
}

// checkBackend returns why a --backend value cannot be the base of
// contract calls, or "" when it can: an http or https URL with a host, or
// a path on the serving origin.
func checkBackend(b string) string {
	if b == "" || strings.HasPrefix(b, "/") && !strings.HasPrefix(b, "//") {
		return ""
	}
	u, err := url.Parse(b)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Sprintf("--backend %q: want an http or https URL such as https://api.example.com, or a path such as /api", b)
	}
	return ""
}
