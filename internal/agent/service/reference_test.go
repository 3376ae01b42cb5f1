package service_test

import (
	"context"
	"encoding/json"
	"github.com/axiomcore/acore/internal/agent/snapshot"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// taskApp serves a fresh task-app, the project of the reference's examples.
func taskApp(t *testing.T) (*service.Service, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	s, err := newService(t, service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// obj is a decoded JSON object with path access for assertions.
type obj map[string]any

func (o obj) get(path string) any {
	var cur any = map[string]any(o)
	for _, part := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]any:
			cur = v[part]
		case []any:
			i := 0
			for _, c := range part {
				i = i*10 + int(c-'0')
			}
			if i >= len(v) {
				return nil
			}
			cur = v[i]
		default:
			return nil
		}
	}
	return cur
}

func (o obj) str(path string) string {
	s, _ := o.get(path).(string)
	return s
}

func (o obj) list(path string) []any {
	l, _ := o.get(path).([]any)
	return l
}

// do sends one request and checks the invariants every response keeps.
func do(t *testing.T, s *service.Service, req string) obj {
	t.Helper()
	out := s.Handle(context.Background(), []byte(req))
	var o obj
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, out)
	}
	if o["error"] != nil && o["protocol"] == nil {
		return o // legacy answer
	}
	_, hasRes := o["result"]
	_, hasErr := o["error"]
	if hasRes == hasErr {
		t.Fatalf("response has result=%v error=%v: %s", hasRes, hasErr, out)
	}
	checkSchema(t, req, out)
	return o
}

func expect(t *testing.T, o obj, path string, want any) {
	t.Helper()
	got := o.get(path)
	if f, ok := got.(float64); ok {
		if w, ok := want.(int); ok {
			want = float64(w)
		}
		_ = f
	}
	if got != want {
		t.Errorf("%s = %#v, want %#v", path, got, want)
	}
}

const v1 = `{"protocol": "axiom-agent-semantic/v1", `

func TestReferenceCapabilities(t *testing.T) {
	s, _ := taskApp(t)
	o := do(t, s, v1+`"operation": "capabilities", "params": {}}`)
	expect(t, o, "workspace", nil)
	expect(t, o, "result.manifest.protocol.name", "axiom-agent-semantic/v1")
	expect(t, o, "result.manifest.protocol.status", "frozen")
	expect(t, o, "result.manifest.service.name", "acore-semantic")
	expect(t, o, "result.manifest.operations.0.name", "capabilities")
	expect(t, o, "result.manifest.operations.0.status", "implemented")
	if len(o.str("result.manifest_fingerprint")) != 64 {
		t.Errorf("manifest_fingerprint %q", o.str("result.manifest_fingerprint"))
	}
	if n := len(o.list("result.manifest.operations")); n != 17 {
		t.Errorf("%d operations in the manifest", n)
	}
}

