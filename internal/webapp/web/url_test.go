package web

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// urlPieces are what the random inputs of TestURLRuleInChromium are made
// of: the characters and words a URL parser treats specially.
var urlPieces = []string{"/", "//", "\\", "\t", "\n", "\r", " ", "\x00", "\x01", "\x7f", "\u00a0", "\u3000", "\ufeff",
	":", "javascript", "JavaScript", "vbscript", "data", "image/png", "image/svg+xml", "text/html", ";", ",", "base64",
	"http", "https", "s", "evil.example", "@", "?", "#", ".", "..", "%2F", "%5C", "%09", "%", "&#58;", "&colon;", "a", "1", "+", "-"}

// TestURLRuleInChromium runs the runtime's URL rule (rp, ri through at,
// the binding of a Link's href and an Image's src) in Chromium over the
// table of catalog/testdata/urls.json and random inputs, and compares
// each answer with the Go rule's (catalog.RoutePath, catalog.ImageSource).
// Chromium's own URL parser is the judge of what is allowed: a Link's
// href must resolve to the page's origin, an Image's src to a path of
// it, an http(s) URL or a raster data: URL; a refused value must leave
// the attribute off and warn on the console.
func TestURLRuleInChromium(t *testing.T) {
	data, err := os.ReadFile("../../lang/catalog/testdata/urls.json")
	if err != nil {
		t.Fatal(err)
	}
	var table []struct {
		In string `json:"in"`
	}
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, c := range table {
		inputs = append(inputs, c.In)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("random inputs from seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(urlPieces[r.IntN(len(urlPieces))])
		}
		inputs = append(inputs, b.String())
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rt.js" {
			w.Header().Set("Content-Type", "text/javascript")
			// The runtime as app.js starts, with its rule and binding
			// handed to the test.
			w.Write([]byte(runtimeJS + "window.T={at,rp,ri};\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><meta charset="utf-8"><div id="app"></div><script type="module" src="/rt.js"></script>`))
	}))
	defer srv.Close()
	p := browsertest.New(t)
	p.Navigate(srv.URL + "/")
	p.WaitFor("the runtime", `window.T`)

	in, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Link, Image         bool     // the rule's answers
		Href, Src           *string  // the attributes at left
		LinkOK, ImageOK     bool     // what Chromium's URL parser makes of an allowed value
		LinkSeen, ImageSeen string   // the URL it resolved to
		Warned              []string // the console warnings of the two bindings
	}
	var out []answer
	p.Eval(`(() => {
		const ins = `+string(in)+`, out = [], doc = document.implementation.createHTMLDocument("");
		const warn = console.warn, raster = /^data:image\/(png|jpeg|gif|webp|avif)[;,]/i;
		let warned;
		console.warn = (...a) => warned.push(a.join(" "));
		const resolve = v => { try { return new URL(v, location.href) } catch { return null } };
		for (const v of ins) {
			warned = [];
			// An element of an inert document loads nothing.
			const a = document.createElement("a"), img = doc.createElement("img");
			T.at(a, "href", () => v, T.rp);
			T.at(img, "src", () => v, T.ri);
			const l = resolve(v), i = resolve(v);
			out.push({Link: T.rp(v), Image: T.ri(v), Href: a.getAttribute("href"), Src: img.getAttribute("src"),
				LinkOK: !!l && l.origin === location.origin && a.href === l.href,
				ImageOK: !i || i.origin === location.origin || i.protocol === "http:" || i.protocol === "https:" || i.protocol === "data:" && raster.test(i.href),
				LinkSeen: l ? l.href : "", ImageSeen: i ? i.href : "", Warned: warned});
		}
		console.warn = warn;
		return out;
	})()`, &out)
	if len(out) != len(inputs) {
		t.Fatalf("%d answers for %d inputs", len(out), len(inputs))
	}
	for k, v := range inputs {
		a := out[k]
		if goLink := catalog.RoutePath(v); a.Link != goLink {
			t.Errorf("Link to %q: the runtime says %v, Go %v", v, a.Link, goLink)
		}
		if goImage := catalog.ImageSource(v); a.Image != goImage {
			t.Errorf("Image src %q: the runtime says %v, Go %v", v, a.Image, goImage)
		}
		warns := 0
		for _, bind := range []struct {
			what, attr string
			allowed    bool
			got        *string
			ok         bool
			seen       string
		}{{"Link", "href", a.Link, a.Href, a.LinkOK, a.LinkSeen}, {"Image", "src", a.Image, a.Src, a.ImageOK, a.ImageSeen}} {
			switch {
			case bind.allowed && (bind.got == nil || *bind.got != v):
				t.Errorf("%s %q is allowed but its %s is %v", bind.what, v, bind.attr, bind.got)
			case bind.allowed && !bind.ok:
				t.Errorf("%s %q is allowed but Chromium resolves it to %q: off the page's origin, of a refused scheme, or not where the element leads", bind.what, v, bind.seen)
			case !bind.allowed && bind.got != nil:
				t.Errorf("%s %q is refused but its %s is %q", bind.what, v, bind.attr, *bind.got)
			case !bind.allowed:
				warns++
			}
		}
		if len(a.Warned) != warns || warns > 0 && !strings.Contains(strings.Join(a.Warned, "\n"), v) {
			t.Errorf("%q: console warnings %q, want %d naming the value", v, a.Warned, warns)
		}
	}
}

