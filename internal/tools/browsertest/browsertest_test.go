package browsertest

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// page is a small app: a counter rendered by script, an input whose
// keystrokes update one text node, a button that asks for confirmation.
const testPage = `<!doctype html>
<html><head><title>t</title></head><body>
<p id="status">starting</p>
<input id="name" aria-label="Name" data-kind="text">
<p id="echo"></p>
<button id="inc">More</button>
<p id="count">0</p>
<a id="next" href="/next">Next</a>
<script>
setTimeout(() => { document.getElementById("status").textContent = "ready"; }, 100);
const echo = document.getElementById("echo");
document.getElementById("name").addEventListener("input", e => { echo.textContent = e.target.value; });
document.getElementById("inc").addEventListener("click", () => {
  if (confirm("sure?")) {
    const c = document.getElementById("count");
    c.textContent = String(Number(c.textContent) + 1);
  }
});
</script></body></html>`

func server(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/next" {
			w.Write([]byte(`<!doctype html><body><h1>Second page</h1><script>throw new Error("boom")</script></body>`))
			return
		}
		w.Write([]byte(testPage))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestPage(t *testing.T) {
	srv := server(t)
	p := New(t)
	p.InitScript(`window.__early = document.readyState`)
	p.Navigate(srv.URL)
	p.WaitText("ready")
	var early string
	if p.Eval(`window.__early`, &early); early != "loading" {
		t.Errorf("the init script ran at readyState %q", early)
	}

	if v, ok := p.Attr("#name", "data-kind"); !ok || v != "text" {
		t.Errorf("data-kind = %q, %v", v, ok)
	}
	if _, ok := p.Attr("#name", "data-missing"); ok {
		t.Error("a missing attribute was found")
	}
	if n := p.Count("p"); n != 3 {
		t.Errorf("%d paragraphs", n)
	}

	m := p.CountMutations(func() { p.Type("#name", "ab") })
	if p.Value("#name") != "ab" {
		t.Errorf("value %q", p.Value("#name"))
	}
	// Each keystroke replaces the echo's text node: one childList record
	// per key, nothing else in the document.
	if m.Records != 2 || m.Nodes != 3 {
		t.Errorf("mutations %+v", m)
	}
	for _, s := range m.Summary {
		if !strings.HasPrefix(s, "childList p") {
			t.Errorf("mutation %q outside the echo", s)
		}
	}

	p.ClickText("button", "More")
	p.WaitFor("the count to be 1", `document.getElementById("count").textContent === "1"`)
	if d := p.Dialogs(); len(d) != 1 || d[0] != "confirm: sure?" {
		t.Errorf("dialogs %q", d)
	}

	p.Click("#next")
	p.WaitText("Second page")
	if !strings.HasSuffix(p.URL(), "/next") {
		t.Errorf("URL %s", p.URL())
	}
	p.WaitFor("the exception to be recorded", `true`)
	if e := p.Exceptions(); len(e) != 1 || !strings.Contains(e[0], "boom") {
		t.Errorf("exceptions %q", e)
	}
	p.Back()
	p.WaitText("ready")

	png := filepath.Join(t.TempDir(), "shots", "page.png")
	p.Screenshot(png)
	data, err := os.ReadFile(png)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s is not a PNG", png)
	}
}

// stopper stands for a test in TestMissingChromium: it records Skip and
// Fatalf and stops the goroutine, as the testing package does.
type stopper struct {
	testing.TB
	skipped, failed string
}

func (s *stopper) Helper() {}
func (s *stopper) Skip(args ...any) {
	s.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}
func (s *stopper) Fatalf(format string, args ...any) {
	s.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestMissingChromium: without the browser, New skips with a message that
// names the Debian package, and fails instead under ACORE_BROWSER_REQUIRED=1.
func TestMissingChromium(t *testing.T) {
	chromium = filepath.Join(t.TempDir(), "no-chromium")
	t.Cleanup(func() { chromium = ChromiumPath })
	for _, required := range []string{"", "1"} {
		t.Setenv(RequiredEnv, required)
		s := &stopper{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			New(s)
		}()
		<-done
		got := s.skipped
		if required == "1" {
			got = s.failed
			if s.skipped != "" {
				t.Errorf("skipped under %s=1: %s", RequiredEnv, s.skipped)
			}
		}
		if !strings.Contains(got, "apt-get install chromium") || !strings.Contains(got, chromium) {
			t.Errorf("%s=%q: message %q does not name the path and the package", RequiredEnv, required, got)
		}
	}
}
