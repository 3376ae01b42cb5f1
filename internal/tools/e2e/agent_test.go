package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// agent is a coding agent's side of an MCP session with acore-semantic-mcp:
// it calls tools, keeps the workspace and head snapshot the answers give,
// validates every answer against the published schemas and counts the
// calls and bytes of each task.
type agent struct {
	t     *testing.T
	ctx   context.Context
	cs    *sdk.ClientSession
	ws    string
	head  string
	task  string
	tally []taskTally
}

type taskTally struct {
	name         string
	calls, bytes int
}

func startAgent(t *testing.T, root string) *agent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	client := sdk.NewClient(&sdk.Implementation{Name: "scenario-agent", Version: "0"}, nil)
	cmd := exec.CommandContext(ctx, bin.mcp, "--root", root)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &agent{t: t, ctx: ctx, cs: cs}
}

func (a *agent) begin(task string) {
	a.task = task
	a.tally = append(a.tally, taskTally{name: task})
}

// call calls op's tool with the envelope fields and params and returns
// the response envelope. An error answer fails the test unless wantErr
// names its code.
func (a *agent) call(op string, env map[string]any, params map[string]any, wantErr ...string) map[string]any {
	a.t.Helper()
	args := map[string]any{"params": params}
	for k, v := range env {
		args[k] = v
	}
	res, err := a.cs.CallTool(a.ctx, &sdk.CallToolParams{Name: strings.ReplaceAll(op, ".", "_"), Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %s: %v", a.task, op, err)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		a.t.Fatal(err)
	}
	cur := &a.tally[len(a.tally)-1]
	cur.calls++
	cur.bytes += len(raw)
	var resp map[string]any
	if err := json.Unmarshal(raw, &resp); err != nil {
		a.t.Fatal(err)
	}
	var doc any
	_ = json.Unmarshal(raw, &doc)
	if err := schema.ValidateResponse(doc); err != nil {
		a.t.Errorf("%s: %s: the answer does not validate: %v\n%s", a.task, op, err, raw)
	}
	a.t.Logf("%s: %-15s %6d bytes", a.task, op, len(raw))
	e, isErr := resp["error"].(map[string]any)
	switch {
	case isErr && (len(wantErr) == 0 || e["code"] != wantErr[0]):
		a.t.Fatalf("%s: %s: error %v\n%s", a.task, op, e["code"], raw)
	case !isErr && len(wantErr) > 0:
		a.t.Fatalf("%s: %s: answered, want error %s\n%s", a.task, op, wantErr[0], raw)
	}
	return resp
}

// read calls a read operation on the head snapshot.
func (a *agent) read(op string, params map[string]any) map[string]any {
	a.t.Helper()
	return a.call(op, map[string]any{"workspace": a.ws, "snapshot": a.head}, params)
}

// propose proposes ops on the head snapshot; with wantErr it expects a refusal.
func (a *agent) propose(requestID string, ops []map[string]any, wantErr ...string) map[string]any {
	a.t.Helper()
	return a.call("change.propose", map[string]any{"workspace": a.ws, "base_snapshot": a.head, "request_id": requestID},
		map[string]any{"operations": ops}, wantErr...)
}

// apply publishes the candidate a propose answered with and moves head to
// the applied snapshot.
func (a *agent) apply(proposed map[string]any) {
	a.t.Helper()
	c := dig(proposed, "result", "candidate").(map[string]any)
	resp := a.call("change.apply", map[string]any{"workspace": a.ws, "request_id": "apply-" + c["id"].(string)},
		map[string]any{"candidate": c["id"], "expected_candidate_version": c["version"], "require_checks": []string{"compile"}})
	receipt := dig(resp, "result", "receipt").(map[string]any)
	if receipt["outcome"] != "applied" {
		a.t.Fatalf("%s: apply outcome %v", a.task, receipt["outcome"])
	}
	a.head = receipt["result_snapshot"].(string)
}

func (a *agent) report() {
	calls, bytes := 0, 0
	for _, tt := range a.tally {
		a.t.Logf("%-28s %3d calls %8d bytes", tt.name, tt.calls, tt.bytes)
		calls += tt.calls
		bytes += tt.bytes
	}
	a.t.Logf("%-28s %3d calls %8d bytes", "all tasks", calls, bytes)
}

// dig walks nested objects and arrays (an int key indexes an array).
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			s, _ := v.([]any)
			if k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

func ids(v any, field string) []string {
	var out []string
	for _, x := range asList(v) {
		if s, ok := dig(x, field).(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func asList(v any) []any { s, _ := v.([]any); return s }

// TestAgentScenario drives acore-semantic-mcp with the official MCP SDK
// client, as a coding agent would, through everyday tasks on a copy of
// examples/reading-list, only through tools, asserting each step, and logs
// the calls and bytes of each task (issue 28).
func TestAgentScenario(t *testing.T) {
	root := copyExample(t, "reading-list")
	a := startAgent(t, root)

	// Task 1: orient. Find the Delete button and what it triggers, by a graph path.
	a.begin("1 orient")
	a.call("capabilities", nil, map[string]any{})
	open := a.call("workspace.open", map[string]any{"snapshot": "latest"}, map[string]any{"roots": []any{map[string]any{"path": root}}})
	a.ws, _ = dig(open, "workspace").(string)
	a.head, _ = dig(open, "snapshot", "id").(string)
	if a.ws == "" || a.head == "" {
		t.Fatalf("workspace.open: no workspace or snapshot: %v", open)
	}
	found := a.read("node.find", map[string]any{"query": "Delete", "kind": "element", "limit": 10})
	button := ""
	for _, id := range ids(dig(found, "result", "nodes"), "id") {
		if strings.HasPrefix(id, "element:BookRow/") {
			button = id
		}
	}
	if button == "" {
		t.Fatalf("node.find Delete: no element of BookRow: %v", dig(found, "result"))
	}
	op := a.read("node.find", map[string]any{"query": "delete_book", "limit": 10})
	target := ""
	for _, id := range ids(dig(op, "result", "nodes"), "id") {
		if strings.HasPrefix(id, "contract_operation:") {
			target = id
		}
	}
	if target != "contract_operation:Books.delete_book" {
		t.Fatalf("node.find delete_book: %v", dig(op, "result"))
	}
	paths := a.call("graph.query", map[string]any{"workspace": a.ws, "snapshot": a.head, "limits": map[string]any{"max_depth": 6}},
		map[string]any{"from": []string{button}, "to": []string{target}, "mode": "paths"})
	want := []string{button, "prop:BookRow.on_delete", "action:Home.delete", "mutation:Home.remove", target}
	var got [][]string
	for _, p := range asList(dig(paths, "result", "paths")) {
		var path []string
		for _, n := range asList(dig(p, "nodes")) {
			if s, ok := n.(string); ok {
				path = append(path, s)
			} else if s, ok := dig(n, "id").(string); ok {
				path = append(path, s)
			}
		}
		got = append(got, path)
	}
	if !slices.ContainsFunc(got, func(p []string) bool { return containsInOrder(p, want) }) {
		t.Fatalf("graph.query paths %s -> %s: %v, want one through %v", button, target, got, want)
	}

	// Task 2: rename a component prop used in three files.
	a.begin("2 rename a prop")
	found = a.read("node.find", map[string]any{"query": "subtitle", "kind": "prop", "limit": 5})
	if got := ids(dig(found, "result", "nodes"), "id"); !slices.Contains(got, "prop:PageTitle.subtitle") {
		t.Fatalf("node.find subtitle: %v", got)
	}
	opt := option(t, a.read("node.edits", map[string]any{"nodes": []string{"prop:PageTitle.subtitle"}, "kinds": []string{"rename"}}), "rename")
	prop := a.propose("rename-subtitle", []map[string]any{{"kind": "rename", "node": "prop:PageTitle.subtitle",
		"old_name": opt["text"], "new_name": "caption", "option": optionRef(opt)}})
	if !hasIDMap(prop, "prop:PageTitle.subtitle", "prop:PageTitle.caption") {
		t.Errorf("the rename's id_map lacks prop:PageTitle.subtitle -> prop:PageTitle.caption: %v", dig(prop, "result", "id_map"))
	}
	a.apply(prop)
	for _, f := range []string{"main.acore", "pages/about.acore", "components/page_title.acore"} {
		if got := readFile(t, root, f); strings.Contains(got, "subtitle") || !strings.Contains(got, "caption") {
			t.Errorf("%s after the rename:\n%s", f, got)
		}
	}

	// Task 3: a Checkbox and a "Mark as read" button on the book's page,
	// wired to a new action and a new contract mutation, in one batch.
	a.begin("3 mark as read")
	deleteOp := option(t, a.read("node.edits", map[string]any{"nodes": []string{"contract_operation:Books.delete_book"}, "kinds": []string{"declaration"}}), "declaration")
	bookQuery := option(t, a.read("node.edits", map[string]any{"nodes": []string{"query:BookPage.books"}, "kinds": []string{"declaration"}}), "declaration")
	found = a.read("node.find", map[string]any{"query": "Back to the list", "kind": "element", "limit": 5})
	back := ""
	for _, id := range ids(dig(found, "result", "nodes"), "id") {
		if strings.HasPrefix(id, "element:BookPage/") {
			back = id
		}
	}
	if back == "" {
		t.Fatalf("node.find Back to the list: %v", dig(found, "result"))
	}
	backLink := option(t, a.read("node.edits", map[string]any{"nodes": []string{back}, "kinds": []string{"list_element"}}), "list_element")
	member := func(text string) map[string]any {
		return map[string]any{"kind": "declaration", "op": "create", "anchor": "query:BookPage.books", "position": "after",
			"old_text": bookQuery["text"], "declaration": text}
	}
	element := func(text string) map[string]any {
		return map[string]any{"kind": "list_element", "op": "insert", "anchor": back, "position": "before",
			"old_text": backLink["text"], "element": text}
	}
	prop = a.propose("mark-read", []map[string]any{
		{"kind": "declaration", "op": "create", "anchor": "contract_operation:Books.delete_book", "position": "after",
			"old_text": deleteOp["text"], "declaration": "mutation mark_read(id: String, read: Bool)"},
		member("action mark_read() {\n  mark.run(read: read)\n}"),
		member("mutation mark = Books.mark_read(id: id)"),
		member("state read: Bool = false"),
		element(`Checkbox(checked: read, label: "Read")`),
		element(`Button("Mark as read", on_press: mark_read)`),
	})
	a.apply(prop)
	if got := readFile(t, root, "contracts/books.axiom"); !strings.Contains(got, "mutation mark_read(id: String, read: Bool)") {
		t.Errorf("contracts/books.axiom lacks mark_read:\n%s", got)
	}

	// Task 4: add a page with a route: a new module and its route in one batch.
	a.begin("4 add a page and route")
	prop = a.propose("stats-page", []map[string]any{
		{"kind": "file", "op": "create", "path": "pages/stats.acore", "text": statsPage},
		{"kind": "route", "op": "add", "path": "/stats", "page": "Stats"},
	})
	a.apply(prop)
	if got := readFile(t, root, "main.acore"); !strings.Contains(got, `route "/stats" => Stats`) {
		t.Errorf("main.acore has no /stats route:\n%s", got)
	}

	// Task 5: break the build and recover from what the error answer suggests.
	a.begin("5 break and recover")
	save := a.read("node.edits", map[string]any{"nodes": []string{"action:AddBook.save"}, "kinds": []string{"declaration"}})
	oldText := declarationOldText(t, save)
	broken := "action clear() {\n  titel = \"\"\n  author = \"\"\n}"
	refused := a.propose("clear-1", []map[string]any{{"kind": "declaration", "op": "create", "anchor": "action:AddBook.save",
		"position": "after", "old_text": oldText, "declaration": broken}}, "compile_failed")
	diag := dig(refused, "error", "diagnostics", 0)
	if dig(diag, "code") != "AC201" || dig(diag, "suggestion") != "title" {
		t.Fatalf("the refusal's first diagnostic: %v, want AC201 suggesting title\n%v", diag, refused)
	}
	if next := dig(refused, "error", "next_actions", 0, "operation"); next == nil {
		t.Errorf("the refusal suggests no next action: %v", dig(refused, "error"))
	}
	fixed := strings.Replace(broken, "titel", dig(diag, "suggestion").(string), 1)
	prop = a.propose("clear-2", []map[string]any{{"kind": "declaration", "op": "create", "anchor": "action:AddBook.save",
		"position": "after", "old_text": oldText, "declaration": fixed}})
	a.call("change.inspect", map[string]any{"workspace": a.ws}, map[string]any{"candidate": dig(prop, "result", "candidate", "id"), "include": []string{"source_diff"}})
	a.apply(prop)
	if got := readFile(t, root, "pages/add.acore"); !strings.Contains(got, "action clear() {\n    title = \"\"") {
		t.Errorf("pages/add.acore after the apply lacks the new action:\n%s", got)
	}
	a.report()
	checkBuiltReadingList(t, root)
}

// statsPage is the module task 4 creates.
const statsPage = `module reading.pages.stats

use contract Books from "books" audience "web"
use component NavBar from "../components/nav_bar"

// How many books the list holds.
page Stats {
  query books = Books.list_books(sort: "title")

  view {
    Column(gap: 16, padding: 24) {
      NavBar
      Text("Books in the list: " + books.data.count)
    }
  }
}
`

// option is the first option of kind node.edits answered for its first node.
func option(t *testing.T, edits map[string]any, kind string) map[string]any {
	t.Helper()
	for _, o := range asList(dig(edits, "result", "nodes", 0, "options")) {
		if dig(o, "kind") == kind {
			return o.(map[string]any)
		}
	}
	t.Fatalf("node.edits offers no %s option: %v", kind, dig(edits, "result"))
	return nil
}

func optionRef(o map[string]any) map[string]any {
	return map[string]any{"option_id": o["option_id"], "fingerprint": o["fingerprint"]}
}

// hasIDMap reports whether a propose answer's id_map maps from to to.
func hasIDMap(proposed map[string]any, from, to string) bool {
	for _, m := range asList(dig(proposed, "result", "id_map")) {
		if dig(m, "old_id") == from && dig(m, "new_id") == to {
			return true
		}
	}
	return false
}

// declarationOldText is the precondition text node.edits offers for a
// declaration created after the node it was asked about.
func declarationOldText(t *testing.T, edits map[string]any) string {
	t.Helper()
	for _, n := range asList(dig(edits, "result", "nodes")) {
		for _, o := range asList(dig(n, "options")) {
			if dig(o, "kind") == "declaration" {
				if s, ok := dig(o, "text").(string); ok {
					return s
				}
			}
		}
	}
	t.Fatalf("node.edits offers no declaration option: %v", dig(edits, "result"))
	return ""
}

// containsInOrder reports whether path holds want's ids in order.
func containsInOrder(path, want []string) bool {
	i := 0
	for _, id := range path {
		if i < len(want) && id == want[i] {
			i++
		}
	}
	return i == len(want)
}

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// booksBackend answers the reading list's contract after docs/web.md's
// wire format with two books, and passes on each mark_read's arguments.
type booksBackend struct {
	marked chan map[string]any
}

func (b *booksBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Methods", "POST")
	w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	var args map[string]any
	if err := json.NewDecoder(r.Body).Decode(&args); err != nil {
		http.Error(w, `{"error":{"message":"not JSON"}}`, http.StatusBadRequest)
		return
	}
	books := []map[string]any{{"id": "b1", "title": "Beloved", "author": "Toni Morrison"},
		{"id": "b2", "title": "Emma", "author": "Jane Austen"}}
	var result any
	switch r.URL.Path {
	case "/books/list_books":
		if id, ok := args["id"].(string); ok {
			books = slices.DeleteFunc(books, func(b map[string]any) bool { return b["id"] != id })
		}
		result = books
	case "/books/mark_read":
		b.marked <- args
	default:
		http.Error(w, `{"error":{"message":"no such operation"}}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(result)
}

// checkBuiltReadingList builds root with `axiom build` against a test
// backend and checks in Chromium what tasks 3 and 4 changed: the book's
// page has a Read checkbox and a "Mark as read" button that sends
// mark_read with the checkbox's value, and /stats is a page of its own.
func checkBuiltReadingList(t *testing.T, root string) {
	t.Helper()
	be := &booksBackend{marked: make(chan map[string]any, 16)}
	backend := httptest.NewServer(be)
	defer backend.Close()
	out := t.TempDir()
	axiom(t, 0, "build", root, "--out", out, "--backend", backend.URL)
	site := httptest.NewServer(staticServer(out))
	defer site.Close()
	p := browsertest.New(t)
	p.Navigate(site.URL + "/books/b1")
	p.WaitText("Beloved")
	p.WaitText("Mark as read")
	if n := p.Count(`input[type=checkbox]`); n != 1 {
		t.Fatalf("the book's page has %d checkboxes, want 1:\n%s", n, p.Text())
	}
	p.Click(`input[type=checkbox]`)
	p.ClickText("button", "Mark as read")
	select {
	case args := <-be.marked:
		if !reflect.DeepEqual(args, map[string]any{"id": "b1", "read": true}) {
			t.Errorf("mark_read sent %v, want {id: b1, read: true}", args)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no mark_read reached the backend in 10 s")
	}
	p.Navigate(site.URL + "/stats")
	p.WaitText("Books in the list: 2")
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}
