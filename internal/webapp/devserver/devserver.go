// Package devserver is `axiom dev`: it builds a project for the web
// (internal/webapp/web), serves the app from memory and the development backend
// (internal/webapp/devbackend) on one address, watches the sources, rebuilds on
// change and reloads open pages over server-sent events. While the sources
// do not compile, pages show an overlay listing the diagnostics and the last
// good build keeps running.
package devserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/platform/fsutil"
	"github.com/axiomcore/acore/internal/webapp/devbackend"
	"github.com/axiomcore/acore/internal/webapp/web"
)

// DefaultAddr is where Run listens when Config.Addr is empty: loopback, a
// free port.
const DefaultAddr = "127.0.0.1:0"

// Config configures Run.
type Config struct {
	Root string // the project directory
	Addr string // host:port to listen on; "" means DefaultAddr
	// AllowHosts are host names, besides localhost, *.localhost and IP
	// addresses, under which the server answers and whose pages may call
	// the development backend (see the docs' Host and Origin rules).
	AllowHosts []string
	Timeouts   Timeouts  // zero fields take DefaultTimeouts' values
	Stdout     io.Writer // receives one line, the URL http://HOST:PORT, once the first build is done
	Stderr     io.Writer // the log: builds, diagnostics, backend problems
}

// Timeouts bound how long a connection may hold the server.
type Timeouts struct {
	ReadHeader time.Duration // from the connection's first byte (or the end of the previous request) to the end of a request's header
	Read       time.Duration // the same to the end of its body
	Write      time.Duration // from the end of the request's header to the end of the answer; an event stream gets it anew for each event
	Idle       time.Duration // a kept-alive connection waiting for its next request
	Stop       time.Duration // on stopping, for the requests and the build in flight to finish
}

// DefaultTimeouts are the timeouts of `axiom dev`.
var DefaultTimeouts = Timeouts{
	ReadHeader: 5 * time.Second,
	Read:       15 * time.Second,
	Write:      30 * time.Second,
	Idle:       15 * time.Second,
	Stop:       5 * time.Second,
}

func (t Timeouts) withDefaults() Timeouts {
	for _, f := range []struct{ v, d *time.Duration }{
		{&t.ReadHeader, &DefaultTimeouts.ReadHeader},
		{&t.Read, &DefaultTimeouts.Read},
		{&t.Write, &DefaultTimeouts.Write},
		{&t.Idle, &DefaultTimeouts.Idle},
		{&t.Stop, &DefaultTimeouts.Stop},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return t
}

// maxHeaderBytes bounds a request's header: room for the cookies that
// other development servers on localhost leave, which every port shares.
const maxHeaderBytes = 64 << 10

// Run builds the project, serves it on cfg.Addr and rebuilds on every change
// of its sources until ctx is done; then it stops serving, closes the
// development backend (its database) and returns nil. It returns an error
// when the root is not a directory, a name of AllowHosts is no host name
// or the address cannot be listened on, and when stopping outlasts
// Timeouts.Stop (a request or a build still running).
func Run(ctx context.Context, cfg Config) error {
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(root); err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("%s: not a directory", cfg.Root)
	}
	hosts, err := hostList(cfg.AllowHosts)
	if err != nil {
		return err
	}
	addr := cfg.Addr
	if addr == "" {
		addr = DefaultAddr
	}
	timeouts := cfg.Timeouts.withDefaults()
	stdout, stderr := cfg.Stdout, cfg.Stderr
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	// Watch before the first build, so that an edit made while it runs is
	// not lost.
	w, err := newWatcher(root)
	if err != nil {
		ln.Close()
		return err
	}
	s := newServer(root, stderr)
	s.hosts, s.writeTimeout = hosts, timeouts.Write

	// Builds run beside the loop, which stays free to see ctx end: a stop
	// never waits for a build longer than timeouts.Stop.
	first := make(chan struct{})
	go func() { s.cycle(nil, true); close(first) }()
	select {
	case <-first:
	case <-ctx.Done():
		ln.Close()
		return s.stop(w, nil, first, timeouts.Stop, nil)
	}

	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: timeouts.ReadHeader,
		ReadTimeout:       timeouts.Read,
		WriteTimeout:      timeouts.Write,
		IdleTimeout:       timeouts.Idle,
		MaxHeaderBytes:    maxHeaderBytes,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "%s\n", urlOf(ln.Addr()))
	if f, ok := stdout.(interface{ Flush() error }); ok {
		f.Flush()
	}
	building, err := s.loop(ctx, w)
	return s.stop(w, srv, building, timeouts.Stop, func() error {
		if e := <-served; e != nil && !errors.Is(e, http.ErrServerClosed) {
			return e
		}
		return nil
	}, err)
}