func TestReferenceWorkspaceOpenAndOverview(t *testing.T) {
	s, dir := taskApp(t)
	o := do(t, s, v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+dir+`"}]}}`)
	ws := o.str("workspace")
	if !strings.HasPrefix(ws, "ws-") || o.str("result.workspace.id") != ws {
		t.Fatalf("workspace %q / %q", ws, o.str("result.workspace.id"))
	}
	snap := o.str("snapshot.id")
	if !strings.HasPrefix(snap, "snap-") {
		t.Fatalf("snapshot %q", snap)
	}
	expect(t, o, "snapshot.semantic_state", "validated")
	expect(t, o, "result.projects.0.project_id", "task-app")
	expect(t, o, "result.projects.0.semantic_state", "validated")
	expect(t, o, "result.projects.0.status", "ready")
	expect(t, o, "result.workspace.source_authority", "local_filesystem")

	o = do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"include": ["entry_points", "contracts"]}}`)
	expect(t, o, "snapshot.id", snap)
	expect(t, o, "truncation.truncated", false)
	expect(t, o, "result.contracts.0.name", "Tasks")
	expect(t, o, "result.contracts.0.node", "contract_import:Tasks")
	expect(t, o, "result.contracts.0.path", ".axiom/dev/contracts/tasks.axiom")
	expect(t, o, "result.entry_points.0.id", "page:Home")
	expect(t, o, "result.entry_points.0.kind", "page")
	expect(t, o, "result.entry_points.0.name", "Home")
	expect(t, o, "result.entry_points.0.path", "main.acore")
	expect(t, o, "result.projects.0.diagnostic_counts.errors", 0.0)
	expect(t, o, "result.projects.0.diagnostic_counts.warnings", 1.0)
	expect(t, o, "result.projects.0.entry", "main.acore")
	expect(t, o, "result.projects.0.language_profile", "acore-ui")
	expect(t, o, "result.projects.0.target", "web")
	if len(o.list("result.modules")) != 0 || len(o.list("result.diagnostics")) != 0 {
		t.Errorf("lists not included are not empty: %v %v", o.get("result.modules"), o.get("result.diagnostics"))
	}
}

func TestReferenceReads(t *testing.T) {
	s, _ := taskApp(t)
	ws := s.WorkspaceID()
	snap := do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "latest", "params": {}}`).str("snapshot.id")
	env := `"workspace": "` + ws + `", "snapshot": "` + snap + `", `

	o := do(t, s, v1+`"operation": "node.find", `+env+`"params": {"query": "Add", "kind": "element", "limit": 10}}`)
	expect(t, o, "coverage.completeness", "complete")
	expect(t, o, "coverage.exhaustive", true)
	for i, want := range []struct{ id, name string }{{"element:Home/view/0/0", "Input"}, {"element:Home/view/0/1", "Button"}} {
		p := "result.nodes." + string(rune('0'+i))
		expect(t, o, p+".id", want.id)
		expect(t, o, p+".kind", "element")
		expect(t, o, p+".name", want.name)
		expect(t, o, p+".path", "main.acore")
		expect(t, o, "result.matches."+string(rune('0'+i))+".node", want.id)
		expect(t, o, "result.matches."+string(rune('0'+i))+".reasons.0", "property_value")
	}
	if n := len(o.list("result.nodes")); n != 2 {
		t.Errorf("node.find found %d nodes", n)
	}

	o = do(t, s, v1+`"operation": "node.get", `+env+`"params": {"nodes": ["element:Home/view/0/1"]}}`)
	expect(t, o, "result.nodes.0.node.id", "element:Home/view/0/1")
	expect(t, o, "result.nodes.0.node.name", "Button")
	expect(t, o, "result.nodes.0.edges.0.direction", "outgoing")
	expect(t, o, "result.nodes.0.edges.0.kind", "child_of")
	expect(t, o, "result.nodes.0.edges.0.layer", "declared")
	expect(t, o, "result.nodes.0.edges.0.node", "element:Home/view/0")
	expect(t, o, "result.nodes.0.edges.1.kind", "triggers")
	expect(t, o, "result.nodes.0.edges.1.layer", "resolved")
	expect(t, o, "result.nodes.0.edges.1.node", "action:Home.submit")
	expect(t, o, "result.nodes.0.properties.0.name", "label")
	expect(t, o, "result.nodes.0.properties.0.type", "String")
	expect(t, o, "result.nodes.0.properties.0.value", "Add")
	expect(t, o, "result.nodes.0.properties.0.editable", true)
	expect(t, o, "result.nodes.0.properties.1.name", "on_press")
	expect(t, o, "result.nodes.0.properties.1.type", "Action")
	expect(t, o, "result.nodes.0.properties.1.value", "submit")
	expect(t, o, "result.nodes.0.properties.1.editable", false)
	if o.str("result.nodes.0.node.version") != do(t, s, v1+`"operation": "node.find", `+env+`"params": {"query": "Add", "kind": "element", "limit": 10}}`).str("result.nodes.1.version") {
		t.Error("node.get and node.find disagree on the Button's version")
	}

	o = do(t, s, v1+`"operation": "graph.query", `+env+`"params": {"from": ["state:Home.draft"], "mode": "dependents"}}`)
	for i, want := range []struct {
		from, kind string
		line, col  int
	}{{"mutation:Home.create", "reads", 10, 12}, {"element:Home/view/0/0", "reads", 19, 7}, {"action:Home.submit", "writes", 12, 10}} {
		p := "result.edges." + string(rune('0'+i))
		expect(t, o, p+".from", want.from)
		expect(t, o, p+".kind", want.kind)
		expect(t, o, p+".to", "state:Home.draft")
		expect(t, o, p+".layer", "resolved")
		expect(t, o, p+".depth", 1.0)
		expect(t, o, p+".site.path", "main.acore")
		expect(t, o, p+".site.line", float64(want.line))
		expect(t, o, p+".site.column", float64(want.col))
	}
	expect(t, o, "result.traversed.direction", "incoming")
	if got := strings.Trim(strings.Join(strings.Fields(strings.Trim(jsonOf(o.get("result.traversed.edge_kinds")), "[]")), ""), ""); got != `"reads","writes","triggers","calls","invokes","navigates_to"` {
		t.Errorf("traversed.edge_kinds %s", got)
	}
	if got := jsonOf(o.get("result.traversed.layers")); got != `["declared","resolved"]` {
		t.Errorf("traversed.layers %s", got)
	}

	o = do(t, s, v1+`"operation": "impact.analyze", `+env+`"params": {"targets": ["state:Home.draft"], "direction": "dependents"}}`)
	for i, want := range []struct {
		node, kind, from string
		depth            int
	}{{"mutation:Home.create", "reads", "state:Home.draft", 1}, {"element:Home/view/0/0", "reads", "state:Home.draft", 1},
		{"action:Home.submit", "writes", "state:Home.draft", 1}, {"element:Home/view/0/1", "triggers", "action:Home.submit", 2}} {
		p := "result.impacted." + string(rune('0'+i))
		expect(t, o, p+".node.id", want.node)
		expect(t, o, p+".edge_kind", want.kind)
		expect(t, o, p+".from", want.from)
		expect(t, o, p+".depth", float64(want.depth))
	}
	if n := len(o.list("result.impacted")); n != 4 {
		t.Errorf("impact.analyze found %d nodes: %s", n, jsonOf(o.get("result.impacted")))
	}
}

