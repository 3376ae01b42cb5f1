package devbackend

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/prepare"
)

// TestTaskAppPersists drives the project of `axiom new`: a created task is
// listed, survives Close and Open, and nothing is written outside
// .axiom/dev.
func TestTaskAppPersists(t *testing.T) {
	root := taskApp(t)
	before := tree(t, root)

	b := open(t, root)
	srv := httptest.NewServer(b)
	if got := post(t, srv, "/tasks/list_tasks", "{}", 200); got != "[]" {
		t.Fatalf("list_tasks of a new project = %s, want []", got)
	}
	created := post(t, srv, "/tasks/create_task", `{"title": "Buy milk"}`, 200)
	if want := `{"id":"1","title":"Buy milk","done":false}`; created != want {
		t.Fatalf("create_task = %s, want %s", created, want)
	}
	post(t, srv, "/tasks/create_task", `{"title": "<img src=x onerror=alert(1)>"}`, 200)
	srv.Close()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	b = open(t, root)
	defer b.Close()
	srv = httptest.NewServer(b)
	defer srv.Close()
	want := `[{"id":"1","title":"Buy milk","done":false},{"id":"2","title":"<img src=x onerror=alert(1)>","done":false}]`
	if got := post(t, srv, "/tasks/list_tasks", "", 200); got != want {
		t.Fatalf("after Close and Open, list_tasks = %s, want %s", got, want)
	}
	// The counter of generated ids survives too.
	if got := post(t, srv, "/tasks/create_task", `{"title": "Walk"}`, 200); !strings.HasPrefix(got, `{"id":"3",`) {
		t.Fatalf("third create_task = %s, want id 3", got)
	}

	after := tree(t, root)
	if !maps.Equal(before, after) {
		t.Errorf("files outside .axiom/dev changed:\nbefore %v\nafter  %v", before, after)
	}
	entries, err := os.ReadDir(filepath.Join(root, ".axiom", "dev"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	for _, n := range names {
		if n != "contracts" && !strings.HasPrefix(n, "backend.sqlite") {
			t.Errorf(".axiom/dev holds %s; the backend writes only backend.sqlite and its -wal and -shm files", n)
		}
	}
	if !slices.Contains(names, "backend.sqlite") {
		t.Errorf(".axiom/dev holds %v, no backend.sqlite", names)
	}
}

// TestReload changes the contract under a running backend: old rows read
// fields they lack as zero values, new operations and models work, and a
// broken artifact answers 500 while the backend keeps running.
func TestReload(t *testing.T) {
	root := taskApp(t)
	b, srv := serve(t, root)
	post(t, srv, "/tasks/create_task", `{"title": "Old"}`, 200)

	src := filepath.Join(root, "contracts", "tasks.axiom")
	changed := `contract Tasks audience "mobile", "web" {
  model Task {
    id: String
    title: String
    priority: Int
    note: String?
    tags: [String]
  }
  model Tag { id: Int, label: String }

  query list_tasks(sort: String?): [Task]
  mutation create_task(title: String, priority: Int = 3): Task
  mutation create_tag(label: String): Tag
}
`
	if err := os.WriteFile(src, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(root); err != nil {
		t.Fatal(err)
	}
	// Before Reload, the old contract still answers.
	post(t, srv, "/tasks/create_tag", `{"label": "x"}`, 404)
	if err := b.Reload(); err != nil {
		t.Fatal(err)
	}
	post(t, srv, "/tasks/create_task", `{"title": "New"}`, 200)
	got := post(t, srv, "/tasks/list_tasks", `{"sort": "-priority"}`, 200)
	want := `[{"id":"2","title":"New","priority":3,"note":null,"tags":[]},{"id":"1","title":"Old","priority":0,"note":null,"tags":[]}]`
	if got != want {
		t.Errorf("after Reload, list_tasks = %s, want %s", got, want)
	}
	if got := post(t, srv, "/tasks/create_tag", `{"label": "home"}`, 200); got != `{"id":1,"label":"home"}` {
		t.Errorf("create_tag = %s", got)
	}

	// A broken artifact: its calls answer 500 with the reason.
	art := filepath.Join(root, ".axiom", "dev", "contracts", "tasks.axiom")
	if err := os.WriteFile(art, []byte("contract Tasks {\n  model Task { id: Strin }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := b.Reload(); err != nil {
		t.Fatal(err)
	}
	msg := post(t, srv, "/tasks/list_tasks", `{}`, 500)
	if !strings.Contains(msg, `.axiom/dev/contracts/tasks.axiom:2:20: unknown type Strin`) {
		t.Errorf("broken artifact answers %s", msg)
	}
}

func TestCORS(t *testing.T) {
	_, srv := serve(t, taskApp(t))

	req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/tasks/create_task", nil)
	req.Header.Set("Origin", "http://localhost:9999")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "content-type")
	req.Header.Set("Access-Control-Request-Private-Network", "true")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("preflight status %d", resp.StatusCode)
	}
	for k, v := range map[string]string{
		"Access-Control-Allow-Origin":          "*",
		"Access-Control-Allow-Methods":         "POST, OPTIONS",
		"Access-Control-Allow-Headers":         "Content-Type",
		"Access-Control-Allow-Private-Network": "true",
	} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("preflight %s = %q, want %q", k, got, v)
		}
	}
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/tasks/list_tasks", "{}"},
		{"POST", "/tasks/create_task", "{}"},
		{"POST", "/none/x", "{}"},
		{"GET", "/tasks/list_tasks", ""},
	} {
		if a := do(t, srv, c.method, c.path, c.body); a.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s %s (%d): Access-Control-Allow-Origin = %q", c.method, c.path, a.status, a.header.Get("Access-Control-Allow-Origin"))
		}
	}
	if a := do(t, srv, "GET", "/tasks/list_tasks", ""); a.header.Get("Allow") != "POST, OPTIONS" {
		t.Errorf("405 Allow = %q", a.header.Get("Allow"))
	}
}

