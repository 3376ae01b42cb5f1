package schema

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/axiomcore/acore/schemas"
)

// wantFiles is the reference's "Schema files" section: five root files
// and a request and a result schema for each of the 17 operations.
func wantFiles() []string {
	files := []string{"common.json", "edits.json", "envelope.request.json", "envelope.response.json", "error.json"}
	for _, op := range Operations() {
		files = append(files, RequestFile(op), ResultFile(op))
	}
	sort.Strings(files)
	return files
}

func TestFiles(t *testing.T) {
	got := Files()
	if len(got) != 39 {
		t.Errorf("Files() lists %d files, want 39", len(got))
	}
	if want := wantFiles(); !slices.Equal(got, want) {
		t.Errorf("Files() = %v\nwant %v", got, want)
	}
	if len(Operations()) != 17 {
		t.Errorf("%d operations, want 17", len(Operations()))
	}
}

// TestEveryFileCompiles compiles each file with a fresh compiler too, so a
// file that only compiles thanks to another one's side effects is caught.
func TestEveryFileCompiles(t *testing.T) {
	c := load()
	if c.err != nil {
		t.Fatal(c.err)
	}
	for _, f := range wantFiles() {
		if _, err := c.schema(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		d, err := c.doc(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		doc := d.(map[string]any)
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema is %v", f, doc["$schema"])
		}
		if title, _ := doc["title"].(string); title == "" {
			t.Errorf("%s: no title", f)
		}
	}
}

// TestOffline proves the compiler never loads a schema it was not given.
func TestOffline(t *testing.T) {
	fsys := fstest.MapFS{
		"a.json": {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema",
			"$id": "` + BaseID + `a.json", "$ref": "https://example.com/remote.json"}`)},
	}
	// Files compile on first use.
	compileAll := func(fsys fstest.MapFS) error {
		c, err := compile(fsys)
		if err != nil {
			return err
		}
		_, err = c.schema("a.json")
		return err
	}
	if err := compileAll(fsys); err == nil || !strings.Contains(err.Error(), "not one of the embedded files") {
		t.Errorf("compile with a remote $ref: err = %v, want a refusal to load", err)
	}
	fsys = fstest.MapFS{
		"a.json": {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema",
			"$id": "` + BaseID + `a.json", "$ref": "b.json"}`)},
	}
	if err := compileAll(fsys); err == nil {
		t.Errorf("compile with a $ref to a missing file: no error")
	}
}