// stop ends the event streams, lets the requests (of srv, when serving)
// and the build (building, when one runs) in flight finish within grace,
// stops watching and closes the development backend. served reports how
// serving ended.
func (s *server) stop(w *watcher, srv *http.Server, building <-chan struct{}, grace time.Duration, served func() error, errs ...error) error {
	// Event streams never end by themselves: end them, then let the
	// requests in flight finish.
	s.close()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	errs = append(errs, w.close())
	if srv != nil {
		if e := srv.Shutdown(sctx); e != nil {
			srv.Close()
			errs = append(errs, fmt.Errorf("stopping the server: %w", e))
		}
		errs = append(errs, served())
	}
	if building != nil {
		select {
		case <-building:
		case <-sctx.Done():
			errs = append(errs, fmt.Errorf("stopped while a build was still running after %v", grace))
		}
	}
	if b := s.currentBackend(); b != nil {
		if e := b.Close(); e != nil {
			errs = append(errs, fmt.Errorf("closing the development backend: %w", e))
		}
	}
	return errors.Join(errs...)
}

// urlOf is the URL a person opens for a listening address. An
// unspecified host (0.0.0.0, ::) is reached through loopback: 127.0.0.1,
// which works even where IPv6 is off, whenever the listener takes IPv4
// connections (Go listens on both families for either, where it can);
// [::1] only for a listener of IPv6 alone.
func urlOf(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String()
	}
	ip, port := ta.IP, strconv.Itoa(ta.Port)
	if ip.IsUnspecified() {
		v4 := net.JoinHostPort("127.0.0.1", port)
		if ip.To4() != nil || accepts(v4) {
			return "http://" + v4
		}
		ip = net.IPv6loopback
	}
	return "http://" + net.JoinHostPort(ip.String(), port)
}

// accepts reports whether a connection to addr, on this machine, is
// accepted.
func accepts(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// debounce is how long the sources must stay quiet before a rebuild:
// editors and `git checkout` touch several files in a burst. A source that
// never stays quiet (a tool writing it all the time) is rebuilt after
// maxWait all the same.
const (
	debounce = 75 * time.Millisecond
	maxWait  = time.Second
)

// loop rebuilds after each quiet burst of source changes until ctx is done,
// one build at a time, each beside the loop. It returns a channel closed
// when the build still running ends, or nil when none runs.
func (s *server) loop(ctx context.Context, w *watcher) (<-chan struct{}, error) {
	pending := map[string]bool{}
	var since time.Time // of the first pending change
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	changed := func(rels ...string) {
		if len(rels) == 0 {
			return
		}
		if len(pending) == 0 {
			since = time.Now()
		}
		for _, rel := range rels {
			pending[rel] = true
		}
		timer.Reset(min(debounce, max(0, maxWait-time.Since(since))))
	}
	var building chan struct{} // closed when the running build ends; nil while none runs
	due := false               // the changes went quiet while a build ran
	build := func() {
		rels := make([]string, 0, len(pending))
		for rel := range pending {
			rels = append(rels, rel)
		}
		clear(pending)
		done := make(chan struct{})
		building = done
		go func() { s.cycle(rels, false); close(done) }()
	}
	for {
		select {
		case <-ctx.Done():
			return building, nil
		case ev, ok := <-w.fs.Events:
			if !ok {
				return building, errors.New("the file watcher stopped")
			}
			changed(w.handle(ev)...)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return building, errors.New("the file watcher stopped")
			}
			// An overflow loses events; a rebuild catches up on them.
			fmt.Fprintf(s.log, "axiom dev: watching the sources: %v\n", err)
			changed(".")
		case <-timer.C:
			if building != nil {
				due = true
				continue
			}
			build()
		case <-building:
			building = nil
			if due {
				due = false
				build()
			}
		}
	}
}

// server holds the state of one `axiom dev`: the last good build, the
// latest failure, the development backend and the open event streams.
type server struct {
	root     string
	log      io.Writer
	instance string // tells this process's builds from a previous one's
	hosts    hostSet
	// writeTimeout is how long an event stream may take to write one
	// event.
	writeTimeout time.Duration

	mu       sync.Mutex
	good     *web.Output // the last good build; nil before the first
	goodSeq  int         // number of good builds with new files so far
	failure  *failure    // why the latest build failed; nil when it did not
	clients  map[chan event]struct{}
	closed   bool
	closing  chan struct{}
	backend  *devbackend.Backend
	contract string // digest of the contract artifacts the backend last read
	digest   string // digest of the contract artifacts the latest build saw
	findings string // the AXAG findings of the last good build, as logged
}

