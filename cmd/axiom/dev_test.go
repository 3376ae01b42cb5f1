package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/scaffold"
)

// lockedBuffer collects a process's output while the test reads it; line
// is closed once it holds a whole line.
type lockedBuffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	line chan struct{}
}

func newLockedBuffer() *lockedBuffer { return &lockedBuffer{line: make(chan struct{})} }

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	had := bytes.IndexByte(l.b.Bytes(), '\n') >= 0
	n, err := l.b.Write(p)
	if !had && bytes.IndexByte(p, '\n') >= 0 {
		close(l.line)
	}
	return n, err
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDevProcess runs `axiom dev` as a process (the test binary stands in
// for axiom, see TestMain): its first line of output is the URL, the app is
// served there, and SIGINT or SIGTERM stops it with status 0.
func TestDevProcess(t *testing.T) {
	const timeout = 60 * time.Second
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			if _, err := scaffold.New(dir); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("axiom", "dev", dir, "--addr", "127.0.0.1:0")
			stdout, stderr := newLockedBuffer(), newLockedBuffer()
			cmd.Stdout, cmd.Stderr = stdout, stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var waitErr error
			exited := make(chan struct{})
			go func() {
				waitErr = cmd.Wait()
				close(exited)
			}()
			t.Cleanup(func() {
				select {
				case <-exited:
				default:
					cmd.Process.Kill()
					<-exited
				}
			})

			var url string
			select {
			case <-stdout.line:
				first, _, _ := strings.Cut(stdout.String(), "\n")
				if !regexp.MustCompile(`^http://127\.0\.0\.1:[1-9][0-9]*$`).MatchString(first) {
					t.Fatalf("first line %q, want http://127.0.0.1:PORT\nstderr: %s", first, stderr)
				}
				url = first
			case <-exited:
				t.Fatalf("exited before printing the URL: %v\nstderr: %s", waitErr, stderr)
			case <-time.After(timeout):
				t.Fatalf("no output in %v\nstderr: %s", timeout, stderr)
			}

			res, err := http.Get(url + "/")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !strings.Contains(string(body), `<script type="module" src="/_axiom/dev.js"></script>`) ||
				res.Header.Get("Link") != `</.well-known/axag-manifest.json>; rel="axag-manifest"` {
				t.Errorf("GET /: %s, Link %q\n%s", res.Status, res.Header.Get("Link"), body)
			}

			// A call that writes the development database, which the stop
			// must then close.
			res, err = http.Post(url+"/tasks/create_task", "application/json", strings.NewReader(`{"title": "Buy milk"}`))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()

			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
				if waitErr != nil {
					t.Errorf("after %v: %v\nstderr: %s", sig, waitErr, stderr)
				}
			case <-time.After(timeout):
				t.Fatalf("still running %v after %v\nstderr: %s", timeout, sig, stderr)
			}
			if !strings.HasSuffix(stderr.String(), "axiom dev: stopped\n") {
				t.Errorf("stderr does not end with the stop:\n%s", stderr)
			}
			if got := stdout.String(); got != url+"\n" {
				t.Errorf("stdout holds more than the URL: %q", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "dist")); err == nil {
				t.Error("axiom dev wrote dist/")
			}
			// SQLite removes its write-ahead log when the last connection
			// closes cleanly.
			if wal, _ := filepath.Glob(filepath.Join(dir, ".axiom", "dev", "*-wal")); len(wal) > 0 {
				t.Errorf("the development database was not closed: %s remains", wal)
			}
		})
	}
}
