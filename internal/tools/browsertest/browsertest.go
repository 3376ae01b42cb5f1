// Package browsertest drives Debian's Chromium headless from Go tests,
// through chromedp: navigate, wait for text or a condition, type, click,
// read attributes, count DOM mutations and take screenshots.
//
// A machine without Chromium skips the tests that need it, with a message
// naming the Debian package to install; with ACORE_BROWSER_REQUIRED=1 (set
// by .ci/run) a missing browser fails them instead, so CI cannot pass by
// skipping.
package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ChromiumPath is where Debian's chromium package installs the browser.
const ChromiumPath = "/usr/bin/chromium"

// chromium is the browser New starts; tests of the missing-browser path
// point it elsewhere.
var chromium = ChromiumPath

// RequiredEnv names the environment variable that turns a missing browser
// from a skip into a failure when it is "1".
const RequiredEnv = "ACORE_BROWSER_REQUIRED"

// Timeout bounds every wait and every browser command. It is generous
// because the tests run under -race on a small shared machine.
const Timeout = 20 * time.Second

// Page is one tab of a headless Chromium started for one test. JavaScript
// dialogs (alert, confirm) are accepted and recorded; uncaught exceptions
// of the page are recorded too.
type Page struct {
	t   testing.TB
	ctx context.Context

	mu         sync.Mutex
	dialogs    []string
	exceptions []string
}

// New starts Chromium headless with a fresh profile in t.TempDir and returns
// its first tab; the browser stops when the test ends. Without
// ChromiumPath it skips the test, or fails it when RequiredEnv is "1".
func New(t testing.TB) *Page {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		msg := fmt.Sprintf("browser tests need Chromium at %s (%v): install Debian's package with `apt-get install chromium`", chromium, err)
		if os.Getenv(RequiredEnv) == "1" {
			t.Fatalf("%s (%s=1 makes this a failure)", msg, RequiredEnv)
		}
		t.Skip(msg)
	}
	// Under load (several test binaries each starting browsers) Chromium
	// has been seen to crash while starting; a start is tried three
	// times, each with a fresh profile, and each failure logged.
	var p *Page
	for attempt := 1; ; attempt++ {
		var err error
		if p, err = start(t); err == nil {
			break
		}
		if attempt == 3 {
			t.Fatalf("starting %s (3 attempts): %v", chromium, err)
		}
		t.Logf("starting %s, attempt %d: %v", chromium, attempt, err)
	}
	ctx := p.ctx
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.dialogs = append(p.dialogs, string(ev.Type)+": "+ev.Message)
			p.mu.Unlock()
			// An unanswered dialog blocks the page and so every later
			// command; the tests accept it and assert on Dialogs.
			if _, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil {
				return
			}
		}
	}()
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg = d.Exception.Description
			}
			p.mu.Lock()
			p.exceptions = append(p.exceptions, msg)
			p.mu.Unlock()
		}
	}()
	return p
}

// start starts one browser with a fresh profile and its first tab, or
// stops it again and says why it did not start.
func start(t testing.TB) (*Page, error) {
	profile := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		// The machines running these tests are containers without user
		// namespaces for the sandbox, GPU or network beyond loopback.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1024, 768),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	p := &Page{t: t, ctx: ctx}
	// Cleanups run last-in first-out: the browser stops before t.TempDir
	// removes its profile.
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := chromedp.Cancel(cctx); err != nil && !errors.Is(err, context.Canceled) {
			t.Logf("closing Chromium: %v", err)
		}
		cancelTab()
		cancelAlloc()
	})
	// The first run starts the browser and binds its life to ctx, so it
	// must not run under a shorter-lived context.
	if err := chromedp.Do(ctx); err != nil {
		cancelTab()
		cancelAlloc()
		return nil, err
	}
	return p, nil
}

// do runs steps with the Timeout, failing the test with what and the page's
// text on an error.
func (p *Page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v\npage text: %q", what, err, p.text())
	}
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(url string) {
	p.t.Helper()
	p.do("navigate to "+url, chromedp.Navigate(url))
}

// Reload reloads the page and waits for its load event.
func (p *Page) Reload() {
	p.t.Helper()
	p.do("reload", chromedp.Reload())
}

// InitScript makes js run in every document the tab loads from now on,
// before the document's own scripts: the place for observers that must
// see a page from its first render.
func (p *Page) InitScript(js string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js}); err != nil {
		p.t.Fatalf("adding an init script: %v", err)
	}
}

// Back goes back one entry in the tab's history and returns at once: the
// entry may come from the back-forward cache, without a load event, so the
// caller waits for what it expects to see.
func (p *Page) Back() {
	p.t.Helper()
	p.Eval(`history.back()`, nil)
}

// URL returns location.href.
func (p *Page) URL() string {
	p.t.Helper()
	var s string
	p.Eval(`location.href`, &s)
	return s
}

