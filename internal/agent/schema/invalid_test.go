package schema

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, err := decode([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

const setLabel = `{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"}`

func propose(op string) string {
	return `{"protocol": "axiom-agent-semantic/v1", "operation": "change.propose", "workspace": "ws-1",
		"base_snapshot": "snap-1", "request_id": "r-1", "params": {"operations": [` + op + `]}}`
}

func find(params string) string {
	return `{"protocol": "axiom-agent-semantic/v1", "operation": "node.find", "workspace": "ws-1",
		"snapshot": "latest", "params": ` + params + `}`
}

// TestInvalidRequests: each request breaks one rule, and the first failure
// names the field and says what is wrong with it.
func TestInvalidRequests(t *testing.T) {
	tests := []struct {
		name, req, field, msg string
	}{
		{"limit 0", find(`{"query": "Add", "limit": 0}`), "params.limit", "must be >= 1"},
		{"limit 51", find(`{"query": "Add", "limit": 51}`), "params.limit", "must be <= 50"},
		{"limit not an integer", find(`{"query": "Add", "limit": 2.5}`), "params.limit", "must be integer (got number)"},
		{"limit a string", find(`{"query": "Add", "limit": "10"}`), "params.limit", "must be integer (got string)"},
		{"missing limit", find(`{"query": "Add"}`), "params.limit", "is required"},
		{"missing query", find(`{"limit": 10}`), "params.query", "is required"},
		{"query too long", find(`{"query": "` + strings.Repeat("a", 201) + `", "limit": 10}`), "params.query", "must be at most 200 characters (got 201)"},
		{"path with ..", find(`{"query": "", "limit": 1, "path": "src/../main.acore"}`), "params.path", "must be a project-relative path"},
		{"absolute path", find(`{"query": "", "limit": 1, "path": "/main.acore"}`), "params.path", "must be a project-relative path"},
		{"params not an object", find(`[]`), "params", "must be object (got array)"},
		{"missing params", `{"protocol": "axiom-agent-semantic/v1", "operation": "capabilities"}`, "params", "is required"},
		{"missing protocol", `{"operation": "capabilities", "params": {}}`, "protocol", "is required"},
		{"protocol not a string", `{"protocol": 1, "operation": "capabilities", "params": {}}`, "protocol", "must be string (got number)"},
		{"unknown operation", `{"protocol": "axiom-agent-semantic/v1", "operation": "node.delete", "params": {}}`, "operation", "must be one of"},
		{"missing workspace", `{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "snapshot": "latest", "params": {"nodes": ["page:Home"]}}`,
			"workspace", "is required for operation node.get"},
		{"snapshot on change.propose", `{"protocol": "axiom-agent-semantic/v1", "operation": "change.propose", "workspace": "ws-1",
			"snapshot": "latest", "base_snapshot": "snap-1", "request_id": "r-1", "params": {"operations": [` + setLabel + `]}}`,
			"snapshot", "is not allowed for operation change.propose"},
		{"workspace on capabilities", `{"protocol": "axiom-agent-semantic/v1", "operation": "capabilities", "workspace": "ws-1", "params": {}}`,
			"workspace", "is not allowed for operation capabilities"},
		{"request_id on edit.plan", `{"protocol": "axiom-agent-semantic/v1", "operation": "edit.plan", "workspace": "ws-1",
			"base_snapshot": "snap-1", "request_id": "r-1", "params": {"operations": [` + setLabel + `]}}`,
			"request_id", "is not allowed for operation edit.plan"},
		{"no request_id on change.apply", `{"protocol": "axiom-agent-semantic/v1", "operation": "change.apply", "workspace": "ws-1",
			"params": {"candidate": "cand-1", "expected_candidate_version": 1}}`, "request_id", "is required for operation change.apply"},
		{"base_snapshot latest", `{"protocol": "axiom-agent-semantic/v1", "operation": "edit.plan", "workspace": "ws-1",
			"base_snapshot": "latest", "params": {"operations": [` + setLabel + `]}}`, "base_snapshot", `must not be "latest"`},
		{"request_id over 128", `{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "workspace": "ws-1", "snapshot": "latest",
			"request_id": "` + strings.Repeat("r", 129) + `", "params": {"nodes": ["page:Home"]}}`, "request_id", "must be at most 128 characters (got 129)"},
		{"workspace over 256", `{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "workspace": "` + strings.Repeat("w", 257) + `",
			"snapshot": "latest", "params": {"nodes": ["page:Home"]}}`, "workspace", "must be at most 256 characters (got 257)"},
		{"limits zero", `{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "workspace": "ws-1", "snapshot": "latest",
			"limits": {"max_bytes": 0}, "params": {"nodes": ["page:Home"]}}`, "limits.max_bytes", "must be >= 1"},
		{"check.run without snapshot or candidate", `{"protocol": "axiom-agent-semantic/v1", "operation": "check.run", "workspace": "ws-1",
			"params": {"checks": ["compile"]}}`, "snapshot", "is required for operation check.run"},
		{"check.run files without snapshot", `{"protocol": "axiom-agent-semantic/v1", "operation": "check.run", "workspace": "ws-1",
			"params": {"candidate": "cand-1", "files": [], "checks": ["compile"]}}`, "snapshot", "is required for operation check.run"},
		{"check.run no checks", `{"protocol": "axiom-agent-semantic/v1", "operation": "check.run", "workspace": "ws-1", "snapshot": "latest",
			"params": {"checks": []}}`, "params.checks", "must have at least 1 items (got 0)"},
		{"node.get 51 nodes", `{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "workspace": "ws-1", "snapshot": "latest",
			"params": {"nodes": [` + strings.TrimSuffix(strings.Repeat(`"page:Home",`, 51), ",") + `]}}`, "params.nodes", "must have at most 50 items (got 51)"},
		{"node id over 1024", `{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "workspace": "ws-1", "snapshot": "latest",
			"params": {"nodes": ["` + strings.Repeat("n", 1025) + `"]}}`, "params.nodes[0]", "must be at most 1024 characters (got 1025)"},
		{"bad projection", `{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "workspace": "ws-1", "snapshot": "latest",
			"params": {"nodes": ["page:Home"], "projection": "everything"}}`, "params.projection", `must be one of "summary", "standard", "full"`},
		{"candidate without version", `{"protocol": "axiom-agent-semantic/v1", "operation": "change.propose", "workspace": "ws-1",
			"base_snapshot": "snap-1", "request_id": "r-1", "params": {"candidate": "cand-1", "operations": [` + setLabel + `]}}`,
			"params.expected_candidate_version", "is required with candidate"},
		{"no operations", propose(``), "params.operations", "must have at least 1 items (got 0)"},
		{"51 operations", propose(strings.TrimSuffix(strings.Repeat(setLabel+",", 51), ",")), "params.operations", "must have at most 50 items (got 51)"},
		{"bind_property without old_value", propose(`{"kind": "bind_property", "node": "element:Home/view/0/1", "property": "label", "target": "state:Home.draft"}`),
			"params.operations[0].old_value", "is required"},
		{"edit operation with an unknown field", propose(`{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label",
			"old_value": "Add", "new_value": "x", "force": true}`), "params.operations[0].force", "unknown field"},
		{"second operation broken", propose(setLabel + `, {"kind": "set_reference", "node": "element:Home/view/0/1", "property": "on_press",
			"old_value": "submit", "target": 7}`), "params.operations[1].target", "must be string or object (got number)"},
		{"unknown edit kind", propose(`{"kind": "transmogrify"}`), "params.operations[0].kind", `must be one of "set_property"`},
		{"no edit kind", propose(`{"node": "element:Home/view/0/1"}`), "params.operations[0].kind", "is required"},
		{"list_element without op", propose(`{"kind": "list_element", "node": "element:Home/view/0/1", "old_text": "x"}`),
			"params.operations[0].op", "is required"},
		{"list_element bad op", propose(`{"kind": "list_element", "op": "move", "node": "element:Home/view/0/1", "old_text": "x"}`),
			"params.operations[0].op", `must be one of "remove", "insert"`},
		{"declaration bad position", propose(`{"kind": "declaration", "op": "create", "anchor": "state:Home.draft", "position": "last",
			"old_text": "x", "declaration": "state n: Int = 0"}`), "params.operations[0].position", `must be one of "before", "after", "first"`},
		{"old_text over 4096", propose(`{"kind": "list_element", "op": "remove", "node": "element:Home/view/0/1", "old_text": "` +
			strings.Repeat("x", 4097) + `"}`), "params.operations[0].old_text", "must be at most 4096 characters (got 4097)"},
		{"handle with an unknown field", propose(`{"kind": "set_property", "node": {"handle": "h", "id": "x"}, "property": "label",
			"old_value": "Add", "new_value": "x"}`), "params.operations[0].node.id", "unknown field"},
		{"option without fingerprint", propose(`{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label",
			"old_value": "Add", "new_value": "x", "option": {"option_id": "o1"}}`), "params.operations[0].option.fingerprint", "is required"},
		{"replace_region with a handle", propose(`{"kind": "replace_region", "path": "main.acore", "start_line": 1, "end_line": 1,
			"old_text": "x", "new_text": "y", "option": {"option_id": "r1", "fingerprint": "f"}, "handle": "h"}`),
			"params.operations[0].handle", "unknown field"},
		{"replace_region start_line 0", propose(`{"kind": "replace_region", "path": "main.acore", "start_line": 0, "end_line": 1,
			"old_text": "x", "new_text": "y", "option": {"option_id": "r1", "fingerprint": "f"}}`),
			"params.operations[0].start_line", "must be >= 1"},
		{"apply precondition with an unknown field", `{"protocol": "axiom-agent-semantic/v1", "operation": "change.apply", "workspace": "ws-1",
			"request_id": "a-1", "params": {"candidate": "cand-1", "expected_candidate_version": 1,
			"preconditions": [{"path": "main.acore", "sha256": null, "mtime": 0}]}}`, "params.preconditions[0].mtime", "unknown field"},
		{"apply precondition bad sha256", `{"protocol": "axiom-agent-semantic/v1", "operation": "change.apply", "workspace": "ws-1",
			"request_id": "a-1", "params": {"candidate": "cand-1", "expected_candidate_version": 1,
			"preconditions": [{"path": "main.acore", "sha256": "ABC"}]}}`, "params.preconditions[0].sha256", "must be a lowercase hex SHA-256"},
		{"workspace.open 17 roots", `{"protocol": "axiom-agent-semantic/v1", "operation": "workspace.open", "params": {"roots": [` +
			strings.TrimSuffix(strings.Repeat(`{"path": "/p"},`, 17), ",") + `]}}`, "params.roots", "must have at most 16 items (got 17)"},
		{"workspace.open relative root", `{"protocol": "axiom-agent-semantic/v1", "operation": "workspace.open", "params": {"roots": [{"path": "task-app"}]}}`,
			"params.roots[0].path", "must be an absolute path"},
		{"changes.since since latest", `{"protocol": "axiom-agent-semantic/v1", "operation": "changes.since", "workspace": "ws-1", "snapshot": "latest",
			"params": {"since": "latest"}}`, "params.since", `must not be "latest"`},
		{"context.build 51 expand refs", `{"protocol": "axiom-agent-semantic/v1", "operation": "context.build", "workspace": "ws-1", "snapshot": "latest",
			"params": {"focus": ["page:Home"], "purpose": "understand", "expand": [` + strings.TrimSuffix(strings.Repeat(`"r",`, 51), ",") + `]}}`,
			"params.expand", "must have at most 50 items (got 51)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := mustDecode(t, tt.req)
			fe := ValidateRequest(req)
			if fe == nil {
				t.Fatal("ValidateRequest: valid")
			}
			if fe.Field != tt.field || !strings.HasPrefix(fe.Message, tt.msg) {
				t.Errorf("ValidateRequest: %q\nwant %s: %s…", fe, tt.field, tt.msg)
			}
			// The same failure, when it is inside params, from ValidateParams.
			env := req.(map[string]any)
			op, _ := env["operation"].(string)
			if strings.HasPrefix(tt.field, "params.") && IsOperation(op) {
				fe := ValidateParams(op, env["params"])
				if fe == nil || fe.Field != tt.field || !strings.HasPrefix(fe.Message, tt.msg) {
					t.Errorf("ValidateParams: %v\nwant %s: %s…", fe, tt.field, tt.msg)
				}
			}
		})
	}
}

// TestUnknownFieldsIgnored: readers ignore fields they do not know (the
// reference's Conventions): in params, limits, scope, overlay files and
// workspace roots an unknown field is valid. Inside edit operations and
// apply preconditions it is refused (TestInvalidRequests).
func TestUnknownFieldsIgnored(t *testing.T) {
	v1 := `{"protocol": "axiom-agent-semantic/v1", "workspace": "ws-1", "x-later": 1, `
	for _, req := range []string{
		find(`{"query": "Add", "limit": 10, "order": "name"}`),
		v1 + `"operation": "node.get", "snapshot": "latest", "limits": {"max_tokens": 1000}, "params": {"nodes": ["page:Home"]}}`,
		v1 + `"operation": "changes.since", "snapshot": "latest", "params": {"since": "snap-1", "scope": {"nodes": ["page:Home"], "kinds": ["page"]}}}`,
		v1 + `"operation": "change.propose", "base_snapshot": "snap-1", "request_id": "r-1", "params": {"operations": [` + setLabel + `], "dry": true}}`,
		v1 + `"operation": "change.apply", "request_id": "a-1", "params": {"candidate": "cand-1", "expected_candidate_version": 1, "force": false}}`,
		v1 + `"operation": "check.run", "snapshot": "latest", "params": {"checks": ["compile"], "files": [{"path": "main.acore", "content": "", "sha256": null, "mode": "utf8"}]}}`,
		`{"protocol": "axiom-agent-semantic/v1", "operation": "workspace.open", "params": {"roots": [{"path": "/p", "label": "app"}], "watch": true}}`,
		`{"protocol": "axiom-agent-semantic/v1", "operation": "capabilities", "params": {"verbose": true}}`,
	} {
		if fe := ValidateRequest(mustDecode(t, req)); fe != nil {
			t.Errorf("%s: %v", req, fe)
		}
	}
}

// envelopeTable is the reference's "Which envelope fields each operation
// takes" table: workspace, snapshot, base_snapshot, request_id.
var envelopeTable = map[string][4]string{
	"capabilities":     {"not allowed", "not allowed", "not allowed", "not allowed"},
	"workspace.open":   {"not allowed", "optional", "not allowed", "not allowed"},
	"project.overview": {"required", "required", "not allowed", "optional"},
	"node.find":        {"required", "required", "not allowed", "optional"},
	"node.get":         {"required", "required", "not allowed", "optional"},
	"node.edits":       {"required", "required", "not allowed", "optional"},
	"graph.query":      {"required", "required", "not allowed", "optional"},
	"context.build":    {"required", "required", "not allowed", "optional"},
	"impact.analyze":   {"required", "required", "not allowed", "optional"},
	"changes.since":    {"required", "required", "not allowed", "optional"},
	"node.relocate":    {"required", "required", "not allowed", "optional"},
	"change.propose":   {"required", "not allowed", "required", "required"},
	"change.inspect":   {"required", "not allowed", "not allowed", "optional"},
	"check.run":        {"required", "required unless params.candidate is given", "not allowed", "optional"},
	"change.apply":     {"required", "not allowed", "not allowed", "required"},
	"change.discard":   {"required", "not allowed", "not allowed", "optional"},
	"edit.plan":        {"required", "not allowed", "required", "not allowed"},
}

// minimalParams are valid params of each operation.
var minimalParams = map[string]string{
	"capabilities":     `{}`,
	"workspace.open":   `{"roots": [{"path": "/home/user/task-app"}]}`,
	"project.overview": `{}`,
	"node.find":        `{"query": "", "limit": 1}`,
	"node.get":         `{"nodes": ["page:Home"]}`,
	"node.edits":       `{"nodes": ["page:Home"]}`,
	"graph.query":      `{"from": ["page:Home"], "mode": "dependencies"}`,
	"context.build":    `{"focus": ["page:Home"], "purpose": "understand"}`,
	"impact.analyze":   `{"targets": ["page:Home"], "direction": "both"}`,
	"changes.since":    `{"since": "snap-0"}`,
	"node.relocate":    `{"from_snapshot": "snap-0", "nodes": ["page:Home"]}`,
	"change.propose":   `{"operations": [` + setLabel + `]}`,
	"change.inspect":   `{"candidate": "cand-1"}`,
	"check.run":        `{"checks": ["compile"]}`,
	"change.apply":     `{"candidate": "cand-1", "expected_candidate_version": 1}`,
	"change.discard":   `{"candidate": "cand-1"}`,
	"edit.plan":        `{"operations": [` + setLabel + `]}`,
}

// TestEnvelopeFields checks every cell of the envelope table: a request
// with every required field and no other is valid; dropping a required
// field fails on that field; adding an optional one is valid; adding one
// that is not allowed fails on that field.
func TestEnvelopeFields(t *testing.T) {
	fields := [4]string{"workspace", "snapshot", "base_snapshot", "request_id"}
	values := [4]string{"ws-1", "snap-1", "snap-1", "r-1"}
	if len(envelopeTable) != 17 || len(minimalParams) != 17 {
		t.Fatal("table incomplete")
	}
	for _, op := range Operations() {
		row := envelopeTable[op]
		base := map[string]any{
			"protocol":  Protocol,
			"operation": op,
			"params":    mustDecode(t, minimalParams[op]),
		}
		for i, rule := range row {
			if rule == "required" || strings.HasPrefix(rule, "required unless") {
				base[fields[i]] = values[i]
			}
		}
		if fe := ValidateRequest(base); fe != nil {
			t.Errorf("%s with its required fields: %v", op, fe)
			continue
		}
		if fe := ValidateParams(op, base["params"]); fe != nil {
			t.Errorf("%s minimal params: %v", op, fe)
		}
		for i, rule := range row {
			req := maps.Clone(base)
			switch rule {
			case "required":
				delete(req, fields[i])
				fe := ValidateRequest(req)
				if fe == nil || fe.Field != fields[i] || fe.Message != "is required for operation "+op {
					t.Errorf("%s without %s: %v", op, fields[i], fe)
				}
			case "optional":
				req[fields[i]] = values[i]
				if fe := ValidateRequest(req); fe != nil {
					t.Errorf("%s with %s: %v", op, fields[i], fe)
				}
			case "not allowed":
				req[fields[i]] = values[i]
				fe := ValidateRequest(req)
				if fe == nil || fe.Field != fields[i] || fe.Message != "is not allowed for operation "+op {
					t.Errorf("%s with %s: %v", op, fields[i], fe)
				}
			default: // check.run's snapshot
				delete(req, fields[i])
				if fe := ValidateRequest(req); fe == nil || fe.Field != "snapshot" {
					t.Errorf("%s without snapshot or candidate: %v", op, fe)
				}
				req["params"] = mustDecode(t, `{"candidate": "cand-1", "checks": ["compile"]}`)
				if fe := ValidateRequest(req); fe != nil {
					t.Errorf("%s with a candidate and no snapshot: %v", op, fe)
				}
			}
		}
	}
	// The schema's own record of the table agrees.
	doc, _ := Document(EnvelopeRequestFile)
	rec := doc.(map[string]any)["x-envelope-fields"].(map[string]any)
	for op, row := range envelopeTable {
		for i, rule := range row {
			want := strings.ReplaceAll(rule, " ", "_")
			if strings.HasPrefix(rule, "required unless") {
				want = "required_unless_params_candidate"
			}
			if got := rec[op].(map[string]any)[fields[i]]; got != want {
				t.Errorf("x-envelope-fields %s.%s = %v, want %s", op, fields[i], got, want)
			}
		}
	}
}

// editShapes are a valid operation of each of the 16 shapes, with every
// required field and no optional one.
var editShapes = map[string]string{
	"set_property":        setLabel,
	"bind_property":       `{"kind": "bind_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "target": "state:Home.draft"}`,
	"list_element remove": `{"kind": "list_element", "op": "remove", "node": "element:Home/view/0/1", "old_text": "Button()"}`,
	"list_element insert": `{"kind": "list_element", "op": "insert", "anchor": "element:Home/view/0/1", "position": "after", "old_text": "Button()", "element": "Text(\"x\")"}`,
	"declaration create":  `{"kind": "declaration", "op": "create", "anchor": "state:Home.draft", "position": "first", "old_text": "page Home {", "declaration": "state n: Int = 0"}`,
	"declaration update":  `{"kind": "declaration", "op": "update", "node": "state:Home.draft", "old_text": "state draft: String = \"\"", "declaration": "state draft: String = \"x\""}`,
	"declaration remove":  `{"kind": "declaration", "op": "remove", "node": "state:Home.draft", "old_text": "state draft: String = \"\""}`,
	"set_reference":       `{"kind": "set_reference", "node": "element:Home/view/0/1", "property": "on_press", "old_value": "submit", "target": "action:Home.clear"}`,
	"import add":          `{"kind": "import", "op": "add", "path": "main.acore", "import_kind": "component", "symbol": "Card", "from": "components/card.acore"}`,
	"import remove":       `{"kind": "import", "op": "remove", "path": "main.acore", "symbol": "Card", "old_text": "use component Card from \"components/card.acore\""}`,
	"replace_region":      `{"kind": "replace_region", "path": "main.acore", "start_line": 3, "end_line": 4, "old_text": "x", "new_text": "y", "option": {"option_id": "r1", "fingerprint": "f"}}`,
	"rename":              `{"kind": "rename", "node": "state:Home.draft", "old_name": "draft", "new_name": "text"}`,
	"route add":           `{"kind": "route", "op": "add", "path": "/stats", "page": "Stats"}`,
	"route remove":        `{"kind": "route", "op": "remove", "node": "route:/stats", "old_text": "route \"/stats\" => Stats"}`,
	"file create":         `{"kind": "file", "op": "create", "path": "pages/stats.acore", "text": "module stats\n"}`,
	"file remove":         `{"kind": "file", "op": "remove", "path": "pages/stats.acore", "old_sha256": "c7ac07a1c5072d144968b21afb3e2619de22f935f7b834767cdd30426dee9f43"}`,
}

// TestEditShapes: each shape is valid, with its optional fields too; an
// unknown field is refused; each required field, when missing, is named.
func TestEditShapes(t *testing.T) {
	if len(editShapes) != 16 {
		t.Fatalf("%d shapes, want 16", len(editShapes))
	}
	optional := map[string]any{
		"handle":                "h1",
		"expected_node_version": "24495d3190bd",
		"option":                map[string]any{"option_id": "o1", "fingerprint": "8433d5033595"},
	}
	for name, src := range editShapes {
		op := mustDecode(t, src).(map[string]any)
		check := func(what string, op map[string]any, field, msg string) {
			t.Helper()
			fe := ValidateParams("change.propose", map[string]any{"operations": []any{op}})
			switch {
			case field == "" && fe != nil:
				t.Errorf("%s %s: %v", name, what, fe)
			case field != "" && (fe == nil || fe.Field != field || !strings.HasPrefix(fe.Message, msg)):
				t.Errorf("%s %s: %v, want %s: %s", name, what, fe, field, msg)
			}
		}
		check("as is", op, "", "")
		// replace_region and the file family take no optional field.
		if name != "replace_region" && !strings.HasPrefix(name, "file ") {
			withOpt := maps.Clone(op)
			maps.Copy(withOpt, optional)
			check("with optional fields", withOpt, "", "")
			node := maps.Clone(op)
			for _, ref := range []string{"node", "anchor", "target"} {
				if _, ok := node[ref]; ok {
					node[ref] = map[string]any{"handle": "h0"}
				}
			}
			check("with handles", node, "", "")
		}
		extra := maps.Clone(op)
		extra["comment"] = "x"
		check("with an unknown field", extra, "params.operations[0].comment", "unknown field")
		for _, f := range slices.Sorted(maps.Keys(op)) {
			missing := maps.Clone(op)
			delete(missing, f)
			if name == "set_property" && f == "old_value" {
				// Optional: without it, the property must not be written yet.
				check("without old_value", missing, "", "")
				continue
			}
			check("without "+f, missing, "params.operations[0]."+f, "is required")
		}
	}
}

// TestBounds checks the string bounds of the edit operations at the bound
// and one past it.
func TestBounds(t *testing.T) {
	tests := []struct {
		shape, field string
		max          int
	}{
		{"list_element remove", "old_text", 4096},
		{"list_element insert", "old_text", 4096},
		{"list_element insert", "element", 16384},
		{"declaration create", "old_text", 4096},
		{"declaration create", "declaration", 20000},
		{"declaration update", "old_text", 20000},
		{"declaration update", "declaration", 20000},
		{"declaration remove", "old_text", 20000},
		{"set_reference", "old_value", 256},
		{"set_reference", "property", 256},
		{"set_property", "property", 256},
		{"set_property", "new_value", 4096},
		{"bind_property", "property", 256},
		{"import add", "symbol", 256},
		{"import add", "from", 1024},
		{"import remove", "old_text", 1024},
		{"import remove", "symbol", 256},
		{"replace_region", "old_text", 16384},
		{"replace_region", "new_text", 16384},
		{"set_property", "node", 1024},
		{"bind_property", "target", 1024},
	}
	for _, tt := range tests {
		op := mustDecode(t, editShapes[tt.shape]).(map[string]any)
		op[tt.field] = strings.Repeat("é", tt.max) // characters, not bytes
		if fe := ValidateParams("edit.plan", map[string]any{"operations": []any{op}}); fe != nil {
			t.Errorf("%s.%s of %d characters: %v", tt.shape, tt.field, tt.max, fe)
		}
		op[tt.field] = strings.Repeat("é", tt.max+1)
		fe := ValidateParams("edit.plan", map[string]any{"operations": []any{op}})
		if fe == nil || fe.Field != "params.operations[0]."+tt.field || !strings.HasPrefix(fe.Message, "must be at most") {
			t.Errorf("%s.%s of %d characters: %v", tt.shape, tt.field, tt.max+1, fe)
		}
	}
	// old_value of set_property is any JSON value, including null.
	for _, v := range []string{`null`, `1`, `true`, `[1]`, `{"a": 1}`} {
		op := mustDecode(t, setLabel).(map[string]any)
		op["old_value"] = mustDecode(t, v)
		op["new_value"] = mustDecode(t, v)
		if fe := ValidateParams("edit.plan", map[string]any{"operations": []any{op}}); fe != nil {
			t.Errorf("set_property with old_value %s: %v", v, fe)
		}
	}
}

func TestFieldErrorString(t *testing.T) {
	fe := ValidateParams("node.find", map[string]any{"query": "x", "limit": json.Number("51")})
	if fe == nil || fe.Error() != "params.limit: must be <= 50" {
		t.Errorf("got %v", fe)
	}
	if got := (&FieldError{Message: "must be object"}).Error(); got != "must be object" {
		t.Errorf("root error: %q", got)
	}
}
