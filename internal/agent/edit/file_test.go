package edit

import (
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/reason"
)

const statsPage = "module tasks.pages.stats\n\npage Stats {\n  view {\n    Text(\"Stats\")\n  }\n}\n"

const notesContract = "contract Notes audience \"web\" {\n  model Note {\n    id: String\n    text: String\n  }\n\n  @axag(risk_level: \"none\", scope: \"user\")\n  query list_notes(): [Note]\n}\n"

const notesPage = "module tasks.pages.notes\n\nuse contract Notes from \"notes\" audience \"web\"\n\npage NotesPage {\n  query notes = Notes.list_notes()\n\n  view {\n    if notes.pending { Text(\"Loading...\") }\n    else { Text(\"\" + notes.data.count + \" notes\") }\n  }\n}\n"

func fileCreate(path, text string) string {
	return `{"kind":"file","op":"create","path":` + q(path) + `,"text":` + q(text) + `}`
}

func fileRemove(path, sha string) string {
	return `{"kind":"file","op":"remove","path":` + q(path) + `,"old_sha256":` + q(sha) + `}`
}

// TestFileCreateRemove: a module is created and another removed, each in a
// candidate that compiles, with the files and outcomes the batch reports.
func TestFileCreateRemove(t *testing.T) {
	base := withFiles(t, map[string]string{"pages/old.acore": strings.ReplaceAll(strings.ReplaceAll(statsPage, "Stats", "Old"), "stats", "old")})
	old := inputFile(base.Inputs, "pages/old.acore")
	r := mustApply(t, base, fileCreate("pages/stats.acore", statsPage), fileRemove("pages/old.acore", old.SHA256))
	if got := string(r.Files["pages/stats.acore"]); got != statsPage {
		t.Errorf("pages/stats.acore is %q", got)
	}
	if d, ok := r.Files["pages/old.acore"]; !ok || d != nil {
		t.Errorf("pages/old.acore: %q, %v; want removed", d, ok)
	}
	if len(r.Files) != 2 {
		t.Errorf("files %v, want the two", keysOf(r.Files))
	}
	if r.Project.Result.State != "validated" || r.Project.File("pages/stats.acore") == nil || r.Project.File("pages/old.acore") != nil {
		t.Fatalf("final state %s", r.Project.Result.State)
	}
	if o := r.Operations; len(o) != 2 || o[0].Kind != "file" || o[0].Op != "create" || o[1].Op != "remove" || o[1].Path != "pages/old.acore" {
		t.Errorf("outcomes %s", jsonText(o))
	}
	removed := 0
	for _, e := range r.IDMap {
		if e.Change == "removed" && strings.Contains(*e.OldID, "Old") {
			removed++
		}
	}
	if removed == 0 {
		t.Errorf("id_map %s names no removed node of page Old", jsonText(r.IDMap))
	}
	if strings.Join(r.Touched, ",") == "" {
		t.Errorf("no declaration touched")
	}
}

// TestFileContractPrepared: a new contract source and a page using it, in
// one batch: the candidate carries the development artifact and the lock
// re-prepared, and compiles against them.
func TestFileContractPrepared(t *testing.T) {
	base := taskApp(t)
	r := mustApply(t, base, fileCreate("contracts/notes.axiom", notesContract), fileCreate("pages/notes.acore", notesPage))
	if got := string(r.Files[lock.ArtifactPath("notes")]); got != notesContract {
		t.Errorf("artifact is %q", got)
	}
	l, err := lock.Parse(r.Files[lock.Path])
	if err != nil {
		t.Fatalf("lock: %v (%s)", err, r.Files[lock.Path])
	}
	if c, ok := l.Contract("notes"); !ok || c.Name != "Notes" || c.SHA256 != inputBytes(r.Project.Inputs, lock.ArtifactPath("notes")).SHA256 {
		t.Errorf("lock %s", r.Files[lock.Path])
	}
	if _, ok := l.Contract("tasks"); !ok {
		t.Errorf("lock lost tasks: %s", r.Files[lock.Path])
	}
	if r.Project.Result.State != "validated" {
		t.Fatalf("state %s: %s", r.Project.Result.State, firstError(r.Project.Result))
	}
	if len(r.Files) != 4 {
		t.Errorf("files %v, want the source, the page, the artifact and the lock", keysOf(r.Files))
	}
	// The page alone has no contract to compile against.
	if _, e := run(t, base, fileCreate("pages/notes.acore", notesPage)); e == nil || e.Reason != reason.CandidateErrors {
		t.Errorf("page without its contract: %v", e)
	}
	// Removing the contract the app uses removes its artifact and fails
	// the compile.
	tasks := inputFile(base.Inputs, "contracts/tasks.axiom")
	if _, e := run(t, base, fileRemove("contracts/tasks.axiom", tasks.SHA256)); e == nil || e.Reason != reason.CandidateErrors {
		t.Errorf("removing tasks.axiom: %v", e)
	}
}

// TestFileRefusals: each bad path or precondition has its reason.
func TestFileRefusals(t *testing.T) {
	base := taskApp(t)
	mainSHA := inputFile(base.Inputs, "main.acore").SHA256
	stale := strings.Repeat("0", 64)
	for _, tc := range []struct {
		name string
		op   string
		want reason.Reason
	}{
		{"absolute", fileCreate("/tmp/x.acore", statsPage), reason.PathEscape},
		{"dotdot", fileCreate("../x.acore", statsPage), reason.PathEscape},
		{"inner dotdot", fileCreate("pages/../../x.acore", statsPage), reason.PathEscape},
		{"backslash", fileCreate(`pages\x.acore`, statsPage), reason.PathEscape},
		{"extension", fileCreate("pages/x.txt", "hello"), reason.NotAnInput},
		{"artifact", fileCreate(".axiom/dev/contracts/x.axiom", notesContract), reason.NotAnInput},
		{"lock", fileCreate(".axiom/ui.lock", "{}"), reason.NotAnInput},
		{"nested contract", fileCreate("contracts/sub/x.axiom", notesContract), reason.NotAnInput},
		{"contract outside contracts", fileCreate("x.axiom", notesContract), reason.NotAnInput},
		{"node_modules", fileCreate("node_modules/x.acore", statsPage), reason.NotAnInput},
		{"long path", fileCreate("pages/"+strings.Repeat("x", 1100)+".acore", statsPage), reason.NotAnInput},
		{"exists", fileCreate("main.acore", statsPage), reason.OldTextMismatch},
		{"stale sha", fileRemove("main.acore", stale), reason.OldTextMismatch},
		{"unknown", fileRemove("pages/none.acore", mainSHA), reason.PathUnknown},
		{"bad sha", fileRemove("main.acore", "abc"), reason.Schema},
		{"broken contract", fileCreate("contracts/bad.axiom", "contract {\n"), reason.CandidateErrors},
		{"broken module", fileCreate("pages/bad.acore", "page {"), reason.CandidateErrors},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, e := run(t, base, tc.op)
			if e == nil {
				t.Fatalf("accepted")
			}
			if e.Reason != tc.want {
				t.Fatalf("reason %s (%v), want %s", e.Reason, e, tc.want)
			}
			if e.Kind != tc.want.Code() || idx(e) != 0 {
				t.Errorf("kind %s index %d", e.Kind, idx(e))
			}
		})
	}
	// A removal pinned by the right digest goes through to the compile,
	// which the app needs main.acore for.
	if _, e := run(t, base, fileRemove("main.acore", mainSHA)); e == nil || e.Reason != reason.CandidateErrors {
		t.Errorf("removing main.acore: %v", e)
	}
}

func keysOf(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