// Eval evaluates the JavaScript expression js in the page and decodes its
// JSON value into out (nil ignores it). A promise is awaited.
func (p *Page) Eval(js string, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", js, err)
	}
	if out == nil {
		return
	}
	if err := json.Unmarshal(raw, out); err != nil {
		p.t.Fatalf("evaluate %s: decoding %s: %v", js, raw, err)
	}
}

// text returns the page's visible text, or the error reading it; it is
// for failure messages, so it never fails the test itself.
func (p *Page) text() string {
	ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	return s
}

// Text returns the visible text of the page (document.body.innerText).
func (p *Page) Text() string {
	p.t.Helper()
	var s string
	p.Eval(`document.body ? document.body.innerText : ""`, &s)
	return s
}

// WaitFor polls the JavaScript expression cond until it is truthy, and
// fails the test after Timeout, saying what was awaited. It survives
// navigations: each poll is one evaluation.
func (p *Page) WaitFor(what, cond string) {
	p.t.Helper()
	if !p.poll(cond, Timeout) {
		p.t.Fatalf("timed out after %v waiting for %s (%s)\npage text: %q", Timeout, what, cond, p.text())
	}
}

// poll evaluates cond every 25 ms until it is truthy or d passes.
func (p *Page) poll(cond string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!(`+cond+`)`))
		cancel()
		if err == nil && ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// WaitText waits until the page's visible text contains s.
func (p *Page) WaitText(s string) {
	p.t.Helper()
	p.WaitFor(fmt.Sprintf("text %q", s), `document.body && document.body.innerText.includes(`+JSString(s)+`)`)
}

// WaitNoText waits until the page's visible text does not contain s.
func (p *Page) WaitNoText(s string) {
	p.t.Helper()
	p.WaitFor(fmt.Sprintf("text %q to go", s), `document.body && !document.body.innerText.includes(`+JSString(s)+`)`)
}

// WaitSelector waits until an element matches the CSS selector sel.
func (p *Page) WaitSelector(sel string) {
	p.t.Helper()
	p.WaitFor("an element "+sel, `document.querySelector(`+JSString(sel)+`)`)
}

// Type focuses the first element matching the CSS selector sel and types s
// into it as key events, one per character ("\r" is Enter).
func (p *Page) Type(sel, s string) {
	p.t.Helper()
	p.do(fmt.Sprintf("type %q into %s", s, sel), chromedp.SendKeys(chromedp.CSS(sel), s))
}

// Click clicks the middle of the first element matching the CSS selector
// sel with the mouse, once it is visible.
func (p *Page) Click(sel string) {
	p.t.Helper()
	p.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// Hover moves the mouse over the middle of the first element matching
// the CSS selector sel, so that its :hover rules apply.
func (p *Page) Hover(sel string) {
	p.t.Helper()
	var at [2]float64
	p.Eval(`(() => { const r = document.querySelector(`+JSString(sel)+`).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, &at)
	p.do("hover "+sel, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0], at[1]))
}

// DoubleClick double-clicks the middle of the first element matching the
// CSS selector sel with the mouse, once it is visible.
func (p *Page) DoubleClick(sel string) {
	p.t.Helper()
	p.do("double-click "+sel, chromedp.DoubleClick(chromedp.CSS(sel), chromedp.NodeVisible))
}

// Press focuses the first element matching the CSS selector sel and
// presses keys (as Type does, "\r" is Enter, "\x1b" Escape) with the
// modifiers held, as chromedp.ModifierCtrl.
func (p *Page) Press(sel, keys string, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.do(fmt.Sprintf("press %q in %s", keys, sel), chromedp.Focus(chromedp.CSS(sel), chromedp.NodeVisible),
		chromedp.KeyEvent(keys, chromedp.KeyModifiers(mods...)))
}

// ClickText clicks, as Click does, the first element matching the CSS
// selector sel whose trimmed text is text, waiting until there is one.
func (p *Page) ClickText(sel, text string) {
	p.t.Helper()
	p.ClickJS(fmt.Sprintf("%s %q", sel, text),
		`[...document.querySelectorAll(`+JSString(sel)+`)].find(e => e.textContent.trim() === `+JSString(text)+`)`)
}

// ClickJS clicks, as Click does, the element the JavaScript expression
// expr gives, waiting until it gives one; what names it in a failure.
func (p *Page) ClickJS(what, expr string) {
	p.t.Helper()
	p.do("click "+what, chromedp.Click(chromedp.JSPath(expr), chromedp.NodeVisible))
}

// SetViewport sets the size of the page's viewport in CSS pixels, for
// screenshots of a given size.
func (p *Page) SetViewport(width, height int64) {
	p.t.Helper()
	p.do(fmt.Sprintf("viewport %dx%d", width, height), chromedp.EmulateViewport(width, height))
}

// Count returns how many elements match the CSS selector sel.
func (p *Page) Count(sel string) int {
	p.t.Helper()
	var n int
	p.Eval(`document.querySelectorAll(`+JSString(sel)+`).length`, &n)
	return n
}

