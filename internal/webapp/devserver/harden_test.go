package devserver

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/load"
)

// TestSecurityHeaders: every answer, whatever its status, forbids framing
// by another site, type sniffing and referrers.
func TestSecurityHeaders(t *testing.T) {
	root := newApp(t)
	d := start(t, root)
	broken := startWith(t, Config{Root: func() string { r := newApp(t); breakSource(t, r); return r }()})
	port := d.url[strings.LastIndex(d.url, ":")+1:]
	for _, tc := range []struct {
		name, method, url string
		header            map[string]string
		status            int
	}{
		{"page", "GET", d.url + "/", nil, 200},
		{"route", "GET", d.url + "/about", nil, 200},
		{"asset", "GET", d.url + "/app.js", nil, 200},
		{"head", "HEAD", d.url + "/app.css", nil, 200},
		{"dev client", "GET", d.url + "/_axiom/dev.js", nil, 200},
		{"missing", "GET", d.url + "/missing.png", nil, 404},
		{"method", "PUT", d.url + "/", nil, 405},
		{"foreign host", "GET", d.url + "/", map[string]string{"Host": "evil.example:" + port}, 403},
		{"call", "POST", d.url + "/tasks/list_tasks", nil, 200},
		{"foreign call", "POST", d.url + "/tasks/list_tasks", map[string]string{"Origin": "https://evil.example"}, 403},
		{"preflight", "OPTIONS", d.url + "/tasks/list_tasks", map[string]string{"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"}, 204},
		{"no build yet", "GET", broken.url + "/", nil, 503},
	} {
		var body io.Reader
		if tc.method == "POST" {
			body = strings.NewReader("{}")
		}
		res := doWith(t, tc.method, tc.url, body, tc.header)
		if res.status != tc.status {
			t.Errorf("%s: %s %s: %d, want %d", tc.name, tc.method, tc.url, res.status, tc.status)
		}
		checkSecurityHeaders(t, tc.name, res.header)
	}

	// The event stream's answer too.
	res, err := http.Get(d.url + eventsPath)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	checkSecurityHeaders(t, "events", res.Header)
}

func checkSecurityHeaders(t *testing.T, name string, h http.Header) {
	t.Helper()
	for k, want := range map[string]string{
		"X-Frame-Options":         "DENY",
		"Content-Security-Policy": "frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
	} {
		if got := h.Values(k); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %s %q, want %q", name, k, got, want)
		}
	}
}

// TestUnspecifiedAddressURL: listening on every address, the printed URL
// is the IPv4 loopback, which works where IPv6 is off, and it answers.
func TestUnspecifiedAddressURL(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", ":0"} {
		t.Run(addr, func(t *testing.T) {
			if ln, err := net.Listen("tcp", addr); err != nil {
				t.Skipf("cannot listen on %s here: %v", addr, err)
			} else {
				ln.Close()
			}
			d := startWith(t, Config{Root: newApp(t), Addr: addr})
			if !strings.HasPrefix(d.url, "http://127.0.0.1:") {
				t.Fatalf("URL %q, want http://127.0.0.1:PORT", d.url)
			}
			if res := do(t, http.MethodGet, d.url+"/", nil); res.status != 200 {
				t.Errorf("GET %s/: %d", d.url, res.status)
			}
		})
	}
}

// dial opens a connection to the server of base (http://HOST:PORT).
func dial(t *testing.T, base string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// closedWithin reads c until the server closes it, and fails unless that
// happens within limit. Anything the server writes first (an answer, a
// timeout's 408) is returned.
func closedWithin(t *testing.T, what string, c net.Conn, limit time.Duration) string {
	t.Helper()
	start := time.Now()
	c.SetReadDeadline(start.Add(limit))
	got, err := io.ReadAll(c)
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		t.Fatalf("%s: still open after %v", what, limit)
	case err != nil && !errors.Is(err, syscall.ECONNRESET):
		t.Fatalf("%s: %v", what, err)
	}
	t.Logf("%s: closed after %v", what, time.Since(start).Round(time.Millisecond))
	return string(got)
}

