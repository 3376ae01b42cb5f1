package devserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/scaffold"
	"github.com/axiomcore/acore/internal/webapp/web"
)

// timeout bounds every wait: generous, because the machine may be busy;
// the tests wait on events, never on the clock.
const timeout = 30 * time.Second

// newApp writes the task-app (prepared) into a temporary directory.
func newApp(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "app")
	if _, err := scaffold.New(root); err != nil {
		t.Fatal(err)
	}
	return root
}

// writeFile replaces a file the way editors save: a temporary file beside
// it, then a rename, so that the watcher never sees it half written.
func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// devServer is one Run in the test process.
type devServer struct {
	url    string
	stdout *syncBuffer
	stderr *syncBuffer
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
	err    error
}

// start runs the dev server on root and returns once it printed its URL.
func start(t *testing.T, root string) *devServer {
	t.Helper()
	return startWith(t, Config{Root: root})
}

// startWith is start with cfg (its Stdout and Stderr are the server's
// buffers).
func startWith(t *testing.T, cfg Config) *devServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d := &devServer{stdout: &syncBuffer{}, stderr: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	cfg.Stdout, cfg.Stderr = d.stdout, d.stderr
	go func() { d.done <- Run(ctx, cfg) }()
	deadline := time.After(timeout)
	for d.url == "" {
		select {
		case err := <-d.done:
			t.Fatalf("Run returned before printing its URL: %v\nstderr: %s", err, d.stderr)
		case <-deadline:
			t.Fatalf("no URL printed in %v\nstderr: %s", timeout, d.stderr)
		case <-time.After(5 * time.Millisecond):
			if out, ok := strings.CutSuffix(d.stdout.String(), "\n"); ok {
				d.url = out
			}
		}
	}
	t.Cleanup(func() {
		if err := d.stop(t); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return d
}

// stop cancels Run and returns its result.
func (d *devServer) stop(t *testing.T) error {
	t.Helper()
	d.once.Do(func() {
		d.cancel()
		select {
		case d.err = <-d.done:
		case <-time.After(timeout):
			d.err = errors.New("Run did not return after its context was cancelled")
		}
	})
	return d.err
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func do(t *testing.T, method, url string, body io.Reader) response {
	t.Helper()
	return doWith(t, method, url, body, nil)
}

// doWith is do with extra headers ("Host" sets the request's host).
func doWith(t *testing.T, method, url string, body io.Reader, header map[string]string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{res.StatusCode, res.Header, data}
}

// sse is one server-sent event.
type sse struct {
	name string
	data string
}

// stream is an open /_axiom/events.
type stream struct {
	events chan sse
	hello  hello
}

// subscribe opens the event stream and reads its hello.
func subscribe(t *testing.T, base string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+eventsPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET %s: %s, Content-Type %q", eventsPath, res.Status, res.Header.Get("Content-Type"))
	}
	s := &stream{events: make(chan sse, 64)}
	go func() {
		defer res.Body.Close()
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		var e sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if e.name != "" {
					s.events <- e
				}
				e = sse{}
			case strings.HasPrefix(line, "event: "):
				e.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				e.data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	e := s.next(t)
	if e.name != "hello" {
		t.Fatalf("first event %q, want hello", e.name)
	}
	if err := json.Unmarshal([]byte(e.data), &s.hello); err != nil {
		t.Fatalf("hello %s: %v", e.data, err)
	}
	return s
}

// next waits for the next event.
func (s *stream) next(t *testing.T) sse {
	t.Helper()
	select {
	case e, ok := <-s.events:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return e
	case <-time.After(timeout):
		t.Fatalf("no event in %v", timeout)
	}
	return sse{}
}

// expectReload waits for the next event and fails unless it is a reload.
func (s *stream) expectReload(t *testing.T) {
	t.Helper()
	if e := s.next(t); e.name != "reload" {
		t.Fatalf("event %s %s, want reload", e.name, e.data)
	}
}

// expectError waits for the next event and fails unless it is an error
// event; it returns the failure it carries.
func (s *stream) expectError(t *testing.T) failure {
	t.Helper()
	e := s.next(t)
	if e.name != "error" {
		t.Fatalf("event %s %s, want error", e.name, e.data)
	}
	var f failure
	if err := json.Unmarshal([]byte(e.data), &f); err != nil {
		t.Fatalf("error event %s: %v", e.data, err)
	}
	return f
}

// hasDiagnostic reports whether ds holds an error at path:line:col with code.
func hasDiagnostic(ds []diag.Diagnostic, path string, line, col int, code string) bool {
	for _, d := range ds {
		if d.Path == path && d.Line == line && d.Column == col && d.Code == code && d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// breakSource appends an undeclarable line to main.acore and returns the
// line it is on.
func breakSource(t *testing.T, root string) int {
	t.Helper()
	src := readFile(t, filepath.Join(root, "main.acore"))
	writeFile(t, filepath.Join(root, "main.acore"), append(bytes.Clone(src), "garbage {\n"...))
	return bytes.Count(src, []byte("\n")) + 1
}

func TestServe(t *testing.T) {
	root := newApp(t)
	want, err := web.Build(root, web.Options{})
	if err != nil || want.Failed {
		t.Fatalf("web.Build: %v %v", err, want.Diagnostics)
	}
	d := start(t, root)
	if !strings.HasPrefix(d.url, "http://127.0.0.1:") {
		t.Fatalf("URL %q, want http://127.0.0.1:PORT", d.url)
	}

	// Every file of the build, from memory, uncached, index.html with the
	// dev client.
	for name, data := range want.Files {
		res := do(t, http.MethodGet, d.url+"/"+name, nil)
		if res.status != http.StatusOK {
			t.Errorf("GET /%s: %d", name, res.status)
			continue
		}
		if got := res.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("GET /%s: Cache-Control %q", name, got)
		}
		if name == "index.html" {
			continue // checked below
		}
		if !bytes.Equal(res.body, data) {
			t.Errorf("GET /%s: body differs from the build's", name)
		}
	}

	index := want.Files["index.html"]
	build := subscribe(t, d.url).hello.Build
	for _, tc := range []struct {
		method, path string
		status       int
		ctype        string // prefix
		page         bool   // index.html with the dev client and the Link header
		body         string // the body contains it
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", true, ""},
		{"GET", "/index.html", 200, "text/html; charset=utf-8", true, ""},
		{"GET", "/about", 200, "text/html; charset=utf-8", true, ""},
		{"GET", "/tasks/42/edit/", 200, "text/html; charset=utf-8", true, ""},
		{"GET", "/app.js", 200, "text/javascript; charset=utf-8", false, ""},
		{"GET", "/app.css", 200, "text/css; charset=utf-8", false, ""},
		{"GET", "/axag-manifest.json", 200, "application/json", false, ""},
		{"GET", "/.well-known/axag-manifest.json", 200, "application/json", false, ""},
		{"GET", "/missing.png", 404, "text/plain", false, ""},
		{"GET", "/about/app.js", 404, "text/plain", false, ""},
		{"GET", "/_axiom/dev.js", 200, "text/javascript; charset=utf-8", false, "new EventSource(\"/_axiom/events\")"},
		{"GET", "/_axiom/nothing", 404, "text/plain", false, ""},
		{"PUT", "/", 405, "text/plain", false, ""},
		{"DELETE", "/tasks/list_tasks", 405, "text/plain", false, ""},
	} {
		res := do(t, tc.method, d.url+tc.path, nil)
		if res.status != tc.status || !strings.HasPrefix(res.header.Get("Content-Type"), tc.ctype) {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, res.status, res.header.Get("Content-Type"), tc.status, tc.ctype)
			continue
		}
		if got := res.header.Get("Link"); (got != "") != tc.page || (tc.page && got != `</.well-known/axag-manifest.json>; rel="axag-manifest"`) {
			t.Errorf("%s %s: Link %q", tc.method, tc.path, got)
		}
		if tc.page {
			page := string(res.body)
			if !strings.Contains(page, devScript+"</body>") {
				t.Errorf("%s %s: no dev client before </body>:\n%s", tc.method, tc.path, page)
			}
			// Apart from what was injected, the page is the build's.
			bare := strings.Replace(page, devScript, "", 1)
			bare = strings.Replace(bare, `<meta name="axiom-dev-build" content="`+build+`">`, "", 1)
			if bare != string(index) {
				t.Errorf("%s %s: the page is not the build's index.html plus the injected tags:\n%s", tc.method, tc.path, page)
			}
		}
		if !strings.Contains(string(res.body), tc.body) {
			t.Errorf("%s %s: body lacks %q", tc.method, tc.path, tc.body)
		}
	}

	head := do(t, http.MethodHead, d.url+"/app.js", nil)
	if head.status != 200 || len(head.body) != 0 || head.header.Get("Content-Length") != strconv.Itoa(len(want.Files["app.js"])) {
		t.Errorf("HEAD /app.js: %d, %d bytes, Content-Length %q", head.status, len(head.body), head.header.Get("Content-Length"))
	}

	// POST goes to the development backend.
	res := do(t, http.MethodPost, d.url+"/tasks/create_task", strings.NewReader(`{"title": "Buy milk"}`))
	if res.status != http.StatusOK {
		t.Errorf("POST /tasks/create_task: %d %s", res.status, res.body)
	}
	res = do(t, http.MethodPost, d.url+"/tasks/list_tasks", strings.NewReader("{}"))
	var tasks []struct{ Title string }
	if res.status != http.StatusOK || json.Unmarshal(res.body, &tasks) != nil || len(tasks) != 1 || tasks[0].Title != "Buy milk" {
		t.Errorf("POST /tasks/list_tasks: %d %s, want the task just created", res.status, res.body)
	}
}

// TestForeignRequests: on every address, only requests addressed to
// localhost, an IP address or a name of AllowHosts are served (DNS
// rebinding), and only pages of those names on this machine, of a name of
// AllowHosts or of the app's own origin can call the backend or send it a
// CORS preflight.
func TestForeignRequests(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "0.0.0.0:0"} {
		t.Run(addr, func(t *testing.T) {
			d := startWith(t, Config{Root: newApp(t), Addr: addr, AllowHosts: []string{"devbox.test", "Other.Test."}})
			port := d.url[strings.LastIndex(d.url, ":")+1:]
			allowed := 0 // calls that create a task
			for _, tc := range []struct {
				method string
				header map[string]string
				status int // 0: anything but 403 and 405
			}{
				{"GET", map[string]string{"Host": "evil.example:" + port}, http.StatusForbidden},
				{"POST", map[string]string{"Host": "evil.example"}, http.StatusForbidden},
				// A page of a rebound name calls the backend as its own
				// origin.
				{"POST", map[string]string{"Host": "evil.example:" + port, "Origin": "http://evil.example:" + port, "Content-Type": "text/plain"}, http.StatusForbidden},
				{"GET", map[string]string{"Host": "localhost:" + port}, http.StatusOK},
				{"GET", map[string]string{"Host": "app.localhost:" + port}, http.StatusOK},
				{"GET", map[string]string{"Host": "[::1]:" + port}, http.StatusOK},
				{"GET", map[string]string{"Host": "192.168.1.5:" + port}, http.StatusOK},
				{"GET", map[string]string{"Host": "devbox.test:" + port}, http.StatusOK},
				{"GET", map[string]string{"Host": "DEVBOX.test.:" + port}, http.StatusOK},
				{"GET", map[string]string{"Host": "other.test"}, http.StatusOK},
				{"GET", map[string]string{"Host": "sub.devbox.test:" + port}, http.StatusForbidden},
				{"POST", map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
				{"POST", map[string]string{"Origin": "http://evil.example:" + port}, http.StatusForbidden},
				{"POST", map[string]string{"Origin": "null"}, http.StatusForbidden},
				{"POST", map[string]string{"Origin": "ftp://localhost"}, http.StatusForbidden},
				{"POST", map[string]string{"Origin": "http://192.168.1.20:8080"}, http.StatusForbidden},
				{"POST", map[string]string{"Host": "192.168.1.5:" + port, "Origin": "http://192.168.1.20:" + port}, http.StatusForbidden},
				{"POST", map[string]string{"Host": "192.168.1.5:" + port, "Origin": "https://192.168.1.5:" + port}, http.StatusForbidden},
				{"POST", map[string]string{"Host": "192.168.1.5:" + port, "Origin": "http://192.168.1.5:" + port}, http.StatusOK},
				{"POST", map[string]string{"Host": "devbox.test:" + port, "Origin": "http://devbox.test:" + port}, http.StatusOK},
				{"POST", map[string]string{"Origin": "https://devbox.test:5173"}, http.StatusOK},
				{"OPTIONS", map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, http.StatusForbidden},
				{"POST", map[string]string{"Origin": d.url, "Sec-Fetch-Site": "same-origin"}, 0},
				{"POST", map[string]string{"Origin": "http://localhost:5173", "Sec-Fetch-Site": "same-site"}, 0},
				{"POST", map[string]string{"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "cross-site"}, http.StatusOK},
				{"POST", map[string]string{"Origin": "http://[::1]:8000"}, 0},
				{"OPTIONS", map[string]string{"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"}, http.StatusNoContent},
				{"POST", nil, 0},
			} {
				var body io.Reader
				if tc.method == "POST" {
					body = strings.NewReader(`{"title": "from a page"}`)
					if tc.status == 0 || tc.status == http.StatusOK {
						allowed++
					}
				}
				res := doWith(t, tc.method, d.url+"/tasks/create_task", body, tc.header)
				if tc.status != 0 && res.status != tc.status || tc.status == 0 && (res.status == http.StatusForbidden || res.status == http.StatusMethodNotAllowed) {
					t.Errorf("%s with %v: %d %s, want %d", tc.method, tc.header, res.status, res.body, tc.status)
				}
				if tc.method != "GET" && res.status == http.StatusForbidden && tc.header["Host"] == "" {
					var f struct{ Error struct{ Message string } }
					if json.Unmarshal(res.body, &f) != nil || f.Error.Message == "" {
						t.Errorf("%s with %v: a refusal outside the wire format: %s", tc.method, tc.header, res.body)
					}
				}
			}
			// Only the calls let through created a task.
			res := do(t, http.MethodPost, d.url+"/tasks/list_tasks", strings.NewReader("{}"))
			var tasks []struct{ Title string }
			if err := json.Unmarshal(res.body, &tasks); err != nil || len(tasks) != allowed {
				t.Errorf("list_tasks: %s, want the %d tasks of the calls let through", res.body, allowed)
			}
		})
	}
}

// TestAllowHostsChecked: a name of AllowHosts that is no host name is
// refused before anything is served.
func TestAllowHostsChecked(t *testing.T) {
	// Stopped from the start: a Run that took the name would return nil
	// after its first build instead of serving on.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"", "http://devbox.test", "devbox.test:8080", "*.test", "dev box", "-a.test", "a..test"} {
		err := Run(ctx, Config{Root: newApp(t), AllowHosts: []string{name}})
		if err == nil || !strings.Contains(err.Error(), "not a host name") {
			t.Errorf("AllowHosts %q: %v, want not a host name", name, err)
		}
	}
}

// TestLiveReload edits, breaks and fixes a source on disk and follows the
// events a page gets; while the source is broken the last good build is
// served. Nothing is written outside .axiom/dev.
func TestLiveReload(t *testing.T) {
	root := newApp(t)
	before := tree(t, root)
	d := start(t, root)
	s := subscribe(t, d.url)
	if s.hello.Failure != nil {
		t.Fatalf("hello of a good build carries a failure: %+v", s.hello.Failure)
	}

	main := filepath.Join(root, "main.acore")
	orig := readFile(t, main)
	edited := bytes.Replace(orig, []byte(`"Loading..."`), []byte(`"Loading tasks..."`), 1)
	saved := time.Now()
	writeFile(t, main, edited)
	s.expectReload(t)
	t.Logf("save to reload event: %v (debounce %v)", time.Since(saved).Round(time.Millisecond), debounce)
	good := do(t, http.MethodGet, d.url+"/app.js", nil).body
	goodPage := do(t, http.MethodGet, d.url+"/", nil).body
	if after := subscribe(t, d.url).hello; after.Build == s.hello.Build || after.Failure != nil {
		t.Errorf("hello after a rebuild: %+v, before %+v", after, s.hello)
	}

	line := breakSource(t, root)
	f := s.expectError(t)
	if !hasDiagnostic(f.Diagnostics, "main.acore", line, 1, diag.UnexpectedToken) {
		t.Fatalf("error event lacks main.acore:%d:1 %s: %+v", line, diag.UnexpectedToken, f)
	}
	// The last good build keeps running; a page opened now learns the
	// failure from its hello.
	if got := do(t, http.MethodGet, d.url+"/app.js", nil); got.status != 200 || !bytes.Equal(got.body, good) {
		t.Errorf("GET /app.js after a failed build: %d, not the last good build", got.status)
	}
	if got := do(t, http.MethodGet, d.url+"/", nil); got.status != 200 || !bytes.Equal(got.body, goodPage) {
		t.Errorf("GET / after a failed build: %d, not the last good page", got.status)
	}
	if h := subscribe(t, d.url).hello; h.Failure == nil || !hasDiagnostic(h.Failure.Diagnostics, "main.acore", line, 1, diag.UnexpectedToken) {
		t.Errorf("hello while broken: %+v", h)
	}
	if !strings.Contains(d.stderr.String(), "main.acore:"+strconv.Itoa(line)+":1: error: ") {
		t.Errorf("the log lacks the diagnostic:\n%s", d.stderr)
	}

	writeFile(t, main, edited)
	s.expectReload(t)
	if h := subscribe(t, d.url).hello; h.Failure != nil {
		t.Errorf("hello after the fix still carries a failure: %+v", h.Failure)
	}
	if got := do(t, http.MethodGet, d.url+"/app.js", nil).body; !bytes.Equal(got, good) {
		t.Error("after the fix /app.js is not the build of the fixed sources")
	}

	if err := d.stop(t); err != nil {
		t.Fatal(err)
	}
	after := tree(t, root)
	for name, sum := range after {
		if name != "main.acore" && before[name] != sum && !strings.HasPrefix(name, ".axiom/dev/") {
			t.Errorf("axiom dev wrote %s", name)
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("axiom dev removed %s", name)
		}
	}
}

// TestStylesheetReload: web/styles.css is served after the theme, and a
// save of it, or its removal, rebuilds and reloads the pages.
func TestStylesheetReload(t *testing.T) {
	root := newApp(t)
	css := filepath.Join(root, "web", "styles.css")
	if err := os.MkdirAll(filepath.Dir(css), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, css, []byte(".one{color:red}\n"))
	d := start(t, root)
	s := subscribe(t, d.url)
	page := string(do(t, http.MethodGet, d.url+"/", nil).body)
	theme, own := strings.Index(page, `href="/app.css"`), strings.Index(page, `href="/styles.css"`)
	if theme < 0 || own < theme {
		t.Fatalf("the page does not link /styles.css after /app.css:\n%s", page)
	}
	if got := string(do(t, http.MethodGet, d.url+"/styles.css", nil).body); got != ".one{color:red}\n" {
		t.Errorf("GET /styles.css = %q", got)
	}
	writeFile(t, css, []byte(".two{color:blue}\n"))
	s.expectReload(t)
	if got := string(do(t, http.MethodGet, d.url+"/styles.css", nil).body); got != ".two{color:blue}\n" {
		t.Errorf("GET /styles.css after the save = %q", got)
	}
	if err := os.Remove(css); err != nil {
		t.Fatal(err)
	}
	s.expectReload(t)
	if page := string(do(t, http.MethodGet, d.url+"/", nil).body); strings.Contains(page, "styles.css") {
		t.Errorf("the page still links the removed stylesheet:\n%s", page)
	}
	if err := d.stop(t); err != nil {
		t.Fatal(err)
	}
}

// TestThemeNoneReload: a save that gives the app theme "none" rebuilds
// without the theme: /app.css answers 404 and the page links only the
// project's stylesheet; a save back to the default serves the theme again.
func TestThemeNoneReload(t *testing.T) {
	root := newApp(t)
	writeFile(t, filepath.Join(root, "web", "styles.css"), []byte("body{margin:0}\n"))
	main := filepath.Join(root, "main.acore")
	src := readFile(t, main)
	d := start(t, root)
	s := subscribe(t, d.url)
	for _, step := range []struct {
		from, to  string
		wantTheme bool
	}{
		{"app TasksApp {", `app TasksApp(theme: "none") {`, false},
		{`app TasksApp(theme: "none") {`, "app TasksApp {", true},
	} {
		next := bytes.Replace(src, []byte(step.from), []byte(step.to), 1)
		if bytes.Equal(next, src) {
			t.Fatalf("main.acore has no %q", step.from)
		}
		src = next
		writeFile(t, main, src)
		s.expectReload(t)
		page := string(do(t, http.MethodGet, d.url+"/", nil).body)
		if got := strings.Contains(page, `href="/app.css"`); got != step.wantTheme {
			t.Errorf("%s: the page links /app.css %v, want %v", step.to, got, step.wantTheme)
		}
		if !strings.Contains(page, `href="/styles.css"`) {
			t.Errorf("%s: the page does not link /styles.css", step.to)
		}
		want := http.StatusNotFound
		if step.wantTheme {
			want = http.StatusOK
		}
		if got := do(t, http.MethodGet, d.url+"/app.css", nil).status; got != want {
			t.Errorf("%s: GET /app.css = %d, want %d", step.to, got, want)
		}
	}
	if err := d.stop(t); err != nil {
		t.Fatal(err)
	}
}

// tree sums every file under root by its slash path.
func tree(t *testing.T, root string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = sha256.Sum256(readFile(t, p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBusySource: a source written again and again, never quiet for the
// debounce, is still rebuilt (after maxWait).
func TestBusySource(t *testing.T) {
	root := newApp(t)
	d := start(t, root)
	s := subscribe(t, d.url)
	main := filepath.Join(root, "main.acore")
	orig := readFile(t, main)
	begin := time.Now()
	for i := 0; ; i++ {
		select {
		case e, ok := <-s.events:
			if !ok || e.name != "reload" {
				t.Fatalf("event %s %s, want reload", e.name, e.data)
			}
			// The bound is generous for a busy machine; without maxWait the
			// reload waits for the first pause in the writes.
			if took := time.Since(begin); took > 5*maxWait {
				t.Errorf("reload %v after the writes began, want about %v", took, maxWait)
			}
			return
		case <-time.After(5 * time.Millisecond):
			if time.Since(begin) > timeout {
				t.Fatalf("no event in %v of writes", timeout)
			}
			writeFile(t, main, bytes.Replace(orig, []byte(`"Loading..."`), []byte(`"Loading `+strconv.Itoa(i)+`..."`), 1))
		}
	}
}

// TestNoGoodBuildYet starts on broken sources: pages show the diagnostics,
// assets are 404, and the fix reloads the page into the app.
func TestNoGoodBuildYet(t *testing.T) {
	root := newApp(t)
	line := breakSource(t, root)
	d := start(t, root)
	s := subscribe(t, d.url)
	if s.hello.Failure == nil || !hasDiagnostic(s.hello.Failure.Diagnostics, "main.acore", line, 1, diag.UnexpectedToken) {
		t.Fatalf("hello: %+v", s.hello)
	}
	for _, p := range []string{"/", "/about"} {
		res := do(t, http.MethodGet, d.url+p, nil)
		page := string(res.body)
		if res.status != http.StatusServiceUnavailable || !strings.HasPrefix(res.header.Get("Content-Type"), "text/html") ||
			!strings.Contains(page, "Build failed") || !strings.Contains(page, "main.acore:"+strconv.Itoa(line)+":1: error: ") ||
			!strings.Contains(page, devScript) || !strings.Contains(page, `content="`+s.hello.Build+`"`) {
			t.Errorf("GET %s: %d\n%s", p, res.status, page)
		}
	}
	if res := do(t, http.MethodGet, d.url+"/app.js", nil); res.status != http.StatusNotFound {
		t.Errorf("GET /app.js without a build: %d", res.status)
	}
	src := readFile(t, filepath.Join(root, "main.acore"))
	writeFile(t, filepath.Join(root, "main.acore"), src[:bytes.LastIndex(src, []byte("garbage"))])
	s.expectReload(t)
	if res := do(t, http.MethodGet, d.url+"/", nil); res.status != 200 || !strings.Contains(string(res.body), devScript) {
		t.Errorf("GET / after the fix: %d", res.status)
	}
}

// TestLoaderBound: a project over a bound of the loader fails preparation
// (logged) and the build, which reports it as a diagnostic.
func TestLoaderBound(t *testing.T) {
	root := newApp(t)
	for i := range 64 {
		writeFile(t, filepath.Join(root, "extra", "m"+strconv.Itoa(i)+".acore"), []byte("module m"+strconv.Itoa(i)+"\n"))
	}
	d := start(t, root)
	h := subscribe(t, d.url).hello
	if h.Failure == nil || len(h.Failure.Diagnostics) == 0 || h.Failure.Diagnostics[0].Code != diag.TooManyModules {
		t.Fatalf("hello: %+v, want an %s diagnostic", h, diag.TooManyModules)
	}
	if !strings.Contains(d.stderr.String(), "axiom dev: preparing the contracts: too_many_modules") {
		t.Errorf("the log lacks the preparation's error:\n%s", d.stderr)
	}
}

// TestWatchNewDirectory: a source in a directory created while the server
// runs is built (the directory is watched as it appears, and a file made
// before its watch was in place is not missed), and so is its removal.
func TestWatchNewDirectory(t *testing.T) {
	root := newApp(t)
	d := start(t, root)
	s := subscribe(t, d.url)
	dir := filepath.Join(root, "pages", "deep")
	writeFile(t, filepath.Join(dir, "broken.acore"), []byte("module broken\n\nnot a declaration\n"))
	f := s.expectError(t)
	if !hasDiagnostic(f.Diagnostics, "pages/deep/broken.acore", 3, 1, diag.UnexpectedToken) {
		t.Fatalf("error event lacks pages/deep/broken.acore:3:1: %+v", f)
	}
	if err := os.RemoveAll(filepath.Join(root, "pages")); err != nil {
		t.Fatal(err)
	}
	s.expectReload(t)
}

// TestContractChange: a change in contracts/ prepares the project again
// (a broken contract source is reported like a compile error), writes the
// development artifact and the lock, and reloads the backend.
func TestContractChange(t *testing.T) {
	root := newApp(t)
	d := start(t, root)
	s := subscribe(t, d.url)
	src := filepath.Join(root, "contracts", "tasks.axiom")
	orig := readFile(t, src)
	lockBefore := readFile(t, filepath.Join(root, ".axiom", "ui.lock"))

	writeFile(t, src, append(bytes.Clone(orig), "garbage\n"...))
	f := s.expectError(t)
	if len(f.Diagnostics) == 0 || f.Diagnostics[0].Path != "contracts/tasks.axiom" {
		t.Fatalf("error event of a broken contract: %+v", f)
	}

	changed := append(bytes.Clone(orig), "// a comment changes the artifact's bytes\n"...)
	writeFile(t, src, changed)
	s.expectReload(t)
	if got := readFile(t, filepath.Join(root, ".axiom", "dev", "contracts", "tasks.axiom")); !bytes.Equal(got, changed) {
		t.Errorf("the development artifact was not prepared again:\n%s", got)
	}
	if bytes.Equal(readFile(t, filepath.Join(root, ".axiom", "ui.lock")), lockBefore) {
		t.Error("the lock still pins the old artifact")
	}
	if !strings.Contains(d.stderr.String(), "development backend reloaded its contracts") {
		t.Errorf("the backend was not reloaded:\n%s", d.stderr)
	}
}

// TestShutdown: cancelling the context ends open event streams and Run
// returns nil; the address is free again.
func TestShutdown(t *testing.T) {
	root := newApp(t)
	d := start(t, root)
	s := subscribe(t, d.url)
	if err := d.stop(t); err != nil {
		t.Fatalf("Run: %v", err)
	}
	select {
	case e, ok := <-s.events:
		if ok {
			t.Fatalf("event %s after shutdown", e.name)
		}
	case <-time.After(timeout):
		t.Fatal("the event stream stayed open after shutdown")
	}
	if _, err := http.Get(d.url + "/"); err == nil {
		t.Error("the server still answers after shutdown")
	}
}

func TestRunErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Root: filepath.Join(t.TempDir(), "missing")}, "no such file or directory"},
		{Config{Root: file}, "not a directory"},
		{Config{Root: t.TempDir(), Addr: "127.0.0.1:99999"}, "invalid port"},
	} {
		err := Run(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run(%+v): %v, want an error containing %q", tc.cfg, err, tc.want)
		}
	}
}

func TestWatchedPaths(t *testing.T) {
	dirs := map[string]bool{
		".":                             true,
		"pages":                         true,
		"contracts":                     true,
		"web":                           true,
		".axiom":                        true,
		".axiom/dev":                    true,
		".axiom/dev/contracts":          true,
		".axiom/dev/contracts/archived": true,
		".axiom/state":                  false,
		".axiom/other":                  false,
		".git":                          false,
		"dist":                          false,
		"node_modules":                  false,
		"build":                         false,
		"pages/.hidden":                 false,
		"pages/dist/x":                  false,
	}
	for rel, want := range dirs {
		if got := watchedDir(rel); got != want {
			t.Errorf("watchedDir(%q) = %v, want %v", rel, got, want)
		}
	}
	files := map[string]bool{
		"main.acore":                       true,
		"pages/home.acore":                 true,
		"pages/notes.txt":                  false,
		"contracts/tasks.axiom":            true,
		"web/externs.js":                   true,
		"web/styles.css":                   true,
		"web/other.js":                     false,
		".axiom/ui.lock":                   true,
		".axiom/dev/app.sqlite":            false,
		".axiom/dev/app.sqlite-wal":        false,
		".axiom/dev/contracts/tasks.axiom": true,
		".axiom/dev/contracts/notes.txt":   false,
		".axiom/state/journal.acore":       false,
		".axiom/x.acore":                   false,
		".git/x.acore":                     false,
		"dist/x.acore":                     false,
		"node_modules/x/y.acore":           false,
		"build/x.acore":                    false,
		"pages/.hidden/x.acore":            false,
	}
	for rel, want := range files {
		if got := input(rel); got != want {
			t.Errorf("input(%q) = %v, want %v", rel, got, want)
		}
	}
}

func TestInject(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<html><head><title>x</title></head><body><p>a</p></body></html>",
			`<html><head><title>x</title><meta name="axiom-dev-build" content="b-1"></head><body><p>a</p>` + devScript + `</body></html>`},
		{"<HTML><HEAD></HEAD><BODY></BODY></HTML>",
			`<HTML><HEAD><meta name="axiom-dev-build" content="b-1"></HEAD><BODY>` + devScript + `</BODY></HTML>`},
		{"<p>no tags</p>", `<p>no tags</p><meta name="axiom-dev-build" content="b-1">` + devScript},
		{"<body>a</body><!-- </body> --></body>", `<body>a</body><!-- </body> --><meta name="axiom-dev-build" content="b-1">` + devScript + `</body>`},
	} {
		if got := string(inject([]byte(tc.in), "b-1")); got != tc.want {
			t.Errorf("inject(%q) =\n%s\nwant\n%s", tc.in, got, tc.want)
		}
	}
}

// TestAxagFindingsLogged: a good build whose manifest has AXAG findings
// logs them, once: a later save that leaves them as they were says
// nothing, and one that mends them says so.
func TestAxagFindingsLogged(t *testing.T) {
	root := newApp(t)
	d := start(t, root)
	s := subscribe(t, d.url)
	main := filepath.Join(root, "main.acore")
	orig := readFile(t, main)
	high := bytes.Replace(orig, []byte("  mutation create ="), []byte("  @axag(risk_level: \"high\")\n  mutation create ="), 1)
	writeFile(t, main, high)
	s.expectReload(t)
	const logged = "axiom dev: AXAG: 1 finding in the manifest:\nmain.acore:11:12: warning: intent task.create: high risk without confirmation_required true (the spec says MUST) [AXAG003]\n    fix: add confirmation_required: true to its @axag\n"
	if !strings.Contains(d.stderr.String(), logged) {
		t.Fatalf("the log lacks\n%s\nit is\n%s", logged, d.stderr)
	}
	writeFile(t, main, bytes.Replace(high, []byte(`"Loading..."`), []byte(`"Loading tasks..."`), 1))
	s.expectReload(t)
	if n := strings.Count(d.stderr.String(), "[AXAG003]"); n != 1 {
		t.Errorf("the finding is logged %d times after a save that left it:\n%s", n, d.stderr)
	}
	writeFile(t, main, orig)
	s.expectReload(t)
	if !strings.Contains(d.stderr.String(), "axiom dev: AXAG: no findings\naxiom dev: built in") {
		t.Errorf("the log does not say the findings are mended:\n%s", d.stderr)
	}
}
