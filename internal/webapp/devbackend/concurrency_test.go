package devbackend

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// seedRows is how many products the concurrency tests put in the table
// before writing: enough that a write which read its whole table would
// hold the write lock for milliseconds.
const seedRows = 3000

// seedProducts inserts seedRows products into the shop project's database
// as the backend stores them, with the id counter after them.
func seedProducts(t *testing.T, root string) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(root, filepath.FromSlash(DatabasePath)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= seedRows; i++ {
		data := fmt.Sprintf(`{"id":%d,"name":"seed %d","price":1,"tags":[],"stock":0,"featured":false,"note":null}`, i, i)
		if _, err := tx.Exec(`INSERT INTO "shop/Product" (data) VALUES (?)`, data); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO axiom_ids (tbl, last) VALUES ('shop/Product', ?) ON CONFLICT (tbl) DO UPDATE SET last = excluded.last`, seedRows); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// product is a row as list_products answers it.
type product struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Stock int64  `json:"stock"`
}

// writeLoad is what concurrent writers did: the rows the answers say
// exist (acknowledged creates and updates, less acknowledged deletes) and
// every answer that was not 200.
type writeLoad struct {
	mu     sync.Mutex
	want   map[int64]product
	writes int
	failed []string
	// slowest is the longest a write took to be answered.
	slowest time.Duration
}

// hammer runs writers goroutines per URL, each making each writes to the
// shop contract, all at once: creates, updates of its own rows and
// deletes of its own rows.
func hammer(t *testing.T, urls []string, writers, each int) *writeLoad {
	t.Helper()
	l := &writeLoad{want: map[int64]product{}}
	client := &http.Client{
		Timeout:   time.Minute,
		Transport: &http.Transport{MaxIdleConnsPerHost: writers, DisableCompression: true},
	}
	defer client.CloseIdleConnections()
	start := make(chan struct{})
	var wg sync.WaitGroup
	for u, url := range urls {
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				var mine []product
				for i := range each {
					var op, body string
					switch {
					case i%10 == 9 && len(mine) > 0:
						op, body = "delete_product", fmt.Sprintf(`{"id": %d}`, mine[0].ID)
					case i%4 == 3 && len(mine) > 0:
						op, body = "update_product", fmt.Sprintf(`{"id": %d, "stock": %d}`, mine[len(mine)-1].ID, i)
					default:
						op, body = "create_product", fmt.Sprintf(`{"name": "p%d-w%d-%d", "price": 2}`, u, w, i)
					}
					sent := time.Now()
					got, err := postTo(client, url+"/shop/"+op, body)
					took := time.Since(sent)
					l.mu.Lock()
					l.writes++
					l.slowest = max(l.slowest, took)
					if err != nil {
						l.failed = append(l.failed, fmt.Sprintf("%s %s: %v", op, body, err))
						l.mu.Unlock()
						continue
					}
					switch op {
					case "create_product", "update_product":
						var p product
						if err := json.Unmarshal(got, &p); err != nil {
							l.failed = append(l.failed, fmt.Sprintf("%s %s: %s", op, body, got))
							break
						}
						if _, dup := l.want[p.ID]; op == "create_product" && dup {
							l.failed = append(l.failed, fmt.Sprintf("%s %s: id %d given twice", op, body, p.ID))
						}
						l.want[p.ID] = p
						if op == "create_product" {
							mine = append(mine, p)
						} else {
							mine[len(mine)-1] = p
						}
					case "delete_product":
						delete(l.want, mine[0].ID)
						mine = mine[1:]
					}
					l.mu.Unlock()
				}
			}()
		}
	}
	close(start)
	wg.Wait()
	return l
}

// postTo makes one call and returns the body of a 200.
func postTo(client *http.Client, url, body string) ([]byte, error) {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, data)
	}
	return data, nil
}

// checkLoad fails the test for every answer that was not 200, and unless
// the database holds exactly the seeded rows and the rows the answers
// promised, with unique ids, and passes PRAGMA integrity_check.
func checkLoad(t *testing.T, root string, l *writeLoad, writes int) {
	t.Helper()
	if l.writes != writes {
		t.Errorf("%d writes made, want %d", l.writes, writes)
	}
	for i, f := range l.failed {
		if i == 10 {
			t.Errorf("... and %d more", len(l.failed)-i)
			break
		}
		t.Error(f)
	}
	b, srv := serve(t, root)
	var rows []product
	if err := json.Unmarshal([]byte(post(t, srv, "/shop/list_products", "{}", 200)), &rows); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	seeded := 0
	for _, p := range rows {
		if seen[p.ID] {
			t.Errorf("id %d is in the table twice", p.ID)
		}
		seen[p.ID] = true
		if strings.HasPrefix(p.Name, "seed ") {
			seeded++
			continue
		}
		if w, ok := l.want[p.ID]; !ok || w != p {
			t.Errorf("the table holds %+v; the answers said %+v (present: %v)", p, w, ok)
		}
	}
	if seeded != seedRows || len(rows) != seedRows+len(l.want) {
		t.Errorf("the table holds %d rows, %d of them seeded; want %d seeded and the %d the answers promised", len(rows), seeded, seedRows, len(l.want))
	}
	var ok string
	if err := b.st.db.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Errorf("PRAGMA integrity_check = %q, %v", ok, err)
	}
}

// TestConcurrentWriters: 50 writers of 20 writes each on one backend, on a
// table of thousands of rows, all get 200 and every write is kept.
func TestConcurrentWriters(t *testing.T) {
	root := shopProject(t)
	b := open(t, root)
	seedProducts(t, root)
	srv := httptest.NewServer(b)
	const writers, each = 50, 20
	start := time.Now()
	l := hammer(t, []string{srv.URL}, writers, each)
	t.Logf("%d writes in %v, the slowest answered in %v", writers*each, time.Since(start), l.slowest)
	srv.Close()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	checkLoad(t, root, l, writers*each)
}

// helperEnv names the project a re-executed test binary serves in
// TestServeHelper.
const helperEnv = "ACORE_DEVBACKEND_SERVE"

// TestServeHelper is the second process of TestTwoProcesses: when the
// test binary is run again with helperEnv set, it serves that project's
// backend on a loopback port, prints the URL, and stops when its standard
// input ends (or after a minute and a half, should nobody close it).
func TestServeHelper(t *testing.T) {
	root := os.Getenv(helperEnv)
	if root == "" {
		t.Skip("runs only as the process that TestTwoProcesses starts")
	}
	b, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: b}
	go srv.Serve(ln)
	defer srv.Close()
	fmt.Printf("serving http://%s\n", ln.Addr())
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		t.Error("nobody closed standard input")
	}
}

// TestTwoProcesses: two processes serve one project, as two `axiom dev`
// would; 25 writers on each make 20 writes each at once, all get 200 and
// every write is kept.
func TestTwoProcesses(t *testing.T) {
	root := shopProject(t)
	b := open(t, root)
	seedProducts(t, root)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var urls []string
	var procs []*exec.Cmd
	var stdins []io.WriteCloser
	for range 2 {
		cmd := exec.CommandContext(ctx, exe, "-test.run=^TestServeHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperEnv+"="+root)
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs, stdins = append(procs, cmd), append(stdins, in)
		line, err := bufio.NewReader(out).ReadString('\n')
		url, ok := strings.CutPrefix(strings.TrimSpace(line), "serving ")
		if err != nil || !ok {
			t.Fatalf("the second process printed %q, %v", line, err)
		}
		go io.Copy(io.Discard, out)
		urls = append(urls, url)
	}
	const writers, each = 25, 20
	start := time.Now()
	l := hammer(t, urls, writers, each)
	t.Logf("%d writes through 2 processes in %v, the slowest answered in %v", 2*writers*each, time.Since(start), l.slowest)
	for i, cmd := range procs {
		stdins[i].Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v", i, err)
		}
	}
	checkLoad(t, root, l, 2*writers*each)
}
