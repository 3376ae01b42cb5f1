package web

import (
	"regexp"
	"slices"

	"github.com/axiomcore/acore/internal/webapp/web/assets"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// The runtime's API towards the generated code: the names of the table at
// the head of assets/runtime.js, which docs/web.md ("The runtime's API")
// describes. The generated code calls nothing else of the runtime;
// TestRuntimeAPI checks that the runtime defines each of them.
var (
	rtSignal      = js.Id("S")    // S(v): a signal
	rtDerived     = js.Id("D")    // D(f): a derived value (let)
	rtQuery       = js.Id("Q")    // Q(contract, op, args, empty): a query
	rtMutation    = js.Id("M")    // M(contract, op, args): a mutation
	rtExtern      = js.Id("X")    // X(name, args): run an extern action
	rtSelector    = js.Id("SEL")  // SEL(state): sel(k) is state == k, rerunning only the readers of the old and new key
	rtNavigate    = js.Id("nav")  // nav(path)
	rtElement     = js.Id("h")    // h(tag, attrs, parent, id, text): a new element
	rtAction      = js.Id("ax")   // ax(el, i): set AXAG action i's attributes
	rtText        = js.Id("str")  // str(v): Acore text of a value
	rtDiv         = js.Id("dv")   // dv(a, b): integer division
	rtRem         = js.Id("md")   // md(a, b): integer remainder
	rtLength      = js.Id("len")  // len(s): String length in scalars
	rtCount       = js.Id("cnt")  // cnt(xs): list count
	rtIsEmpty     = js.Id("emp")  // emp(x): is_empty
	rtEqual       = js.Id("eq")   // eq(a, b): structural equality
	rtBindText    = js.Id("tx")   // tx(el, f): textContent follows f
	rtBindProp    = js.Id("pr")   // pr(el, name, f): a DOM property follows f
	rtBindStyle   = js.Id("st")   // st(el, name, f, unit): a style follows f
	rtBindAttr    = js.Id("at")   // at(el, name, f), rule): an attribute follows f, a URL only when rule allows it
	rtRoutePath   = js.Id("rp")   // rp(v): the rule of a Link's href (docs/web.md, "URLs")
	rtImageSource = js.Id("ri")   // ri(v): the rule of an Image's src
	rtOn          = js.Id("on")   // on(el, event, f): a handler
	rtOnKey       = js.Id("ky")   // ky(el, f, key, mod): a key (Enter unless given; with Ctrl or ⌘ when mod) runs f
	rtBindValue   = js.Id("bv")   // bv(el, f, state, change): a field's value
	rtBindCheck   = js.Id("bc")   // bc(el, f, state, change): a checkbox
	rtOptions     = js.Id("opts") // opts(el, f): a Select's options
	rtLink        = js.Id("lk")   // lk(a): a link navigates in the app
	rtList        = js.Id("L")    // L(ul, items, key, rows, empty, end): a keyed list of G or PL rows
	rtGeneral     = js.Id("G")    // G(render): rows whose bindings are effects; render(li, item) draws one
	rtPlain       = js.Id("PL")   // PL(proto, update, handlers, selections): rows without effects (rows.go)
	rtIf          = js.Id("IF")   // IF(el, [cond, render, ...])
	rtFlex        = js.Id("FX")   // FX[value]: a flex alignment's CSS
	rtShow        = js.Id("show") // show(focus): render the current route
	rtIndex       = js.Id("ix")   // ix(xs, i): xs[i] or null
	rtLast        = js.Id("la")   // la(xs): the last element or null
	rtConcat      = js.Id("ca")   // ca(xs, ys): list concatenation
	rtSortBy      = js.Id("srt")  // srt(xs, f): a stable sort by key
	rtTake        = js.Id("tk")   // tk(xs, n): the first n
	rtFind        = js.Id("fd")   // fd(xs, f): the first match or null
	rtFixed       = js.Id("fx")   // fx(n, d): n with d decimals
	rtReplace     = js.Id("rpl")  // rpl(s, a, b): every a replaced by b
	rtSplit       = js.Id("spl")  // spl(s, sep): the parts
	rtWith        = js.Id("wi")   // wi(r, changes): a copy with changes
	rtPersist     = js.Id("PS")   // PS(key, v, type): a signal kept in localStorage
	rtBindClass   = js.Id("cl")   // cl(el, f): the class names f gives are added to the element's
	rtAutofocus   = js.Id("af")   // af(el, f): the element takes the focus when f() holds
	rtRouteURL    = js.Id("pth")  // pth(path, args): a route's URL with its parameters
	rtHashPath    = js.Id("rh")   // rh(v): the rule of a Link's href under hash routing
	rtWriteText   = js.Id("wt")   // wt(el, v): a row's text, written when it differs
	rtWriteClass  = js.Id("wc")   // wc(el, own, v): a row's class names after its own, written when they differ
)

// The names the generated code defines for the runtime.
var (
	genExterns = js.Id("XS") // the module's extern actions
	genBackend = js.Id("B")  // the backend's base URL
	genActions = js.Id("AX") // AXAG attribute sets
	genRoutes  = js.Id("R")  // [path, page function, arguments, Int parameters] per route
)

// runtimeAPI lists the runtime's names, for TestRuntimeAPI.
var runtimeAPI = []*js.Ident{rtSignal, rtQuery, rtMutation, rtExtern, rtNavigate, rtElement, rtAction, rtText, rtDiv, rtRem,
	rtLength, rtCount, rtIsEmpty, rtEqual, rtBindText, rtBindProp, rtBindStyle, rtBindAttr, rtRoutePath, rtImageSource, rtOn, rtOnKey, rtBindValue,
	rtBindCheck, rtOptions, rtLink, rtList, rtIf, rtFlex, rtShow,
	rtDerived, rtIndex, rtLast, rtConcat, rtSortBy, rtTake, rtFind, rtFixed, rtReplace, rtSplit, rtWith, rtPersist, rtBindClass, rtAutofocus, rtRouteURL, rtHashPath, rtSelector, rtWriteText, rtWriteClass, rtGeneral, rtPlain}

var jsIdent = regexp.MustCompile(`[A-Za-z_$][\w$]*`)

// appJS is app.js of the printed code after its head: the runtime for
// the API names that occur in the code as a word (a name in a string or
// after a dot only keeps more than is needed, never less) and what they
// need, with the features f the generator recorded (the app navigates
// when it names nav or lk). With min, the runtime and the code are one
// minified module; the readable form is returned either way, since the
// theme is pruned by what it names.
func appJS(head, code []byte, f assets.Features, min bool) (readable, shipped []byte, err error) {
	seen := map[string]bool{}
	for _, w := range jsIdent.FindAll(code, -1) {
		seen[string(w)] = true
	}
	f.Nav = seen[rtNavigate.Name] || seen[rtLink.Name]
	uses := func(name string) bool { return seen[name] }
	rt, err := assets.Runtime(uses, f)
	if err != nil {
		return nil, nil, err
	}
	readable = slices.Concat(head, []byte(rt), code)
	if !min {
		return readable, readable, nil
	}
	b, err := assets.Bundle(string(head), string(code), uses, f)
	return readable, []byte(b), err
}
