// Package web compiles a validated Acore UI project into a static web app:
// index.html (with the AXAG facts of every action, also inside templates
// that are not shown at first), app.js (the compiled app and its embedded
// runtime, one ES module), app.css, the AXAG manifest and the project's
// extern actions (web/externs.js). docs/web.md describes the output and
// the runtime's semantics.
package web

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/check"
	"github.com/axiomcore/acore/internal/diag"
	"github.com/axiomcore/acore/internal/project"
)

//go:embed assets/runtime.js
var runtimeJS string

//go:embed assets/app.css
var appCSS []byte

// Options configure a build.
type Options struct {
	// Backend is the base URL of contract calls, without a trailing
	// slash; "" calls the origin that serves the app.
	Backend string
	// GeneratedAt is the manifest's generated_at; the zero time writes
	// DefaultGeneratedAt, so that the same sources give the same bytes.
	GeneratedAt time.Time
}

// DefaultGeneratedAt is the manifest's generated_at when Options gives
// none: the AXAG 1.1.0 schema requires the field, and a build must not
// depend on the clock.
var DefaultGeneratedAt = time.Unix(0, 0).UTC()

// Output is one build, in memory.
type Output struct {
	// Files maps slash-separated paths relative to the output directory
	// to their bytes.
	Files map[string][]byte
	// Diagnostics are the compile's (warnings too), then the build's
	// errors.
	Diagnostics []diag.Diagnostic
	// Failed is set when the project is not validated or the build found
	// an error; Files is then nil.
	Failed bool
}

// ExternsPath is the project file that implements extern actions.
const ExternsPath = "web/externs.js"

// Build compiles the project at root. The error is for a root that cannot
// be read at all; a project that does not compile is a Failed output with
// its diagnostics.
func Build(root string, opts Options) (*Output, error) {
	p, err := project.Open(root)
	if err != nil {
		return nil, err
	}
	res := p.Result
	out := &Output{Diagnostics: slices.Clone(res.Diagnostics)}
	if res.State != check.StateValidated || res.Status != check.StatusReady || res.Graph == nil {
		// Such a compile always has an error diagnostic, which says why.
		out.Failed = true
		return out, nil
	}
	opts.Backend = strings.TrimSuffix(opts.Backend, "/")
	g, err := newGen(p, opts)
	if err != nil {
		return nil, err
	}
	externs, berrs := g.linkExterns(root)
	if len(berrs) > 0 {
		out.Diagnostics = append(out.Diagnostics, berrs...)
		out.Failed = true
		return out, nil
	}
	at := opts.GeneratedAt
	if at.IsZero() {
		at = DefaultGeneratedAt
	}
	m, _ := axag.ManifestFor(p, axag.Options{GeneratedAt: at})
	manifest, err := m.JSON(axag.Version110)
	if err != nil {
		return nil, fmt.Errorf("axag manifest: %w", err)
	}
	g.actions(m)
	js, html := g.generate(externs != nil)
	out.Files = map[string][]byte{
		"index.html":                     html,
		"app.js":                         js,
		"app.css":                        appCSS,
		"axag-manifest.json":             manifest,
		".well-known/axag-manifest.json": manifest,
	}
	if externs != nil {
		out.Files["externs.js"] = externs
	}
	return out, nil
}

// WriteDir writes the files into dir: into a temporary directory beside
// it first, which then replaces dir, so that a failure keeps the previous
// build as it was. dir must not exist, be empty, or hold a previous build
// (an index.html and an app.js); its parent is created when missing.
func (o *Output) WriteDir(dir string) error {
	if o.Failed || o.Files == nil {
		return fmt.Errorf("the build failed; nothing to write")
	}
	dir = filepath.Clean(dir)
	if err := replaceable(dir); err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".new-")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(o.Files))
	for n := range o.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if n == "" || path.IsAbs(n) || strings.HasPrefix(path.Clean(n), "..") {
			return fmt.Errorf("output file %q leaves the output directory", n)
		}
		p := filepath.Join(tmp, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, o.Files[n], 0o644); err != nil {
			return err
		}
	}
	// The old build moves aside before the new one takes its name, and
	// comes back when the rename fails.
	old := ""
	if _, err := os.Lstat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			_ = os.Rename(old, dir)
		}
		return err
	}
	ok = true
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// replaceable refuses to replace a directory that is not a build: one
// with entries but without the index.html and app.js a build writes (the
// project itself, a home directory given by mistake).
func replaceable(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	for _, n := range []string{"index.html", "app.js"} {
		if st, err := os.Lstat(filepath.Join(dir, n)); err != nil || !st.Mode().IsRegular() {
			return fmt.Errorf("%s is not empty and holds no previous build (no %s); remove it or write the build elsewhere", dir, n)
		}
	}
	return nil
}

// jsString writes s as a JavaScript string literal: JSON, without the
// HTML escaping a script file does not need.
func jsString(s string) string {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return "\"" + s + "\""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
