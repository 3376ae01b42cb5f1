package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/schemas"
	"github.com/axiomcore/acore/third_party/jsonschema"
)

// offline refuses every URL, so a schema compiles only if it is
// self-contained.
type offline struct{}

func (offline) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: a bundled schema must not load anything", url)
}

func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.UseLoader(offline{})
	c.AssertFormat()
	c.DefaultDraft(jsonschema.Draft2020)
	return c
}

// compileTool compiles a bundled tool schema on its own.
func compileTool(t *testing.T, op string, s map[string]any) *jsonschema.Schema {
	t.Helper()
	doc := roundTrip(t, s)
	c := newCompiler()
	url := "urn:acore-tool:" + ToolName(op)
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("tool %s: the bundled schema does not compile on its own: %v", ToolName(op), err)
	}
	return sch
}

// roundTrip re-decodes v as the validator expects (json.Number).
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestInputSchemasAreSelfContained(t *testing.T) {
	inputs, err := InputSchemas()
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) != len(schema.Operations()) || len(inputs) != 17 {
		t.Fatalf("%d tool schemas for %d operations", len(inputs), len(schema.Operations()))
	}
	for _, op := range schema.Operations() {
		s := inputs[op]
		if s["type"] != "object" {
			t.Errorf("%s: type is %v, want object", op, s["type"])
		}
		props, _ := s["properties"].(map[string]any)
		if props["params"] == nil {
			t.Errorf("%s: no params property", op)
		}
		for _, f := range []string{"protocol", "operation"} {
			if props[f] != nil {
				t.Errorf("%s: the tool schema has %s", op, f)
			}
		}
		for _, r := range s["required"].([]string) {
			if r == "workspace" || r == "protocol" || r == "operation" {
				t.Errorf("%s: %s is required; the server fills it", op, r)
			}
		}
		walk(s, "", func(at string, m map[string]any) {
			if ref, ok := m["$ref"].(string); ok {
				if !strings.HasPrefix(ref, "#/") {
					t.Errorf("%s: %s: $ref %q is not local", op, at, ref)
				} else if _, err := resolvePointer(s, strings.TrimPrefix(ref, "#")); err != nil {
					t.Errorf("%s: %s: $ref %q does not resolve: %v", op, at, ref, err)
				}
			}
			if id, ok := m["$id"]; ok {
				t.Errorf("%s: %s: $id %v inside a bundled schema", op, at, id)
			}
		})
		// Every definition is used.
		b, _ := json.Marshal(s)
		defs, _ := s["$defs"].(map[string]any)
		for name := range defs {
			if !bytes.Contains(b, []byte(`"#/$defs/`+escapeToken(name)+`"`)) {
				t.Errorf("%s: $defs.%s is not referenced", op, name)
			}
		}
		compileTool(t, op, s)
	}
}

// walk calls fn for every object in v.
func walk(v any, at string, fn func(string, map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		fn(at, v)
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walk(v[k], at+"/"+k, fn)
		}
	case []any:
		for i, e := range v {
			walk(e, fmt.Sprintf("%s/%d", at, i), fn)
		}
	}
}