func TestReferenceErrors(t *testing.T) {
	s, _ := taskApp(t)
	ws := s.WorkspaceID()
	o := do(t, s, v1+`"operation": "node.get", "workspace": "`+ws+`", "snapshot": "latest", "params": {"nodes": ["element:Home/view/9"]}}`)
	expect(t, o, "error.code", "not_found")
	expect(t, o, "error.target.node", "element:Home/view/9")
	expect(t, o, "error.retryable", "none")
	expect(t, o, "error.next_actions.0.operation", "node.find")
	expect(t, o, "error.next_actions.0.reason", "Re-find the node on this snapshot")
	if want := "element:Home/view/9 is not a node of " + o.str("snapshot.id"); o.str("error.message") != want {
		t.Errorf("message %q, want %q", o.str("error.message"), want)
	}

	o = do(t, s, `{"protocol": "axiom-agent-semantic/v2", "operation": "capabilities", "params": {}}`)
	expect(t, o, "error.code", "unsupported_operation")
	expect(t, o, "error.reason", "protocol_unsupported")
	expect(t, o, "error.retryable", "none")
	expect(t, o, "error.next_actions.0.operation", "capabilities")
	expect(t, o, "error.next_actions.0.reason", "Read the supported protocol and operations")
	if !strings.HasPrefix(o.str("error.message"), "protocol axiom-agent-semantic/v2 is not supported; this service speaks axiom-agent-semantic/v1") {
		t.Errorf("message %q", o.str("error.message"))
	}
	if p, ok := o.get("error.next_actions.0.params").(map[string]any); !ok || len(p) != 0 {
		t.Errorf("next action params %v", o.get("error.next_actions.0.params"))
	}

	for _, tc := range []struct{ req, msg string }{
		{`not json`, ""},
		{`[1, 2]`, "the request is not a JSON object"},
		{`{"operation": "capabilities", "params": {}}`, `protocol is missing; it must be "studio/v1"`},
	} {
		o = do(t, s, tc.req)
		expect(t, o, "error.code", "invalid_request")
		if o["operation"] != nil || o.get("error.retryable") != nil || o.get("error.next_actions") != nil {
			t.Errorf("%s: legacy answer has v1 fields: %v", tc.req, o)
		}
		if tc.msg != "" {
			expect(t, o, "error.message", tc.msg)
		}
	}

	o = do(t, s, v1+`"operation": "node.explode", "params": {}}`)
	expect(t, o, "error.code", "unsupported_operation")
	expect(t, o, "error.reason", "unknown_operation")

	o = do(t, s, v1+`"operation": "change.discard", "params": {"candidate": "cand-1"}}`)
	expect(t, o, "error.code", "not_found")
	expect(t, o, "error.reason", "candidate_unknown")

	o = do(t, s, v1+`"operation": "node.find", "snapshot": "latest", "params": {"query": "x", "limit": 51}}`)
	expect(t, o, "error.code", "invalid_arguments")
	expect(t, o, "error.reason", "schema")
	if !strings.Contains(o.str("error.message"), "limit") {
		t.Errorf("message does not name the field: %q", o.str("error.message"))
	}

	// An id this service issued and no longer holds: re-read on latest.
	o = do(t, s, v1+`"operation": "node.find", "snapshot": "`+snapshot.IDFromDigest(make([]byte, 12))+`", "params": {"query": "x", "limit": 5}}`)
	expect(t, o, "error.code", "snapshot_expired")
	expect(t, o, "error.retryable", "after_refresh")
	// An id it never issued: no refresh brings it back.
	for _, id := range []string{"snap-00000000000000000000000000000000", "snap-1", "whatever"} {
		o = do(t, s, v1+`"operation": "node.find", "snapshot": "`+id+`", "params": {"query": "x", "limit": 5}}`)
		expect(t, o, "error.code", "not_found")
		expect(t, o, "error.reason", "snapshot_unknown")
		expect(t, o, "error.retryable", "none")
	}

	o = do(t, s, v1+`"operation": "node.find", "workspace": "ws-other", "snapshot": "latest", "params": {"query": "x", "limit": 5}}`)
	expect(t, o, "error.code", "not_found")

	for _, bad := range []string{"../etc/passwd", "/etc/passwd", "pages/../../x.acore"} {
		o = do(t, s, v1+`"operation": "node.find", "snapshot": "latest", "params": {"query": "x", "path": "`+bad+`", "limit": 5}}`)
		expect(t, o, "error.code", "permission_denied")
		expect(t, o, "error.reason", "path_escape")
	}

	o = do(t, s, v1+`"operation": "workspace.open", "params": {"roots": [{"path": "/"}]}}`)
	expect(t, o, "error.code", "permission_denied")
	expect(t, o, "error.reason", "root_not_allowed")
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestTimeoutAndQueueFull(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	s, err := newService(t, service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	// A request whose time is already up, as one past timeout_ms is.
	late, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	var o obj
	if err := json.Unmarshal(s.Handle(late, []byte(v1+`"operation": "node.find", "snapshot": "latest", "params": {"query": "", "limit": 50}}`)), &o); err != nil {
		t.Fatal(err)
	}
	expect(t, o, "error.code", "resource_limit")
	expect(t, o, "error.reason", "timeout")
	expect(t, o, "error.retryable", "same_request")
	expect(t, o, "operation", "node.find")

	s, err = newService(t, service.Config{Root: dir, MaxInFlight: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Hold the only slot with a request that waits on a blocked reader.
	release := make(chan struct{})
	started := make(chan struct{})
	go func() {
		s.Handle(blockingCtx{started: started, release: release}, []byte(v1+`"operation": "capabilities", "params": {}}`))
	}()
	<-started
	o = do(t, s, v1+`"operation": "capabilities", "params": {}}`)
	close(release)
	expect(t, o, "error.code", "resource_limit")
	expect(t, o, "error.reason", "queue_full")
	expect(t, o, "error.retryable", "same_request")
}

// blockingCtx holds a request inside Handle: Handle asks its context for
// a deadline after taking a slot, and this one waits there until release.
type blockingCtx struct {
	started chan struct{}
	release chan struct{}
}

func (b blockingCtx) Deadline() (time.Time, bool) {
	close(b.started)
	<-b.release
	return time.Time{}, false
}
func (blockingCtx) Done() <-chan struct{} { return nil }
func (blockingCtx) Err() error            { return nil }
func (blockingCtx) Value(any) any         { return nil }

// TestMaxBytesTruncates checks that a list answer over limits.max_bytes
// is cut to fit with an omission, never silently, and never past the limit.
func TestMaxBytesTruncates(t *testing.T) {
	s, _ := taskApp(t)
	for _, req := range []string{
		`"operation": "node.find", "snapshot": "latest", "limits": {"max_bytes": 400}, "params": {"query": "", "limit": 50}}`,
		`"operation": "impact.analyze", "snapshot": "latest", "limits": {"max_bytes": 400, "max_depth": 16}, "params": {"targets": ["contract_import:Tasks"], "direction": "dependents"}}`,
		`"operation": "graph.query", "snapshot": "latest", "limits": {"max_bytes": 700, "max_depth": 16}, "params": {"from": ["page:Home"], "mode": "dependents", "transitive": true, "edge_kinds": ["child_of", "declared_in"]}}`,
	} {
		o := do(t, s, v1+req)
		if o["error"] != nil {
			t.Fatalf("%s: %v", req, o["error"])
		}
		expect(t, o, "truncation.truncated", true)
		expect(t, o, "truncation.omissions.0.reason", "max_bytes")
		if n := o.get("truncation.omissions.0.count").(float64); n < 1 {
			t.Errorf("omission count %v", n)
		}
		if used := int(o.get("truncation.used.bytes").(float64)); used > int(o.get("truncation.limits.max_bytes").(float64)) || used != len(jsonOf(o["result"])) {
			t.Errorf("%s: used %d bytes, result is %d bytes", req, used, len(jsonOf(o["result"])))
		}
		expect(t, o, "coverage.exhaustive", false)
	}
}

// TestOldSnapshotReportsDiskChanges reads a snapshot after its file
// changed: the answer describes the captured state and names the change.
func TestOldSnapshotReportsDiskChanges(t *testing.T) {
	s, dir := taskApp(t)
	o := do(t, s, v1+`"operation": "node.get", "snapshot": "latest", "params": {"nodes": ["element:Home/view/0/1"]}}`)
	snap := o.str("snapshot.id")
	expect(t, o, "snapshot.disk.state", "unchanged")
	main := filepath.Join(dir, "main.acore")
	src, _ := os.ReadFile(main)
	if err := os.WriteFile(main, []byte(strings.Replace(string(src), `"Add"`, `"Add task"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	o = do(t, s, v1+`"operation": "node.get", "snapshot": "`+snap+`", "params": {"nodes": ["element:Home/view/0/1"]}}`)
	expect(t, o, "snapshot.id", snap)
	expect(t, o, "snapshot.disk.state", "changed")
	expect(t, o, "snapshot.disk.changed.0", "main.acore")
	expect(t, o, "result.nodes.0.properties.0.value", "Add")
	o = do(t, s, v1+`"operation": "node.get", "snapshot": "latest", "params": {"nodes": ["element:Home/view/0/1"]}}`)
	expect(t, o, "result.nodes.0.properties.0.value", "Add task")
	if o.str("snapshot.id") == snap {
		t.Error("latest kept the old snapshot id")
	}
}

func TestNodeGetEditsSummary(t *testing.T) {
	s, _ := taskApp(t)
	o := do(t, s, v1+`"operation": "node.get", "snapshot": "latest", "params": {"nodes": ["element:Home/view/0/1"], "include": ["edits"]}}`)
	if got := jsonOf(o.get("result.nodes.0.edits.families")); got != `["set_property","bind_property","list_element"]` {
		t.Errorf("families %s", got)
	}
	expect(t, o, "result.nodes.0.edits.options", 7.0) // 3 of what it writes, 4 of literal properties it could add
	if o.str("result.nodes.0.edits.node_version") != o.str("result.nodes.0.node.version") {
		t.Error("edit summary version differs from the node's")
	}
}

// TestCandidateSnapshotIsReadable reads a candidate's snapshot with the
// read operations, as the reference says its owner can.
func TestCandidateSnapshotIsReadable(t *testing.T) {
	s, _ := taskApp(t)
	snap := do(t, s, v1+`"operation": "project.overview", "snapshot": "latest", "params": {}}`).str("snapshot.id")
	o := do(t, s, v1+`"operation": "change.propose", "base_snapshot": "`+snap+`", "request_id": "r-1", "params": {"operations": [{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"}]}}`)
	cand := o.str("result.candidate.snapshot")
	if cand == "" || cand == snap {
		t.Fatalf("candidate snapshot %q: %v", cand, o["error"])
	}
	o = do(t, s, v1+`"operation": "node.get", "snapshot": "`+cand+`", "params": {"nodes": ["element:Home/view/0/1"]}}`)
	expect(t, o, "snapshot.id", cand)
	expect(t, o, "result.nodes.0.properties.0.value", "Add task")
	// A later process reads it too.
	s2, err := newService(t, service.Config{Root: s.Root()})
	if err != nil {
		t.Fatal(err)
	}
	o = do(t, s2, v1+`"operation": "node.get", "snapshot": "`+cand+`", "params": {"nodes": ["element:Home/view/0/1"]}}`)
	expect(t, o, "result.nodes.0.properties.0.value", "Add task")
}

// newService starts a service whose background work (persisting
// snapshots, saving compiles to the cache) ends before the test's
// temporary directories are removed.
func newService(t testing.TB, c service.Config) (*service.Service, error) {
	s, err := service.New(c)
	if err == nil {
		t.Cleanup(s.Wait)
	}
	return s, err
}
