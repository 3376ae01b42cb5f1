package service_test

import (
	"context"
	"encoding/json"
	"github.com/axiomcore/acore/internal/agent/snapshot"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/service"
)

// The reference's edit examples, in its order, on the task-app. The apply
// between check.run and the discard is simulated by writing the
// candidate's file (change.apply is tested with publication).

const (
	mainBefore = "c7ac07a1c5072d144968b21afb3e2619de22f935f7b834767cdd30426dee9f43"
	mainAfter  = "6fa9d35dbcf89eada82803ad84e4159e8f6f95cb95d50988ebe91fa1f10e61ab"
)

// same compares a decoded value with the JSON want.
func same(t *testing.T, what string, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad want: %v", what, err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("%s =\n%s\nwant\n%s", what, jsonOf(got), jsonOf(w))
	}
}

func openTaskApp(t *testing.T) (*service.Service, string, string, string) {
	t.Helper()
	s, dir := taskApp(t)
	o := do(t, s, v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+dir+`"}]}}`)
	return s, dir, o.str("workspace"), o.str("snapshot.id")
}

func setLabel(old, new string) string {
	return `{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "` + old + `", "new_value": "` + new + `"}`
}

func propose(ws, base, requestID string, ops ...string) string {
	return v1 + `"operation": "change.propose", "workspace": "` + ws + `", "base_snapshot": "` + base + `", "request_id": "` + requestID +
		`", "params": {"operations": [` + strings.Join(ops, ", ") + `]}}`
}

