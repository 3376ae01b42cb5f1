package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/snapshot"
)

// The reference's prose rules, each sent through the one-shot command,
// serve and mcp as real processes: every transport must give the answer the
// rule asks for, and the three must give the same answers.

// ruleStep is one request of a rule's script and what its answer must say.
type ruleStep struct {
	req    string // the envelope after "protocol", with placeholders
	before func(t *testing.T, root string)
	want   map[string]any // dotted path in the response: value
}

const v1 = `{"protocol": "axiom-agent-semantic/v1", `

const openWS = `"operation": "workspace.open", "params": {"roots": [{"path": "<root>"}]}}`

// runRule lays out the task-app plus files on each transport's own copy,
// sends the script and checks every answer.
func runRule(t *testing.T, files map[string]string, script []ruleStep) {
	t.Helper()
	base := taskApp(t)
	steps := make([]step, len(script))
	for i, rs := range script {
		// serve reads one request a line.
		var line bytes.Buffer
		if err := json.Compact(&line, []byte(v1+rs.req)); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		steps[i] = step{line: i + 1, req: line.String(), before: rs.before}
	}
	layout := func(root string) string {
		fresh(t, root)
		writeFiles(t, root, files)
		return root
	}
	answers := map[string]map[int][]byte{
		"one-shot": runOneShot(t, layout(base), steps),
		"serve":    runServe(t, layout(base), steps),
		"mcp":      runMCP(t, layout(base), steps),
	}
	for i, rs := range script {
		line := i + 1
		for _, tr := range []string{"one-shot", "serve", "mcp"} {
			resp := normalize(t, answers[tr][line])
			for path, want := range rs.want {
				if got := valueAt(resp, path); !reflect.DeepEqual(got, want) {
					t.Errorf("%s, step %d (%.120s): %s is %v, want %v\n%s", tr, line, rs.req, path, got, want, answers[tr][line])
				}
			}
			if tr != "one-shot" && !reflect.DeepEqual(resp, normalize(t, answers["one-shot"][line])) {
				t.Errorf("step %d: %s and one-shot differ\n%s: %s\none-shot: %s", line, tr, tr, answers[tr][line], answers["one-shot"][line])
			}
		}
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// valueAt reads a dotted path of a decoded response: "error.code",
// "result.repair.base_errors"; a number segment indexes an array, "#" is
// an array's length.
func valueAt(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			if k == "#" {
				return float64(len(x))
			}
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func refused(code, reason, retryable string) map[string]any {
	return map[string]any{"error.code": code, "error.reason": reason, "error.retryable": retryable}
}

var ok = map[string]any{"error": nil}

// TestRuleLimitViolations: a source file on disk over nesting_max,
// brackets_max, brackets_total_max or import_depth_max is resource_limit
// with the bound's reason on reads and checks, never compile_failed or a
// failed compile check; workspace.open still opens it.
func TestRuleLimitViolations(t *testing.T) {
	chain := importChain(0, 18)
	cases := []struct {
		reason string
		files  map[string]string
	}{
		{"nesting_limit", map[string]string{"deep.acore": "module deep\n\n" + strings.Repeat("(", 300) + strings.Repeat(")", 300) + "\n"}},
		{"bracket_limit", map[string]string{"many.acore": "module many\n\n" + strings.Repeat("()", 8193) + "\n"}},
		{"brackets_total_limit", map[string]string{"total.acore": "module total\n\n" + strings.Repeat("()", 8000) + strings.Repeat(")", 400) + "\n"}},
		{"import_depth_limit", chain},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			limit := refused("resource_limit", c.reason, "none")
			limit["error.diagnostics.#"] = 1.0
			runRule(t, c.files, []ruleStep{
				{req: openWS, want: ok},
				{req: `"operation": "node.find", "workspace": "<workspace>", "snapshot": "<snapshot>", "params": {"query": "Add", "limit": 5}}`, want: limit},
				{req: `"operation": "node.get", "workspace": "<workspace>", "snapshot": "latest", "params": {"nodes": ["page:Home"]}}`, want: limit},
				{req: `"operation": "check.run", "workspace": "<workspace>", "snapshot": "<snapshot>", "params": {"checks": ["compile"]}}`, want: limit},
			})
		})
	}
}

// importChain is modules m<from> to m<to-1>, each importing the next.
func importChain(from, to int) map[string]string {
	chain := map[string]string{}
	for i := from; i < to; i++ {
		src := fmt.Sprintf("module m%02d\n\n", i)
		if i < to-1 {
			src += fmt.Sprintf("use model M%02d from \"m%02d\"\n\n", i+1, i+1)
		}
		chain[fmt.Sprintf("m%02d.acore", i)] = src + fmt.Sprintf("model M%02d {\n  x: String\n}\n", i)
	}
	return chain
}

// TestRuleOverlayOverALimit: check.run files that make an import chain too
// deep are resource_limit (import_depth_limit), though the diagnostic is
// at the use line of a file the overlay does not change.
func TestRuleOverlayOverALimit(t *testing.T) {
	top, err := json.Marshal(importChain(0, 18)["m00.acore"])
	if err != nil {
		t.Fatal(err)
	}
	runRule(t, importChain(1, 18), []ruleStep{
		{req: openWS, want: ok},
		{req: `"operation": "check.run", "workspace": "<workspace>", "snapshot": "<snapshot>", "params": {"checks": ["compile"]}}`,
			want: map[string]any{"result.ok": true}},
		{req: `"operation": "check.run", "workspace": "<workspace>", "snapshot": "<snapshot>", "params": {"checks": ["compile"],
			"files": [{"path": "m00.acore", "content": ` + string(top) + `, "sha256": null}]}}`,
			want: map[string]any{"error.code": "resource_limit", "error.reason": "import_depth_limit", "error.target.path": "m16.acore"}},
	})
}

// TestRuleEditTextOverALimit: an edit whose text nests past nesting_max is
// resource_limit (nesting_limit), not invalid_arguments.
func TestRuleEditTextOverALimit(t *testing.T) {
	deep := strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300)
	want := refused("resource_limit", "nesting_limit", "none")
	want["error.operation_index"] = 0.0
	runRule(t, nil, []ruleStep{
		{req: openWS, want: ok},
		{req: `"operation": "change.propose", "workspace": "<workspace>", "base_snapshot": "<snapshot>", "request_id": "deep-1", "params": {"operations": [
			{"kind": "declaration", "op": "create", "anchor": "state:Home.draft", "position": "after", "old_text": "state draft: String = \"\"",
			 "declaration": "state n: Int = ` + deep + `"}]}}`, want: want},
	})
}