// TestRefsAreRelative checks that every $ref names a file of the set by a
// relative reference, never by an absolute URL.
func TestRefsAreRelative(t *testing.T) {
	for _, f := range Files() {
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				if r, ok := x["$ref"].(string); ok {
					if strings.Contains(r, "://") {
						t.Errorf("%s: absolute $ref %s", f, r)
					}
					file, _, _ := strings.Cut(r, "#")
					if file != "" {
						target := resolveRef(f, file)
						if !slices.Contains(Files(), target) {
							t.Errorf("%s: $ref %s names %s, not a schema file", f, r, target)
						}
					}
				}
				for _, e := range x {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		doc, err := Document(f)
		if err != nil {
			t.Fatal(err)
		}
		walk(doc)
	}
}

func resolveRef(from, rel string) string {
	dir := filepath.ToSlash(filepath.Dir(from))
	return filepath.ToSlash(filepath.Clean(filepath.Join(dir, rel)))
}

func TestIndex(t *testing.T) {
	data, err := fs.ReadFile(schemas.FS, "index.json")
	if err != nil {
		t.Fatal(err)
	}
	var index struct {
		Files []struct {
			File  string `json:"file"`
			URL   string `json:"url"`
			ID    string `json:"$id"`
			Title string `json:"title"`
		} `json:"files"`
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	// The files on disk, not the embedded list: a file added to the
	// directory but not to the embed pattern must show up here.
	var onDisk []string
	err = filepath.WalkDir("../../../schemas", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../../../schemas", p)
		rel = filepath.ToSlash(rel)
		if !d.IsDir() && strings.HasSuffix(rel, ".json") && rel != "index.json" {
			onDisk = append(onDisk, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(onDisk)
	var listed []string
	for _, e := range index.Files {
		listed = append(listed, e.File)
		doc, err := Document(e.File)
		if err != nil {
			t.Errorf("index.json lists %s: %v", e.File, err)
			continue
		}
		m := doc.(map[string]any)
		if e.ID != BaseID+e.File || m["$id"] != e.ID {
			t.Errorf("%s: index $id %q, file $id %q, want %q", e.File, e.ID, m["$id"], BaseID+e.File)
		}
		if m["title"] != e.Title {
			t.Errorf("%s: index title %q, file title %q", e.File, e.Title, m["title"])
		}
		if want := "https://docs.axiomcore.dev/semantic-service/schemas/" + e.File; e.URL != want {
			t.Errorf("%s: url %q, want %q", e.File, e.URL, want)
		}
	}
	sort.Strings(listed)
	if !slices.Equal(listed, onDisk) {
		t.Errorf("index.json lists %v\nfiles on disk: %v", listed, onDisk)
	}
	if !slices.Equal(onDisk, Files()) {
		t.Errorf("files on disk %v\nembedded: %v", onDisk, Files())
	}
}

func readJSON(t *testing.T, file string) any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := decode(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return v
}

// TestReferenceRequests validates every request example of the reference.
func TestReferenceRequests(t *testing.T) {
	files, _ := filepath.Glob("testdata/requests/*.json")
	if len(files) != 27 {
		t.Errorf("%d request examples, want the reference's 27", len(files))
	}
	seen := map[string]bool{}
	for _, f := range files {
		req := readJSON(t, f).(map[string]any)
		op := req["operation"].(string)
		seen[op] = true
		if fe := ValidateRequest(req); fe != nil {
			t.Errorf("%s: ValidateRequest: %v", f, fe)
		}
		if fe := ValidateParams(op, req["params"]); fe != nil {
			t.Errorf("%s: ValidateParams: %v", f, fe)
		}
		if err := Validate(EnvelopeRequestFile, req); err != nil {
			t.Errorf("%s: Validate: %v", f, err)
		}
	}
	// The reference has an example request of every operation but
	// project.overview's cursor pages; make sure none was lost.
	for _, op := range Operations() {
		if !seen[op] {
			t.Errorf("no request example of %s", op)
		}
	}
}

// TestReferenceResponses validates the reference's response examples,
// completed (see testdata/responses/README.md).
func TestReferenceResponses(t *testing.T) {
	files, _ := filepath.Glob("testdata/responses/*.json")
	if len(files) != 24 {
		t.Errorf("%d response examples, want 24", len(files))
	}
	for _, f := range files {
		resp := readJSON(t, f).(map[string]any)
		if err := ValidateResponse(resp); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		op := resp["operation"].(string)
		if r, ok := resp["result"]; ok {
			if err := Validate(ResultFile(op), r); err != nil {
				t.Errorf("%s: result: %v", f, err)
			}
		}
		if e, ok := resp["error"]; ok {
			if err := Validate(ErrorFile, e); err != nil {
				t.Errorf("%s: error: %v", f, err)
			}
			code := e.(map[string]any)["code"].(string)
			codes, err := Errors(op)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(codes, code) {
				t.Errorf("%s: %s answers %s, not in its x-errors %v", f, op, code, codes)
			}
		}
		// The request of the same number must exist and be of the same operation.
		num, _, _ := strings.Cut(filepath.Base(f), "-")
		reqs, _ := filepath.Glob("testdata/requests/" + num + "-*.json")
		if len(reqs) != 1 {
			t.Errorf("%s: no request %s", f, num)
			continue
		}
		if req := readJSON(t, reqs[0]).(map[string]any); req["operation"] != op {
			t.Errorf("%s answers %s, request %s is %s", f, op, reqs[0], req["operation"])
		}
	}
}

func TestInvalidResponses(t *testing.T) {
	base := readJSON(t, "testdata/responses/05-node.find.json").(map[string]any)
	errResp := readJSON(t, "testdata/responses/26-node.get-not-found.json").(map[string]any)
	tests := []struct {
		name  string
		edit  func(r map[string]any)
		field string
	}{
		{"no result nor error", func(r map[string]any) { delete(r, "result") }, "result"},
		{"result and error", func(r map[string]any) { r["error"] = errResp["error"] }, ""},
		{"nodes missing", func(r map[string]any) { delete(r["result"].(map[string]any), "nodes") }, "result.nodes"},
		{"node without version", func(r map[string]any) {
			n := r["result"].(map[string]any)["nodes"].([]any)[0].(map[string]any)
			delete(n, "version")
		}, "result.nodes[0].version"},
		{"bad completeness", func(r map[string]any) {
			r["coverage"].(map[string]any)["completeness"] = "most"
		}, "coverage.completeness"},
		{"no truncation", func(r map[string]any) { delete(r, "truncation") }, "truncation"},
		{"other protocol", func(r map[string]any) { r["protocol"] = "axiom-agent-semantic/v2" }, "protocol"},
		{"snapshot latest", func(r map[string]any) { r["snapshot"].(map[string]any)["id"] = "latest" }, "snapshot.id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := clone(base).(map[string]any)
			tt.edit(r)
			err := ValidateResponse(r)
			if err == nil {
				t.Fatal("valid")
			}
			if fe := err.(*FieldError); tt.field != "" && fe.Field != tt.field {
				t.Errorf("got %v, want field %s", fe, tt.field)
			}
		})
	}
	bad := readJSON(t, "testdata/responses/02-capabilities.json").(map[string]any)
	bad["workspace"] = "ws-1"
	if err := ValidateResponse(bad); err == nil || err.(*FieldError).Field != "workspace" {
		t.Errorf("capabilities with a workspace: %v", err)
	}
	bad = clone(errResp).(map[string]any)
	bad["error"].(map[string]any)["code"] = "teapot"
	if err := ValidateResponse(bad); err == nil || err.(*FieldError).Field != "error.code" {
		t.Errorf("unknown error code: %v", err)
	}
	bad = clone(errResp).(map[string]any)
	delete(bad["error"].(map[string]any), "retryable")
	if err := ValidateResponse(bad); err == nil || err.(*FieldError).Field != "error.retryable" {
		t.Errorf("error without retryable: %v", err)
	}
}

func clone(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	out, err := decode(data)
	if err != nil {
		panic(err)
	}
	return out
}

// errorTable is the reference's "Which operations can return each code"
// table, as written there.
var errorTable = map[string]string{
	"unsupported_operation": "every operation",
	"invalid_arguments":     "every operation",
	"ambiguous_owner":       "change.propose, edit.plan",
	"read_only_origin":      "change.propose, edit.plan",
	"stale_snapshot":        "project.overview, node.find, node.get, node.edits, graph.query, context.build, impact.analyze, changes.since, node.relocate, change.propose, check.run, edit.plan",
	"precondition_failed":   "change.propose, change.apply, change.discard, edit.plan",
	"compile_failed":        "workspace.open, node.find, node.get, node.edits, graph.query, context.build, impact.analyze, node.relocate, change.propose, change.apply, edit.plan",
	"conflict":              "change.propose, change.apply",
	"insufficient_context":  "context.build",
	"snapshot_expired":      "project.overview, node.find, node.get, node.edits, graph.query, context.build, impact.analyze, changes.since, node.relocate, change.propose, change.inspect, check.run, change.apply, edit.plan",
	"permission_denied":     "workspace.open, project.overview, node.find, node.get, node.edits, graph.query, context.build, impact.analyze, changes.since, node.relocate, change.propose, change.inspect, check.run, change.apply, change.discard, edit.plan",
	"resource_limit":        "every operation",
	"not_found":             "workspace.open, project.overview, node.find, node.get, node.edits, graph.query, context.build, impact.analyze, changes.since, node.relocate, change.propose, change.inspect, check.run, change.apply, change.discard, edit.plan",
	"internal":              "every operation",
}

// errorLines is the "Error codes:" line under each operation, as written.
var errorLines = map[string]string{
	"capabilities":     "internal, unsupported_operation, invalid_arguments, resource_limit",
	"workspace.open":   "invalid_arguments, not_found, permission_denied, resource_limit, internal, unsupported_operation, compile_failed",
	"project.overview": "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot",
	"node.find":        "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot, compile_failed",
	"node.get":         "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot, compile_failed",
	"node.edits":       "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot, compile_failed",
	"graph.query":      "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot, compile_failed",
	"context.build":    "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot, compile_failed, insufficient_context",
	"impact.analyze":   "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot, compile_failed",
	"edit.plan":        "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, stale_snapshot, snapshot_expired, precondition_failed, ambiguous_owner, read_only_origin, compile_failed",
	"change.propose":   "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, stale_snapshot, snapshot_expired, precondition_failed, ambiguous_owner, read_only_origin, compile_failed, conflict",
	"change.inspect":   "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired",
	"check.run":        "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, stale_snapshot, snapshot_expired",
	"change.apply":     "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, precondition_failed, conflict, compile_failed",
	"change.discard":   "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, precondition_failed",
	"changes.since":    "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot",
	"node.relocate":    "invalid_arguments, not_found, internal, resource_limit, permission_denied, unsupported_operation, snapshot_expired, stale_snapshot, compile_failed",
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

func TestXErrors(t *testing.T) {
	codes := errorCodes(t)
	if len(errorTable) != 14 || len(codes) != 14 {
		t.Fatalf("%d codes in the table, %d in error.json, want 14", len(errorTable), len(codes))
	}
	for _, op := range Operations() {
		var fromTable []string
		for _, code := range codes {
			ops := errorTable[code]
			if ops == "every operation" || slices.Contains(split(ops), op) {
				fromTable = append(fromTable, code)
			}
		}
		got, err := Errors(op)
		if err != nil {
			t.Fatal(err)
		}
		if want := split(errorLines[op]); !slices.Equal(got, want) {
			t.Errorf("%s: x-errors %v\nthe reference's Error codes line: %v", op, got, want)
		}
		sorted := slices.Clone(got)
		slices.SortFunc(sorted, func(a, b string) int { return slices.Index(codes, a) - slices.Index(codes, b) })
		if !slices.Equal(sorted, fromTable) {
			t.Errorf("%s: x-errors %v\nthe reference's table: %v", op, sorted, fromTable)
		}
		for _, c := range got {
			if !slices.Contains(codes, c) {
				t.Errorf("%s: x-errors has %q, not an error code", op, c)
			}
		}
	}
	for code := range errorTable {
		if !slices.Contains(codes, code) {
			t.Errorf("table code %s is not in error.json", code)
		}
	}
}

// errorCodes reads the closed list from error.json, in its order.
func errorCodes(t *testing.T) []string {
	doc, err := Document(ErrorFile)
	if err != nil {
		t.Fatal(err)
	}
	enum := doc.(map[string]any)["$defs"].(map[string]any)["code"].(map[string]any)["enum"].([]any)
	var codes []string
	for _, c := range enum {
		codes = append(codes, c.(string))
	}
	return codes
}

func TestValidateAcceptsGoValues(t *testing.T) {
	type params struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := Validate(RequestFile("node.find"), params{"Add", 10}); err != nil {
		t.Errorf("struct: %v", err)
	}
	if err := Validate(RequestFile("node.find"), params{"Add", 0}); err == nil || err.Error() != "limit: must be >= 1" {
		t.Errorf("struct with limit 0: %v", err)
	}
	if err := Validate(RequestFile("node.find"), json.RawMessage(`{"query": "", "limit": 50}`)); err != nil {
		t.Errorf("raw message: %v", err)
	}
	var plain any
	if err := json.Unmarshal([]byte(`{"query": "", "limit": 5.0}`), &plain); err != nil {
		t.Fatal(err)
	}
	if err := Validate(RequestFile("node.find"), plain); err != nil {
		t.Errorf("decoded without UseNumber: %v", err)
	}
	if err := Validate("operations/nope.request.json", plain); err == nil {
		t.Errorf("unknown file: no error")
	}
	if fe := ValidateParams("node.nope", plain); fe == nil || fe.Field != "operation" {
		t.Errorf("unknown operation: %v", fe)
	}
}

func TestConcurrentUse(t *testing.T) {
	req := readJSON(t, "testdata/requests/14-change.propose.json")
	resp := readJSON(t, "testdata/responses/14-change.propose.json")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				if fe := ValidateRequest(req); fe != nil {
					t.Error(fe)
				}
				if err := ValidateResponse(resp); err != nil {
					t.Error(err)
				}
				if fe := ValidateParams("node.find", map[string]any{"query": "x", "limit": json.Number(fmt.Sprint(51 + j))}); fe == nil {
					t.Errorf("limit %d accepted", 51+j)
				}
			}
		}()
	}
	wg.Wait()
}