// TestURLLiterals: index.html writes the literals the URL rule allows
// (the checker refuses the others: AC217 for a route, AC305 for an
// Image's src, internal/lang/project's testdata/check/urls.txtar), and app.js
// binds every value through the runtime's rule, which leaves the
// attribute off and warns.
func TestURLLiterals(t *testing.T) {
	dir := t.TempDir()
	src := `module urls

app Urls {
  route "/" => Home
}

page Home {
  state s: String = "javascript:alert(1)"
  view {
    Link("Home", to: "/")
    Link(s, to: s)
    Image("/logo.png", alt: "Logo")
    Image(s, alt: "Value")
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	out := build(t, dir)
	html, js := string(out.Files["index.html"]), strings.TrimPrefix(string(out.Files["app.js"]), runtimeJS)
	for _, c := range []struct {
		file, text string
		want       bool
	}{
		{html, `<a href="/" data-acore-id=`, true},
		{html, `<img src="/logo.png" alt="Logo"`, true},
		{html, "javascript:", false},
		{html, `<img alt="Value"`, true},
		{js, `,"href",()=>$s(),rp)`, true},
		{js, `,"src",()=>$s(),ri)`, true},
		{js, `"href",$s()`, false},
		{js, `"src",$s()`, false},
	} {
		name := "index.html"
		if c.file == js {
			name = "app.js"
		}
		if strings.Contains(c.file, c.text) != c.want {
			t.Errorf("%s contains %s: %v, want %v", name, c.text, !c.want, c.want)
		}
	}
}

// TestClassAndStyleValues: in Chromium, a Text's style from a value gives
// a class only when it is one of the allowed styles, and a background
// from a value sets background-color, so url(...) loads nothing.
func TestClassAndStyleValues(t *testing.T) {
	dir := t.TempDir()
	src := `module styles

app Styles { route "/" => Home }

page Home {
  state bg: String = "url(/track.png)"
  state style: String = "caption ac-danger"
  state ok: String = "caption"
  view {
    View(background: bg) { Text("Evil", style: style) Text("Fine", style: ok) }
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	srv := serveBuild(t, build(t, dir).Files, nil)
	p := browsertest.New(t)
	p.Navigate(srv.URL + "/")
	p.WaitText("Fine")
	var got struct{ Image, Evil, Fine string }
	p.Eval(`(() => { const t = [...document.querySelectorAll("p")];
		return {Image: getComputedStyle(document.querySelector(".ac-view")).backgroundImage,
			Evil: t.find(e => e.textContent === "Evil").className, Fine: t.find(e => e.textContent === "Fine").className}; })()`, &got)
	if got.Image != "none" {
		t.Errorf("a background from a value gave the background image %q", got.Image)
	}
	if got.Evil != "" {
		t.Errorf("the style %q from a value gave the classes %q", "caption ac-danger", got.Evil)
	}
	if got.Fine != "ac-caption" {
		t.Errorf("the style %q from a value gave the classes %q, want ac-caption", "caption", got.Fine)
	}
}
