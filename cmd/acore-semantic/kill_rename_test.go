//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/agent/service"
)

// newRenameKillCase is a copy of examples/reading-list and a candidate
// that the service itself proposed for a rename edit: PageTitle's
// subtitle prop renamed to caption, in the three files that name it.
func newRenameKillCase(t *testing.T) *killCase {
	t.Helper()
	return newProposedKillCase(t, `[{"kind":"rename","node":"prop:PageTitle.subtitle","old_name":"subtitle","new_name":"caption"}]`, 3)
}

// newFieldRenameKillCase is a copy of examples/reading-list and a
// candidate the service proposed for a rename of a local contract's model
// field, Books.Book.title to name: the contract source, its artifact, the
// lock and the two modules that read the field.
func newFieldRenameKillCase(t *testing.T) *killCase {
	t.Helper()
	return newProposedKillCase(t, `[{"kind":"rename","node":"field:Books.Book.title","old_name":"title","new_name":"name"}]`, 5)
}

// newDeclKillCase is a copy of examples/reading-list and a candidate of
// the declaration and route families with a contract re-prepared: a
// contract mutation, a page mutation using it, and a route, in five files
// (the contract source, its artifact, the lock, the page and main.acore).
func newDeclKillCase(t *testing.T) *killCase {
	t.Helper()
	return newProposedKillCase(t, `[`+
		`{"kind":"declaration","op":"create","anchor":"contract_operation:Books.delete_book","position":"after","old_text":"mutation delete_book(id: String)","declaration":"mutation mark_read(id: String, read: Bool)"},`+
		`{"kind":"declaration","op":"create","anchor":"query:BookPage.books","position":"after","old_text":"query books = Books.list_books(id: id)","declaration":"mutation mark = Books.mark_read(id: id)"},`+
		`{"kind":"route","op":"add","path":"/read/:id","page":"BookPage"}]`, 5)
}

// newProposedKillCase is a copy of examples/reading-list and a candidate
// the service itself proposed for ops, which must write files files.
func newProposedKillCase(t *testing.T, ops string, files int) *killCase {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples", "reading-list"))); err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(req string) map[string]any {
		var v map[string]any
		if err := json.Unmarshal(svc.Handle(context.Background(), []byte(req)), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	open := ask(`{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","snapshot":"latest","params":{"roots":[{"path":` + quote(dir) + `}]}}`)
	snap, _ := field(open, "snapshot.id").(string)
	prop := ask(`{"protocol":"axiom-agent-semantic/v1","operation":"change.propose","base_snapshot":"` + snap + `","request_id":"kill",` +
		`"params":{"operations":` + ops + `}}`)
	id, _ := field(prop, "result.candidate.id").(string)
	if id == "" {
		t.Fatalf("not proposed: %v", prop["error"])
	}
	svc.Wait()
	c, err := candidate.NewStore(dir).Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != files {
		t.Fatalf("the candidate writes %d files, want %d", len(c.Files), files)
	}
	k := &killCase{dir: dir, cand: c, base: map[string]*string{}, after: map[string]*string{}}
	for _, f := range c.Files {
		b, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		k.base[f.Path], k.after[f.Path] = sp(string(b)), sp(string(f.Content))
	}
	k.req = fmt.Sprintf(`{"protocol":"axiom-agent-semantic/v1","operation":"change.apply","request_id":"apply-kill","params":{"candidate":%q,"expected_candidate_version":1,"require_checks":["compile"]}}`, id)
	return k
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// killAtEveryPoint kills the apply of the case newCase builds at every
// failpoint of its files, counts under prefix what each kill left, and
// requires the resend to end applied with every file the candidate's;
// then, if given, runs after on the case.
func killAtEveryPoint(t *testing.T, prefix string, files int, newCase func(*testing.T) *killCase, after func(*testing.T, *killCase)) {
	t.Run("all", func(t *testing.T) {
		for _, point := range publish.Points(files) {
			t.Run(point, func(t *testing.T) {
				t.Parallel()
				k := newCase(t)
				if _, killed := k.send(t, point); !killed {
					t.Fatalf("not killed at %s", point)
				}
				count(prefix + k.state(t))
				k.finish(t)
				if after != nil {
					after(t, k)
				}
			})
		}
	})
	logStats(t, prefix)
}

// TestKillRenameAtEveryFailpoint kills the apply of a rename, the edit
// family that writes several files from one operation, at every failpoint
// of its three files; each run ends with the files all at the base or all
// renamed, and applied on the resend.
func TestKillRenameAtEveryFailpoint(t *testing.T) {
	killAtEveryPoint(t, "rename:", 3, newRenameKillCase, nil)
}

// TestKillDeclarationsAtEveryFailpoint kills the apply of a batch of the
// declaration and route families that re-prepares a contract at every
// failpoint of its five files; each run ends applied on the resend, with
// every file the candidate's.
func TestKillDeclarationsAtEveryFailpoint(t *testing.T) {
	killAtEveryPoint(t, "decl:", 5, newDeclKillCase, nil)
}

// TestKillFieldRenameAtEveryFailpoint kills the apply of a rename of a
// local contract's field, which re-prepares the contract, at every
// failpoint of its five files; each run ends applied on the resend, with
// every file the candidate's.
func TestKillFieldRenameAtEveryFailpoint(t *testing.T) {
	killAtEveryPoint(t, "field:", 5, newFieldRenameKillCase, nil)
}
