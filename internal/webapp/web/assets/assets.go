// Package assets holds the web runtime and stylesheet that every build
// embeds, and the minifier that makes the runtime's shipped form.
// runtime.js is the readable source; `go generate` writes runtime.min.js
// with esbuild, and TestMinifiedIsUpToDate checks that the committed file
// is what the source gives.
package assets

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

//go:generate go run ./minify

// RuntimeJS is the minified runtime.
//
//go:embed runtime.min.js
var RuntimeJS string

// AppCSS is the stylesheet.
//
//go:embed app.css
var AppCSS []byte

// Minify returns the runtime's source minified: whitespace, syntax and
// names, for the browsers the app supports. The result ends with a
// newline.
func Minify(src string) (string, error) {
	r := api.Transform(src, api.TransformOptions{
		Sourcefile:        "runtime.js",
		Loader:            api.LoaderJS,
		Target:            api.ES2022,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
	})
	if len(r.Errors) > 0 {
		msgs := api.FormatMessages(r.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return "", fmt.Errorf("minifying the runtime: %s", strings.Join(msgs, ""))
	}
	return string(r.Code), nil
}
