// Package assets holds the web runtime and stylesheet that every build
// embeds, and the minifier that makes the runtime's shipped form.
// runtime.js is the readable source; `go generate` writes runtime.min.js
// with esbuild, and TestMinifiedIsUpToDate checks that the committed file
// is what the source gives.
package assets

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

//go:generate go run ./minify

// RuntimeJS is the minified runtime with its whole API.
//
//go:embed runtime.min.js
var RuntimeJS string

//go:embed runtime.js
var runtimeSrc string

// AppCSS is the stylesheet.
//
//go:embed app.css
var AppCSS []byte

// exportList is the table at the end of runtime.js: export {local as Name, ...}.
var exportList = regexp.MustCompile(`(?s)\nexport \{(.*?)\};\s*$`)

// Minify returns the runtime's source minified with its whole API. The
// result ends with a newline.
func Minify(src string) (string, error) { return minify(src, nil) }

var pruned sync.Map // the API names an app uses, joined → its runtime

// Runtime returns the runtime minified with only the API names that
// uses reports as used, and what those need: a build ships no code that
// its app cannot reach. The result is cached per set of names.
func Runtime(uses func(name string) bool) (string, error) {
	m := exportList.FindStringSubmatch(runtimeSrc)
	if m == nil {
		return "", fmt.Errorf("runtime.js does not end with its export table")
	}
	var keep []string
	for _, e := range strings.Split(m[1], ",") {
		f := strings.Fields(e)
		if len(f) > 0 && uses(f[len(f)-1]) {
			keep = append(keep, f[len(f)-1])
		}
	}
	key := strings.Join(keep, ",")
	if v, ok := pruned.Load(key); ok {
		return v.(string), nil
	}
	out, err := minify(runtimeSrc, func(name string) bool { return slices.Contains(keep, name) })
	if err == nil {
		pruned.Store(key, out)
	}
	return out, err
}

// minify minifies src, a module ending with its export table, keeping
// the exports keep allows (all when keep is nil), tree-shaken, and turns
// the module into the statement const {Name, ...} = (() => {...})(), so
// that its private names stay out of the app's scope.
func minify(src string, keep func(string) bool) (string, error) {
	m := exportList.FindStringSubmatchIndex(src)
	if m == nil {
		return "", fmt.Errorf("minifying the runtime: it does not end with its export table")
	}
	var names, kept []string
	for _, e := range strings.Split(src[m[2]:m[3]], ",") {
		f := strings.Fields(e)
		if len(f) == 0 {
			continue
		}
		if name := f[len(f)-1]; keep == nil || keep(name) {
			names = append(names, name)
			kept = append(kept, strings.Join(f, " "))
		}
	}
	// The table as an object the module's body returns: the minifier
	// keeps what it reaches and renames the rest.
	body := src[:m[0]] + "\nglobalThis.acoreAPI = {" + strings.NewReplacer(" as ", ":").Replace(strings.Join(swapAs(kept), ",")) + "};\n"
	r := api.Transform(body, api.TransformOptions{
		Sourcefile:        "runtime.js",
		Loader:            api.LoaderJS,
		Target:            api.ES2022,
		Format:            api.FormatESModule,
		TreeShaking:       api.TreeShakingTrue,
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
	code := strings.TrimSpace(string(r.Code))
	i := strings.LastIndex(code, "globalThis.acoreAPI=")
	if i < 0 {
		return "", fmt.Errorf("minifying the runtime: the table did not survive")
	}
	table := strings.TrimSuffix(code[i:], ";")
	table = table[strings.Index(table, "=")+1:]
	return "const{" + strings.Join(names, ",") + "}=(()=>{" + code[:i] + "return" + table + "})();\n", nil
}

// swapAs turns "local as Name" into "Name as local", the order of an
// object's property and value.
func swapAs(es []string) []string {
	out := make([]string, len(es))
	for i, e := range es {
		if a, b, ok := strings.Cut(e, " as "); ok {
			out[i] = b + " as " + a
		} else {
			out[i] = e
		}
	}
	return out
}