// Attr returns the attribute name of the first element matching the CSS
// selector sel, and whether that element has it. No such element fails the
// test.
func (p *Page) Attr(sel, name string) (string, bool) {
	p.t.Helper()
	var r struct {
		Found bool    `json:"found"`
		Value *string `json:"value"`
	}
	p.Eval(`(() => { const e = document.querySelector(`+JSString(sel)+`);
		return e ? {found: true, value: e.getAttribute(`+JSString(name)+`)} : {found: false}; })()`, &r)
	if !r.Found {
		p.t.Fatalf("no element matches %s\npage text: %q", sel, p.text())
	}
	if r.Value == nil {
		return "", false
	}
	return *r.Value, true
}

// Value returns the value property of the first element matching the CSS
// selector sel (an input's text).
func (p *Page) Value(sel string) string {
	p.t.Helper()
	var r *string
	p.Eval(`(() => { const e = document.querySelector(`+JSString(sel)+`); return e ? String(e.value) : null; })()`, &r)
	if r == nil {
		p.t.Fatalf("no element matches %s\npage text: %q", sel, p.text())
	}
	return *r
}

// Mutations is what a MutationObserver on the whole document saw.
type Mutations struct {
	Records int      // mutation records
	Nodes   int      // nodes added or removed
	Summary []string // one line per record: type and target
}

// CountMutations observes the whole document (children, attributes and
// text, in every subtree) while fn runs, then lets the page settle for two
// animation frames and 50 ms, so that renders scheduled by fn are counted.
func (p *Page) CountMutations(fn func()) Mutations {
	p.t.Helper()
	p.Eval(`(() => {
		const s = window.__browsertest = {records: []};
		s.observer = new MutationObserver(rs => s.records.push(...rs));
		s.observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
	})()`, nil)
	fn()
	var m Mutations
	p.Eval(`new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
		const s = window.__browsertest;
		s.records.push(...s.observer.takeRecords());
		s.observer.disconnect();
		const name = n => n.nodeType === 1 ? n.tagName.toLowerCase() + (n.dataset && n.dataset.acoreId ? "[" + n.dataset.acoreId + "]" : "") : "#" + n.nodeName.replace("#", "");
		let nodes = 0;
		const summary = s.records.map(r => {
			nodes += r.addedNodes.length + r.removedNodes.length;
			return r.type + " " + name(r.target) + (r.attributeName ? " @" + r.attributeName : "") +
				(r.addedNodes.length ? " +" + r.addedNodes.length : "") + (r.removedNodes.length ? " -" + r.removedNodes.length : "");
		});
		delete window.__browsertest;
		done({records: s.records.length, nodes, summary});
	}, 50))))`, &m)
	return m
}

// HeapUsed collects the garbage and returns the bytes of JavaScript heap
// in use, for figures of memory per row.
func (p *Page) HeapUsed() float64 {
	return p.heapUsage().UsedSize
}

// EmbedderHeapUsed is HeapUsed for the browser's own garbage-collected
// heap, where the DOM's nodes and attributes are.
func (p *Page) EmbedderHeapUsed() float64 {
	return p.heapUsage().EmbedderHeapUsedSize
}

func (p *Page) heapUsage() runtime.GetHeapUsageResult {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
		p.t.Fatalf("collecting garbage: %v", err)
	}
	r, err := chromedp.Call(ctx, runtime.GetHeapUsage, cdp.Empty{})
	if err != nil {
		p.t.Fatalf("heap usage: %v", err)
	}
	return r
}

// Listeners returns the number of event listeners on the object the
// JavaScript expression expr gives and, deep, on the nodes below it.
func (p *Page) Listeners(expr string) int {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	r, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr})
	if err != nil || r.ExceptionDetails != nil || r.Result == nil || r.Result.ObjectID == "" {
		p.t.Fatalf("listeners of %s: no object (%v)", expr, err)
	}
	depth := int64(-1)
	l, err := chromedp.Call(ctx, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{ObjectID: r.Result.ObjectID, Depth: &depth})
	if err != nil {
		p.t.Fatalf("listeners of %s: %v", expr, err)
	}
	return len(l.Listeners)
}

// Screenshot writes a PNG of the whole page to path.
func (p *Page) Screenshot(path string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// Dialogs returns the JavaScript dialogs the page opened so far, as
// "type: message"; each was accepted.
func (p *Page) Dialogs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.dialogs...)
}

// Exceptions returns the uncaught exceptions of the page so far.
func (p *Page) Exceptions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.exceptions...)
}

// JSString quotes s as a JavaScript string literal.
func JSString(s string) string {
	// Marshaling a string cannot fail (invalid UTF-8 becomes U+FFFD).
	b, _ := json.Marshal(s)
	// JSON allows U+2028 and U+2029 in strings; JavaScript before ES2019
	// did not. Chromium is newer, but escaping them costs nothing.
	return strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`).Replace(string(b))
}
