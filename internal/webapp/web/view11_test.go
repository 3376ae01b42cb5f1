package web

import (
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/tools/browsertest"
	"github.com/chromedp/chromedp"
)

// serveBuild serves a build's files, index.html at /, and answers true
// to every contract call, which it sends on calls (when not nil) as "path
// body".
func serveBuild(t *testing.T, files map[string][]byte, calls chan<- string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if calls != nil {
				calls <- r.URL.Path + " " + string(body)
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("true"))
			return
		}
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		data, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", mime.TypeByExtension(filepath.Ext(name)))
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// buildView11 builds testdata/view11, the project of the 1.1 view.
func buildView11(t *testing.T) *Output {
	t.Helper()
	dir := copyDir(t, "testdata/view11")
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	return build(t, dir)
}

// TestView11Output: the stylesheet is copied and linked after the theme;
// landmarks, headings, runs and the instance's children are in the
// static templates of index.html; class names from values are never
// written into the markup.
func TestView11Output(t *testing.T) {
	out := buildView11(t)
	css, err := os.ReadFile("testdata/view11/web/styles.css")
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Files["styles.css"]) != string(css) {
		t.Errorf("styles.css is not web/styles.css")
	}
	html := string(out.Files["index.html"])
	theme, own := strings.Index(html, `<link rel="stylesheet" href="/app.css">`), strings.Index(html, `<link rel="stylesheet" href="/styles.css">`)
	if theme < 0 || own < theme {
		t.Errorf("index.html does not link /styles.css after /app.css")
	}
	for _, want := range []string{
		`<header class="ac-view top"`, `<footer class="ac-view foot"`, `<section class="ac-view card"`,
		`<h1 data-acore-id=`, `<h2 data-acore-id=`,
		`<p class="todo-count" data-acore-id=`, `<strong data-acore-id=`, `<span data-acore-id=`, `<em data-acore-id=`,
		`<input type="text" placeholder="Draft" aria-label="Draft" class="new-todo"`,
		`<p class="inside"`, `<label class="row-label"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	card := html[strings.Index(html, `<section class="ac-view card"`):]
	inside, end := strings.Index(card, `class="inside"`), strings.Index(card, `class="card-end"`)
	if inside < 0 || end < inside {
		t.Errorf("the instance's children are not inside the card before its end:\n%.400s", card)
	}
	if strings.Contains(html, "loud") {
		t.Errorf("a class name from a value is in index.html")
	}
}

// TestView11InChromium drives the 1.1 view in Chromium: each event from
// real input, autofocus, class names from literals, values and
// item_class, the project's stylesheet over the theme, a component's
// children, landmarks and inline runs, an unbound Checkbox and a
// Checkbox in a Row. It ends with a screenshot.
func TestView11InChromium(t *testing.T) {
	calls := make(chan string, 8)
	srv := serveBuild(t, buildView11(t).Files, calls)
	p := browsertest.New(t)
	p.SetViewport(800, 1000)
	p.Navigate(srv.URL + "/")
	p.WaitText("end of card")
	counts := func(want string) {
		t.Helper()
		p.WaitFor("counts "+want, `document.querySelector(".counts").textContent === `+browsertest.JSString("counts "+want))
	}
	// counts: cancels submits notes focuses blurs doubles changes
	counts("0 0 0 0 0 0 0")

	p.Click(".new-todo")
	counts("0 0 0 1 0 0 0")
	p.Type(".new-todo", "milk")
	p.Press(".new-todo", "\x1b")
	counts("1 0 0 1 0 0 0")
	p.Press(".new-todo", "\r")
	counts("1 1 0 1 0 0 0")
	// The children block reads the page's state.
	p.WaitFor("the card's children follow draft", `document.querySelector(".card .inside").textContent === "Inside milk"`)

	// Enter in a TextArea starts a line; Ctrl+Enter submits it.
	p.Press(".memo", "\r")
	counts("1 1 0 1 1 0 0")
	p.Press(".memo", "\r", chromedp.ModifierCtrl)
	counts("1 1 1 1 1 0 0")
	if v := p.Value(".memo"); v != "\n" {
		t.Errorf("the memo after Enter and Ctrl+Enter is %q, want one line break", v)
	}

	p.DoubleClick(".dbl")
	counts("1 1 1 1 1 1 0")
	p.DoubleClick(".row")
	counts("1 1 1 1 1 2 0")

	// An unbound Checkbox shows its value: the click runs on_change and
	// leaves the box as its value says.
	p.Click(".unbound")
	counts("1 1 1 1 1 2 1")
	var checked bool
	p.Eval(`document.querySelector(".unbound").checked`, &checked)
	if checked {
		t.Error("the unbound Checkbox shows the click, not its value (false)")
	}
	var width float64
	p.Eval(`document.querySelector(".unbound").getBoundingClientRect().width`, &width)
	if width > 40 {
		t.Errorf("the Checkbox in a Row is %.0fpx wide: the theme stretches it", width)
	}
	var label string
	p.Eval(`document.querySelector(".row > label").textContent`, &label)
	if label != "in a row" {
		t.Errorf("the Label in the Row is %q", label)
	}

	// autofocus: the field that appears takes the focus.
	p.Click(".edit-button")
	p.WaitFor("the edit field focused", `document.activeElement === document.querySelector(".edit")`)

	// Class names: a literal joins the theme's, a value is added and
	// replaced by the classList, item_class sets each row's.
	var classes struct{ Header, Mode, Tags string }
	p.Eval(`({Header: document.querySelector("header").className, Mode: [...document.querySelectorAll("p")].find(e => e.textContent === "mode").className,
		Tags: [...document.querySelectorAll("li")].map(e => e.className).join(",")})`, &classes)
	if classes.Header != "ac-view top" || classes.Mode != "plain" || classes.Tags != "tag-done,tag-open" {
		t.Errorf("classes %+v", classes)
	}
	p.ClickText("button", "Loud")
	p.WaitFor("the class from a value replaced", `[...document.querySelectorAll("p")].find(e => e.textContent === "mode").className === "loud strong"`)

	// The project's stylesheet over the theme.
	var style struct{ H1, Dbl, Upper, Card, Strong string }
	p.Eval(`({H1: getComputedStyle(document.querySelector("h1")).fontSize, Dbl: getComputedStyle(document.querySelector(".dbl")).color,
		Upper: getComputedStyle(document.querySelector(".loud")).textTransform, Card: getComputedStyle(document.querySelector(".card")).borderTopColor,
		Strong: getComputedStyle(document.querySelector(".todo-count strong")).color})`, &style)
	if style != (struct{ H1, Dbl, Upper, Card, Strong string }{"40px", "rgb(1, 2, 3)", "uppercase", "rgb(10, 20, 30)", "rgb(200, 0, 0)"}) {
		t.Errorf("computed styles %+v", style)
	}

	// Landmarks and runs.
	var marks struct {
		Header, Footer, Section, H1, H2, Count, Strong string
	}
	p.Eval(`({Header: document.querySelector("header h1").textContent, Footer: document.querySelector("footer .counts") ? "counts" : "",
		Section: document.querySelector("section.card h2").textContent, H1: document.querySelector("h1").textContent,
		H2: document.querySelector("h2").textContent, Count: document.querySelector(".todo-count").textContent,
		Strong: document.querySelector(".todo-count strong").textContent})`, &marks)
	if marks.Header != "Demo" || marks.Footer != "counts" || marks.Section != "A card" || marks.H2 != "A card" ||
		marks.Count != "2 items left!" || marks.Strong != "2" {
		t.Errorf("landmarks and runs %+v", marks)
	}
	// A double press that runs a mutation: the element carries its AXAG
	// facts on the live page, and the press calls the backend.
	if intent, _ := p.Attr(".tag-it", "axag-intent"); intent != "tag.add" {
		t.Errorf("the double-pressed Text's axag-intent is %q, want tag.add", intent)
	}
	p.DoubleClick(".tag-it")
	select {
	case got := <-calls:
		if got != `/tags/add_tag {"name":"milk"}` {
			t.Errorf("the double press called %s", got)
		}
	case <-time.After(browsertest.Timeout):
		t.Error("the double press called no backend")
	}

	p.ClickText("button", "Take")
	p.WaitFor("the run follows its value", `document.querySelector(".todo-count").textContent === "1 items left!"`)
	if ex := p.Exceptions(); len(ex) > 0 {
		t.Errorf("the page threw: %v", ex)
	}
	shot := filepath.Join(os.Getenv("VIEW11_SCREENSHOT_DIR"), "view11.png")
	if os.Getenv("VIEW11_SCREENSHOT_DIR") == "" {
		shot = filepath.Join(t.TempDir(), "view11.png")
	}
	p.Screenshot(shot)
	t.Logf("screenshot: %s", shot)
}
