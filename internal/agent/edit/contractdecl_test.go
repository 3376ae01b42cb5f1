package edit

import (
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
)

const (
	deleteBook   = `"contract_operation:Books.delete_book","old_text":"mutation delete_book(id: String)"`
	bookModel    = `"model:Books.Book","old_text":"model Book {\n    id: String\n    title: String\n    author: String\n  }"`
	markRead     = `@axag(risk_level: \"low\", idempotent: true, scope: \"user\")\nmutation mark_read(id: String, read: Bool)`
	markPageDecl = `mutation mark = Books.mark_read(id: id, read: true)`
)

// TestContractDeclarations creates, updates and removes the operations and
// models of reading-list's local contract: the edit is made in
// contracts/books.axiom, the candidate carries the re-prepared artifact
// and lock, and a page of the same batch compiles against the change.
func TestContractDeclarations(t *testing.T) {
	cases := []struct {
		name    string
		ops     []string
		created string // the first operation's created id; "" for an update or a refusal
	}{
		{"contract_create_after_delete_book", []string{`{"kind":"declaration","op":"create","anchor":` + deleteBook + `,"position":"after","declaration":"` + markRead + `"}`}, "contract_operation:Books.mark_read"},
		{"contract_create_with_page_mutation", []string{
			`{"kind":"declaration","op":"create","anchor":` + deleteBook + `,"position":"after","declaration":"` + markRead + `"}`,
			`{"kind":"declaration","op":"create","anchor":"query:BookPage.books","old_text":"query books = Books.list_books(id: id)","position":"after","declaration":"` + markPageDecl + `"}`}, "contract_operation:Books.mark_read"},
		{"contract_create_model_before_query", []string{`{"kind":"declaration","op":"create","anchor":"contract_operation:Books.list_books","old_text":"query list_books(sort: String?, id: String?): [Book]","position":"before","declaration":"model Shelf {\n  name: String\n}"}`}, "model:Books.Shelf"},
		{"contract_create_then_update_by_handle", []string{
			`{"kind":"declaration","op":"create","anchor":` + deleteBook + `,"position":"after","handle":"mark","declaration":"mutation mark_read(id: String)"}`,
			`{"kind":"declaration","op":"update","node":{"handle":"mark"},"old_text":"mutation mark_read(id: String)","declaration":"mutation mark_read(id: String, read: Bool)"}`}, "contract_operation:Books.mark_read"},
		{"contract_update_operation", []string{`{"kind":"declaration","op":"update","node":` + deleteBook + `,"declaration":"mutation delete_book(id: String, reason: String?)"}`}, ""},
		{"contract_update_model_field", []string{`{"kind":"declaration","op":"update","node":` + bookModel + `,"declaration":"model Book {\n    id: String\n    title: String\n    author: String\n    read: Bool?\n  }"}`}, ""},
		{"contract_remove_still_used", []string{`{"kind":"declaration","op":"remove","node":` + deleteBook + `}`}, ""},
		{"contract_refuse_page_member", []string{`{"kind":"declaration","op":"create","anchor":` + deleteBook + `,"position":"after","declaration":"state n: Int = 0"}`}, ""},
		{"contract_refuse_rename_by_update", []string{`{"kind":"declaration","op":"update","node":` + deleteBook + `,"declaration":"mutation drop_book(id: String)"}`}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := example(t, "reading-list", nil)
			r, e := run(t, base, c.ops...)
			checkGolden(t, c.name, golden(r, e))
			if c.created == "" {
				return
			}
			if e != nil {
				t.Fatalf("refused: %v (%v)", e, e.Diagnostics)
			}
			if r.Operations[0].Created != c.created || r.Operations[0].Path != "contracts/books.axiom" {
				t.Errorf("outcome %s", jsonText(r.Operations[0]))
			}
			src, art := r.Files["contracts/books.axiom"], r.Files[lock.ArtifactPath("books")]
			if src == nil || string(src) != string(art) {
				t.Fatalf("source and artifact differ:\n%s\n---\n%s", src, art)
			}
			l, err := lock.Parse(r.Files[lock.Path])
			if err != nil {
				t.Fatalf("lock: %v", err)
			}
			if lc, ok := l.Contract("books"); !ok || lc.SHA256 != inputBytes(r.Project.Inputs, lock.ArtifactPath("books")).SHA256 {
				t.Errorf("lock %s", r.Files[lock.Path])
			}
			if r.Project.Result.State != "validated" {
				t.Errorf("state %s", r.Project.Result.State)
			}
		})
	}
}

