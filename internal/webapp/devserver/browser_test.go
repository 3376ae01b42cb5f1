package devserver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// overlayJS reads the overlay the dev client shows, "" when there is none.
const overlayJS = `(() => {
  const h = document.querySelector("axiom-dev-overlay");
  if (!h) return "";
  const r = h.shadowRoot;
  return [r.querySelector("h1").textContent, ...[...r.querySelectorAll(".panel > ul > li")].map((li) => li.textContent)].join("\n");
})()`

// TestBrowserOverlay follows a page in Chromium through a failed build
// (overlay over the running app, no reload), the fix (reload, no overlay),
// and a start on broken sources (the diagnostics page, then the app). With ACORE_SCREENSHOTS=1
// it rewrites docs/screenshots/dev-overlay.png.
func TestBrowserOverlay(t *testing.T) {
	root := newApp(t)
	d := start(t, root)
	p := browsertest.New(t)
	p.Navigate(d.url + "/")
	mark := func() { p.Eval(`window.__mark = 1`, nil) }
	overlay := func() string {
		var s string
		p.Eval(overlayJS, &s)
		return s
	}
	mark()

	line := breakSource(t, root)
	p.WaitFor("the overlay", `document.querySelector("axiom-dev-overlay")`)
	got := overlay()
	want := "main.acore:" + strconv.Itoa(line) + ":1: error: expected a declaration"
	if !strings.HasPrefix(got, "Build failed\n"+want) || !strings.HasSuffix(got, "[AC101]") {
		t.Errorf("overlay:\n%s\nwant the title, then %q ... [AC101]", got, want)
	}
	var same bool
	p.Eval(`window.__mark === 1`, &same)
	if !same {
		t.Error("a failed build reloaded the page; the last good build should keep running")
	}
	if os.Getenv("ACORE_SCREENSHOTS") == "1" {
		p.SetViewport(1024, 640)
		p.Screenshot(filepath.Join("..", "..", "..", "docs", "screenshots", "dev-overlay.png"))
	}

	src := readFile(t, filepath.Join(root, "main.acore"))
	fixed := src[:strings.LastIndex(string(src), "garbage")]
	writeFile(t, filepath.Join(root, "main.acore"), fixed)
	p.WaitFor("the reload after the fix", `!window.__mark`)
	p.WaitFor("no overlay", `!document.querySelector("axiom-dev-overlay")`)

	// A start on broken sources: the page lists the diagnostics, then
	// becomes the app once they are fixed.
	broken := newApp(t)
	line = breakSource(t, broken)
	b := start(t, broken)
	p.Navigate(b.url + "/about")
	p.WaitFor("the overlay over the diagnostics page", `document.querySelector("axiom-dev-overlay")`)
	if got := overlay(); !strings.Contains(got, "main.acore:"+strconv.Itoa(line)+":1: error: ") {
		t.Errorf("overlay without a good build:\n%s", got)
	}
	src = readFile(t, filepath.Join(broken, "main.acore"))
	writeFile(t, filepath.Join(broken, "main.acore"), src[:strings.LastIndex(string(src), "garbage")])
	p.WaitFor("the app after the fix", `document.querySelector('meta[name="axag-manifest"]') && !document.querySelector("axiom-dev-overlay")`)
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}
