package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// listTexts returns the text of every list item of the page, in document
// order.
func listTexts(t *testing.T, p *browsertest.Page) []string {
	t.Helper()
	var out []string
	p.Eval(`[...document.querySelectorAll("li")].map(li => li.textContent)`, &out)
	return out
}

// waitItems waits until the list items of the page hold exactly the given
// texts, in order (each item contains its text).
func waitItems(t *testing.T, p *browsertest.Page, want ...string) {
	t.Helper()
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	p.WaitFor(fmt.Sprintf("list items %q (have %q)", want, listTexts(t, p)), `(() => {
		const want = `+string(b)+`, lis = [...document.querySelectorAll("li")];
		return lis.length === want.length && lis.every((li, i) => li.textContent.includes(want[i]));
	})()`)
}

// manifestAction is the part of a 1.1.0 manifest action the DOM must agree
// with.
type manifestAction struct {
	Intent               string `json:"intent"`
	ActionType           string `json:"action_type"`
	RiskLevel            string `json:"risk_level"`
	Idempotent           *bool  `json:"idempotent"`
	ConfirmationRequired *bool  `json:"confirmation_required"`
	ApprovalRequired     *bool  `json:"approval_required"`
	Scope                string `json:"scope"`
	TenantBoundary       string `json:"tenant_boundary"`
	ElementSelector      string `json:"element_selector"`
}

// fetchManifest GETs the AXAG manifest at url.
func fetchManifest(t *testing.T, url string) map[string]manifestAction {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, body)
	}
	var m struct {
		Actions []manifestAction `json:"actions"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	out := map[string]manifestAction{}
	for _, a := range m.Actions {
		out[a.Intent] = a
	}
	return out
}

// checkAXAGAttributes checks that the element found by the JavaScript
// expression elem carries the axag-* attributes of action a, with the
// values of the manifest; scope and tenant boundary may come from an
// ancestor, as AXAG's inheritance allows.
func checkAXAGAttributes(t *testing.T, p *browsertest.Page, what, elem string, a manifestAction) {
	t.Helper()
	want := map[string]string{
		"axag-intent":      a.Intent,
		"axag-action-type": a.ActionType,
	}
	opt := func(name, v string) {
		if v != "" {
			want[name] = v
		}
	}
	optBool := func(name string, v *bool) {
		if v != nil {
			want[name] = strconv.FormatBool(*v)
		}
	}
	opt("axag-risk-level", a.RiskLevel)
	optBool("axag-idempotent", a.Idempotent)
	optBool("axag-confirmation-required", a.ConfirmationRequired)
	optBool("axag-approval-required", a.ApprovalRequired)
	opt("axag-scope", a.Scope)
	opt("axag-tenant-boundary", a.TenantBoundary)
	for name, v := range want {
		var got *string
		p.Eval(`(() => { const e = `+elem+`; if (!e) return null;
			const c = e.closest("[`+name+`]"); return c ? c.getAttribute("`+name+`") : ""; })()`, &got)
		switch {
		case got == nil:
			t.Fatalf("%s: no element (%s)", what, elem)
		case *got != v:
			t.Errorf("%s: %s=%q, want %q (the manifest's %s)", what, name, *got, v, a.Intent)
		}
	}
}

// fakeBackend implements the task-app's contract after docs/web.md's wire
// format, as another team's server would: POST /tasks/<operation> with a
// JSON object of arguments, CORS for a page on another origin, and
// failures as {"error": {"message": ...}}.
type fakeBackend struct {
	mu       sync.Mutex
	fail     bool
	tasks    []map[string]any
	requests []string // "<path> <body>", in order
	bad      []string // requests that broke the wire format
}

func (b *fakeBackend) setFail(fail bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fail = fail
}

func (b *fakeBackend) log() ([]string, []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.requests...), append([]string(nil), b.bad...)
}

// allowCORS lets a page on another origin post to a test backend and
// answers a preflight request, reporting whether r was one.
func allowCORS(w http.ResponseWriter, r *http.Request) bool {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Methods", "POST")
	w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	return false
}

// buildAndServe builds dir against backend and serves the build as a
// static site until the test ends.
func buildAndServe(t *testing.T, dir, backend string) *httptest.Server {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	axiom(t, 0, "build", dir, "--out", out, "--backend", backend)
	site := httptest.NewServer(staticServer(out))
	t.Cleanup(site.Close)
	return site
}

func (b *fakeBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if allowCORS(w, r) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	b.requests = append(b.requests, r.URL.Path+" "+string(body))
	fail := func(status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg}})
	}
	var args map[string]any
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if r.Method != http.MethodPost || mt != "application/json" || json.Unmarshal(body, &args) != nil || args == nil {
		b.bad = append(b.bad, fmt.Sprintf("%s %s (Content-Type %q): %s", r.Method, r.URL.Path, r.Header.Get("Content-Type"), body))
		fail(http.StatusBadRequest, "not the wire format")
		return
	}
	if b.fail {
		fail(http.StatusInternalServerError, "database is down")
		return
	}
	var result any
	switch r.URL.Path {
	case "/tasks/list_tasks":
		result = append([]map[string]any{}, b.tasks...)
	case "/tasks/create_task":
		title, ok := args["title"].(string)
		if !ok {
			fail(http.StatusBadRequest, "title: want a string")
			return
		}
		task := map[string]any{"id": "t" + strconv.Itoa(len(b.tasks)+1), "title": title, "done": false}
		b.tasks = append(b.tasks, task)
		result = task
	default:
		fail(http.StatusNotFound, "no operation "+strings.TrimPrefix(r.URL.Path, "/"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(result)
}