func TestReferenceEditExamples(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)

	// edit.plan: the dry run.
	o := do(t, s, v1+`"operation": "edit.plan", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "params": {"operations": [`+setLabel("Add", "Add task")+`]}}`)
	same(t, "edit.plan result", o["result"], `{
		"files": ["main.acore"],
		"id_map": [],
		"operations": [{"index": 0, "kind": "set_property", "node": "element:Home/view/0/1", "outcome": "supported", "path": "main.acore", "property": "label"}],
		"outcome": "supported",
		"owners": [{"kind": "page", "node": "page:Home", "path": "main.acore"}],
		"required_checks": ["compile"]}`)
	expect(t, o, "snapshot.id", snap)
	if entries, _ := os.ReadDir(filepath.Join(dir, candidate.StateDir, "candidates")); len(entries) != 0 {
		t.Errorf("edit.plan stored %d candidates", len(entries))
	}

	// A proposal whose old_value is not the current value.
	o = do(t, s, propose(ws, snap, "rename-add-0", setLabel("Create", "Add task")))
	same(t, "old_value_mismatch", o["error"], `{
		"code": "precondition_failed",
		"reason": "old_value_mismatch",
		"message": "label is \"Add\", expected \"Create\"",
		"operation_index": 0,
		"target": {"node": "element:Home/view/0/1", "property": "label"},
		"diagnostics": [],
		"retryable": "after_refresh",
		"next_actions": [{"operation": "node.get", "reason": "Re-read the node and rebuild the operation", "params": {"nodes": ["element:Home/view/0/1"]}}]}`)

	// With the current value.
	o = do(t, s, propose(ws, snap, "rename-add-1", setLabel("Add", "Add task")))
	expect(t, o, "request_id", "rename-add-1")
	expect(t, o, "snapshot.id", snap)
	cand := o.str("result.candidate.id")
	if !strings.HasPrefix(cand, "cand-") {
		t.Fatalf("candidate %q: %v", cand, o)
	}
	expect(t, o, "result.candidate.state", "open")
	expect(t, o, "result.candidate.version", 1.0)
	expect(t, o, "result.candidate.base_snapshot", snap)
	expect(t, o, "result.candidate.request_id", "rename-add-1")
	if exp := o.str("result.candidate.expires_at"); !strings.HasSuffix(exp, "Z") || !strings.Contains(exp, "T") {
		t.Errorf("expires_at %q", exp)
	}
	expect(t, o, "result.checks.0.check", "compile")
	expect(t, o, "result.checks.0.status", "passed")
	same(t, "files", o["result"].(map[string]any)["files"], `[{"after_sha256": "`+mainAfter+`", "before_sha256": "`+mainBefore+`", "change": "modified", "path": "main.acore"}]`)
	same(t, "id_map", o.get("result.id_map"), `[]`)
	same(t, "operations", o.get("result.operations"), `[{"id_map": [], "index": 0, "kind": "set_property"}]`)
	expect(t, o, "result.replayed", false)
	candSnap := o.str("result.candidate.snapshot")
	fingerprint := o.str("result.candidate.input_fingerprint")
	if candSnap == snap || !strings.HasPrefix(candSnap, "snap-") || len(fingerprint) != 64 {
		t.Errorf("candidate snapshot %q, input_fingerprint %q", candSnap, fingerprint)
	}

	// The same request again: the recorded answer.
	r := do(t, s, propose(ws, snap, "rename-add-1", setLabel("Add", "Add task")))
	expect(t, r, "result.replayed", true)
	expect(t, r, "result.candidate.id", cand)
	expect(t, r, "snapshot.id", snap)

	// The same request_id with a different input.
	o = do(t, s, propose(ws, snap, "rename-add-1", setLabel("Add", "Add a task")))
	expect(t, o, "error.code", "conflict")
	expect(t, o, "error.reason", "request_id_reused")
	expect(t, o, "error.retryable", "none")
	same(t, "target", o.get("error.target"), `{"request_id": "rename-add-1"}`)
	same(t, "next_actions", o.get("error.next_actions"), `[]`)
	if msg := o.str("error.message"); !strings.HasPrefix(msg, "request_id rename-add-1 was used for a different request (") || !strings.HasSuffix(msg, "); use a new request_id") {
		t.Errorf("message %q", msg)
	}

	// change.inspect: the semantic and the source diff.
	o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "include": ["semantic_diff", "source_diff"]}}`)
	expect(t, o, "snapshot.id", candSnap)
	expect(t, o, "snapshot.overlay", cand)
	same(t, "semantic_diff", o.get("result.semantic_diff"), `[{"change": "modified", "expected": true, "node": "element:Home/view/0/1",
		"properties": [{"after": "Add task", "before": "Add", "name": "label"}]}]`)
	expect(t, o, "result.source_diff.0.path", "main.acore")
	expect(t, o, "result.source_diff.0.hunks.0.old_start", 17.0)
	same(t, "hunk lines", o.get("result.source_diff.0.hunks.0.lines"), jsonOf([]string{
		"   view {",
		"     View {",
		`       Input(value: draft, placeholder: "Add a task")`,
		`+      Button(label: "Add task", on_press: submit)`,
		`-      Button(label: "Add", on_press: submit)`,
		" ",
		`       if tasks.pending { Text("Loading...") }`,
		`       else if tasks.error { Text("Could not load tasks") }`,
	}))
	if n := len(o.list("result.source_diff.0.hunks")); n != 1 {
		t.Errorf("%d hunks", n)
	}
	if o.get("result.affected") != nil || o.get("result.content") != nil {
		t.Errorf("parts not asked for: %v", o["result"])
	}

	// check.run on the candidate.
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "checks": ["compile"]}}`)
	same(t, "check.run", o["result"], `{"candidate": "`+cand+`", "ok": true, "checks": [{"check": "compile", "status": "passed", "diagnostics": [
		{"code": "AC503", "column": 26, "line": 3, "length": 5, "path": "main.acore", "severity": "warning",
		 "message": "development contract `+"`tasks`"+` uses an unsigned local artifact; a production release requires Axiom Cloud signing"}]}]}`)
	expect(t, o, "snapshot.overlay", cand)

	// check.run on the files on disk now.
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "latest", "params": {"files": [], "checks": ["compile"]}}`)
	expect(t, o, "result.ok", true)
	expect(t, o, "result.checks.0.status", "passed")
	expect(t, o, "snapshot.id", snap)

	// The apply, simulated: the candidate's content on disk.
	applyByHand(t, s, dir, cand)
	o = do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "latest", "params": {}}`)
	head := o.str("snapshot.id")
	if head != candSnap {
		t.Errorf("after the apply latest is %s, the candidate's snapshot %s", head, candSnap)
	}

	// change.discard of a second candidate.
	o = do(t, s, propose(ws, head, "placeholder-1",
		`{"kind": "set_property", "node": "element:Home/view/0/0", "property": "placeholder", "old_value": "Add a task", "new_value": "New task"}`))
	second := o.str("result.candidate.id")
	secondSnap := o.str("result.candidate.snapshot")
	secondFP := o.str("result.candidate.input_fingerprint")
	o = do(t, s, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "`+second+`", "expected_candidate_version": 1}}`)
	same(t, "change.discard", o["result"], `{"candidate": {"base_snapshot": "`+head+`", "id": "`+second+`", "input_fingerprint": "`+secondFP+`",
		"request_id": "placeholder-1", "snapshot": "`+secondSnap+`", "state": "discarded", "version": 1}, "released": true}`)

	// An edit on the snapshot from before the apply, touching the file the
	// apply changed.
	o = do(t, s, propose(ws, snap, "rename-add-2", setLabel("Add", "Add item")))
	same(t, "stale_snapshot", o["error"], `{
		"code": "stale_snapshot",
		"reason": "base_not_head",
		"message": "base_snapshot `+snap+` is not the current snapshot of the workspace (`+head+`) and the files this request changes differ there",
		"target": {"snapshot": "`+snap+`"},
		"diagnostics": [],
		"retryable": "after_refresh",
		"next_actions": [
			{"operation": "changes.since", "reason": "Map the ids you hold to the current snapshot (snapshot.id of this response)",
				"params": {"since": "`+snap+`", "scope": {"nodes": ["element:Home/view/0/1"]}}},
			{"operation": "node.get", "reason": "Re-read the nodes on the current snapshot (snapshot.id of this response) and rebuild the request",
				"params": {"nodes": ["element:Home/view/0/1"]}}]}`)
	expect(t, o, "snapshot.id", head)
}

// applyByHand writes a candidate's files as change.apply would and marks
// it applied.
func applyByHand(t *testing.T, s *service.Service, dir, id string) {
	t.Helper()
	c, err := s.Candidates().Get(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c.State = candidate.Applied
	if err := s.Candidates().Put(c); err != nil {
		t.Fatal(err)
	}
}

func TestProposeExtendAndVersions(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	o := do(t, s, propose(ws, snap, "v1", setLabel("Add", "Add task")))
	cand := o.str("result.candidate.id")
	at := s // the process the extensions go to
	ext := func(requestID string, expected int, op string) obj {
		return do(t, at, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "request_id": "`+requestID+
			`", "params": {"candidate": "`+cand+`", "expected_candidate_version": `+jsonOf(expected)+`, "operations": [`+op+`], "checks": ["repair"]}}`)
	}
	placeholder := `{"kind": "set_property", "node": "element:Home/view/0/0", "property": "placeholder", "old_value": "Add a task", "new_value": "New task"}`
	// The batch sees the candidate's version, not the base.
	o = ext("v2-stale", 1, setLabel("Add", "Add item"))
	expect(t, o, "error.reason", "old_value_mismatch")
	o = ext("v2", 1, placeholder)
	expect(t, o, "result.candidate.id", cand)
	expect(t, o, "result.candidate.version", 2.0)
	expect(t, o, "result.candidate.request_id", "v2")
	expect(t, o, "result.checks.0.check", "compile")
	expect(t, o, "result.checks.1.check", "repair")
	expect(t, o, "result.checks.1.status", "passed")
	expect(t, o, "result.files.0.before_sha256", mainBefore)
	if n := len(o.list("result.files")); n != 1 {
		t.Errorf("%d files", n)
	}
	o = ext("v3", 1, placeholder)
	expect(t, o, "error.code", "precondition_failed")
	expect(t, o, "error.reason", "candidate_version_mismatch")
	expect(t, o, "error.retryable", "after_refresh")

	// Both edits are in the candidate, and both are expected.
	o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`"}}`)
	same(t, "semantic_diff", o.get("result.semantic_diff"), `[
		{"change": "modified", "expected": true, "node": "element:Home/view/0/0", "properties": [{"after": "New task", "before": "Add a task", "name": "placeholder"}]},
		{"change": "modified", "expected": true, "node": "element:Home/view/0/1", "properties": [{"after": "Add task", "before": "Add", "name": "label"}]}]`)
	if n := len(o.list("result.source_diff.0.hunks.0.lines")); n != 10 {
		t.Errorf("one hunk of 10 lines expected: %v", o.get("result.source_diff"))
	}
	if len(o.list("result.affected")) < 2 || o.get("result.risks") == nil {
		t.Errorf("affected %v risks %v", o.get("result.affected"), o.get("result.risks"))
	}
	expect(t, o, "result.checks.0.check", "compile")
	expect(t, o, "result.checks.1.check", "repair")

	// A new process (a service with candidates of its own) sees the
	// candidate: recompiled from its base and files.
	s2, err := newService(t, service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	at = s2
	o2 := do(t, s2, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`"}}`)
	delete(o2["snapshot"].(map[string]any), "captured_at")
	delete(o["snapshot"].(map[string]any), "captured_at")
	same(t, "inspect in a new process", o2["result"], jsonOf(o["result"]))
	same(t, "snapshot in a new process", o2["snapshot"], jsonOf(o["snapshot"]))
	r := do(t, s2, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "request_id": "v2", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "operations": [`+placeholder+`], "checks": ["repair"]}}`)
	expect(t, r, "result.replayed", true)
	expect(t, r, "result.candidate.version", 2.0)

	// Discard: a version mismatch, then the discard, then it is closed.
	o = do(t, s2, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1}}`)
	expect(t, o, "error.reason", "candidate_version_mismatch")
	o = do(t, s2, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`"}}`)
	expect(t, o, "result.candidate.state", "discarded")
	expect(t, o, "result.candidate.version", 2.0)
	expect(t, o, "result.released", true)
	if o.get("result.candidate.expires_at") != nil {
		t.Error("a discarded candidate has expires_at")
	}
	o = do(t, s2, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`"}}`)
	expect(t, o, "error.code", "precondition_failed")
	expect(t, o, "error.reason", "candidate_closed")
	o = ext("v4", 2, placeholder)
	expect(t, o, "error.reason", "candidate_closed")
	// Still inspectable.
	o = do(t, s2, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "include": ["content"]}}`)
	expect(t, o, "result.candidate.state", "discarded")
	if !strings.Contains(o.str("result.content.0.content"), `Button(label: "Add task"`) {
		t.Errorf("content %v", o.get("result.content"))
	}
}

func TestDiscardRefusals(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	o := do(t, s, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "cand-0123456789abcdef01234567"}}`)
	expect(t, o, "error.code", "not_found")
	expect(t, o, "error.reason", "candidate_unknown")
	o = do(t, s, propose(ws, snap, "a", setLabel("Add", "Add task")))
	cand := o.str("result.candidate.id")
	applyByHand(t, s, dir, cand)
	o = do(t, s, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`"}}`)
	expect(t, o, "error.code", "precondition_failed")
	expect(t, o, "error.reason", "candidate_applied")
	expect(t, o, "error.retryable", "none")
	// The file on disk keeps the applied change.
	b, _ := os.ReadFile(filepath.Join(dir, "main.acore"))
	if !strings.Contains(string(b), `"Add task"`) {
		t.Error("discard touched the applied file")
	}
}

