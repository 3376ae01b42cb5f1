// Package web compiles a validated Acore UI project into a static web app:
// index.html (with the AXAG facts of every action, also inside templates
// that are not shown at first), app.js (the compiled app and its embedded
// runtime, one ES module), app.css (unless the app's theme is "none"), the AXAG manifest, the project's
// extern actions (web/externs.js) and its stylesheet (web/styles.css). docs/web.md describes the output and
// the runtime's semantics.
package web

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/webapp/web/assets"
)

// The runtime (minified from assets/runtime.js) and the stylesheet.
var (
	runtimeJS = assets.RuntimeJS
	appCSS    = assets.AppCSS
)

// Options configure a build.
type Options struct {
	// Backend is the base URL of contract calls, without a trailing
	// slash; "" calls the origin that serves the app.
	Backend string
	// GeneratedAt is the manifest's generated_at; the zero time writes
	// DefaultGeneratedAt, so that the same sources give the same bytes.
	GeneratedAt time.Time
	// Minify minifies the app's code too (axiom build); without it only
	// the runtime is, and the code stays as readable as the goldens show
	// it (axiom dev).
	Minify bool
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
	// Findings are what the AXAG rules find in the manifest written
	// (axag.RuleFindings): the build writes it all the same.
	Findings []axag.Finding
	// Inputs are the files compiled, for showing a finding in the file
	// people edit (load.Inputs.ContractSource).
	Inputs *load.Inputs
	// Failed is set when the project is not validated or the build found
	// an error; Files is then nil.
	Failed bool
	// Routes are the app's route paths, for a server that answers them
	// with index.html (MatchRoute).
	Routes []string
}

// theme is the stylesheet with the rules of the theme classes that the
// app's markup and code name (assets.Theme): every element, and every
// class the runtime gives, is made by one of them. Code that makes a
// theme class from a value (a Text's style) keeps the whole theme.
func theme(js, html []byte) []byte {
	if bytes.Contains(js, []byte(`"ac-"`)) {
		return appCSS
	}
	used := map[string]bool{}
	for _, b := range [][]byte{js, html} {
		for _, m := range themeClass.FindAll(b, -1) {
			used[string(m)] = true
		}
	}
	// An element is made by a string of its tag in app.js or is a tag of
	// index.html.
	for _, m := range jsTag.FindAllSubmatch(js, -1) {
		used[string(m[1])] = true
	}
	for _, m := range htmlTag.FindAllSubmatch(html, -1) {
		used[string(m[1])] = true
	}
	return assets.Theme(func(c string) bool { return used[c] })
}

var (
	themeClass = regexp.MustCompile(`ac-[A-Za-z0-9_-]+`)
	jsTag      = regexp.MustCompile(`"([a-z][a-z0-9]*)"`)
	htmlTag    = regexp.MustCompile(`<([a-z][a-z0-9]*)`)
)

// ExternsPath is the project file that implements extern actions.
const ExternsPath = "web/externs.js"

// Build compiles the project at root. The error is for a root that cannot
// be read at all; a project that does not compile is a Failed output with
// its diagnostics.
func Build(root string, opts Options) (*Output, error) {
	// One compile, which records what the generator and the manifest read.
	p, err := project.Options{Record: true}.Open(root)
	if err != nil {
		return nil, err
	}
	res := p.Result
	out := &Output{Diagnostics: slices.Clone(res.Diagnostics), Inputs: p.Inputs}
	if res.State != check.StateValidated || res.Status != check.StatusReady || res.Graph == nil {
		// Such a compile always has an error diagnostic, which says why.
		out.Failed = true
		return out, nil
	}
	opts.Backend = strings.TrimSuffix(opts.Backend, "/")
	g, err := newGen(p.Recorded(), opts)
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
	m, fs := axag.ManifestFor(p, axag.Options{GeneratedAt: at})
	out.Findings = axag.RuleFindings(fs)
	manifest, err := m.JSON(axag.Version110)
	if err != nil {
		return nil, fmt.Errorf("axag manifest: %w", err)
	}
	g.actions(m)
	styles, sdiags := readStyles(root)
	out.Diagnostics = append(out.Diagnostics, sdiags...)
	g.styles = styles != nil
	js, shipped, html, err := g.generate(externs != nil)
	if err != nil {
		return nil, err
	}
	out.Files = map[string][]byte{
		"index.html":                     html,
		"app.js":                         shipped,
		"axag-manifest.json":             manifest,
		".well-known/axag-manifest.json": manifest,
	}
	// An app with theme "none" brings its whole design in web/styles.css.
	if check.Theme(g.app()) != check.ThemeNone {
		out.Files["app.css"] = theme(js, html)
	}
	if externs != nil {
		out.Files["externs.js"] = externs
	}
	if styles != nil {
		out.Files["styles.css"] = styles
	}
	if a := g.app(); a != nil {
		for _, r := range a.Routes {
			out.Routes = append(out.Routes, r.Path.Value)
		}
	}
	return out, nil
}