// failure is the payload of an `error` event: the diagnostics of a build
// that failed, or, for a failure that has none, its message.
type failure struct {
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Error       string            `json:"error,omitempty"`
}

func newServer(root string, log io.Writer) *server {
	return &server{
		root:     root,
		log:      log,
		instance: strconv.FormatInt(time.Now().UnixNano(), 36),
		clients:  map[chan event]struct{}{},
		closing:  make(chan struct{}),
	}
}

// buildID names the build a page was served from: pages compare it with
// the server's on every (re)connection and reload when they differ.
func (s *server) buildID(seq int) string { return s.instance + "-" + strconv.Itoa(seq) }

// cycle prepares when the contract sources changed (always at start),
// reloads the backend when the contract artifacts changed, rebuilds, and
// tells the pages.
func (s *server) cycle(changed []string, first bool) {
	start := time.Now()
	prepErr := ""
	if first || touchesContracts(changed) {
		rep, err := prepare.Run(s.root)
		if rep != nil {
			for _, f := range rep.Removed {
				fmt.Fprintf(s.log, "axiom dev: prepare: removed %s\n", f)
			}
			for _, f := range rep.Written {
				fmt.Fprintf(s.log, "axiom dev: prepare: wrote %s\n", f)
			}
		}
		var ce *prepare.ContractError
		switch {
		case errors.As(err, &ce):
			// The contract sources are broken: building would only report
			// an outdated lock. Show what is wrong with them instead.
			s.fail(&failure{Diagnostics: ce.Diagnostics})
			s.syncBackend()
			return
		case err != nil:
			// Anything else (an unreadable file, a bound of the loader) the
			// build meets too and reports in its own terms.
			prepErr = "preparing the contracts: " + err.Error()
			fmt.Fprintf(s.log, "axiom dev: %s\n", prepErr)
		}
	}
	s.syncBackend()
	out, err := web.Build(s.root, web.Options{})
	switch {
	case err != nil:
		msg := err.Error()
		if prepErr != "" {
			msg = prepErr + "; " + msg
		}
		s.fail(&failure{Error: msg})
	case out.Failed:
		s.fail(&failure{Diagnostics: out.Diagnostics})
	default:
		s.succeed(out, time.Since(start))
	}
}

// touchesContracts reports whether a change concerns the contract sources
// (or is "." for an unknown change), which need preparing again.
func touchesContracts(changed []string) bool {
	for _, rel := range changed {
		if rel == "." || rel == "contracts" || strings.HasPrefix(rel, "contracts/") {
			return true
		}
	}
	return false
}

// syncBackend opens the development backend, or reloads it when the
// contract artifacts differ from what it last read. A backend that cannot
// open is retried on the next rebuild; meanwhile calls answer 503.
func (s *server) syncBackend() {
	sum, refused := contractDigest(s.root)
	s.mu.Lock()
	b, same, seen := s.backend, s.contract == sum, s.digest == sum
	s.digest = sum
	s.mu.Unlock()
	if !seen {
		for _, msg := range refused {
			fmt.Fprintf(s.log, "axiom dev: development contract not read: %s\n", msg)
		}
	}
	switch {
	case b == nil:
		nb, err := devbackend.Open(s.root)
		if err != nil {
			fmt.Fprintf(s.log, "axiom dev: development backend: %v\n", err)
			return
		}
		b = nb
	case same:
		return
	default:
		if err := b.Reload(); err != nil {
			fmt.Fprintf(s.log, "axiom dev: reloading the development backend: %v\n", err)
			return
		}
		fmt.Fprintf(s.log, "axiom dev: development backend reloaded its contracts\n")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		// Run stopped while this build ran and closed what it held.
		if s.backend != b {
			b.Close()
		}
		return
	}
	s.backend, s.contract = b, sum
}

