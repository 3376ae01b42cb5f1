package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/agent/schema"
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
	prop := a.propose("clear-2", []map[string]any{{"kind": "declaration", "op": "create", "anchor": "action:AddBook.save",
		"position": "after", "old_text": oldText, "declaration": fixed}})
	a.call("change.inspect", map[string]any{"workspace": a.ws}, map[string]any{"candidate": dig(prop, "result", "candidate", "id"), "include": []string{"source_diff"}})
	a.apply(prop)
	if got := readFile(t, root, "pages/add.acore"); !strings.Contains(got, "action clear() {\n    title = \"\"") {
		t.Errorf("pages/add.acore after the apply lacks the new action:\n%s", got)
	}
	a.report()
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
