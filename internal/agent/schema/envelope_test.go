package schema

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/axiomcore/acore/schemas"
	"github.com/axiomcore/acore/third_party/jsonschema"
)

// sameAsFile checks that ValidateRequest's envelope schema of the
// request's operation answers v exactly as envelope.request.json does,
// and ValidateParams as the operation's request schema, compiled with
// every file whole, does.
func sameAsFile(t *testing.T, name string, v any) {
	t.Helper()
	got := validateEnvelope(v)
	want := validate(EnvelopeRequestFile, v, "")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: envelope of the operation: %v\nenvelope.request.json: %v", name, got, want)
	}
	env, _ := v.(map[string]any)
	if op, ok := env["operation"].(string); ok && IsOperation(op) {
		got := ValidateParams(op, env["params"])
		want := validate(RequestFile(op), env["params"], "params")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: params of %s: %v\n%s: %v", name, op, got, RequestFile(op), want)
		}
	}
}

// mutations returns v with one change at every place in it: each value
// replaced by each of bad, each field removed, an unknown field added.
func mutations(v any, bad []any) []any {
	out := slices.Clone(bad)
	switch x := v.(type) {
	case map[string]any:
		y := maps.Clone(x)
		y["zz_unknown"] = "x"
		out = append(out, y)
		for k, e := range x {
			y := maps.Clone(x)
			delete(y, k)
			out = append(out, y)
			for _, m := range mutations(e, bad) {
				y := maps.Clone(x)
				y[k] = m
				out = append(out, y)
			}
		}
	case []any:
		out = append(out, []any{}, append(slices.Clone(x), x...))
		for i, e := range x {
			for _, m := range mutations(e, bad) {
				y := slices.Clone(x)
				y[i] = m
				out = append(out, y)
			}
		}
	}
	return out
}

// TestEnvelopePerOperation: the envelope schema compiled for one
// operation validates every request, valid or not, with the same result
// as envelope.request.json, which holds the branches of all 17.
func TestEnvelopePerOperation(t *testing.T) {
	var reqs []map[string]any
	files, _ := filepath.Glob("testdata/requests/*.json")
	for _, f := range files {
		v := readJSON(t, f)
		sameAsFile(t, f, v)
		reqs = append(reqs, v.(map[string]any))
	}
	for _, op := range Operations() {
		req := map[string]any{"protocol": Protocol, "operation": op, "params": mustDecode(t, minimalParams[op])}
		for i, rule := range envelopeTable[op] {
			if rule != "not allowed" {
				req[[4]string{"workspace", "snapshot", "base_snapshot", "request_id"}[i]] = "x-1"
			}
		}
		reqs = append(reqs, req)
	}
	bad := []any{nil, 1, "x", true, []any{}, map[string]any{}, map[string]any{"a": 1}, "latest", "snap-1", json.Number("-1")}
	fields := []string{"protocol", "operation", "workspace", "snapshot", "base_snapshot", "request_id", "limits", "params", "other"}
	n := 0
	for _, req := range reqs {
		sameAsFile(t, "request", req)
		for _, f := range fields {
			r := maps.Clone(req)
			delete(r, f)
			sameAsFile(t, "without "+f, r)
			for _, b := range bad {
				r := maps.Clone(req)
				r[f] = b
				sameAsFile(t, f+" replaced", r)
				n++
			}
		}
		// Another operation's name over these params and fields, and
		// operations that are not of v1.
		for _, op := range append(Operations(), "", "node.delete", "Node.find") {
			r := maps.Clone(req)
			r["operation"] = op
			sameAsFile(t, "operation "+op, r)
			n++
		}
		// Params of every other operation.
		for _, op := range Operations() {
			r := maps.Clone(req)
			r["params"] = mustDecode(t, minimalParams[op])
			sameAsFile(t, "params of "+op, r)
			n++
		}
	}
	for _, v := range []any{nil, 1, "x", []any{map[string]any{"operation": "node.find"}}} {
		sameAsFile(t, "not an object", v)
	}
	// Every value of the params changed, for the edits of each shape
	// too: the definitions the schemas of an operation keep are those
	// its params reach.
	var edits []any
	for _, src := range editShapes {
		edits = append(edits, mustDecode(t, src))
	}
	if testing.Short() {
		return
	}
	for _, op := range []string{"change.propose", "edit.plan"} {
		req := map[string]any{"protocol": Protocol, "operation": op, "workspace": "ws-1", "base_snapshot": "snap-1",
			"params": map[string]any{"operations": edits}}
		if op == "change.propose" {
			req["request_id"] = "r-1"
		}
		reqs = append(reqs, req)
	}
	short := []any{nil, json.Number("0"), "", "snap-1", map[string]any{}}
	for _, req := range reqs {
		for _, p := range mutations(req["params"], short) {
			r := maps.Clone(req)
			r["params"] = p
			sameAsFile(t, "params changed", r)
			n++
		}
	}
	if n < 1000 {
		t.Errorf("only %d requests compared", n)
	}
}

