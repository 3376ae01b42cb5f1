// Package schema validates requests and responses of the
// axiom-agent-semantic/v1 protocol against the published JSON Schema files
// (draft 2020-12) that the schemas directory at the repository root embeds.
//
// The compiler's only loader serves the embedded files, each under its $id
// (checked when the file is first read): references resolve only against
// the embedded files, never against the network or the local filesystem.
// Format assertions (date-time) are on. Files are read and schemas
// compiled on first use, each once, and are safe for concurrent use; a
// request is validated with schemas compiled for its operation alone (see
// request.go).
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/axiomcore/acore/schemas"
	"github.com/axiomcore/acore/third_party/jsonschema"
)

// Protocol is the only protocol the schemas describe.
const Protocol = "axiom-agent-semantic/v1"

// BaseID is the prefix of every schema's $id; a file's $id is BaseID
// followed by its path, for example BaseID + "operations/node.find.request.json".
const BaseID = "https://schemas.axiomcore.dev/agent-semantic/v1/"

// Operations returns the operations of v1 in the reference's order: the
// keys of envelope.request.json's x-envelope-fields, the one list every
// other table (the service's, the MCP tools, the docs) follows.
func Operations() []string { return slices.Clone(table().names) }

// IsOperation reports whether op is an operation of v1.
func IsOperation(op string) bool { _, ok := table().envelope[op]; return ok }

// Presence says whether an operation takes an envelope field, as
// x-envelope-fields spells it: "required", "optional", "not_allowed" or
// "required_unless_params_candidate".
type Presence string

// The presences of envelope fields.
const (
	Required   Presence = "required"
	Optional   Presence = "optional"
	NotAllowed Presence = "not_allowed"
	// RequiredUnlessCandidate is check.run's snapshot: required unless
	// params.candidate names what to check.
	RequiredUnlessCandidate Presence = "required_unless_params_candidate"
)

// Envelope is which envelope fields one operation takes.
type Envelope struct {
	Workspace    Presence `json:"workspace"`
	Snapshot     Presence `json:"snapshot"`
	BaseSnapshot Presence `json:"base_snapshot"`
	RequestID    Presence `json:"request_id"`
}

// EnvelopeOf returns the envelope fields op takes; ok is false for an
// operation that is not of v1.
func EnvelopeOf(op string) (e Envelope, ok bool) {
	e, ok = table().envelope[op]
	return e, ok
}

type opTable struct {
	names    []string
	envelope map[string]Envelope
}

// table reads x-envelope-fields once, keeping its key order. The embedded
// file is part of the binary, so a failure is a build defect: it panics.
var table = sync.OnceValue(func() opTable {
	b, err := fs.ReadFile(schemas.FS, EnvelopeRequestFile)
	if err != nil {
		panic(err)
	}
	t, err := envelopeFields(b)
	if err != nil {
		panic(fmt.Sprintf("%s: x-envelope-fields: %v", EnvelopeRequestFile, err))
	}
	return t
})

// envelopeFields reads x-envelope-fields of the envelope request schema b,
// in its key order.
func envelopeFields(b []byte) (opTable, error) {
	t := opTable{envelope: map[string]Envelope{}}
	d := docDecoder{data: b}
	err := d.object(func(k string) error {
		if k != "x-envelope-fields" {
			_, err := d.value(1)
			return err
		}
		return d.object(func(op string) error {
			v, err := d.value(2)
			fields, ok := v.(map[string]any)
			if err != nil || !ok {
				return errDoc
			}
			presence := func(name string) Presence { s, _ := fields[name].(string); return Presence(s) }
			t.names = append(t.names, op)
			t.envelope[op] = Envelope{Workspace: presence("workspace"), Snapshot: presence("snapshot"),
				BaseSnapshot: presence("base_snapshot"), RequestID: presence("request_id")}
			return nil
		})
	})
	if err == nil && len(t.names) == 0 {
		err = errors.New("no operations")
	}
	return t, err
}

// RequestFile and ResultFile name the schema files of one operation.
func RequestFile(op string) string { return "operations/" + op + ".request.json" }

// ResultFile names the schema file of op's result.
func ResultFile(op string) string { return "operations/" + op + ".result.json" }

// The root schema files.
const (
	EnvelopeRequestFile  = "envelope.request.json"
	EnvelopeResponseFile = "envelope.response.json"
	ErrorFile            = "error.json"
	CommonFile           = "common.json"
	EditsFile            = "edits.json"
)

type compiled struct {
	fsys  fs.FS
	files []string
	// Files are decoded on first use too: the one-shot command reads the
	// envelope, common.json and its operation's request schema, not the
	// result schemas.
	docMu sync.Mutex
	docs  map[string]any
	// Schemas are compiled on first use: a process that answers one
	// request (the one-shot command) compiles what that request needs,
	// not the result schemas only tests validate against.
	mu      sync.Mutex
	comp    *jsonschema.Compiler
	schemas map[string]*jsonschema.Schema
	// requests validate the requests of each operation ("" for a request
	// whose operation is missing or not of v1), each compiled on first
	// use with only the schemas that operation's requests need.
	requests map[string]*request
	// patternMessages maps a pattern of common.json to a message that
	// says what the value must be, instead of repeating the regexp.
	patternMessages func() map[string]string
	err             error
}

