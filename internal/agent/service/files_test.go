package service_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/lock"
)

const (
	statsPage     = "module tasks.pages.stats\n\npage Stats {\n  view {\n    Text(\"Stats\")\n  }\n}\n"
	notesContract = "contract Notes audience \"web\" {\n  model Note {\n    id: String\n    text: String\n  }\n\n  @axag(risk_level: \"none\", scope: \"user\")\n  query list_notes(): [Note]\n}\n"
	notesPage     = "module tasks.pages.notes\n\nuse contract Notes from \"notes\" audience \"web\"\n\npage NotesPage {\n  query notes = Notes.list_notes()\n\n  view {\n    if notes.pending { Text(\"Loading...\") }\n    else { Text(\"\" + notes.data.count + \" notes\") }\n  }\n}\n"
)

func fileCreateOp(path, text string) string {
	return `{"kind": "file", "op": "create", "path": ` + jsonOf(path) + `, "text": ` + jsonOf(text) + `}`
}

func fileRemoveOp(path, sha string) string {
	return `{"kind": "file", "op": "remove", "path": ` + jsonOf(path) + `, "old_sha256": ` + jsonOf(sha) + `}`
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// TestFileFamilyProposeAndApply: a batch that creates a page, creates a
// contract source with a page that uses it, and removes a module: the
// candidate lists the re-prepared artifact and lock, and change.apply
// writes all of them.
func TestFileFamilyProposeAndApply(t *testing.T) {
	s, dir, ws, _ := openTaskApp(t)
	oldSrc := "module tasks.old\n"
	if err := os.WriteFile(filepath.Join(dir, "old.acore"), []byte(oldSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "latest", "params": {}}`).str("snapshot.id")
	o := do(t, s, propose(ws, snap, "files-1", fileCreateOp("pages/stats.acore", statsPage),
		fileCreateOp("contracts/notes.axiom", notesContract), fileCreateOp("pages/notes.acore", notesPage),
		fileRemoveOp("old.acore", sha([]byte(oldSrc)))))
	if o.get("error") != nil {
		t.Fatalf("propose: %s", jsonOf(o["error"]))
	}
	paths := map[string]string{}
	for _, f := range o.list("result.files") {
		m := f.(map[string]any)
		paths[m["path"].(string)] = m["change"].(string)
	}
	for p, want := range map[string]string{"pages/stats.acore": "added", "contracts/notes.axiom": "added", "pages/notes.acore": "added",
		"old.acore": "removed", lock.ArtifactPath("notes"): "added", lock.Path: "modified"} {
		if paths[p] != want {
			t.Errorf("result.files %s is %q, want %s (files %v)", p, paths[p], want, paths)
		}
	}
	expect(t, o, "result.operations.1.kind", "file")
	expect(t, o, "result.operations.3.op", "remove")
	cand := o.str("result.candidate.id")
	o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "include": ["semantic_diff", "source_diff", "checks"]}}`)
	t.Logf("risks %s", jsonOf(o.get("result.risks")))
	for _, r := range o.list("result.risks") {
		if m := r.(map[string]any); m["kind"] == "unexpected_change" {
			t.Errorf("the files the batch writes are changes it asked for: %v", m)
		}
	}
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-files-1", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")
	for p, want := range map[string]string{"pages/stats.acore": statsPage, "contracts/notes.axiom": notesContract, lock.ArtifactPath("notes"): notesContract} {
		if got, err := os.ReadFile(filepath.Join(dir, p)); err != nil || string(got) != want {
			t.Errorf("%s on disk: %q, %v", p, got, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "old.acore")); !os.IsNotExist(err) {
		t.Errorf("old.acore still there: %v", err)
	}
	l, _, err := lock.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := l.Contract("notes"); !ok || c.SHA256 != sha([]byte(notesContract)) {
		t.Errorf("lock on disk %+v", l)
	}
	// The applied project compiles as the candidate did.
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "latest", "params": {"files": [], "checks": ["compile"]}}`)
	expect(t, o, "result.ok", true)
}

// TestFileFamilyRefusals: each bad file operation is refused with its code
// and reason, validated against the published schemas.
func TestFileFamilyRefusals(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	src, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		op, code, reason string
	}{
		{fileCreateOp("../x.acore", statsPage), "permission_denied", "path_escape"},
		{fileCreateOp("/etc/x.acore", statsPage), "permission_denied", "path_escape"},
		{fileCreateOp("notes.txt", "x"), "invalid_arguments", "not_an_input"},
		{fileCreateOp(".axiom/ui.lock", "{}"), "invalid_arguments", "not_an_input"},
		{fileCreateOp("main.acore", statsPage), "precondition_failed", "old_text_mismatch"},
		{fileRemoveOp("main.acore", strings.Repeat("1", 64)), "precondition_failed", "old_text_mismatch"},
		{fileRemoveOp("none.acore", sha(src)), "not_found", "path_unknown"},
		{fileRemoveOp("main.acore", "12"), "invalid_arguments", "schema"},
		{`{"kind": "file", "op": "create", "path": "a.acore"}`, "invalid_arguments", "schema"},
		{fileRemoveOp("main.acore", sha(src)), "compile_failed", "candidate_errors"},
	} {
		o := do(t, s, propose(ws, snap, "refuse-"+string(rune('a'+i)), tc.op))
		expect(t, o, "error.code", tc.code)
		expect(t, o, "error.reason", tc.reason)
	}
	o := do(t, s, propose(ws, snap, "refuse-exists", fileCreateOp("main.acore", statsPage)))
	expect(t, o, "error.details.sha256", sha(src))
}

// TestProposeRawFiles: params.files, check.run's overlay shape, goes
// through the preconditions, the compile and change.apply.
func TestProposeRawFiles(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	src, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	req := func(id, files string) string {
		return v1 + `"operation": "change.propose", "workspace": "` + ws + `", "base_snapshot": "` + snap + `", "request_id": "` + id + `", "params": {"files": ` + files + `}}`
	}
	file := func(path, content string, sum any) string {
		return `{"path": ` + jsonOf(path) + `, "content": ` + jsonOf(content) + `, "sha256": ` + jsonOf(sum) + `}`
	}
	good := strings.Replace(string(src), `"Add"`, `"Add task"`, 1)
	o := do(t, s, req("raw-stale", `[`+file("main.acore", good, strings.Repeat("0", 64))+`]`))
	expect(t, o, "error.code", "stale_snapshot")
	expect(t, o, "error.reason", "overlay_mismatch")
	expect(t, o, "error.details.sha256", mainBefore)
	o = do(t, s, req("raw-new-exists", `[`+file("main.acore", good, nil)+`]`))
	expect(t, o, "error.reason", "overlay_mismatch")
	o = do(t, s, req("raw-broken", `[`+file("main.acore", strings.Replace(string(src), `label: "Add"`, `label: 42`, 1), mainBefore)+`]`))
	expect(t, o, "error.code", "compile_failed")
	o = do(t, s, req("raw-no-content", `[{"path": "main.acore", "sha256": null}]`))
	expect(t, o, "error.reason", "schema")
	o = do(t, s, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "request_id": "raw-none", "params": {}}`)
	expect(t, o, "error.reason", "schema")
	o = do(t, s, req("raw-escape", `[`+file("../main.acore", good, nil)+`]`))
	expect(t, o, "error.code", "permission_denied")
	expect(t, o, "error.reason", "path_escape")
	o = do(t, s, req("raw-dup", `[`+file("main.acore", good, mainBefore)+`, `+file("main.acore", good, mainBefore)+`]`))
	expect(t, o, "error.reason", "duplicate_path")
	// Operations first, then files: the file's sha is of the state the
	// operations left, here the base's, since they change another file.
	o = do(t, s, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "request_id": "raw-1", "params": {"operations": [`+
		fileCreateOp("pages/stats.acore", statsPage)+`], "files": [`+file("main.acore", good, mainBefore)+`]}}`)
	if o.get("error") != nil {
		t.Fatalf("propose: %s", jsonOf(o["error"]))
	}
	expect(t, o, "result.operations.1.kind", "file")
	expect(t, o, "result.operations.1.op", "write")
	expect(t, o, "result.files.0.path", "main.acore")
	expect(t, o, "result.files.0.after_sha256", mainAfter)
	cand := o.str("result.candidate.id")
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-raw-1", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")
	if got, _ := os.ReadFile(filepath.Join(dir, "main.acore")); string(got) != good {
		t.Errorf("main.acore on disk is %q", got)
	}
}

// TestRepairLabelNamesNewCode: on a broken base, a fix is labelled a
// bounded repair; a fix that also adds a page says it adds new code, and
// names the page, instead of calling the whole candidate a repair.
func TestRepairLabelNamesNewCode(t *testing.T) {
	s, ws, snap, fix := brokenTaskApp(t)
	risk := func(requestID string, ops ...string) string {
		t.Helper()
		o := do(t, s, propose(ws, snap, requestID, ops...))
		if o["error"] != nil {
			t.Fatalf("%v", o["error"])
		}
		o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+o.str("result.candidate.id")+`"}}`)
		for _, r := range o.list("result.risks") {
			if m := r.(map[string]any); m["kind"] == "repair" {
				return m["detail"].(string)
			}
		}
		t.Fatalf("no repair risk: %v", o.get("result.risks"))
		return ""
	}
	if d := risk("fix", fix); !strings.HasSuffix(d, "the candidate is a bounded repair") {
		t.Errorf("fix alone: %q", d)
	}
	if d := risk("fix-and-page", fix, fileCreateOp("pages/stats.acore", statsPage)); !strings.Contains(d, "also adds 1 declarations the base does not have (pages/stats.acore: page Stats)") {
		t.Errorf("fix and a new page: %q", d)
	}
}

