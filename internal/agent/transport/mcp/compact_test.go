package mcp

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gjs "github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/schemas"
	"github.com/axiomcore/acore/third_party/jsonschema"
)

// facts collects what a schema requires of a request, by the path of
// field names it applies at ("/params/operations[]/kind"): each field,
// each allowed value (enum or const), each required flag, type, bound,
// pattern, closed object, dependentRequired and not. Combinators (allOf,
// anyOf, oneOf, then, else) and references are followed at the same path;
// an if is a condition, not a constraint, and is skipped. A type is implied
// by the values of an enum or const at the same node, so it is not a fact
// there: a const shape and an enum of the same strings say the same.
type facts struct {
	set     map[string]bool
	resolve func(ref, file string) (target any, targetFile, name string, err error)
	err     error
}

func (f *facts) add(format string, a ...any) { f.set[fmt.Sprintf(format, a...)] = true }

func (f *facts) walk(v any, file, at string, depth int) {
	m, ok := v.(map[string]any)
	if !ok || f.err != nil {
		return
	}
	if depth > 64 {
		f.err = fmt.Errorf("%s: references too deep", at)
		return
	}
	if ref, ok := m["$ref"].(string); ok {
		target, tf, name, err := f.resolve(ref, file)
		if err != nil {
			f.err = fmt.Errorf("%s: %v", at, err)
			return
		}
		if opaqueIDs[name] {
			// The one relaxation: the tools leave an opaque id's length
			// to the server.
			c := deepCopy(target).(map[string]any)
			delete(c, "maxLength")
			target = c
		}
		f.walk(target, tf, at, depth+1)
	}
	_, hasEnum := m["enum"]
	_, hasConst := m["const"]
	if t, ok := m["type"]; ok && !hasEnum && !hasConst {
		f.add("type %s %v", at, t)
	}
	if e, ok := m["enum"].([]any); ok {
		for _, v := range e {
			b, _ := json.Marshal(v)
			f.add("value %s %s", at, b)
		}
	}
	if hasConst {
		b, _ := json.Marshal(m["const"])
		f.add("value %s %s", at, b)
	}
	if r, ok := m["required"].([]any); ok {
		for _, name := range r {
			f.add("required %s %v", at, name)
		}
	}
	if r, ok := m["required"].([]string); ok {
		for _, name := range r {
			f.add("required %s %v", at, name)
		}
	}
	for _, kw := range []string{"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "format"} {
		if v, ok := m[kw]; ok {
			f.add("%s %s %v", kw, at, v)
		}
	}
	if p, ok := m["pattern"].(string); ok {
		if c, ok := compactPatterns[p]; ok {
			p = c
		}
		f.add("pattern %s %s", at, p)
	}
	if n, ok := m["not"]; ok {
		b, _ := json.Marshal(n)
		f.add("not %s %s", at, b)
	}
	if d, ok := m["dependentRequired"].(map[string]any); ok {
		for k, v := range d {
			b, _ := json.Marshal(v)
			f.add("dependentRequired %s %s %s", at, k, b)
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, sub := range props {
			f.add("field %s/%s", at, name)
			f.walk(sub, file, at+"/"+name, depth)
		}
	}
	names, _ := m["propertyNames"].(map[string]any)
	switch ap := m["additionalProperties"].(type) {
	case bool:
		if !ap {
			f.add("closed %s", at)
		}
	case map[string]any:
		if e, ok := names["enum"].([]any); ok {
			// Exactly these fields, each with this schema.
			f.add("closed %s", at)
			for _, name := range e {
				f.add("field %s/%v", at, name)
				f.walk(ap, file, fmt.Sprintf("%s/%v", at, name), depth)
			}
		} else {
			f.walk(ap, file, at+"/*", depth)
		}
	}
	if m["unevaluatedProperties"] == false {
		f.add("closed %s", at)
	}
	if items, ok := m["items"]; ok {
		f.walk(items, file, at+"[]", depth)
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := m[kw].([]any); ok {
			for _, sub := range list {
				f.walk(sub, file, at, depth)
			}
		}
	}
	for _, kw := range []string{"then", "else"} {
		if sub, ok := m[kw]; ok {
			f.walk(sub, file, at, depth)
		}
	}
}

// publishedFacts are the facts of op's request as the published schemas
// state them: the envelope fields op takes (workspace is optional over
// MCP) and its params.
func publishedFacts(t *testing.T, set *schemaSet, op string) map[string]bool {
	t.Helper()
	f := &facts{set: map[string]bool{}, resolve: func(ref, file string) (any, string, string, error) {
		r, err := url.Parse(ref)
		if err != nil {
			return nil, "", "", err
		}
		abs := set.base[file].ResolveReference(r)
		pointer := abs.Fragment
		abs.Fragment = ""
		target, ok := set.byURI[abs.String()]
		if !ok {
			return nil, "", "", fmt.Errorf("$ref %q: not published", ref)
		}
		v, err := resolvePointer(set.byPath[target], pointer)
		return v, target, defName(target, pointer), err
	}}
	env := set.byPath[envelopeFile]
	rules := env["x-envelope-fields"].(map[string]any)[op].(map[string]any)
	f.add("type  object")
	for name, p := range env["properties"].(map[string]any) {
		switch {
		case name == "protocol" || name == "operation" || rules[name] == "not_allowed":
			continue
		case name == "params":
			f.walk(set.byPath["operations/"+op+".request.json"], "operations/"+op+".request.json", "/params", 0)
			f.add("required  params")
		default:
			f.walk(p, envelopeFile, "/"+name, 0)
			if rules[name] == "required" && name != "workspace" {
				f.add("required  %s", name)
			}
		}
		f.add("field /%s", name)
	}
	if f.err != nil {
		t.Fatalf("%s: published: %v", op, f.err)
	}
	return f.set
}

// toolFacts are the facts of op's listed tool schema.
func toolFacts(t *testing.T, op string, s map[string]any) map[string]bool {
	t.Helper()
	f := &facts{set: map[string]bool{}, resolve: func(ref, _ string) (any, string, string, error) {
		if !strings.HasPrefix(ref, "#/") {
			return nil, "", "", fmt.Errorf("$ref %q is not local", ref)
		}
		v, err := resolvePointer(s, strings.TrimPrefix(ref, "#"))
		return v, "", "", err
	}}
	f.walk(s, "", "", 0)
	if f.err != nil {
		t.Fatalf("%s: tool: %v", op, f.err)
	}
	return f.set
}

// TestToolSchemasKeepEveryConstraint walks each operation's published
// request (envelope fields and params) and its tool's inputSchema: every
// field, allowed value, required flag, type, bound and pattern of one is
// in the other, but for the opaque ids' maxLength and the compact path
// pattern, which compactPatterns maps and TestCompactPatternsAreEquivalent
// checks.
func TestToolSchemasKeepEveryConstraint(t *testing.T) {
	set, inputs := publishedAndListed(t)
	for _, op := range schema.Operations() {
		pub := publishedFacts(t, set, op)
		tool := toolFacts(t, op, inputs[op])
		sdkResolve(t, op, inputs[op])
		var fields, values int
		for fact := range pub {
			if !tool[fact] {
				t.Errorf("%s: the tool schema lost %s", ToolName(op), fact)
			}
			fields += b2i(strings.HasPrefix(fact, "field "))
			values += b2i(strings.HasPrefix(fact, "value "))
		}
		for fact := range tool {
			if !pub[fact] {
				t.Errorf("%s: the tool schema adds %s", ToolName(op), fact)
			}
		}
		if fields < 3 {
			t.Errorf("%s: only %d fields found: the walk is broken", op, fields)
		}
		if op == "change.propose" && values < 15 {
			t.Errorf("%s: only %d allowed values found: the walk is broken", op, values)
		}
	}
}

// sdkResolve resolves a listed schema with the JSON Schema package of the
// MCP SDK, which Go clients (and the SDK's typed tools) validate with.
func sdkResolve(t *testing.T, op string, s map[string]any) *gjs.Resolved {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var sch gjs.Schema
	if err := json.Unmarshal(b, &sch); err != nil {
		t.Fatalf("%s: the SDK cannot read the schema: %v", op, err)
	}
	r, err := sch.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: the SDK cannot resolve the schema: %v", op, err)
	}
	return r
}