// TestRuleChangesSinceCandidate: changes.since with scope.candidate is
// relevant when a file the candidate read or wrote changed, and not when
// only another file did; an unknown candidate is not_found.
func TestRuleChangesSinceCandidate(t *testing.T) {
	since := `"operation": "changes.since", "workspace": "<workspace>", "snapshot": "latest", "params": {"since": "<snapshot>", "scope": {"candidate": "<candidate>"}}}`
	runRule(t, nil, []ruleStep{
		{req: openWS, want: ok},
		{req: `"operation": "change.propose", "workspace": "<workspace>", "base_snapshot": "<snapshot>", "request_id": "since-1", "params": {"operations": [
			{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"}]}}`,
			want: map[string]any{"result.candidate.version": 1.0}},
		{req: since, want: map[string]any{"result.history": "known", "result.relevant": false, "result.files.#": 0.0}},
		{req: since, before: func(t *testing.T, root string) {
			writeFiles(t, root, map[string]string{"extra.acore": "module extra\n"})
		}, want: map[string]any{"result.history": "known", "result.relevant": false, "result.files.#": 1.0, "result.files.0.path": "extra.acore"}},
		{req: since, before: func(t *testing.T, root string) {
			b, err := os.ReadFile(filepath.Join(root, "main.acore"))
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, root, map[string]string{"main.acore": strings.Replace(string(b), `"Add a task"`, `"New task"`, 1)})
		}, want: map[string]any{"result.history": "known", "result.relevant": true, "result.files.#": 2.0}},
		{req: `"operation": "changes.since", "workspace": "<workspace>", "snapshot": "latest", "params": {"since": "<snapshot>", "scope": {"candidate": "cand-000000000000000000000000"}}}`,
			want: refused("not_found", "candidate_unknown", "none")},
	})
}