func TestProposeRefusals(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	o := do(t, s, propose(ws, "latest", "l", setLabel("Add", "Add task")))
	expect(t, o, "error.code", "invalid_arguments")
	o = do(t, s, propose(ws, snapshot.IDFromDigest(make([]byte, 12)), "x", setLabel("Add", "Add task")))
	expect(t, o, "error.code", "snapshot_expired")
	o = do(t, s, propose(ws, "snap-00000000000000000000000000000000", "x", setLabel("Add", "Add task")))
	expect(t, o, "error.code", "not_found")
	expect(t, o, "error.reason", "snapshot_unknown")
	o = do(t, s, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "request_id": "c", "params": {"operations": [`+setLabel("Add", "Add task")+`], "checks": ["lint"]}}`)
	expect(t, o, "error.code", "unsupported_operation")
	expect(t, o, "error.reason", "unknown_check")
	o = do(t, s, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "request_id": "e", "params": {"candidate": "cand-0123456789abcdef01234567", "expected_candidate_version": 1, "operations": [`+setLabel("Add", "Add task")+`]}}`)
	expect(t, o, "error.code", "not_found")
	expect(t, o, "error.reason", "candidate_unknown")

	// An older base is fine while the files the batch changes are the same.
	if err := os.WriteFile(filepath.Join(dir, "extra.acore"), []byte("module extra\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o = do(t, s, propose(ws, snap, "old-base", setLabel("Add", "Add task")))
	expect(t, o, "result.candidate.base_snapshot", snap)
	expect(t, o, "snapshot.id", snap)
	o = do(t, s, v1+`"operation": "edit.plan", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "params": {"operations": [`+setLabel("Add", "Add task")+`]}}`)
	expect(t, o, "result.outcome", "supported")
}

func TestCheckRunOverlay(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	src, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(files string, checks string) obj {
		return do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"files": `+files+`, "checks": `+checks+`}}`)
	}
	file := func(content string, sum any) string {
		return `[{"path": "main.acore", "content": ` + jsonOf(content) + `, "sha256": ` + jsonOf(sum) + `}]`
	}
	good := strings.Replace(string(src), `"Add"`, `"Add task"`, 1)
	o := run(file(good, mainBefore), `["compile", "repair"]`)
	expect(t, o, "result.ok", true)
	expect(t, o, "result.checks.0.status", "passed")
	expect(t, o, "result.checks.1.status", "passed")
	if o.get("result.candidate") != nil {
		t.Error("candidate on a snapshot check")
	}
	// A failed check is a result.
	bad := strings.Replace(string(src), `label: "Add"`, `label: 42`, 1)
	o = run(file(bad, mainBefore), `["compile"]`)
	expect(t, o, "result.ok", false)
	expect(t, o, "result.checks.0.status", "failed")
	if len(o.list("result.checks.0.diagnostics")) < 2 {
		t.Errorf("diagnostics %v", o.get("result.checks.0.diagnostics"))
	}
	// The digest of the file replaced must be the snapshot's.
	o = run(file(good, strings.Repeat("0", 64)), `["compile"]`)
	expect(t, o, "error.code", "stale_snapshot")
	expect(t, o, "error.reason", "overlay_mismatch")
	expect(t, o, "error.details.sha256", mainBefore)
	o = run(file(good, nil), `["compile"]`)
	expect(t, o, "error.reason", "overlay_mismatch")
	// A new file: null digest.
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"files": [{"path": "other.acore", "content": "module other\n", "sha256": null}], "checks": ["compile"]}}`)
	expect(t, o, "result.ok", true)
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"files": [{"path": "notes.txt", "content": "", "sha256": null}], "checks": ["compile"]}}`)
	expect(t, o, "error.code", "invalid_arguments")
	// Bounds and names.
	big := strings.Repeat("x", 1<<20+1)
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"files": [{"path": "a.acore", "content": "`+big+`", "sha256": null}, {"path": "b.acore", "content": "`+big+`", "sha256": null}], "checks": ["compile"]}}`)
	expect(t, o, "error.code", "resource_limit")
	expect(t, o, "error.reason", "content_too_large")
	o = run(`[]`, `["lint"]`)
	expect(t, o, "error.code", "unsupported_operation")
	expect(t, o, "error.reason", "unknown_check")
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "params": {"checks": ["compile"]}}`)
	expect(t, o, "error.code", "invalid_arguments")
}

func TestCheckRunRecordsOnTheCandidate(t *testing.T) {
	s, _, ws, snap := openTaskApp(t)
	cand := do(t, s, propose(ws, snap, "r", setLabel("Add", "Add task"))).str("result.candidate.id")
	o := do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "checks": ["repair"]}}`)
	expect(t, o, "result.ok", true)
	c, err := s.Candidates().Get(cand)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ch := range c.Checks {
		if ch.Version == 1 && ch.Status == "passed" {
			names = append(names, ch.Check)
		}
	}
	if strings.Join(names, ",") != "compile,repair" {
		t.Errorf("recorded checks %v", c.Checks)
	}
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "latest", "params": {"candidate": "`+cand+`", "checks": ["compile"]}}`)
	expect(t, o, "error.code", "invalid_arguments")
}

func TestEditPlanOutcomes(t *testing.T) {
	s, _, ws, snap := openTaskApp(t)
	plan := func(ops ...string) obj {
		return do(t, s, v1+`"operation": "edit.plan", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "params": {"operations": [`+strings.Join(ops, ", ")+`]}}`)
	}
	// An operation refused as not offered: unsupported, with the reason.
	o := plan(setLabel("Add", "Add task"),
		`{"kind": "set_property", "node": "element:Home/view/0/1", "property": "on_press", "old_value": "submit", "new_value": "other"}`,
		setLabel("Add task", "Add"))
	expect(t, o, "result.outcome", "unsupported")
	expect(t, o, "result.operations.0.outcome", "supported")
	expect(t, o, "result.operations.1.outcome", "unsupported")
	expect(t, o, "result.operations.2.outcome", "not_checked")
	if o.str("result.reason") == "" || o.str("result.operations.1.reason") == "" {
		t.Errorf("no reason: %v", o["result"])
	}
	// Other refusals are errors, as change.propose gives them.
	o = plan(setLabel("Create", "Add task"))
	expect(t, o, "error.reason", "old_value_mismatch")
	expect(t, o, "error.operation_index", 0.0)
	// Two operations on one file: one file, one owner.
	o = plan(setLabel("Add", "Add task"),
		`{"kind": "set_property", "node": "element:Home/view/0/0", "property": "placeholder", "old_value": "Add a task", "new_value": "New task"}`)
	expect(t, o, "result.outcome", "supported")
	same(t, "files", o.get("result.files"), `["main.acore"]`)
	if n := len(o.list("result.owners")); n != 1 {
		t.Errorf("owners %v", o.get("result.owners"))
	}
}

func TestInspectInsertRelocates(t *testing.T) {
	s, _, ws, snap := openTaskApp(t)
	o := do(t, s, propose(ws, snap, "ins",
		`{"kind": "list_element", "op": "insert", "anchor": "element:Home/view/0/1", "position": "before", "old_text": "Button(label: \"Add\", on_press: submit)", "element": "Text(\"Hello\")", "handle": "hello"}`,
		`{"kind": "set_property", "node": {"handle": "hello"}, "property": "text", "old_value": "Hello", "new_value": "Hi"}`))
	if o["error"] != nil {
		t.Fatalf("%v", o["error"])
	}
	cand := o.str("result.candidate.id")
	created := o.str("result.operations.0.created")
	if created == "" || o.str("result.operations.0.handle") != "hello" {
		t.Errorf("operations %v", o.get("result.operations"))
	}
	if len(o.list("result.id_map")) == 0 || len(o.list("result.impact.nodes")) == 0 {
		t.Errorf("id_map %v impact %v", o.get("result.id_map"), o.get("result.impact"))
	}
	o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "include": ["semantic_diff", "source_diff", "affected", "content", "checks"]}}`)
	var added, relocated int
	for _, e := range o.list("result.semantic_diff") {
		e := e.(map[string]any)
		if e["expected"] != true {
			t.Errorf("unexpected %v", e)
		}
		switch e["change"] {
		case "added":
			added++
			if e["node"] != created {
				t.Errorf("added %v, created %s", e, created)
			}
		case "relocated":
			relocated++
			if e["from"] == nil {
				t.Errorf("relocated without from: %v", e)
			}
		}
	}
	if added != 1 || relocated == 0 {
		t.Errorf("semantic_diff %s", jsonOf(o.get("result.semantic_diff")))
	}
	same(t, "source_diff", o.get("result.source_diff.0.hunks.0.lines"), jsonOf([]string{
		`   view {`,
		`     View {`,
		`       Input(value: draft, placeholder: "Add a task")`,
		`+      Text("Hi")`,
		`       Button(label: "Add", on_press: submit)`,
		` `,
		`       if tasks.pending { Text("Loading...") }`,
	}))
	expect(t, o, "result.source_diff.0.hunks.0.old_start", 17.0)
	expect(t, o, "result.source_diff.0.hunks.0.old_lines", 6.0)
	expect(t, o, "result.source_diff.0.hunks.0.new_lines", 7.0)
}