var load = sync.OnceValue(func() *compiled {
	c, err := compile(schemas.FS)
	if err != nil {
		return &compiled{err: err}
	}
	return c
})

// embedded loads the schema files a compiler asks for, from the embedded
// files only; it refuses every other URL. With a need, a file is pruned
// to what the need lists.
type embedded struct {
	c    *compiled
	need needs
}

func (l embedded) Load(url string) (any, error) {
	if f, ok := strings.CutPrefix(url, BaseID); ok && slices.Contains(l.c.files, f) {
		doc, err := l.c.doc(f)
		if err != nil || l.need == nil {
			return doc, err
		}
		return l.need.prune(f, doc), nil
	}
	return nil, fmt.Errorf("schema %s is not one of the embedded files (no network or file loading)", url)
}

// newCompiler returns a compiler of the embedded files, pruned to need
// unless need is nil. It does not check them against the draft's
// metaschema, which TestEveryFileMatchesItsMetaschema does: checking
// them in every process compiled draft 2020-12's metaschemas, 4 ms of a
// one-shot request.
func (c *compiled) newCompiler(need needs) *jsonschema.Compiler {
	comp := jsonschema.NewCompiler()
	comp.SkipMetaschemaCheck()
	comp.UseLoader(embedded{c, need})
	comp.AssertFormat()
	comp.DefaultDraft(jsonschema.Draft2020)
	return comp
}

func compile(fsys fs.FS) (*compiled, error) {
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Ext(p) != ".json" || p == "index.json" {
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	c := &compiled{
		fsys:     fsys,
		files:    files,
		docs:     map[string]any{},
		schemas:  map[string]*jsonschema.Schema{},
		requests: map[string]*request{"": {}},
	}
	for _, op := range table().names {
		c.requests[op] = &request{}
	}
	c.comp = c.newCompiler(nil)
	c.patternMessages = sync.OnceValue(func() map[string]string {
		common, _ := c.doc(CommonFile)
		return patternMessages(common)
	})
	return c, nil
}

// doc returns the decoded JSON of one schema file, decoding it on first
// use and checking that its $id is BaseID followed by its path.
func (c *compiled) doc(file string) (any, error) {
	c.docMu.Lock()
	defer c.docMu.Unlock()
	if doc, ok := c.docs[file]; ok {
		return doc, nil
	}
	if !slices.Contains(c.files, file) {
		return nil, fmt.Errorf("no schema file %q", file)
	}
	data, err := fs.ReadFile(c.fsys, file)
	if err != nil {
		return nil, err
	}
	doc, err := decodeDoc(data)
	if err != nil {
		if doc, err = jsonschema.UnmarshalJSON(bytes.NewReader(data)); err != nil {
			return nil, fmt.Errorf("schema %s: %v", file, err)
		}
	}
	obj, _ := doc.(map[string]any)
	if id, _ := obj["$id"].(string); id != BaseID+file {
		return nil, fmt.Errorf("schema %s: $id is %q, want %q", file, id, BaseID+file)
	}
	c.docs[file] = doc
	return doc, nil
}

// schema returns the compiled schema of file, compiling it on first use.
func (c *compiled) schema(file string) (*jsonschema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.schemas[file]; ok {
		return s, nil
	}
	if !slices.Contains(c.files, file) {
		return nil, fmt.Errorf("no schema file %q", file)
	}
	s, err := c.comp.Compile(BaseID + file)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %v", file, err)
	}
	c.schemas[file] = s
	return s, nil
}

// patternMessages reads the patterns of common.json's string definitions
// and pairs each with what a value must be.
func patternMessages(common any) map[string]string {
	says := map[string]string{
		"path":         "must be a project-relative path: forward slashes, no leading slash, no empty, . or .. segment, no backslash or control character",
		"absolutePath": "must be an absolute path",
		"sha256":       "must be a lowercase hex SHA-256 (64 characters)",
		"timestamp":    "must be an RFC 3339 timestamp with an explicit offset, uppercase T and Z",
	}
	m := map[string]string{}
	obj, _ := common.(map[string]any)
	defs, _ := obj["$defs"].(map[string]any)
	for name, msg := range says {
		def, _ := defs[name].(map[string]any)
		if p, ok := def["pattern"].(string); ok {
			m[p] = msg
		}
	}
	return m
}

// Files lists the 39 schema files, as paths relative to the schemas
// directory ("common.json", "operations/node.find.request.json", ...), in
// lexical order. index.json is not a schema and is not listed.
func Files() []string {
	c := load()
	return slices.Clone(c.files)
}

// Document returns the decoded JSON of one schema file (shared: do not
// modify it), for tools that read annotations such as x-errors.
func Document(file string) (any, error) {
	c := load()
	if c.err != nil {
		return nil, c.err
	}
	doc, err := c.doc(file)
	if err != nil {
		return nil, fmt.Errorf("schema: %v", err)
	}
	return doc, nil
}