// TestTimeouts: connections that stop sending (idle after an answer, a
// header or a body never finished) are closed once their timeout is past,
// while an event stream outlives every timeout and still gets events.
func TestTimeouts(t *testing.T) {
	root := newApp(t)
	timeouts := Timeouts{ReadHeader: 300 * time.Millisecond, Read: 600 * time.Millisecond, Write: 600 * time.Millisecond, Idle: 1500 * time.Millisecond}
	d := startWith(t, Config{Root: root, Timeouts: timeouts})
	host := strings.TrimPrefix(d.url, "http://")
	// A bound for a close due at a timeout: well past it, on a busy
	// machine, and well before the test's own timeout.
	limit := func(d time.Duration) time.Duration { return d + 5*time.Second }

	s := subscribe(t, d.url)

	idle := dial(t, d.url)
	if _, err := io.WriteString(idle, "GET /app.css HTTP/1.1\r\nHost: "+host+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(idle)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil || res.StatusCode != 200 {
		t.Fatalf("keep-alive request: %v %v", res.Status, err)
	}
	res.Body.Close()

	header := dial(t, d.url)
	if _, err := io.WriteString(header, "GET / HTTP/1.1\r\nHost: "+host+"\r\n"); err != nil {
		t.Fatal(err)
	}
	body := dial(t, d.url)
	if _, err := io.WriteString(body, "POST /tasks/create_task HTTP/1.1\r\nHost: "+host+"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"title\": "); err != nil {
		t.Fatal(err)
	}
	closedWithin(t, "a header never finished", header, limit(timeouts.ReadHeader))
	closedWithin(t, "a body never finished", body, limit(timeouts.Read))
	if rest := closedWithin(t, "an idle connection", idle, limit(timeouts.Idle)); rest != "" || br.Buffered() != 0 {
		t.Errorf("the idle connection got more than its answer: %q", rest)
	}

	// The stream was opened before the idle connection's request: it is
	// older than the idle timeout, and so than every other.
	main := filepath.Join(root, "main.acore")
	writeFile(t, main, []byte(strings.Replace(string(readFile(t, main)), `"Loading..."`, `"Loading tasks..."`, 1)))
	s.expectReload(t)

	if res := do(t, http.MethodPost, d.url+"/tasks/list_tasks", strings.NewReader("{}")); res.status != 200 || string(res.body) != "[]\n" && string(res.body) != "[]" {
		t.Errorf("list_tasks after the unfinished create: %d %s, want no task", res.status, res.body)
	}
}

// TestHeaderBound: a request whose header is over maxHeaderBytes is
// refused (431) instead of read.
func TestHeaderBound(t *testing.T) {
	d := start(t, newApp(t))
	res := doWith(t, http.MethodGet, d.url+"/", nil, map[string]string{"Cookie": "a=" + strings.Repeat("x", 2*maxHeaderBytes)})
	if res.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a %d-byte header: %d, want 431", 2*maxHeaderBytes, res.status)
	}
}

// TestHostileContracts: a contract artifact that is no regular file of the
// project, or is over the loader's bound, is not read: the server starts,
// names the file in its log, serves, and stops.
func TestHostileContracts(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, p string)
		want string
	}{
		{"fifo", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "a FIFO: not a regular file"},
		{"device", func(t *testing.T, p string) {
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		}, "is a symlink that points outside the project root"},
		{"large", func(t *testing.T, p string) {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(600 << 20); err != nil {
				t.Fatal(err)
			}
		}, "is 629145600 bytes, over the limit of " + strconv.Itoa(load.SourceFileBytesMax)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newApp(t)
			rel := ".axiom/dev/contracts/hostile.axiom"
			tc.make(t, filepath.Join(root, filepath.FromSlash(rel)))
			d := start(t, root)
			if want := "axiom dev: development contract not read: " + rel; !strings.Contains(d.stderr.String(), want) || !strings.Contains(d.stderr.String(), tc.want) {
				t.Errorf("the log does not name %s (%q):\n%s", rel, tc.want, d.stderr)
			}
			if res := do(t, http.MethodGet, d.url+"/", nil); res.status != 200 && res.status != http.StatusServiceUnavailable {
				t.Errorf("GET /: %d", res.status)
			}
			if err := d.stop(t); err != nil {
				t.Errorf("Run: %v", err)
			}
			t.Logf("log:\n%s", d.stderr)
		})
	}
}
