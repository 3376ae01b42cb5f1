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

	"github.com/axiomcore/acore/internal/lang/scaffold"
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
			p := startDev(t, dir, "--addr", "127.0.0.1:0")
			stdout, stderr := p.stdout, p.stderr
			var url string
			select {
			case <-stdout.line:
				first, _, _ := strings.Cut(stdout.String(), "\n")
				if !regexp.MustCompile(`^http://127\.0\.0\.1:[1-9][0-9]*$`).MatchString(first) {
					t.Fatalf("first line %q, want http://127.0.0.1:PORT\nstderr: %s", first, stderr)
				}
				url = first
			case <-p.exited:
				t.Fatalf("exited before printing the URL: %v\nstderr: %s", p.waitErr, stderr)
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

			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.exited:
				if p.waitErr != nil {
					t.Errorf("after %v: %v\nstderr: %s", sig, p.waitErr, stderr)
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

// devProcess is a running `axiom dev`.
type devProcess struct {
	cmd            *exec.Cmd
	stdout, stderr *lockedBuffer
	exited         chan struct{}
	waitErr        error
}

// startDev starts `axiom dev args...` and kills it at the end of the test
// if it is still running.
func startDev(t *testing.T, args ...string) *devProcess {
	t.Helper()
	p := &devProcess{cmd: exec.Command("axiom", append([]string{"dev"}, args...)...), stdout: newLockedBuffer(), stderr: newLockedBuffer(), exited: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			p.cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// TestDevHostileContracts runs `axiom dev` on a project whose
// .axiom/dev/contracts holds what a cloned repository can ship (a symlink
// to /dev/zero, a 600 MB sparse file) or another process can leave (a
// FIFO): it prints its URL within seconds, names the file in its log,
// never reads the file whole, and stops at once on SIGTERM.
func TestDevHostileContracts(t *testing.T) {
	// Generous for a busy machine, and far below what reading 600 MB or
	// waiting on a FIFO takes.
	const within = 15 * time.Second
	for _, tc := range []struct {
		name string
		make func(t *testing.T, p string)
	}{
		{"fifo", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"dev-zero", func(t *testing.T, p string) {
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		}},
		{"sparse", func(t *testing.T, p string) {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(600 << 20); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "app")
			if _, err := scaffold.New(dir); err != nil {
				t.Fatal(err)
			}
			rel := ".axiom/dev/contracts/hostile.axiom"
			tc.make(t, filepath.Join(dir, filepath.FromSlash(rel)))
			p := startDev(t, dir)
			select {
			case <-p.stdout.line:
			case <-p.exited:
				t.Fatalf("exited before printing the URL: %v\nstderr: %s", p.waitErr, p.stderr)
			case <-time.After(within):
				t.Fatalf("no URL in %v\nstderr: %s", within, p.stderr)
			}
			// The refusal is logged before the URL is printed, but stderr
			// and stdout reach the test through two pipes, in either order.
			want := "axiom dev: development contract not read: " + rel
			for deadline := time.Now().Add(within); !strings.Contains(p.stderr.String(), want); {
				if time.Now().After(deadline) {
					t.Errorf("the log does not name %s in %v:\n%s", rel, within, p.stderr)
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.exited:
				if p.waitErr != nil {
					t.Errorf("after SIGTERM: %v\nstderr: %s", p.waitErr, p.stderr)
				}
			case <-time.After(within):
				t.Fatalf("still running %v after SIGTERM\nstderr: %s", within, p.stderr)
			}
			// Reading the sparse file whole would take 600 MB.
			if ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				if rss := ru.Maxrss << 10; rss > 256<<20 {
					t.Errorf("peak RSS %d MiB", rss>>20)
				} else {
					t.Logf("peak RSS %d MiB", rss>>20)
				}
			}
		})
	}
}

// TestDevAllowHost: on every address `axiom dev` prints a URL that works
// where IPv6 is off and answers only localhost, IP addresses and the
// names of --allow-host (repeated or comma-separated); a name that is no
// host name exits 1 before serving.
func TestDevAllowHost(t *testing.T) {
	const timeout = 60 * time.Second
	dir := filepath.Join(t.TempDir(), "app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"dev", dir, "--allow-host", "devbox.test:8080"}, io.Discard, io.Discard); code != exitFail {
		t.Errorf("--allow-host devbox.test:8080: exit %d, want %d", code, exitFail)
	}
	p := startDev(t, dir, "--addr", "0.0.0.0:0", "--allow-host", "devbox.test,other.test", "--allow-host", "third.test")
	select {
	case <-p.stdout.line:
	case <-p.exited:
		t.Fatalf("exited before printing the URL: %v\nstderr: %s", p.waitErr, p.stderr)
	case <-time.After(timeout):
		t.Fatalf("no URL in %v\nstderr: %s", timeout, p.stderr)
	}
	url, _, _ := strings.Cut(p.stdout.String(), "\n")
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[1-9][0-9]*$`).MatchString(url) {
		t.Fatalf("URL %q, want http://127.0.0.1:PORT", url)
	}
	port := url[strings.LastIndex(url, ":")+1:]
	for host, want := range map[string]int{
		"devbox.test:" + port: 200,
		"other.test:" + port:  200,
		"third.test:" + port:  200,
		"evil.test:" + port:   403,
	} {
		req, err := http.NewRequest(http.MethodGet, url+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET / with Host %s: %s, want %d", host, res.Status, want)
		}
	}
}