// TestOperationCondition: every branch of envelope.request.json is an
// if/then on one operation, so that each operation's envelope keeps one.
func TestOperationCondition(t *testing.T) {
	doc, err := Document(EnvelopeRequestFile)
	if err != nil {
		t.Fatal(err)
	}
	var conds []string
	for _, b := range doc.(map[string]any)["allOf"].([]any) {
		op, ok := operationCondition(b)
		if !ok {
			t.Errorf("branch %v is not an if/then on one operation", b)
		}
		conds = append(conds, op)
	}
	if !reflect.DeepEqual(conds, Operations()) {
		t.Errorf("branches on %v, want %v", conds, Operations())
	}
	// A branch of another form is kept for every operation.
	for _, b := range []string{
		`{"if": {"properties": {"operation": {"const": "x"}}, "required": ["operation"]}, "then": {}, "else": {}}`,
		`{"if": {"properties": {"operation": {"const": "x"}}}, "then": {}}`,
		`{"if": {"properties": {"operation": {"const": "x"}, "params": {}}, "required": ["operation"]}, "then": {}}`,
		`{"if": {"properties": {"operation": {"enum": ["x"]}}, "required": ["operation"]}, "then": {}}`,
		`{"required": ["workspace"]}`,
	} {
		if op, ok := operationCondition(mustDecode(t, b)); ok {
			t.Errorf("%s: read as a branch on %q", b, op)
		}
	}
}