// TestContractDeclarationOptions: node.edits offers the declaration family
// on the operations and models of a local contract, with their text (an
// operation's annotations included), and a contract artifact whose source
// is gone stays read-only.
func TestContractDeclarationOptions(t *testing.T) {
	base := example(t, "reading-list", nil)
	r := mustApply(t, base, `{"kind":"declaration","op":"create","anchor":`+deleteBook+`,"position":"after","declaration":"`+markRead+`"}`)
	for id, want := range map[string]string{
		"contract_operation:Books.delete_book": "mutation delete_book(id: String)",
		"contract_operation:Books.mark_read":   "@axag(risk_level: \"low\", idempotent: true, scope: \"user\")\n  mutation mark_read(id: String, read: Bool)",
		"model:Books.Book":                     "model Book {\n    id: String\n    title: String\n    author: String\n  }",
	} {
		i, ok := r.Project.Result.Graph.Lookup(id)
		if !ok {
			t.Fatalf("no node %s", id)
		}
		ne := EditsOf(testSnap, r.Project, i, []string{"declaration"}, false, true)
		if len(ne.Options) != 1 || ne.Options[0].Text == nil || *ne.Options[0].Text != want || len(ne.Options[0].Ops) != 3 {
			t.Errorf("%s: options %s", id, jsonText(ne))
		}
	}
	// Without its source the artifact is a published contract.
	in := *base.Inputs
	in.ContractSources = nil
	bare := project.Compile(&in)
	if bare.Result.State != "validated" {
		t.Fatalf("without its source: %s", firstError(bare.Result))
	}
	i, _ := bare.Result.Graph.Lookup("contract_operation:Books.delete_book")
	if ne := EditsOf(testSnap, bare, i, []string{"declaration"}, false, true); len(ne.Options) != 0 || len(ne.Unavailable) != 1 {
		t.Errorf("without a source: %s", jsonText(ne))
	}
	_, e := Apply(bare, ops(t, `{"kind":"declaration","op":"remove","node":`+deleteBook+`}`), Options{SnapshotID: testSnap, EditRules: EditRules})
	if e == nil || e.Kind != ReadOnly {
		t.Errorf("remove without a source: %v", e)
	}
}

// withNotes is reading-list with a second local contract, Notes, of
// text body, imported by main.acore and prepared.
func withNotes(t *testing.T, body string) *project.Project {
	t.Helper()
	return example(t, "reading-list", map[string]func(string) string{
		"contracts/notes.axiom": func(string) string { return body },
		"main.acore":            importNotes,
	})
}

// importNotes adds the use line of the Notes contract to reading-list's
// main.acore.
func importNotes(s string) string {
	return strings.Replace(s, "use contract Books from \"books\" audience \"web\"\n", "use contract Books from \"books\" audience \"web\"\nuse contract Notes from \"notes\" audience \"web\"\n", 1)
}

// TestContractFirstMember: a contract with no members gets one through its
// contract_import node, position first: node.edits offers it with the
// contract's header, the member goes on its own line inside the braces,
// and a page of the same batch uses it. A position other than first, and
// a published contract's import, are refused.
func TestContractFirstMember(t *testing.T) {
	header := `contract Notes audience \"web\" {`
	create := func(position, decl string) string {
		return `{"kind":"declaration","op":"create","anchor":"contract_import:Notes","old_text":"` + header + `","position":"` + position + `","declaration":"` + decl + `"}`
	}
	for _, c := range []struct {
		name, body string
		ops        []string
		want       string // the contract source after, or "" for a refusal
		reason     reason.Reason
	}{
		{"empty braces", "contract Notes audience \"web\" {}\n", []string{create("first", "query list_notes(): [String]")},
			"contract Notes audience \"web\" {\n  query list_notes(): [String]\n}\n", reason.None},
		{"braces on two lines", "contract Notes audience \"web\" {\n}\n", []string{create("first", "model Note {\\n  text: String\\n}")},
			"contract Notes audience \"web\" {\n  model Note {\n    text: String\n  }\n}\n", reason.None},
		{"used by a page in the batch", "contract Notes audience \"web\" {}\n", []string{create("first", "query list_notes(): [String]"),
			`{"kind":"declaration","op":"create","anchor":"state:Home.order","old_text":"state order: String = \"title\"","position":"after","declaration":"query notes = Notes.list_notes()"}`},
			"contract Notes audience \"web\" {\n  query list_notes(): [String]\n}\n", reason.None},
		{"position after", "contract Notes audience \"web\" {}\n", []string{create("after", "query list_notes(): [String]")}, "", reason.EditNotOffered},
		{"not a member", "contract Notes audience \"web\" {}\n", []string{create("first", "state n: Int = 0")}, "", reason.CandidateErrors},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := withNotes(t, c.body)
			ci, ok := base.Result.Graph.Lookup("contract_import:Notes")
			if !ok {
				t.Fatal("no contract_import:Notes")
			}
			ne := EditsOf("snap", base, ci, []string{"declaration"}, false, false)
			if len(ne.Options) != 1 || ne.Options[0].Text == nil || *ne.Options[0].Text != `contract Notes audience "web" {` {
				t.Fatalf("options %s", jsonText(ne.Options))
			}
			r, e := run(t, base, c.ops...)
			if c.want == "" {
				if e == nil || e.Reason != c.reason {
					t.Fatalf("got %v, want a refusal %v", e, c.reason)
				}
				return
			}
			if e != nil {
				t.Fatalf("refused: %v (%v)", e, e.Diagnostics)
			}
			if got := string(r.Files["contracts/notes.axiom"]); got != c.want {
				t.Errorf("contracts/notes.axiom:\n%s\nwant\n%s", got, c.want)
			}
			if string(r.Files[lock.ArtifactPath("notes")]) != c.want || r.Files[lock.Path] == nil {
				t.Errorf("artifact %q, lock %q", r.Files[lock.ArtifactPath("notes")], r.Files[lock.Path])
			}
			if r.Project.Result.State != "validated" {
				t.Errorf("state %s: %s", r.Project.Result.State, firstError(r.Project.Result))
			}
		})
	}
}