// envelopeSchema compiles the published envelope.request.json with every
// file it references, as the schema package does.
func envelopeSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := newCompiler()
	var files []string
	err := fs.WalkDir(schemas.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") && p != "index.json" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var envID string
	for _, f := range files {
		b, err := fs.ReadFile(schemas.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if err := c.AddResource(id, doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if f == envelopeFile {
			envID = id
		}
	}
	s, err := c.Compile(envID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// argSamples are tool arguments, valid and not, by operation.
var argSamples = []struct {
	op, args string
}{
	{"capabilities", `{"params": {}}`},
	{"capabilities", `{"params": {"profiles": ["acore-ui"]}}`},
	{"capabilities", `{"params": {"profiles": "acore-ui"}}`},
	{"capabilities", `{}`},
	{"workspace.open", `{"snapshot": "latest", "params": {"roots": [{"path": "/home/user/task-app"}]}}`},
	{"workspace.open", `{"params": {"roots": [{"path": "relative/task-app"}]}}`},
	{"project.overview", `{"workspace": "ws-1", "snapshot": "snap-1", "params": {"include": ["entry_points", "contracts"]}}`},
	{"project.overview", `{"snapshot": "snap-1", "params": {"include": ["everything"]}}`},
	{"node.find", `{"snapshot": "latest", "limits": {"max_bytes": 65536}, "params": {"query": "Add", "kind": "element", "limit": 10}}`},
	{"node.find", `{"snapshot": "latest", "params": {"query": "Add", "limit": 51}}`},
	{"node.find", `{"snapshot": "latest", "params": {"query": "Add", "limit": 5, "path": "/abs.acore"}}`},
	{"node.find", `{"snapshot": "latest", "params": {"query": "Add", "limit": 5, "colour": "red"}}`},
	{"node.find", `{"snapshot": "latest", "limits": {"max_bytes": 0}, "params": {"query": "Add", "limit": 5}}`},
	{"node.get", `{"workspace": "ws-1", "snapshot": "latest", "params": {"nodes": ["element:Home/view/0/1"]}}`},
	{"node.get", `{"snapshot": "latest", "params": {"nodes": []}}`},
	{"graph.query", `{"snapshot": "snap-1", "params": {"from": ["state:Home.draft"], "mode": "dependents"}}`},
	{"graph.query", `{"snapshot": "snap-1", "params": {"from": ["state:Home.draft"], "mode": "sideways"}}`},
	{"impact.analyze", `{"snapshot": "snap-1", "params": {"targets": ["state:Home.draft"], "direction": "dependents"}}`},
	{"change.discard", `{"workspace": "ws-1", "params": {"candidate": "cand-1", "expected_candidate_version": 1}}`},
	{"change.discard", `{"params": {}}`},
}

// TestInputSchemasAgreeWithTheEnvelope checks that bundling kept the
// meaning of the published schemas: tool arguments are valid exactly when
// the envelope they make is valid. Samples name the workspace when they
// leave it out, since the server fills it before the envelope is checked.
func TestInputSchemasAgreeWithTheEnvelope(t *testing.T) {
	inputs, err := InputSchemas()
	if err != nil {
		t.Fatal(err)
	}
	env := envelopeSchema(t)
	tools := map[string]*jsonschema.Schema{}
	for _, op := range schema.Operations() {
		tools[op] = compileTool(t, op, inputs[op])
	}
	type sample struct{ name, op, args string }
	var samples []sample
	for i, s := range argSamples {
		samples = append(samples, sample{fmt.Sprintf("sample %d", i), s.op, s.args})
	}
	// The reference's request examples, when the schema package's copy is
	// present.
	dir := filepath.Join("..", "..", "schema", "testdata", "requests")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var req map[string]json.RawMessage
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var op string
		_ = json.Unmarshal(req["operation"], &op)
		delete(req, "protocol")
		delete(req, "operation")
		args, _ := json.Marshal(req)
		samples = append(samples, sample{filepath.Base(f), op, string(args)})
	}
	if len(files) == 0 {
		t.Logf("no reference examples under %s; checking the samples only", dir)
	}
	valid := 0
	for _, s := range samples {
		var args map[string]any
		if err := json.Unmarshal([]byte(s.args), &args); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		toolErr := tools[s.op].Validate(roundTrip(t, args))
		full := map[string]any{"protocol": protocol.Name, "operation": s.op}
		for k, v := range args {
			full[k] = v
		}
		if props, _ := inputs[s.op]["properties"].(map[string]any); props["workspace"] != nil && full["workspace"] == nil {
			full["workspace"] = "ws-filled"
		}
		envErr := env.Validate(roundTrip(t, full))
		if (toolErr == nil) != (envErr == nil) {
			t.Errorf("%s (%s %s): tool schema says %v, envelope says %v", s.name, s.op, s.args, toolErr, envErr)
		}
		if toolErr == nil {
			valid++
		}
	}
	if valid == 0 || valid == len(samples) {
		t.Errorf("%d of %d samples valid: the samples do not tell valid from invalid", valid, len(samples))
	}
}