// TestPlanRawFiles: edit.plan takes change.propose's raw files, plans them
// after the operations and refuses a stale one as change.propose does.
func TestPlanRawFiles(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	src, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	good := strings.Replace(string(src), `"Add"`, `"Add task"`, 1)
	plan := func(files string) obj {
		return do(t, s, v1+`"operation": "edit.plan", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "params": {"operations": [`+
			fileCreateOp("pages/stats.acore", statsPage)+`], "files": `+files+`}}`)
	}
	o := plan(`[{"path": "main.acore", "content": ` + jsonOf(good) + `, "sha256": ` + jsonOf(mainBefore) + `}]`)
	if o.get("error") != nil {
		t.Fatalf("edit.plan: %s", jsonOf(o["error"]))
	}
	expect(t, o, "result.outcome", "supported")
	expect(t, o, "result.operations.1.kind", "file")
	expect(t, o, "result.operations.1.op", "write")
	expect(t, o, "result.operations.1.path", "main.acore")
	o = plan(`[{"path": "main.acore", "content": ` + jsonOf(good) + `, "sha256": ` + jsonOf(strings.Repeat("0", 64)) + `}]`)
	expect(t, o, "error.reason", "overlay_mismatch")
	if b, err := os.ReadFile(filepath.Join(dir, "main.acore")); err != nil || string(b) != string(src) {
		t.Errorf("edit.plan changed main.acore")
	}
}