// Errors returns the error codes an operation can return: the x-errors of
// its result schema.
func Errors(op string) ([]string, error) {
	doc, err := Document(ResultFile(op))
	if err != nil {
		return nil, err
	}
	list, _ := doc.(map[string]any)["x-errors"].([]any)
	codes := make([]string, 0, len(list))
	for _, c := range list {
		s, ok := c.(string)
		if !ok {
			return nil, fmt.Errorf("schema %s: x-errors holds a %T", ResultFile(op), c)
		}
		codes = append(codes, s)
	}
	return codes, nil
}

// FieldError is the first failure of a validation: the most specific field
// that is wrong and what is wrong with it. It answers invalid_arguments
// with reason schema.
type FieldError struct {
	// Field locates the value: dotted names and [index] for array
	// elements, as in params.operations[0].old_value. It is empty when the
	// whole document is wrong.
	Field string
	// Message says what is wrong, for example "must be <= 50".
	Message string
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// Validate validates the JSON value v against one schema file (a path
// relative to the schemas directory, as Files lists). v is normally decoded
// JSON (from encoding/json into any, with or without UseNumber); a
// json.RawMessage is decoded, and any other Go value (a struct, a typed map
// or slice) is converted by a round trip through encoding/json. A failure
// is returned as a *FieldError.
func Validate(file string, v any) error {
	if fe := validate(file, v, ""); fe != nil {
		return fe
	}
	return nil
}

// ValidateParams validates the params of one operation against
// operations/<op>.request.json. Fields are named from the envelope, as
// params.limit. An operation that is not one of v1 is reported on the
// field operation.
func ValidateParams(op string, params any) *FieldError {
	if !IsOperation(op) {
		return &FieldError{Field: "operation", Message: fmt.Sprintf("unknown operation %q", op)}
	}
	c := load()
	if c.err != nil {
		return &FieldError{Message: "schema: " + c.err.Error()}
	}
	r := c.request(op)
	if r.err != nil {
		return &FieldError{Message: "schema: " + r.err.Error()}
	}
	params, err := normalize(params)
	if err != nil {
		return &FieldError{Field: "params", Message: err.Error()}
	}
	return c.check(r.params, params, "params")
}

// ValidateRequest validates a whole request envelope against
// envelope.request.json, which also validates params against the
// operation's request schema. The protocol field only has to be a string:
// the caller answers another protocol with unsupported_operation
// (protocol_unsupported) before validating.
func ValidateRequest(env any) *FieldError {
	fe := validateEnvelope(env)
	if fe == nil {
		return nil
	}
	// Name the operation when an envelope field is wrong for it.
	if obj, ok := env.(map[string]any); ok {
		if op, ok := obj["operation"].(string); ok && IsOperation(op) {
			switch fe.Field {
			case "workspace", "snapshot", "base_snapshot", "request_id":
				if fe.Message == msgNotAllowed || fe.Message == msgRequired {
					fe.Message += " for operation " + op
				}
			}
		}
	}
	return fe
}

// ValidateResponse validates a whole response envelope against
// envelope.response.json, which also validates result against the
// operation's result schema.
func ValidateResponse(resp any) error {
	return Validate(EnvelopeResponseFile, resp)
}

func validate(file string, v any, prefix string) *FieldError {
	c := load()
	if c.err != nil {
		return &FieldError{Message: "schema: " + c.err.Error()}
	}
	s, err := c.schema(file)
	if err != nil {
		return &FieldError{Message: "schema: " + err.Error()}
	}
	v, err = normalize(v)
	if err != nil {
		return &FieldError{Field: prefix, Message: err.Error()}
	}
	return c.check(s, v, prefix)
}

// validateEnvelope validates a request envelope as validate does against
// envelope.request.json, with the envelope schema of its operation (see
// request.go).
func validateEnvelope(env any) *FieldError {
	c := load()
	if c.err != nil {
		return &FieldError{Message: "schema: " + c.err.Error()}
	}
	env, err := normalize(env)
	if err != nil {
		return &FieldError{Message: err.Error()}
	}
	op := ""
	if obj, ok := env.(map[string]any); ok {
		if o, ok := obj["operation"].(string); ok && IsOperation(o) {
			op = o
		}
	}
	r := c.request(op)
	if r.err != nil {
		return &FieldError{Message: "schema: " + r.err.Error()}
	}
	return c.check(r.envelope, env, "")
}

// check validates the normalized value v against s.
func (c *compiled) check(s *jsonschema.Schema, v any, prefix string) *FieldError {
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	verr, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return &FieldError{Field: prefix, Message: err.Error()}
	}
	return c.first(verr, v, prefix)
}

// normalize returns v as the generic JSON values the validator reads.
func normalize(v any) (any, error) {
	switch x := v.(type) {
	case json.RawMessage:
		return decode(x)
	}
	if isJSON(v) {
		return v, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decode(data)
}

func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("invalid JSON: more than one value")
	}
	return v, nil
}

func isJSON(v any) bool {
	switch x := v.(type) {
	case nil, bool, string, float64, json.Number:
		return true
	case map[string]any:
		for _, e := range x {
			if !isJSON(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !isJSON(e) {
				return false
			}
		}
		return true
	}
	return false
}