// Concurrent requests with one request_id make one candidate: the first
// records it, the others replay it.
func TestProposeSameRequestConcurrently(t *testing.T) {
	s, _, ws, snap := openTaskApp(t)
	req := propose(ws, snap, "together", setLabel("Add", "Add task"))
	ids := make([]string, 6)
	replayed := make([]bool, 6)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var o struct {
				Result struct {
					Replayed  bool `json:"replayed"`
					Candidate struct {
						ID string `json:"id"`
					} `json:"candidate"`
				} `json:"result"`
			}
			out := s.Handle(context.Background(), []byte(req))
			if err := json.Unmarshal(out, &o); err != nil {
				t.Error(err)
			}
			ids[i], replayed[i] = o.Result.Candidate.ID, o.Result.Replayed
		}()
	}
	wg.Wait()
	fresh := 0
	for i := range ids {
		if ids[i] != ids[0] || ids[i] == "" {
			t.Fatalf("candidates %v", ids)
		}
		if !replayed[i] {
			fresh++
		}
	}
	if fresh != 1 {
		t.Errorf("%d fresh answers, want 1: %v", fresh, replayed)
	}
	o := do(t, s, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "params": {"operations": [`+setLabel("Add", "Add task")+`]}}`)
	expect(t, o, "error.code", "invalid_arguments")
}

// brokenTaskApp is the task-app with a type error (a Button label of 42),
// its workspace, its snapshot and the set_property that fixes it.
func brokenTaskApp(t *testing.T) (*service.Service, string, string, string) {
	t.Helper()
	s, dir := taskApp(t)
	p := filepath.Join(dir, "main.acore")
	src, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), `label: "Add"`, `label: 42`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := s.WorkspaceID()
	o := do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "latest", "params": {}}`)
	if st := o.str("snapshot.semantic_state"); st == "validated" {
		t.Fatalf("the base is %s", st)
	}
	fix := `{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": 42, "new_value": "Add"}`
	return s, ws, o.str("snapshot.id"), fix
}

