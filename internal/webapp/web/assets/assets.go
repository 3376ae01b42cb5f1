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
	"strconv"
	"strings"
	"sync"

	esbuild "github.com/evanw/esbuild/pkg/api"
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

// Minify returns the runtime's source minified with its whole API and
// every feature but hash routing. The result ends with a newline.
func Minify(src string) (string, error) { return minify(src, nil, AllFeatures) }

// Features are what an app does beyond the API names it calls: the
// runtime's code for a feature that is off is not shipped.
type Features struct {
	Hash      bool // hash routing (#/path)
	Params    bool // a route has :parameters or literal arguments
	Nav       bool // the app navigates: a Link or navigate
	ListEnd   bool // a list has on_end_reached
	ListEmpty bool // a list has an empty text
	RowFX     bool // a list has rows with effects (G)
	Confirm   bool // an action asks for confirmation
}

// AllFeatures are the features of the whole runtime: all but hash
// routing, which is a mode, not a feature.
var AllFeatures = Features{Params: true, Nav: true, ListEnd: true, ListEmpty: true, RowFX: true, Confirm: true}

// Or is the features of f and g together.
func (f Features) Or(g Features) Features {
	return Features{f.Hash || g.Hash, f.Params || g.Params, f.Nav || g.Nav, f.ListEnd || g.ListEnd,
		f.ListEmpty || g.ListEmpty, f.RowFX || g.RowFX, f.Confirm || g.Confirm}
}

// define is the minifier's constant for each feature's name in runtime.js.
func (f Features) define() map[string]string {
	b := func(v bool) string { return strconv.FormatBool(v) }
	return map[string]string{
		"HASH": b(f.Hash), "PARAMS": b(f.Params), "NAV": b(f.Nav), "LIST_END": b(f.ListEnd),
		"LIST_EMPTY": b(f.ListEmpty), "ROW_FX": b(f.RowFX), "CONFIRM": b(f.Confirm),
	}
}

type prunedKey struct {
	names string
	f     Features
}

var pruned sync.Map // prunedKey → its runtime

// Runtime returns the runtime minified with only the API names that
// uses reports as used, and what those need, and only the features f
// has: a build ships no code that its app cannot reach. The result is
// cached per set of names and features.
func Runtime(uses func(name string) bool, f Features) (string, error) {
	m := exportList.FindStringSubmatch(runtimeSrc)
	if m == nil {
		return "", fmt.Errorf("runtime.js does not end with its export table")
	}
	var keep []string
	for _, e := range strings.Split(m[1], ",") {
		fs := strings.Fields(e)
		if len(fs) > 0 && uses(fs[len(fs)-1]) {
			keep = append(keep, fs[len(fs)-1])
		}
	}
	key := prunedKey{strings.Join(keep, ","), f}
	if v, ok := pruned.Load(key); ok {
		return v.(string), nil
	}
	out, err := minify(runtimeSrc, func(name string) bool { return slices.Contains(keep, name) }, f)
	if err == nil {
		pruned.Store(key, out)
	}
	return out, err
}

// minify minifies src, a module ending with its export table, keeping
// the exports keep allows (all when keep is nil) and the features f has,
// tree-shaken, and turns
// the module into the statement const {Name, ...} = (() => {...})(), so
// that its private names stay out of the app's scope.
func minify(src string, keep func(string) bool, f Features) (string, error) {
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
	o := minified(f)
	o.Stdin = &esbuild.StdinOptions{Contents: body, Sourcefile: "runtime.js", Loader: esbuild.LoaderJS}
	r := esbuild.Build(o)
	if err := failed("minifying the runtime", r.Errors); err != nil {
		return "", err
	}
	code := strings.TrimSpace(string(r.OutputFiles[0].Contents))
	i := strings.LastIndex(code, "globalThis.acoreAPI=")
	if i < 0 {
		return "", fmt.Errorf("minifying the runtime: the table did not survive")
	}
	table := strings.TrimSuffix(code[i:], ";")
	table = table[strings.Index(table, "=")+1:]
	return "const{" + strings.Join(names, ",") + "}=(()=>{" + code[:i] + "return" + table + "})();\n", nil
}

