package devserver

import (
	"bytes"
	_ "embed"
	"html/template"
	"mime"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/webapp/web"
)

// devJS is the client every served page loads: it listens to
// /_axiom/events, reloads the page after a good build and shows the
// diagnostics overlay after a failed one.
//
//go:embed client/dev.js
var devJS []byte

// The paths of the dev server itself; the app cannot have files there.
const (
	devPrefix  = "/_axiom/"
	devJSPath  = "/_axiom/dev.js"
	eventsPath = "/_axiom/events"
)

// devScript is injected before </body> of index.html.
const devScript = `<script type="module" src="/_axiom/dev.js"></script>`

// manifestLink announces the AXAG manifest on HTML answers (the
// reference's discovery rules).
const manifestLink = `</.well-known/axag-manifest.json>; rel="axag-manifest"`

// ServeHTTP serves the dev client and event stream under /_axiom/, the
// last good build's files for GET and HEAD, and hands contract calls
// (POST) and their CORS preflights (OPTIONS) to the development backend.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secure(w.Header())
	if !s.hosts.hostAllowed(r.Host) {
		// A page on another site that points its own domain at this
		// machine (DNS rebinding) would otherwise read and change the
		// development data.
		http.Error(w, "axiom dev answers only requests addressed to localhost, an IP address or a name given with --allow-host, not "+strconv.Quote(r.Host)+"; to use that name, start axiom dev with --allow-host "+hostOnly(r.Host), http.StatusForbidden)
		return
	}
	switch {
	case r.URL.Path == eventsPath:
		s.serveEvents(w, r)
	case r.URL.Path == devJSPath && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		serveBytes(w, r, "text/javascript; charset=utf-8", devJS)
	case strings.HasPrefix(r.URL.Path, devPrefix):
		http.NotFound(w, r)
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		s.serveFile(w, r)
	case r.Method == http.MethodPost || r.Method == http.MethodOptions:
		s.serveBackend(w, r)
	default:
		w.Header().Set("Allow", "GET, HEAD, POST, OPTIONS")
		http.Error(w, "method not allowed: pages and assets answer GET, the development backend POST and OPTIONS", http.StatusMethodNotAllowed)
	}
}

// serveFile answers a GET: a file of the build, index.html for a path
// without an extension (a route of the app, which shows its own not-found
// page for unknown ones) or for a path of a route (/books/:id matches
// /books/a.b), 404 for any other path.
func (s *server) serveFile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	page := name == "index.html" || path.Ext(name) == ""
	s.mu.Lock()
	good, id, fail := s.good, s.buildID(s.goodSeq), s.failure
	s.mu.Unlock()
	if good == nil {
		if !page {
			http.Error(w, "no build yet: the sources do not compile", http.StatusNotFound)
			return
		}
		serveFailurePage(w, r, id, fail)
		return
	}
	data, ok := good.Files[name]
	if !ok {
		if !page && !web.MatchRoute(good.Routes, "/"+name) {
			http.NotFound(w, r)
			return
		}
		name, data = "index.html", good.Files["index.html"]
	}
	ctype := contentType(name)
	if name == "index.html" {
		data = inject(data, id)
	}
	if strings.HasPrefix(ctype, "text/html") {
		w.Header().Set("Link", manifestLink)
	}
	serveBytes(w, r, ctype, data)
}

// hostOnly is the host of a Host header, without its port.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// secure sets the headers every answer carries: no other site may frame
// a page (clickjacking a control of the app), a type is never sniffed,
// and the address of a page never leaves it as a referrer.
func secure(h http.Header) {
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// serveBackend hands a contract call (POST) or its CORS preflight
// (OPTIONS) to the development backend.
func (s *server) serveBackend(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !s.hosts.originAllowed(origin, r.Host) {
		backendError(w, http.StatusForbidden, "axiom dev answers contract calls only from its own pages, pages on this machine and pages of a name given with --allow-host, not from "+strconv.Quote(origin))
		return
	}
	b := s.currentBackend()
	if b == nil {
		backendError(w, http.StatusServiceUnavailable, "the development backend is not running; see the output of axiom dev")
		return
	}
	b.ServeHTTP(w, r)
}

// backendError answers a contract call in the wire format's failure shape.
func backendError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(mustJSON(map[string]any{"error": map[string]string{"message": msg}}))
}

// serveBytes writes data uncached: a page must always see the current
// build.
func serveBytes(w http.ResponseWriter, r *http.Request, ctype string, data []byte) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

// contentType names the type of a build file by its extension; types are
// fixed here rather than taken from the system's MIME tables, which differ
// between machines.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".json":
		return "application/json"
	case ".svg":
		return "image/svg+xml"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// inject adds the build id to the head and the dev client before </body>
// (both before </body>, or at the end, when the page lacks those tags).
func inject(page []byte, id string) []byte {
	meta := `<meta name="axiom-dev-build" content="` + template.HTMLEscapeString(id) + `">`
	out := make([]byte, 0, len(page)+len(meta)+len(devScript))
	tail := meta + devScript
	if head := bytes.Index(bytes.ToLower(page), []byte("</head>")); head >= 0 {
		out = append(out, page[:head]...)
		out = append(out, meta...)
		page = page[head:]
		tail = devScript
	}
	body := bytes.LastIndex(bytes.ToLower(page), []byte("</body>"))
	if body < 0 {
		body = len(page)
	}
	out = append(out, page[:body]...)
	out = append(out, tail...)
	return append(out, page[body:]...)
}

var failurePage = template.Must(template.New("failure").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="axiom-dev-build" content="{{.Build}}">
<title>Build failed · axiom dev</title>
<style>
body{margin:0;background:#14161c;color:#e6e6e6;font:14px/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
main{max-width:960px;margin:8vh auto;padding:0 24px}
h1{color:#ff6b6b;font:600 20px/1.3 system-ui,sans-serif}
pre{white-space:pre-wrap;word-break:break-word}
</style>
</head>
<body>
<main>
<h1>Build failed</h1>
<p>No build of this project has succeeded yet. Fix the sources and save: this page reloads when the build succeeds.</p>
<pre>{{range .Lines}}{{.}}
{{end}}</pre>
</main>
` + devScript + `
</body>
</html>
`))

// serveFailurePage answers a page while no build has succeeded: the
// diagnostics as text (the dev client shows them as the overlay too) and
// the dev client, which reloads once a build succeeds.
func serveFailurePage(w http.ResponseWriter, r *http.Request, id string, f *failure) {
	var lines []string
	if f != nil {
		if f.Error != "" {
			lines = append(lines, f.Error)
		}
		for _, d := range f.Diagnostics {
			lines = append(lines, formatDiagnostic(d))
		}
	}
	var b bytes.Buffer
	failurePage.Execute(&b, struct {
		Build string
		Lines []string
	}{id, lines})
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// 503 says "not ready" to scripts polling the server; browsers show
	// the page all the same.
	w.WriteHeader(http.StatusServiceUnavailable)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}