// sdkValue is v as the SDK's validator takes arguments: decoded JSON.
func sdkValue(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// publishedAndListed returns the published schemas and the listed tool
// schemas.
func publishedAndListed(t *testing.T) (*schemaSet, map[string]map[string]any) {
	t.Helper()
	set, err := loadSchemas(schemas.FS)
	if err != nil {
		t.Fatal(err)
	}
	inputs, err := InputSchemas()
	if err != nil {
		t.Fatal(err)
	}
	return set, inputs
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCompactPatternsAreEquivalent checks each short pattern against the
// published one it replaces, on every string up to 6 characters over an
// alphabet of the characters the pattern treats apart, and requires the
// published one to be in the schemas still.
func TestCompactPatternsAreEquivalent(t *testing.T) {
	var published strings.Builder
	for _, f := range []string{"common.json", "edits.json"} {
		b, err := schemas.FS.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		walkSchemas(v, func(m map[string]any) {
			if p, ok := m["pattern"].(string); ok {
				published.WriteString(p + "\n")
			}
		})
	}
	alphabet := []string{"a", ".", "/", `\`, "\x00", "\x1f", "\x7f", "é", " "}
	for long, short := range compactPatterns {
		if !strings.Contains(published.String(), long+"\n") {
			t.Errorf("%s is no longer a published pattern", long)
		}
		lre, sre := regexp.MustCompile(long), regexp.MustCompile(short)
		n, matched := 0, 0
		var gen func(prefix string, left int)
		gen = func(prefix string, left int) {
			n++
			l, s := lre.MatchString(prefix), sre.MatchString(prefix)
			if l != s {
				t.Fatalf("%q: published %v, compact %v", prefix, l, s)
			}
			matched += b2i(l)
			if left == 0 {
				return
			}
			for _, c := range alphabet {
				gen(prefix+c, left-1)
			}
		}
		gen("", 6)
		if matched == 0 || matched == n {
			t.Errorf("%d of %d strings match: the alphabet does not tell them apart", matched, n)
		}
	}
}

// editSample builds a value for a schema of edits.json: the smallest that
// is valid, for the fields a shape requires.
func editSample(t *testing.T, set *schemaSet, v any, file string) any {
	t.Helper()
	m, _ := v.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		r, _ := url.Parse(ref)
		abs := set.base[file].ResolveReference(r)
		pointer := abs.Fragment
		abs.Fragment = ""
		target := set.byURI[abs.String()]
		sub, err := resolvePointer(set.byPath[target], pointer)
		if err != nil {
			t.Fatal(err)
		}
		return editSample(t, set, sub, target)
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok {
		return e[0]
	}
	if a, ok := m["anyOf"].([]any); ok {
		return editSample(t, set, a[0], file)
	}
	if p, ok := m["pattern"].(string); ok && strings.Contains(p, "0-9a-f") {
		return strings.Repeat("a", 64)
	}
	switch m["type"] {
	case "integer":
		return 1
	case "object":
		out := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		required, _ := m["required"].([]any) // a route's args require nothing
		for _, r := range required {
			out[r.(string)] = editSample(t, set, props[r.(string)], file)
		}
		return out
	}
	if m["pattern"] != nil {
		return "main.acore"
	}
	return "x"
}

// TestEditOperationsAgree validates edit operations of every shape, valid
// and broken in each way a shape can be broken, with change.propose's and
// edit.plan's tool schemas and with the published envelope: both must say
// the same of each.
func TestEditOperationsAgree(t *testing.T) {
	set, inputs := publishedAndListed(t)
	env := envelopeSchema(t)
	edits := set.byPath["edits.json"]["$defs"].(map[string]any)
	variants := edits["editOperation"].(map[string]any)["x-variants"].([]any)
	kinds := edits["editFamily"].(map[string]any)["enum"].([]any)

	var samples []map[string]any
	for _, v := range variants {
		ref := strings.TrimPrefix(v.(map[string]any)["$ref"].(string), "#/$defs/")
		shape := edits[ref].(map[string]any)
		valid := editSample(t, set, shape, "edits.json").(map[string]any)
		variant := func(f func(m map[string]any)) {
			c := deepCopy(valid).(map[string]any)
			f(c)
			samples = append(samples, c)
		}
		variant(func(map[string]any) {})
		variant(func(m map[string]any) { m["colour"] = "red" })
		for _, r := range shape["required"].([]any) {
			variant(func(m map[string]any) { delete(m, r.(string)) })
		}
		props := shape["properties"].(map[string]any)
		for name, p := range props {
			variant(func(m map[string]any) { m[name] = editSample(t, set, p, "edits.json") })
			variant(func(m map[string]any) { m[name] = []any{} })
			if pm := p.(map[string]any); pm["maxLength"] != nil {
				n, _ := pm["maxLength"].(float64)
				variant(func(m map[string]any) { m[name] = strings.Repeat("x", int(n)+1) })
			}
			if pm := p.(map[string]any); pm["$ref"] == "#/$defs/nodeRef" {
				variant(func(m map[string]any) { m[name] = map[string]any{"handle": "h1"} })
				variant(func(m map[string]any) { m[name] = map[string]any{"handle": "h1", "id": "x"} })
			}
		}
		for _, k := range kinds {
			variant(func(m map[string]any) { m["kind"] = k })
		}
		for _, op := range []string{"remove", "insert", "create", "update", "add", "rename"} {
			variant(func(m map[string]any) { m["op"] = op })
		}
		variant(func(m map[string]any) { delete(m, "op") })
	}
	samples = append(samples, map[string]any{}, map[string]any{"kind": "set_property"})

	tools := map[string]*jsonschema.Schema{}
	sdkTools := map[string]*gjs.Resolved{}
	for _, op := range []string{"change.propose", "edit.plan"} {
		tools[op] = compileTool(t, op, inputs[op])
		sdkTools[op] = sdkResolve(t, op, inputs[op])
	}
	valid := 0
	for i, sample := range samples {
		for _, op := range []string{"change.propose", "edit.plan"} {
			args := map[string]any{"base_snapshot": "snap-1", "params": map[string]any{"operations": []any{sample}}}
			if op == "change.propose" {
				args["request_id"] = "r-1"
			}
			toolErr := tools[op].Validate(roundTrip(t, args))
			if sdkErr := sdkTools[op].Validate(sdkValue(t, args)); (sdkErr == nil) != (toolErr == nil) {
				b, _ := json.Marshal(sample)
				t.Errorf("sample %d %s %s: the SDK's validator says %v, ours %v", i, op, b, sdkErr, toolErr)
			}
			full := map[string]any{"protocol": protocol.Name, "operation": op, "workspace": "ws-1"}
			for k, v := range args {
				full[k] = v
			}
			envErr := env.Validate(roundTrip(t, full))
			if (toolErr == nil) != (envErr == nil) {
				b, _ := json.Marshal(sample)
				t.Errorf("sample %d %s %s: tool schema says %v, envelope says %v", i, op, b, toolErr, envErr)
			}
			valid += b2i(toolErr == nil)
		}
	}
	if valid < 2*len(variants) || valid == 2*len(samples) {
		t.Errorf("%d of %d valid: the samples do not tell valid from invalid", valid, 2*len(samples))
	}
	t.Logf("%d samples, %d valid", 2*len(samples), valid)
}

var update = flag.Bool("update", false, "rewrite testdata/tools-list.golden.json")

// TestToolsListGolden keeps the tool list as a client receives it in
// testdata, so that a change to what agents are sent shows in review
// (go test ./internal/agent/transport/mcp -run TestToolsListGolden -update).
func TestToolsListGolden(t *testing.T) {
	cs := connect(t, taskApp(t))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(list.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "tools-list.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("the tool list differs from %s; if the change is meant, run with -update and review the diff", golden)
	}
}

// TestVariantsToAnyOfRefuses gives the rewrite shapes it cannot prove
// equivalent: each is a clear error, not a looser schema.
func TestVariantsToAnyOfRefuses(t *testing.T) {
	shape := func(kind, op string, closed bool) map[string]any {
		props := map[string]any{"kind": map[string]any{"const": kind}}
		req := []any{"kind"}
		if op != "" {
			props["op"] = map[string]any{"const": op}
			req = append(req, "op")
		}
		return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": !closed}
	}
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/$defs/" + name} }
	for _, tc := range []struct {
		name     string
		variants any
		defs     map[string]any
		want     string
	}{
		{"not a list", "a", nil, "not a list"},
		{"not a reference", []any{map[string]any{"type": "object"}}, nil, "not a reference"},
		{"open shape", []any{ref("a")}, map[string]any{"a": shape("set_property", "", false)}, "reject unknown fields"},
		{"no kind", []any{ref("a")}, map[string]any{"a": map[string]any{"type": "object", "additionalProperties": false}}, "does not fix kind"},
		{"two alike", []any{ref("a"), ref("b")}, map[string]any{"a": shape("import", "add", true), "b": shape("import", "add", true)}, "two variants for import add"},
	} {
		m := map[string]any{"x-variants": tc.variants}
		err := variantsToAnyOf(m, "edits.editOperation", tc.defs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// TestServerValidatesWhatToolsRelax sends a call that the listed schema
// lets through, a node id longer than the published bound: the server
// still refuses it, since it validates against the published schemas.
func TestServerValidatesWhatToolsRelax(t *testing.T) {
	_, inputs := publishedAndListed(t)
	args := map[string]any{"snapshot": "latest", "params": map[string]any{"nodes": []any{"element:" + strings.Repeat("a", 1100)}}}
	if err := compileTool(t, "node.get", inputs["node.get"]).Validate(roundTrip(t, args)); err != nil {
		t.Fatalf("the tool schema refuses a long id: %v", err)
	}
	cs := connect(t, taskApp(t))
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "node_get", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if !res.IsError || !strings.Contains(string(b), `"invalid_arguments"`) {
		t.Errorf("a node id over the published maxLength was not refused: %s", b)
	}
}