// minified are the options of both minified forms, the runtime's alone
// and the bundle: an ES2022 module, tree-shaken, with the features f as
// constants, written to memory. The runtime's own properties, whose
// names end in $, get short names: an app's names are ASCII letters,
// digits and _ after an optional leading $ (a field, a prop's $name),
// so none of them ends in $, and neither does a DOM property. The
// properties the runtime sets on DOM nodes do not end in $: a short name
// given to one could be the node's own.
func minified(f Features) esbuild.BuildOptions {
	return esbuild.BuildOptions{
		Write:             false,
		Target:            esbuild.ES2022,
		Format:            esbuild.FormatESModule,
		TreeShaking:       esbuild.TreeShakingTrue,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     esbuild.LegalCommentsNone,
		Charset:           esbuild.CharsetUTF8,
		Define:            f.define(),
		MangleProps:       `[^$]\$$`,
		MangleQuoted:      esbuild.MangleQuotedTrue,
	}
}

// Bundle makes a minified app.js of an app's code and the runtime as one
// module: the code imports the API names it uses, the runtime the names
// the code defines for it (XS, B, AX and R), so that one minifier names
// both by use and drops what neither reaches. head is the code's first
// statements (XS), code the rest; f are the app's features.
func Bundle(head, code string, uses func(name string) bool, f Features) (string, error) {
	m := exportList.FindStringSubmatch(runtimeSrc)
	if m == nil {
		return "", fmt.Errorf("runtime.js does not end with its export table")
	}
	var api []string
	for _, e := range strings.Split(m[1], ",") {
		if fs := strings.Fields(e); len(fs) > 0 && uses(fs[len(fs)-1]) {
			api = append(api, fs[len(fs)-1])
		}
	}
	mods := map[string]string{
		// The entry only runs the app: it exports nothing.
		"main":    `import "acore:app";`,
		"app":     "import {" + strings.Join(api, ",") + "} from \"acore:runtime\";\n" + head + code + "\nexport {XS, B, AX, R};\n",
		"runtime": "import {XS, B, AX, R} from \"acore:app\";\n" + runtimeSrc,
	}
	plugin := esbuild.Plugin{Name: "acore", Setup: func(b esbuild.PluginBuild) {
		b.OnResolve(esbuild.OnResolveOptions{Filter: `^acore:`}, func(a esbuild.OnResolveArgs) (esbuild.OnResolveResult, error) {
			return esbuild.OnResolveResult{Path: strings.TrimPrefix(a.Path, "acore:"), Namespace: "acore"}, nil
		})
		// The project's extern actions stay a module of their own.
		b.OnResolve(esbuild.OnResolveOptions{Filter: `^/externs\.js$`}, func(a esbuild.OnResolveArgs) (esbuild.OnResolveResult, error) {
			return esbuild.OnResolveResult{Path: a.Path, External: true}, nil
		})
		b.OnLoad(esbuild.OnLoadOptions{Filter: `.*`, Namespace: "acore"}, func(a esbuild.OnLoadArgs) (esbuild.OnLoadResult, error) {
			src := mods[a.Path]
			return esbuild.OnLoadResult{Contents: &src, Loader: esbuild.LoaderJS}, nil
		})
	}}
	o := minified(f)
	o.EntryPoints, o.Bundle, o.Outfile, o.Plugins = []string{"acore:main"}, true, "app.js", []esbuild.Plugin{plugin}
	r := esbuild.Build(o)
	if err := failed("bundling app.js", r.Errors); err != nil {
		return "", err
	}
	return again(string(r.OutputFiles[0].Contents), f)
}

// again minifies a minified module once more, with the same options:
// tree shaking leaves the declarations around what it dropped as
// statements of their own, which a second pass joins.
func again(code string, f Features) (string, error) {
	o := minified(f)
	o.Stdin = &esbuild.StdinOptions{Contents: code, Sourcefile: "app.js", Loader: esbuild.LoaderJS}
	r := esbuild.Build(o)
	if err := failed("bundling app.js", r.Errors); err != nil {
		return "", err
	}
	return string(r.OutputFiles[0].Contents), nil
}

// failed is esbuild's errors as one error about what, nil when none.
func failed(what string, errs []esbuild.Message) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := esbuild.FormatMessages(errs, esbuild.FormatMessagesOptions{Kind: esbuild.ErrorMessage})
	return fmt.Errorf("%s: %s", what, strings.Join(msgs, ""))
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