// TestRuleUnknownSnapshotIDs: an id this service never issued is
// not_found (snapshot_unknown), which no refresh mends; an id it issued and
// no longer holds is snapshot_expired (re-read on latest).
func TestRuleUnknownSnapshotIDs(t *testing.T) {
	find := func(snap string) string {
		return `"operation": "node.find", "workspace": "<workspace>", "snapshot": "` + snap + `", "params": {"query": "Add", "limit": 5}}`
	}
	unknown := refused("not_found", "snapshot_unknown", "none")
	runRule(t, nil, []ruleStep{
		{req: openWS, want: ok},
		{req: find("snap-00000000000000000000000000000000"), want: unknown},
		{req: find("snap-42"), want: unknown},
		{req: find(snapshot.IDFromDigest(make([]byte, 12))), want: refused("snapshot_expired", "snapshot_evicted", "after_refresh")},
		{req: `"operation": "change.propose", "workspace": "<workspace>", "base_snapshot": "snap-00000000000000000000000000000000", "request_id": "u-1", "params": {"operations": [
			{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"}]}}`, want: unknown},
		{req: find("<snapshot>"), want: ok},
	})
}

// TestRuleUnknownFields: readers ignore fields they do not know, in params,
// limits and scope, and in the params of change.propose and change.apply;
// inside edit operations and apply preconditions they are refused.
func TestRuleUnknownFields(t *testing.T) {
	schema := refused("invalid_arguments", "schema", "none")
	propose := func(rid, extraOp, extraParams string) string {
		return `"operation": "change.propose", "workspace": "<workspace>", "base_snapshot": "<snapshot>", "request_id": "` + rid + `", "params": {"operations": [
			{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"` + extraOp + `}]` + extraParams + `}}`
	}
	apply := func(rid, extra string) string {
		return `"operation": "change.apply", "workspace": "<workspace>", "request_id": "` + rid + `", "params": {"candidate": "<candidate>", "expected_candidate_version": 1` + extra + `}}`
	}
	runRule(t, nil, []ruleStep{
		{req: openWS, want: ok},
		{req: `"operation": "node.find", "workspace": "<workspace>", "snapshot": "<snapshot>", "limits": {"max_bytes": 65536, "max_tokens": 100}, "params": {"query": "Add", "limit": 5, "order": "name"}}`,
			want: map[string]any{"error": nil, "result.nodes.1.id": "element:Home/view/0/1"}},
		{req: `"operation": "changes.since", "workspace": "<workspace>", "snapshot": "latest", "params": {"since": "<snapshot>", "scope": {"nodes": ["element:Home/view/0/1"], "kinds": ["element"]}}}`,
			want: map[string]any{"result.history": "known", "result.relevant": false}},
		{req: propose("f-1", `, "force": true`, ""), want: map[string]any{"error.code": "invalid_arguments", "error.reason": "schema", "error.target.field": "params.operations[0].force"}},
		{req: propose("f-2", "", `, "note": "rename the button"`), want: map[string]any{"error": nil, "result.candidate.version": 1.0}},
		{req: apply("f-3", `, "preconditions": [{"path": "main.acore", "sha256": null, "mtime": 0}]`), want: schema},
		{req: apply("f-4", `, "comment": "ship it"`), want: map[string]any{"error": nil, "result.receipt.outcome": "applied"}},
	})
}

