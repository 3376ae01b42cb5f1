package service_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/lock"
)

// TestContractDeclarationBatch: on a copy of reading-list, node.edits offers
// the declaration family on a contract operation with its text; one batch
// creates a contract mutation and a page mutation that uses it; the
// applied source, artifact and lock agree on disk and `axiom check` (a real
// process) finds the project validated. do validates every answer against
// the published schemas.
func TestContractDeclarationBatch(t *testing.T) {
	s, dir, ws, snap := openReadingList(t)
	o := do(t, s, v1+`"operation": "node.edits", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["contract_operation:Books.delete_book"], "kinds": ["declaration"]}}`)
	expect(t, o, "result.nodes.0.options.0.kind", "declaration")
	expect(t, o, "result.nodes.0.options.0.text", "mutation delete_book(id: String)")
	o = do(t, s, v1+`"operation": "node.get", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["contract_operation:Books.delete_book"]}}`)
	if o.get("error") != nil {
		t.Fatalf("node.get: %s", jsonOf(o["error"]))
	}

	const op = `mutation mark_read(id: String, read: Bool)`
	contractOp := `{"kind": "declaration", "op": "create", "anchor": "contract_operation:Books.delete_book", "position": "after", "old_text": "mutation delete_book(id: String)", "declaration": "` + op + `"}`
	pageOp := `{"kind": "declaration", "op": "create", "anchor": "query:BookPage.books", "position": "after", "old_text": "query books = Books.list_books(id: id)", "declaration": "@axag(risk_level: \"low\", idempotent: true)\n  mutation mark = Books.mark_read(id: id, read: true)"}`
	// The page mutation alone names an operation the contract lacks.
	o = do(t, s, propose(ws, snap, "mark-page-alone", pageOp))
	expect(t, o, "error.code", "compile_failed")
	o = do(t, s, propose(ws, snap, "mark-1", contractOp, pageOp))
	if o.get("error") != nil {
		t.Fatalf("propose: %s", jsonOf(o["error"]))
	}
	expect(t, o, "result.operations.0.created", "contract_operation:Books.mark_read")
	expect(t, o, "result.operations.1.created", "mutation:BookPage.mark")
	files := map[string]string{}
	for _, f := range o.list("result.files") {
		m := f.(map[string]any)
		files[m["path"].(string)] = m["change"].(string)
	}
	for _, p := range []string{"contracts/books.axiom", lock.ArtifactPath("books"), lock.Path, "pages/book.acore"} {
		if files[p] != "modified" {
			t.Errorf("result.files %s is %q (files %v)", p, files[p], files)
		}
	}
	cand := o.str("result.candidate.id")
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-mark-1", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")

	src, err := os.ReadFile(filepath.Join(dir, "contracts", "books.axiom"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "  mutation delete_book(id: String)\n  "+op+"\n}") {
		t.Errorf("contracts/books.axiom on disk:\n%s", src)
	}
	art, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(lock.ArtifactPath("books"))))
	if err != nil || string(art) != string(src) {
		t.Errorf("artifact on disk differs from the source (%v):\n%s", err, art)
	}
	l, _, err := lock.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := l.Contract("books"); !ok || c.SHA256 != sha(src) {
		t.Errorf("lock on disk %+v, want sha256 %s", l, sha(src))
	}
	page, err := os.ReadFile(filepath.Join(dir, "pages", "book.acore"))
	if err != nil || !strings.Contains(string(page), "  mutation mark = Books.mark_read(id: id, read: true)\n") {
		t.Errorf("pages/book.acore on disk (%v):\n%s", err, page)
	}

	// The command line sees the applied project as the service does; the
	// page's @axag gives the new operation the facts that axiom check's
	// AXAG rules ask of a write.
	bin := filepath.Join(t.TempDir(), "axiom")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/axiomcore/acore/cmd/axiom").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "check", dir, "--json").Output()
	if err != nil {
		t.Fatalf("axiom check: %v\n%s", err, out)
	}
	var rep struct {
		SemanticState string `json:"semantic_state"`
		Errors        int    `json:"errors"`
	}
	if err := json.Unmarshal(out, &rep); err != nil || rep.SemanticState != "validated" || rep.Errors != 0 {
		t.Errorf("axiom check: %v %s", err, out)
	}

	// Removing the operation the page now uses fails the compile with the
	// checker's diagnostic.
	snap = do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "latest", "params": {}}`).str("snapshot.id")
	o = do(t, s, propose(ws, snap, "mark-remove", `{"kind": "declaration", "op": "remove", "node": "contract_operation:Books.mark_read", "old_text": "`+op+`"}`))
	expect(t, o, "error.code", "compile_failed")
	if !strings.Contains(jsonOf(o.get("error.diagnostics")), "mark_read") {
		t.Errorf("diagnostics %s name no mark_read", jsonOf(o.get("error.diagnostics")))
	}
}

// TestEmptyContractGetsAMember: a local contract with no members (Notes,
// added to a copy of reading-list and imported by main.acore) gets its
// first operation over the service through its contract_import node,
// position first, as node.edits offers it; the applied source, artifact
// and lock agree on disk. do validates every answer against the
// published schemas.
func TestEmptyContractGetsAMember(t *testing.T) {
	s, dir, ws, snap := openReadingList(t)
	main, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	imported := strings.Replace(string(main), "use contract Books from \"books\" audience \"web\"\n", "use contract Books from \"books\" audience \"web\"\nuse contract Notes from \"notes\" audience \"web\"\n", 1)
	o := do(t, s, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "request_id": "notes-1", "params": {"operations": [`+
		`{"kind": "file", "op": "create", "path": "contracts/notes.axiom", "text": "contract Notes audience \"web\" {}\n"}], `+
		`"files": [{"path": "main.acore", "content": `+jsonOf(imported)+`, "sha256": "`+sha(main)+`"}]}}`)
	cand := o.str("result.candidate.id")
	if cand == "" {
		t.Fatalf("not proposed: %v", o["error"])
	}
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-notes-1", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")
	snap = o.str("result.receipt.result_snapshot")
	o = do(t, s, v1+`"operation": "node.edits", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["contract_import:Notes"], "kinds": ["declaration"]}}`)
	expect(t, o, "result.nodes.0.options.0.kind", "declaration")
	expect(t, o, "result.nodes.0.options.0.text", `contract Notes audience "web" {`)
	expect(t, o, "result.nodes.0.options.0.positions.0", "first")
	o = do(t, s, propose(ws, snap, "notes-2", `{"kind": "declaration", "op": "create", "anchor": "contract_import:Notes", "position": "first",
		"old_text": "contract Notes audience \"web\" {", "declaration": "query list_notes(): [String]"}`))
	cand = o.str("result.candidate.id")
	if cand == "" {
		t.Fatalf("not proposed: %v", o["error"])
	}
	expect(t, o, "result.operations.0.created", "contract_operation:Notes.list_notes")
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-notes-2", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")
	const want = "contract Notes audience \"web\" {\n  query list_notes(): [String]\n}\n"
	for _, p := range []string{"contracts/notes.axiom", lock.ArtifactPath("notes")} {
		got, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
	l, err := os.ReadFile(filepath.Join(dir, lock.Path))
	if err != nil || !strings.Contains(string(l), `"id": "notes"`) {
		t.Errorf("lock %s, %v", l, err)
	}
}