// An edit on a broken base is a bounded repair: accepted when it leaves
// fewer errors, with repair in the answer.
func TestProposeRepair(t *testing.T) {
	s, ws, snap, fix := brokenTaskApp(t)
	o := do(t, s, v1+`"operation": "edit.plan", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "params": {"operations": [`+fix+`]}}`)
	same(t, "required_checks", o.get("result.required_checks"), `["compile", "repair"]`)
	o = do(t, s, v1+`"operation": "change.propose", "workspace": "`+ws+`", "base_snapshot": "`+snap+`", "request_id": "fix", "params": {"operations": [`+fix+`], "checks": ["repair"]}}`)
	if o["error"] != nil {
		t.Fatalf("%v", o["error"])
	}
	expect(t, o, "result.repair.base_errors", 1.0)
	expect(t, o, "result.repair.result_errors", 0.0)
	expect(t, o, "result.repair.result_state", "validated")
	expect(t, o, "result.checks.0.status", "passed")
	expect(t, o, "result.checks.1.check", "repair")
	expect(t, o, "result.checks.1.status", "passed")
	o = do(t, s, v1+`"operation": "change.inspect", "workspace": "`+ws+`", "params": {"candidate": "`+o.str("result.candidate.id")+`"}}`)
	found := false
	for _, r := range o.list("result.risks") {
		if r.(map[string]any)["kind"] == "repair" {
			found = true
		}
	}
	if !found {
		t.Errorf("risks %v", o.get("result.risks"))
	}
}