// TestRuleCompileFailedShape: every compile_failed has a reason, the
// compiler's diagnostics and next actions; a repair regression's details
// are a repairOutcome.
func TestRuleCompileFailedShape(t *testing.T) {
	insertNope := `"operation": "change.propose", "workspace": "<workspace>", "base_snapshot": "<snapshot>", "request_id": "cf-1", "params": {"operations": [
		{"kind": "list_element", "op": "insert", "anchor": "element:Home/view/0/1", "position": "after", "old_text": "Button(label: \"Add\", on_press: submit)", "element": "Nope(x: 1)"}]}}`
	t.Run("validated base", func(t *testing.T) {
		want := refused("compile_failed", "candidate_errors", "none")
		want["error.operation_index"] = 0.0
		want["error.diagnostics.0.code"] = "AC209"
		want["error.next_actions.0.operation"] = "node.edits"
		runRule(t, nil, []ruleStep{{req: openWS, want: ok}, {req: insertNope, want: want}})
	})
	t.Run("element that does not parse", func(t *testing.T) {
		// The agent's text, not a bracket around it, is what the answer
		// describes: the parser's code, where the text lands in
		// main.acore, and where in the text the error is.
		want := refused("compile_failed", "candidate_errors", "none")
		want["error.operation_index"] = 0.0
		want["error.diagnostics.#"] = 1.0
		want["error.diagnostics.0.code"] = "AC107"
		want["error.diagnostics.0.path"] = "main.acore"
		want["error.diagnostics.0.line"] = 21.0
		want["error.diagnostics.0.column"] = 38.0
		want["error.diagnostics.0.message"] = "expected `)` to close the arguments, found the end of the element"
		want["error.details.source.field"] = "element"
		want["error.details.source.line"] = 1.0
		want["error.details.source.column"] = 32.0
		want["error.next_actions.0.operation"] = "node.edits"
		want["error.next_actions.0.params.nodes.0"] = "element:Home/view/0/1"
		runRule(t, nil, []ruleStep{{req: openWS, want: ok}, {req: `"operation": "change.propose", "workspace": "<workspace>", "base_snapshot": "<snapshot>", "request_id": "cf-3", "params": {"operations": [
			{"kind": "list_element", "op": "insert", "anchor": "element:Home/view/0/1", "position": "after", "old_text": "Button(label: \"Add\", on_press: submit)", "element": "Button(\"Oops\", on_press: submit"}]}}`, want: want}})
	})
	t.Run("broken base", func(t *testing.T) {
		root := taskApp(t)
		b, err := os.ReadFile(filepath.Join(root, "main.acore"))
		if err != nil {
			t.Fatal(err)
		}
		broken := strings.Replace(string(b), `Text("Loading...")`, `Nope()`, 1)
		want := refused("compile_failed", "repair_regression", "none")
		want["error.diagnostics.0.code"] = "AC209"
		want["error.next_actions.0.operation"] = "project.overview"
		want["error.details.repair.base_errors"] = 1.0
		want["error.details.repair.result_errors"] = 1.0
		want["error.details.repair.touched.0"] = "main.acore: page Home"
		runRule(t, map[string]string{"main.acore": broken}, []ruleStep{
			{req: openWS, want: ok},
			{req: `"operation": "change.propose", "workspace": "<workspace>", "base_snapshot": "<snapshot>", "request_id": "cf-2", "params": {"operations": [
				{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"}]}}`, want: want},
		})
	})
}

// TestRuleDiagnosticsOnce: change.propose lists the diagnostics its base
// does not have, once, and counts the others (the task-app's unsigned
// contract warning is in every compile of a session).
func TestRuleDiagnosticsOnce(t *testing.T) {
	want := map[string]any{
		"error":                                       nil,
		"result.diagnostics.#":                        0.0,
		"result.diagnostics_omitted.#":                1.0,
		"result.diagnostics_omitted.0.reason":         "in_base",
		"result.diagnostics_omitted.0.warnings":       1.0,
		"result.checks.0.check":                       "compile",
		"result.checks.0.diagnostics.#":               0.0,
		"result.checks.0.diagnostics_omitted.0.count": 1.0,
	}
	runRule(t, nil, []ruleStep{{req: openWS, want: ok}, {req: `"operation": "change.propose", "workspace": "<workspace>", "base_snapshot": "<snapshot>", "request_id": "once-1", "params": {"operations": [
		{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"}]}}`, want: want}})
}