// contractDigest sums the names and bytes of the contract artifacts, the
// input of the development backend, and lists the artifacts it refused to
// read, with why. It reads as the compiler's loader does: through the
// confined root, without blocking, and never more than the loader's
// bound on one file; a file refused is summed by its name and refusal.
func contractDigest(root string) (string, []string) {
	h := sha256.New()
	var refused []string
	refuse := func(rel string, why error) {
		refused = append(refused, why.Error())
		fmt.Fprintf(h, "%s\x00refused\x00%v\x00", rel, why)
	}
	r, err := fsutil.OpenRoot(root)
	if err != nil {
		refuse(lock.ContractDir, err)
		return hex.EncodeToString(h.Sum(nil)), refused
	}
	defer r.Close()
	d, err := r.OpenDir(lock.ContractDir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			refuse(lock.ContractDir, err)
		}
		return hex.EncodeToString(h.Sum(nil)), refused
	}
	list, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		refuse(lock.ContractDir, err)
	}
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range list {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".axiom") {
			continue
		}
		rel := lock.ContractDir + "/" + e.Name()
		if err := sumFile(h, r, rel, load.SourceFileBytesMax); err != nil {
			refuse(rel, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), refused
}

// sumFile adds the name, length and bytes of the regular project file rel
// to h, reading no more than limit+1 bytes. A file longer than limit is
// refused.
func sumFile(h io.Writer, r *fsutil.Root, rel string, limit int64) error {
	f, fi, err := r.OpenRegular(rel)
	if errors.Is(err, fsutil.ErrEscape) {
		return fmt.Errorf("%s is a symlink that points outside the project root", rel)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	tooLarge := func(got int64) error {
		return fmt.Errorf("%s is %d bytes, over the limit of %d", rel, got, limit)
	}
	if fi.Size() > limit {
		return tooLarge(fi.Size())
	}
	data, err := fsutil.ReadAll(io.LimitReader(f, limit+1), fi.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	if n := int64(len(data)); n > limit {
		return tooLarge(n) // it grew after it was measured
	}
	fmt.Fprintf(h, "%s\x00%d\x00", rel, len(data))
	h.Write(data)
	return nil
}

func (s *server) currentBackend() *devbackend.Backend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backend
}

// succeed makes out the build being served and reloads the pages, unless
// it serves the same files as before and nothing was failing (a save
// without changes, or the echo of preparation's own writes).
func (s *server) succeed(out *web.Output, took time.Duration) {
	s.logFindings(out.Findings)
	s.mu.Lock()
	unchanged := s.good != nil && s.failure == nil && sameFiles(s.good.Files, out.Files)
	if !unchanged {
		s.good = out
		s.goodSeq++
	}
	s.failure = nil
	id := s.buildID(s.goodSeq)
	s.mu.Unlock()
	if unchanged {
		return
	}
	fmt.Fprintf(s.log, "axiom dev: built in %d ms\n", took.Milliseconds())
	s.broadcast(event{name: "reload", data: mustJSON(map[string]string{"build": id})})
}

// logFindings prints what the AXAG rules find in a good build's manifest
// when it is not what they found in the last: a save that leaves the
// facts as they were says nothing again.
func (s *server) logFindings(fs []axag.Finding) {
	lines := make([]string, len(fs))
	for i, f := range fs {
		lines[i] = f.String()
	}
	text := strings.Join(lines, "\n")
	s.mu.Lock()
	same := s.findings == text
	s.findings = text
	s.mu.Unlock()
	switch {
	case same:
	case len(fs) == 0:
		fmt.Fprintf(s.log, "axiom dev: AXAG: no findings\n")
	default:
		fmt.Fprintf(s.log, "axiom dev: AXAG: %d %s in the manifest:\n%s\n", len(fs), plural(len(fs), "finding"), text)
	}
}

// fail records f as the latest build's outcome, keeps the last good build
// running and shows f in the pages.
func (s *server) fail(f *failure) {
	if f.Diagnostics == nil {
		f.Diagnostics = []diag.Diagnostic{}
	}
	data := mustJSON(f)
	s.mu.Lock()
	same := s.failure != nil && string(mustJSON(s.failure)) == string(data)
	s.failure = f
	s.mu.Unlock()
	if same {
		return
	}
	nerr, _ := diag.Count(f.Diagnostics)
	switch {
	case f.Error != "":
		fmt.Fprintf(s.log, "axiom dev: build failed: %s\n", f.Error)
	default:
		fmt.Fprintf(s.log, "axiom dev: build failed (%d %s):\n", nerr, plural(nerr, "error"))
	}
	for _, d := range f.Diagnostics {
		fmt.Fprintf(s.log, "%s\n", formatDiagnostic(d))
	}
	s.broadcast(event{name: "error", data: data})
}

// formatDiagnostic is the one-line form editors and terminals recognise.
func formatDiagnostic(d diag.Diagnostic) string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.Path, d.Line, d.Column, d.Severity, d.Message, d.Code)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || string(v) != string(w) {
			return false
		}
	}
	return true
}
