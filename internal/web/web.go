// Package web is a TEMPORARY placeholder with the signatures of
// WEB-CONTRACT.md so that internal/devserver compiles and can be tested
// before the real package lands. It is not to be merged.
package web

import (
	"fmt"
	"os"

	"github.com/axiomcore/acore/internal/check"
	"github.com/axiomcore/acore/internal/diag"
	"github.com/axiomcore/acore/internal/project"
)

// Options configure a build.
type Options struct {
	Backend string
}

// Output is one build, in memory.
type Output struct {
	Files       map[string][]byte
	Diagnostics []diag.Diagnostic
	Failed      bool
}

// Build compiles the project and, when it is validated, returns a trivial page.
func Build(root string, opts Options) (*Output, error) {
	p, err := project.Open(root)
	if err != nil {
		return nil, err
	}
	res := p.Result
	out := &Output{Diagnostics: res.Diagnostics}
	if res.State != check.StateValidated || res.Status != check.StatusReady {
		out.Failed = true
		return out, nil
	}
	var src []byte
	for _, f := range p.Inputs.Sources {
		src = append(src, f.Data...)
	}
	manifest := []byte(`{"axag_version":"1.1.0"}`)
	out.Files = map[string][]byte{
		"index.html":                     []byte("<!doctype html><html><head><meta name=\"axag-manifest\" content=\"/.well-known/axag-manifest.json\"><link rel=\"stylesheet\" href=\"/app.css\"></head><body><div id=\"app\"></div><script type=\"module\" src=\"/app.js\"></script></body></html>\n"),
		"app.js":                         []byte(fmt.Sprintf("document.getElementById(\"app\").textContent = %q;\n", fmt.Sprintf("%d source bytes", len(src)))),
		"app.css":                        []byte("body{font-family:sans-serif}\n"),
		"axag-manifest.json":             manifest,
		".well-known/axag-manifest.json": manifest,
	}
	return out, nil
}

// WriteDir is not implemented by the placeholder.
func (o *Output) WriteDir(dir string) error { return os.ErrInvalid }