func TestBodyTooLarge(t *testing.T) {
	_, srv := serve(t, taskApp(t))
	title := strings.Repeat("a", MaxBodyBytes)
	msg := post(t, srv, "/tasks/create_task", `{"title": "`+title+`"}`, http.StatusRequestEntityTooLarge)
	if !strings.Contains(msg, "larger than 1048576 bytes") {
		t.Errorf("413 message %s", msg)
	}
	// Just under the bound is accepted.
	title = strings.Repeat("a", MaxBodyBytes-len(`{"title": ""}`))
	post(t, srv, "/tasks/create_task", `{"title": "`+title+`"}`, 200)
}

// TestConcurrent creates and lists from many goroutines at once (run with
// -race) while the contracts reload, through two backends on one project
// as two `axiom dev` processes would have: every create gets its own id
// and none is lost.
func TestConcurrent(t *testing.T) {
	root := taskApp(t)
	b, srv := serve(t, root)
	_, srv2 := serve(t, root)
	const workers, each = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*each*2+each)
	wg.Add(1)
	go func() {
		// Reloads, as axiom dev does after a change, race with the calls.
		defer wg.Done()
		for range each {
			if err := b.Reload(); err != nil {
				errs <- err
			}
		}
	}()
	for w := range workers {
		wg.Add(1)
		srv := srv
		if w%2 == 1 {
			srv = srv2
		}
		go func() {
			defer wg.Done()
			for i := range each {
				for _, c := range []struct{ path, body string }{
					{"/tasks/create_task", fmt.Sprintf(`{"title": "w%d-%d"}`, w, i)},
					{"/tasks/list_tasks", `{}`},
				} {
					resp, err := srv.Client().Post(srv.URL+c.path, "application/json", strings.NewReader(c.body))
					if err != nil {
						errs <- err
						continue
					}
					resp.Body.Close()
					if resp.StatusCode != 200 {
						errs <- fmt.Errorf("%s: status %d", c.path, resp.StatusCode)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var tasks []struct{ ID, Title string }
	if err := json.Unmarshal([]byte(post(t, srv, "/tasks/list_tasks", "{}", 200)), &tasks); err != nil {
		t.Fatal(err)
	}
	ids, titles := map[string]bool{}, map[string]bool{}
	for _, task := range tasks {
		ids[task.ID] = true
		titles[task.Title] = true
	}
	if len(tasks) != workers*each || len(ids) != workers*each || len(titles) != workers*each {
		t.Errorf("%d tasks, %d ids, %d titles; want %d of each", len(tasks), len(ids), len(titles), workers*each)
	}
}

func TestOpenRefusesBadDatabase(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, db string)
		want  string
	}{
		{"not SQLite", func(t *testing.T, db string) {
			if err := os.WriteFile(db, []byte(strings.Repeat("not a database\n", 400)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "the database .axiom/dev/backend.sqlite cannot be used: file is not a database"},
		{"a directory", func(t *testing.T, db string) {
			if err := os.Mkdir(db, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "the database .axiom/dev/backend.sqlite cannot be used"},
		{"a later format", func(t *testing.T, db string) {
			d, err := sql.Open("sqlite", db)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := d.Exec("PRAGMA user_version = 9"); err != nil {
				t.Fatal(err)
			}
		}, "it has format 9, and this axiom reads format 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := taskApp(t)
			c.setup(t, filepath.Join(root, filepath.FromSlash(DatabasePath)))
			b, err := Open(root)
			if err == nil {
				b.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("Open: %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

func TestOpenMissingRoot(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	if _, err := Open(missing); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Open of a missing root: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("Open created the missing root")
	}
}

// TestUnprepared serves a project without contract artifacts: every call
// is 404, and says how to prepare the project.
func TestUnprepared(t *testing.T) {
	root := t.TempDir()
	_, srv := serve(t, root)
	msg := post(t, srv, "/tasks/list_tasks", "{}", 404)
	if !strings.Contains(msg, "contracts: none; run `axiom prepare`") {
		t.Errorf("404 message %s", msg)
	}
}

// TestAfterClose: a call after Close is a 500, not a panic.
func TestAfterClose(t *testing.T) {
	b := open(t, taskApp(t))
	srv := httptest.NewServer(b)
	defer srv.Close()
	b.Close()
	msg := post(t, srv, "/tasks/list_tasks", "{}", 500)
	if !strings.Contains(msg, "database is closed") {
		t.Errorf("500 message %s", msg)
	}
}

func TestNamedModel(t *testing.T) {
	c := &contract{name: "K"}
	for _, n := range []string{"Task", "TodoItem", "Category", "Box", "HTTPLog"} {
		c.models = append(c.models, &check.Model{Name: n})
	}
	for _, tc := range []struct{ rest, want string }{
		{"task", "Task"},
		{"tasks", "Task"},
		{"todo_item", "TodoItem"},
		{"todo_items", "TodoItem"},
		{"Todo_Items", "TodoItem"},
		{"categories", "Category"},
		{"boxes", "Box"},
		{"http_logs", "HTTPLog"},
		{"todoitem", ""},
		{"taskz", ""},
	} {
		got := ""
		if m := namedModel(c, tc.rest); m != nil {
			got = m.Name
		}
		if got != tc.want {
			t.Errorf("namedModel(%q) = %q, want %q", tc.rest, got, tc.want)
		}
	}
}

// TestOpenRefusesEscape: a .axiom/dev that is a symlink out of the project
// stops Open, which writes nothing there.
func TestOpenRefusesEscape(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".axiom"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, ".axiom", "dev")); err != nil {
		t.Fatal(err)
	}
	b, err := Open(root)
	if err == nil {
		b.Close()
		t.Fatal("Open succeeded through a symlink out of the project")
	}
	if !strings.Contains(err.Error(), "outside") {
		t.Errorf("Open: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("Open wrote %d files outside the project", len(entries))
	}
}

// idsContract has Int and String ids that callers may give.
const idsContract = `contract Ids {
  model Item { id: Int, name: String }
  model Note { id: String, text: String }
  mutation create_item(id: Int?, name: String): Item
  mutation delete_item(id: Int): Bool
  mutation create_note(id: String?, text: String): Note
}
`

// idsProject is a project with only the artifact of idsContract.
func idsProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, ".axiom", "dev", "contracts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ids.axiom"), []byte(idsContract), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestGivenIDs: the counter of generated ids stays above the ids callers
// gave up to 2^53-1; a larger one, up to the largest Int, is stored and
// leaves the counter where it was, and a generated id skips it.
func TestGivenIDs(t *testing.T) {
	_, srv := serve(t, idsProject(t))
	for _, c := range []struct{ path, body, want string }{
		{"/ids/create_item", `{"id": 9223372036854775807, "name": "max"}`, `{"id":9223372036854775807,"name":"max"}`},
		{"/ids/create_item", `{"name": "a"}`, `{"id":1,"name":"a"}`},
		{"/ids/create_item", `{"id": 5, "name": "given"}`, `{"id":5,"name":"given"}`},
		{"/ids/create_item", `{"name": "b"}`, `{"id":6,"name":"b"}`},
		{"/ids/create_item", `{"id": -3, "name": "negative"}`, `{"id":-3,"name":"negative"}`},
		{"/ids/create_item", `{"name": "c"}`, `{"id":7,"name":"c"}`},
		{"/ids/create_item", `{"id": 9007199254740991, "name": "2^53-1"}`, `{"id":9007199254740991,"name":"2^53-1"}`},
		{"/ids/create_item", `{"name": "d"}`, `{"id":9007199254740992,"name":"d"}`},
		{"/ids/create_item", `{"id": 9007199254740994, "name": "above"}`, `{"id":9007199254740994,"name":"above"}`},
		{"/ids/create_item", `{"name": "e"}`, `{"id":9007199254740993,"name":"e"}`},
		{"/ids/create_item", `{"name": "f"}`, `{"id":9007199254740995,"name":"f"}`},
		{"/ids/delete_item", `{"id": 9223372036854775807}`, `true`},
		{"/ids/create_item", `{"name": "g"}`, `{"id":9007199254740996,"name":"g"}`},
		{"/ids/create_note", `{"id": "9223372036854775807", "text": "max"}`, `{"id":"9223372036854775807","text":"max"}`},
		{"/ids/create_note", `{"id": "0012", "text": "digits"}`, `{"id":"0012","text":"digits"}`},
		{"/ids/create_note", `{"text": "a"}`, `{"id":"13","text":"a"}`},
		{"/ids/create_note", `{"id": "12", "text": "not 0012"}`, `{"id":"12","text":"not 0012"}`},
	} {
		if got := post(t, srv, c.path, c.body, 200); got != c.want {
			t.Errorf("%s %s = %s, want %s", c.path, c.body, got, c.want)
		}
	}
	got := post(t, srv, "/ids/create_item", `{"id": 5, "name": "again"}`, 409)
	if want := `{"error":{"message":"Ids.create_item: a Item with id 5 already exists"}}`; got != want {
		t.Errorf("a second id 5: %s, want %s", got, want)
	}
}

// TestFormat1Database opens a database of format 1, whose counters did
// not count given ids, holding a row with the largest Int id: the counters
// are brought above the given ids up to 2^53-1, and creates work.
func TestFormat1Database(t *testing.T) {
	root := idsProject(t)
	p := filepath.Join(root, filepath.FromSlash(DatabasePath))
	d, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE axiom_ids (tbl TEXT PRIMARY KEY, last INTEGER NOT NULL)`,
		`CREATE TABLE "ids/Item" (seq INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)`,
		`CREATE TABLE "ids/Note" (seq INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL)`,
		`INSERT INTO "ids/Item" (data) VALUES ('{"id":1,"name":"a"}'), ('{"id":7,"name":"given"}'), ('{"id":9223372036854775807,"name":"max"}'), ('{"id":2,"name":"b"}')`,
		`INSERT INTO "ids/Note" (data) VALUES ('{"id":"40","text":"given"}'), ('{"id":"x","text":"named"}')`,
		`INSERT INTO axiom_ids VALUES ('ids/Item', 2)`,
		`PRAGMA user_version = 1`,
	} {
		if _, err := d.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	d.Close()
	b, srv := serve(t, root)
	if got, want := post(t, srv, "/ids/create_item", `{"name": "c"}`, 200), `{"id":8,"name":"c"}`; got != want {
		t.Errorf("create_item = %s, want %s", got, want)
	}
	if got, want := post(t, srv, "/ids/create_note", `{"text": "t"}`, 200), `{"id":"41","text":"t"}`; got != want {
		t.Errorf("create_note = %s, want %s", got, want)
	}
	var version int
	if err := b.st.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != 2 {
		t.Errorf("user_version = %d, %v; want 2", version, err)
	}
}

// TestWritesUseTheIndex: the lookup of a write reads the rows with the id
// through the table's index, not the table.
func TestWritesUseTheIndex(t *testing.T) {
	b, _ := serve(t, idsProject(t))
	rs, err := b.st.db.Query(`EXPLAIN QUERY PLAN SELECT seq, data FROM "ids/Item" WHERE `+keyExpr+` = ? ORDER BY seq`, int64(1))
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var plan []string
	for rs.Next() {
		var id, parent, unused int
		var detail string
		if err := rs.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if want := `SEARCH ids/Item USING INDEX ids/Item/id (<expr>=?)`; !slices.Equal(plan, []string{want}) {
		t.Errorf("query plan %q, want %q", plan, want)
	}
}

// TestPrivateFiles: the database and its -wal and -shm files are readable
// by their owner only (0600), and so is their directory (0700), whether
// the backend creates them or finds them looser.
func TestPrivateFiles(t *testing.T) {
	check := func(t *testing.T, root string) {
		t.Helper()
		want := map[string]os.FileMode{".axiom/dev": 0o700}
		for _, n := range []string{"", "-wal", "-shm"} {
			want[DatabasePath+n] = 0o600
		}
		for rel, mode := range want {
			fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				t.Error(err)
				continue
			}
			if got := fi.Mode().Perm(); got != mode {
				t.Errorf("%s has mode %#o, want %#o", rel, got, mode)
			}
		}
	}
	t.Run("new", func(t *testing.T) {
		root := t.TempDir()
		b := open(t, root)
		defer b.Close()
		check(t, root)
		if fi, err := os.Stat(filepath.Join(root, ".axiom")); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf(".axiom: %v, %v; want a directory of mode 0755", fi.Mode(), err)
		}
	})
	t.Run("looser", func(t *testing.T) {
		root := taskApp(t)
		b := open(t, root)
		srv := httptest.NewServer(b)
		post(t, srv, "/tasks/create_task", `{"title": "x"}`, 200)
		srv.Close()
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(root, ".axiom", "dev")
		for _, p := range []string{dir, filepath.Join(dir, "backend.sqlite")} {
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		b = open(t, root)
		defer b.Close()
		check(t, root)
	})
}