// More than operations_max operations, raw files, or both together, is
// resource_limit too_many_operations, not the schema's maxItems.
func TestTooManyOperations(t *testing.T) {
	s, _, ws, snap := openTaskApp(t)
	ops := func(n int) string {
		var list []string
		for range n {
			list = append(list, setLabel("Add", "Add task"))
		}
		return "[" + strings.Join(list, ",") + "]"
	}
	files := func(n int) string {
		var list []string
		for i := range n {
			list = append(list, `{"path": "f`+strconv.Itoa(i)+`.acore", "content": "module f`+strconv.Itoa(i)+`\n", "sha256": null}`)
		}
		return "[" + strings.Join(list, ",") + "]"
	}
	for _, c := range []struct{ name, params, field string }{
		{"51 operations", `{"operations": ` + ops(51) + `}`, "params.operations"},
		{"51 files", `{"files": ` + files(51) + `}`, "params.files"},
		{"30 operations and 21 files", `{"operations": ` + ops(30) + `, "files": ` + files(21) + `}`, "params.files"},
	} {
		for _, op := range []string{"change.propose", "edit.plan"} {
			t.Run(c.name+"/"+op, func(t *testing.T) {
				req := v1 + `"operation": "` + op + `", "workspace": "` + ws + `", "base_snapshot": "` + snap + `", "params": ` + c.params + `}`
				if op == "change.propose" {
					req = v1 + `"operation": "` + op + `", "workspace": "` + ws + `", "base_snapshot": "` + snap + `", "request_id": "big", "params": ` + c.params + `}`
				}
				o := do(t, s, req)
				expect(t, o, "error.code", "resource_limit")
				expect(t, o, "error.reason", "too_many_operations")
				expect(t, o, "error.retryable", "none")
				expect(t, o, "error.target.field", c.field)
			})
		}
	}
}
