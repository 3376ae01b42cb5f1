package devbackend

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// shopProject copies testdata/shop into a temporary directory and prepares
// it, as `axiom prepare` would.
func shopProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/shop")); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// taskApp writes the project of `axiom new` into a temporary directory.
func taskApp(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func open(t *testing.T, root string) *Backend {
	t.Helper()
	b, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// answer is one HTTP answer.
type answer struct {
	status int
	header http.Header
	body   string
}

// do sends one request over real HTTP.
func do(t *testing.T, srv *httptest.Server, method, path, body string) answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: strings.TrimSuffix(string(data), "\n")}
}

// post calls an operation and fails the test unless the status is want.
func post(t *testing.T, srv *httptest.Server, path, body string, want int) string {
	t.Helper()
	a := do(t, srv, http.MethodPost, path, body)
	if a.status != want {
		t.Fatalf("POST %s %s: status %d, want %d: %s", path, body, a.status, want, a.body)
	}
	return a.body
}

// TestShopCalls replays testdata/shop.calls against the shop project and
// compares every answer with testdata/shop.golden.
func TestShopCalls(t *testing.T) {
	root := shopProject(t)
	_, srv := serve(t, root)

	calls, err := os.ReadFile("testdata/shop.calls")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(calls))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			out.WriteString(line + "\n")
			continue
		}
		method, rest, _ := strings.Cut(line, " ")
		path, body, _ := strings.Cut(rest, " ")
		a := do(t, srv, method, path, body)
		if a.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: no Access-Control-Allow-Origin: *", line)
		}
		if ct := a.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", line, ct)
		}
		if a.status != http.StatusOK {
			var e struct {
				Error struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(a.body), &e); err != nil || e.Error.Message == "" {
				t.Errorf("%s: status %d with a body not of the error shape: %s", line, a.status, a.body)
			}
		}
		out.WriteString("> " + line + "\n")
		out.WriteString("< " + http.StatusText(a.status) + " " + strconv.Itoa(a.status) + " " + a.body + "\n")
	}
	golden := "testdata/shop.golden"
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("answers differ from %s (go test -run TestShopCalls -update rewrites it):\n%s", golden, diffLines(string(want), out.String()))
	}
}

// diffLines shows the first lines that differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + "\n  want: " + wl + "\n  got:  " + gl + "\n")
		}
	}
	return b.String()
}

// tree lists every file under root with its size and modification time,
// but for those under .axiom/dev.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == ".axiom/dev" {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[rel] = fi.Mode().String() + " " + strconv.FormatInt(fi.Size(), 10) + " " + fi.ModTime().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// docPath is the page that documents the backend; its request and answer
// examples must be real answers.
const docPath = "../../../docs/web.md"

// TestDocExamples checks that every "> request" line of the doc, with the
// "< answer" line after it, is a pair of consecutive lines of shop.golden.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/shop.golden")
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	lines := strings.Split(string(doc), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "> ") {
			continue
		}
		if i+1 == len(lines) || !strings.HasPrefix(lines[i+1], "< ") {
			t.Errorf("%s:%d: a request without an answer line after it", docPath, i+1)
			continue
		}
		pairs++
		if !strings.Contains(string(golden), "\n"+l+"\n"+lines[i+1]+"\n") {
			t.Errorf("%s:%d: this request and answer are not in testdata/shop.golden:\n%s\n%s", docPath, i+1, l, lines[i+1])
		}
	}
	if pairs < 20 {
		t.Errorf("%s has %d examples; the test expects the page's examples", docPath, pairs)
	}
}

// serve opens a backend on root behind a real HTTP server; both are
// closed when the test ends.
func serve(t *testing.T, root string) (*Backend, *httptest.Server) {
	t.Helper()
	b := open(t, root)
	srv := httptest.NewServer(b)
	t.Cleanup(func() {
		srv.Close()
		b.Close()
	})
	return b, srv
}