// TestRequestNeeds: the schemas of node.find's requests load a few
// definitions of common.json and nothing of edits.json.
func TestRequestNeeds(t *testing.T) {
	c := load()
	doc, err := c.envelopeDoc("node.find")
	if err != nil {
		t.Fatal(err)
	}
	find, err := c.doc(RequestFile("node.find"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.reach(map[string]any{EnvelopeRequestFile: doc, RequestFile("node.find"): find})
	if err != nil {
		t.Fatal(err)
	}
	common := n[CommonFile]
	if common == nil || common.whole || len(common.defs) == 0 || len(common.defs) > 10 {
		t.Errorf("common.json: %+v, want a few definitions", common)
	}
	if n[EditsFile] != nil {
		t.Errorf("edits.json: %+v, want nothing", n[EditsFile])
	}
	for _, name := range []string{"workspaceId", "snapshotRef", "nodeId", "path", "limits"} {
		if !common.defs[name] {
			t.Errorf("common.json: no %s", name)
		}
	}
}

// TestReach follows references through files and definitions, and needs a
// file whole when a reference or keyword could reach more than a
// definition.
func TestReach(t *testing.T) {
	head := `"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "` + BaseID
	fsys := fstest.MapFS{
		"root.json": {Data: []byte(`{` + head + `root.json", "properties": {
			"a": {"$ref": "defs.json#/$defs/a"}, "d": {"$ref": "defs.json#/$defs/d/properties/x"},
			"w": {"$ref": "sub/whole.json"}, "n": {"$ref": "anchored.json#/$defs/a"}}}`)},
		"defs.json": {Data: []byte(`{` + head + `defs.json", "$defs": {
			"a": {"$ref": "#/$defs/b"}, "b": {"type": "string"}, "c": {"$ref": "sub/whole.json"},
			"d": {"properties": {"x": {"$ref": "sub/other.json#/$defs/e"}}}, "unused": {"$ref": "#/$defs/c"}}}`)},
		"sub/whole.json": {Data: []byte(`{` + head + `sub/whole.json", "$defs": {"x": {"type": "string"}}}`)},
		"sub/other.json": {Data: []byte(`{` + head + `sub/other.json", "$defs": {"e": {"$ref": "../defs.json#/$defs/b"}, "f": {}}}`)},
		"anchored.json":  {Data: []byte(`{` + head + `anchored.json", "$defs": {"a": {}, "b": {"$anchor": "b"}}}`)},
		"unused.json":    {Data: []byte(`{` + head + `unused.json"}`)},
	}
	c, err := compile(fsys)
	if err != nil {
		t.Fatal(err)
	}
	root, err := c.doc("root.json")
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.reach(map[string]any{"root.json": root})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for f, fn := range n {
		if fn.whole {
			got[f] = "whole"
		} else {
			got[f] = strings.Join(slices.Sorted(maps.Keys(fn.defs)), " ")
		}
	}
	want := map[string]string{"root.json": "whole", "defs.json": "a b d", "sub/whole.json": "whole",
		"sub/other.json": "e", "anchored.json": "whole"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("needs %v\nwant %v", got, want)
	}
	defs, err := c.doc("defs.json")
	if err != nil {
		t.Fatal(err)
	}
	pruned := n.prune("defs.json", defs).(map[string]any)
	if got := slices.Sorted(maps.Keys(pruned["$defs"].(map[string]any))); !slices.Equal(got, []string{"a", "b", "d"}) {
		t.Errorf("pruned defs.json keeps %v", got)
	}
	if len(defs.(map[string]any)["$defs"].(map[string]any)) != 5 {
		t.Errorf("pruning modified the shared document")
	}
	// A compiler of the pruned files compiles root.json.
	comp := c.newCompiler(n)
	s, err := comp.Compile(BaseID + "root.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(map[string]any{"a": "x", "d": json.Number("1")}); err == nil {
		t.Errorf("d = 1 accepted, want a string")
	}
}

// BenchmarkFirstRequest validates one node.find request with a fresh
// compiler each time: the schema work of a one-shot process.
func BenchmarkFirstRequest(b *testing.B) {
	benchFirstRequest(b, func(c *compiled) (*jsonschema.Schema, error) {
		r := c.request("node.find")
		return r.envelope, r.err
	})
}

// BenchmarkFirstRequestWholeEnvelope is BenchmarkFirstRequest with the
// envelope schema of all operations, as envelope.request.json is.
func BenchmarkFirstRequestWholeEnvelope(b *testing.B) {
	benchFirstRequest(b, func(c *compiled) (*jsonschema.Schema, error) { return c.schema(EnvelopeRequestFile) })
}

// benchFirstRequest times compiling the schemas and validating a node.find
// request against the envelope schema that envelope returns.
func benchFirstRequest(b *testing.B, envelope func(*compiled) (*jsonschema.Schema, error)) {
	req, err := decode([]byte(`{"protocol":"axiom-agent-semantic/v1","operation":"node.find","snapshot":"latest","workspace":"ws-1","params":{"query":"Add","kind":"element","limit":10}}`))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c, err := compile(schemas.FS)
		if err != nil {
			b.Fatal(err)
		}
		s, err := envelope(c)
		if err != nil {
			b.Fatal(err)
		}
		if fe := c.check(s, req, ""); fe != nil {
			b.Fatal(fe)
		}
	}
}

// TestOperationTable checks the table read from x-envelope-fields: the 17
// operations of v1 in the reference's order, each with a presence for
// every envelope field.
func TestOperationTable(t *testing.T) {
	want := []string{"capabilities", "workspace.open", "project.overview", "node.find", "node.get",
		"node.edits", "graph.query", "context.build", "impact.analyze", "changes.since",
		"node.relocate", "change.propose", "change.inspect", "check.run", "change.apply",
		"change.discard", "edit.plan"}
	if got := Operations(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Operations() = %v, want %v", got, want)
	}
	valid := []Presence{Required, Optional, NotAllowed, RequiredUnlessCandidate}
	for _, op := range want {
		e, ok := EnvelopeOf(op)
		if !ok {
			t.Fatalf("EnvelopeOf(%s) not found", op)
		}
		for _, p := range []Presence{e.Workspace, e.Snapshot, e.BaseSnapshot, e.RequestID} {
			if !slices.Contains(valid, p) {
				t.Errorf("%s: presence %q", op, p)
			}
		}
	}
	if _, ok := EnvelopeOf("node.delete"); ok || IsOperation("node.delete") {
		t.Error("node.delete is an operation")
	}
}
