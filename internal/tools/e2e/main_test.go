package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// bin holds the commands built once for the whole test binary.
var bin struct {
	dir   string
	axiom string
	axag  string
	mcp   string
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "acore-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin.dir = dir
	bin.axiom = filepath.Join(dir, "axiom")
	bin.axag = filepath.Join(dir, "axag")
	bin.mcp = filepath.Join(dir, "acore-semantic-mcp")
	for out, pkg := range map[string]string{bin.axiom: "../../../cmd/axiom", bin.axag: "../../../cmd/axag",
		bin.mcp: "../../../cmd/acore-semantic-mcp"} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		if b, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build %s: %v\n%s", pkg, err, b)
			return 1
		}
	}
	return m.Run()
}

// axiom runs the axiom command with args and returns its combined output,
// failing the test when its exit status is not want.
func axiom(t *testing.T, want int, args ...string) string {
	t.Helper()
	return command(t, want, bin.axiom, args...)
}

func command(t *testing.T, want int, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s %s: %v", filepath.Base(name), strings.Join(args, " "), err)
		}
		code = ee.ExitCode()
	}
	if code != want {
		t.Fatalf("%s %s: exit %d, want %d\n%s", filepath.Base(name), strings.Join(args, " "), code, want, out)
	}
	return string(out)
}

// newTaskApp writes the task-app with `axiom new` into a fresh directory.
func newTaskApp(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "task-app")
	axiom(t, 0, "new", dir)
	return dir
}

// copyExample copies examples/<name> into a fresh directory, without the
// state a development run leaves under .axiom/ besides the contracts and
// the lock, so that each test starts from the committed project.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "..", "examples", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(rel)
		if d.IsDir() {
			if slash == "dist" || (strings.HasPrefix(slash, ".axiom/") && slash != ".axiom/dev" && !strings.HasPrefix(slash, ".axiom/dev/contracts")) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if strings.HasPrefix(slash, ".axiom/dev/") && !strings.HasPrefix(slash, ".axiom/dev/contracts/") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// dev is one `axiom dev` process.
type dev struct {
	URL string
	cmd *exec.Cmd
	out *lockedBuffer
}

// startDev runs `axiom dev dir --addr 127.0.0.1:0` and returns once its
// first line of output, the URL, is printed. The process is stopped when
// the test ends, if it was not before.
func startDev(t *testing.T, dir string) *dev {
	t.Helper()
	return startAxiom(t, "dev", dir, "--addr", "127.0.0.1:0")
}

// startAxiom runs axiom with args, a command that serves until it is
// interrupted, as startDev does.
func startAxiom(t *testing.T, args ...string) *dev {
	t.Helper()
	cmd := exec.Command(bin.axiom, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	d := &dev{cmd: cmd, out: &lockedBuffer{}}
	cmd.Stderr = d.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.stop(t) })
	first := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, err := r.ReadString('\n')
		if err != nil && line == "" {
			line = "(no output: " + err.Error() + ")"
		}
		first <- strings.TrimSpace(line)
		io.Copy(d.out, r)
	}()
	select {
	case line := <-first:
		if !strings.HasPrefix(line, "http://127.0.0.1:") {
			d.stop(t)
			t.Fatalf("axiom dev: first line %q, want the URL http://127.0.0.1:PORT\noutput: %s", line, d.out)
		}
		d.URL = line
	case <-time.After(60 * time.Second):
		d.stop(t)
		t.Fatalf("axiom dev printed no line in 60 s\noutput: %s", d.out)
	}
	return d
}

// stop interrupts the process, as a user's Ctrl-C does, and waits for it;
// one that does not exit within 10 s is killed and the test fails.
func (d *dev) stop(t *testing.T) {
	t.Helper()
	if d.cmd.ProcessState != nil {
		return
	}
	if err := d.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Logf("interrupting axiom dev: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- d.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Logf("axiom dev exited: %v\noutput: %s", err, d.out)
		}
	case <-time.After(10 * time.Second):
		d.cmd.Process.Kill()
		<-done
		t.Errorf("axiom dev did not exit within 10 s of an interrupt; killed\noutput: %s", d.out)
	}
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// staticServer serves dir the way a plain static file server set up for a
// single-page app does: files as they are, and index.html for a path
// without an extension that names no file (deep links).
func staticServer(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean("/" + r.URL.Path)
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil && path.Ext(p) == "" {
			http.ServeFile(w, r, filepath.Join(dir, "index.html"))
			return
		}
		files.ServeHTTP(w, r)
	})
}
