package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// The operations of change.propose and edit.plan are decoded here, strictly
// and with the bounds of edits.json, into the engine's typed operations:
// the engine (internal/agent/edit) knows nothing of the wire.

// DecodeOperations decodes a batch of operations. A malformed one is
// invalid_arguments (schema) at its index.
func DecodeOperations(raws []json.RawMessage) ([]edit.Op, *protocol.Error) {
	// The schema bounds the batch to 1..operations_max operations before
	// it is decoded; an empty one is refused the same way here.
	if len(raws) == 0 {
		return nil, protocol.Errorf(reason.Schema, "operations: the batch is empty")
	}
	ops := make([]edit.Op, len(raws))
	for i, raw := range raws {
		o, e := decodeOperation(i, raw)
		if e != nil {
			return nil, e
		}
		ops[i] = o
	}
	return ops, nil
}

// nodeRef is a node id of the base snapshot or {handle}.
type nodeRef edit.NodeRef

func (r *nodeRef) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &r.ID); err != nil {
			return err
		}
		if utf8.RuneCountInString(r.ID) > 1024 {
			return fmt.Errorf("is longer than 1024 characters")
		}
		return nil
	}
	var h struct {
		Handle *string `json:"handle"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil || h.Handle == nil {
		return fmt.Errorf("must be a node id or {\"handle\": \"<name>\"}")
	}
	r.Handle, r.IsHandle = *h.Handle, true
	return nil
}

// optionRef cites a node.edits option (edit.OptionRef with its wire
// names).
type optionRef struct {
	OptionID    string `json:"option_id"`
	Fingerprint string `json:"fingerprint"`
}

// wireOp is one edit operation as the wire spells it: the fields of the
// shapes but kind and op, which name the shape.
type wireOp struct {
	Node                nodeRef         `json:"node"`
	Anchor              nodeRef         `json:"anchor"`
	Target              nodeRef         `json:"target"`
	Property            string          `json:"property"`
	OldValue            json.RawMessage `json:"old_value"`
	NewValue            json.RawMessage `json:"new_value"`
	OldText             string          `json:"old_text"`
	Element             string          `json:"element"`
	Declaration         string          `json:"declaration"`
	Position            string          `json:"position"`
	Path                string          `json:"path"`
	ImportKind          string          `json:"import_kind"`
	Symbol              string          `json:"symbol"`
	From                string          `json:"from"`
	StartLine           int             `json:"start_line"`
	EndLine             int             `json:"end_line"`
	NewText             string          `json:"new_text"`
	OldName             string          `json:"old_name"`
	NewName             string          `json:"new_name"`
	Page                string          `json:"page"`
	Args                json.RawMessage `json:"args"`
	Handle              *string         `json:"handle"`
	ExpectedNodeVersion *string         `json:"expected_node_version"`
	Option              *optionRef      `json:"option"`
	Text                string          `json:"text"`
	OldSHA256           string          `json:"old_sha256"`
}

// shape lists the required and optional fields of one operation shape.
type shape struct {
	required []string
	optional []string
}

var common3 = []string{"handle", "expected_node_version", "option"}

// shapes are the operation shapes of edits.json, by kind and op.
var shapes = map[string]shape{
	"set_property":        {[]string{"kind", "node", "property", "new_value"}, append([]string{"old_value"}, common3...)},
	"bind_property":       {[]string{"kind", "node", "property", "old_value", "target"}, common3},
	"list_element/remove": {[]string{"kind", "op", "node", "old_text"}, common3},
	"list_element/insert": {[]string{"kind", "op", "anchor", "position", "old_text", "element"}, common3},
	"declaration/create":  {[]string{"kind", "op", "anchor", "position", "old_text", "declaration"}, common3},
	"declaration/update":  {[]string{"kind", "op", "node", "old_text", "declaration"}, common3},
	"declaration/remove":  {[]string{"kind", "op", "node", "old_text"}, common3},
	"set_reference":       {[]string{"kind", "node", "property", "old_value", "target"}, common3},
	"import/add":          {[]string{"kind", "op", "path", "import_kind", "symbol", "from"}, common3},
	"import/remove":       {[]string{"kind", "op", "path", "symbol", "old_text"}, common3},
	"replace_region":      {[]string{"kind", "path", "start_line", "end_line", "old_text", "new_text", "option"}, nil},
	"file/create":         {[]string{"kind", "op", "path", "text"}, nil},
	"file/remove":         {[]string{"kind", "op", "path", "old_sha256"}, nil},
	"rename":              {[]string{"kind", "node", "old_name", "new_name"}, common3},
	"route/add":           {[]string{"kind", "op", "path", "page"}, append([]string{"anchor", "position", "old_text", "args"}, common3...)},
	"route/remove":        {[]string{"kind", "op", "node", "old_text"}, common3},
}

// maxChars bounds string fields, by shape and field (maxLength in
// edits.json, in characters).
func maxChars(key, field string) int {
	switch field {
	case "property", "symbol", "old_name", "new_name", "page":
		return 256
	case "from", "path":
		if strings.HasPrefix(key, "file/") {
			return 0 // the engine's path rules bound it (not_an_input)
		}
		return 1024
	case "element":
		return 16384
	case "declaration":
		return 20000
	case "new_text":
		return 16384
	case "old_text":
		switch key {
		case "declaration/update", "declaration/remove":
			return 20000
		case "import/remove":
			return 1024
		case "replace_region":
			return 16384
		}
		return 4096
	}
	return 0
}

func schemaError(i int, format string, args ...any) *protocol.Error {
	e := protocol.Errorf(reason.Schema, "operations[%d]%s", i, fmt.Sprintf(format, args...))
	e.OperationIndex = &i
	return e
}

var families = map[string]bool{"set_property": true, "bind_property": true, "list_element": true, "declaration": true,
	"set_reference": true, "import": true, "replace_region": true, "file": true, "rename": true, "route": true}

var opsOf = map[string][]string{"list_element": {"remove", "insert"}, "declaration": {"create", "update", "remove"}, "import": {"add", "remove"},
	"file": {"create", "remove"}, "route": {"add", "remove"}}

// decodeOperation decodes operation i strictly: the fields of its shape
// and no other, with the types and bounds of edits.json.
func decodeOperation(i int, raw json.RawMessage) (edit.Op, *protocol.Error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, schemaError(i, ": must be an object")
	}
	var kind, op string
	if k, ok := fields["kind"]; !ok {
		return nil, schemaError(i, ".kind: is required")
	} else if json.Unmarshal(k, &kind) != nil || !families[kind] {
		return nil, schemaError(i, ".kind: must be one of set_property, bind_property, list_element, declaration, set_reference, import, replace_region, file, rename, route")
	}
	key := kind
	if allowed, ok := opsOf[kind]; ok {
		o, has := fields["op"]
		if !has {
			return nil, schemaError(i, ".op: is required")
		}
		if json.Unmarshal(o, &op) != nil || !contains(allowed, op) {
			return nil, schemaError(i, ".op: must be one of %s", strings.Join(allowed, ", "))
		}
		key = kind + "/" + op
	}
	sh := shapes[key]
	for _, f := range sh.required {
		if _, ok := fields[f]; !ok {
			return nil, schemaError(i, ".%s: is required", f)
		}
	}
	var unknown []string
	for f := range fields {
		if !contains(sh.required, f) && !contains(sh.optional, f) {
			unknown = append(unknown, f)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, schemaError(i, ".%s: unknown field of %s", unknown[0], strings.ReplaceAll(key, "/", ", op "))
	}
	var o wireOp
	for f, v := range fields {
		if err := decodeField(&o, f, v); err != nil {
			return nil, schemaError(i, ".%s: %s", f, err)
		}
		if n := maxChars(key, f); n > 0 {
			var s string
			if json.Unmarshal(v, &s) == nil && utf8.RuneCountInString(s) > n {
				return nil, schemaError(i, ".%s: is longer than %d characters", f, n)
			}
		}
	}
	switch key {
	case "set_property":
		var s string
		if json.Unmarshal(o.NewValue, &s) == nil && utf8.RuneCountInString(s) > 4096 {
			return nil, schemaError(i, ".new_value: is longer than 4096 characters")
		}
	case "set_reference":
		var s string
		if err := json.Unmarshal(o.OldValue, &s); err != nil {
			return nil, schemaError(i, ".old_value: must be a string")
		}
		if utf8.RuneCountInString(s) > 256 {
			return nil, schemaError(i, ".old_value: is longer than 256 characters")
		}
	case "list_element/insert":
		if o.Position != "before" && o.Position != "after" {
			return nil, schemaError(i, ".position: must be one of before, after")
		}
	case "declaration/create":
		if o.Position != "before" && o.Position != "after" && o.Position != "first" {
			return nil, schemaError(i, ".position: must be one of before, after, first")
		}
	case "import/add":
		if o.ImportKind != "component" && o.ImportKind != "model" {
			return nil, schemaError(i, ".import_kind: must be one of component, model")
		}
	case "route/add":
		if _, e := routeArgs(i, o.Args); e != nil {
			return nil, e
		}
		_, hasAnchor := fields["anchor"]
		_, hasPos := fields["position"]
		_, hasOld := fields["old_text"]
		if hasAnchor != hasPos || hasAnchor != hasOld {
			return nil, schemaError(i, ": anchor, position and old_text go together: all three or none")
		}
		if hasPos && o.Position != "before" && o.Position != "after" {
			return nil, schemaError(i, ".position: must be one of before, after")
		}
	case "replace_region":
		if o.StartLine < 1 {
			return nil, schemaError(i, ".start_line: must be >= 1")
		}
		if o.EndLine < 1 {
			return nil, schemaError(i, ".end_line: must be >= 1")
		}
	case "file/remove":
		if !isSHA256(o.OldSHA256) {
			return nil, schemaError(i, ".old_sha256: must be 64 lowercase hex digits")
		}
	}
	// A file operation's path is the engine's to judge: one leaving the
	// root is permission_denied (path_escape), not a schema error; a
	// route's path is a URL path.
	if _, ok := fields["path"]; ok && kind != "file" && key != "route/add" {
		if err := fsutil.ValidRelPath(o.Path); err != nil {
			return nil, schemaError(i, ".path: %s", err)
		}
	}
	return o.typed(key), nil
}

// typed is o as the engine's operation of shape key, which
// decodeOperation has checked o against.
func (o *wireOp) typed(key string) edit.Op {
	c := edit.Common{Handle: o.Handle, ExpectedNodeVersion: o.ExpectedNodeVersion, Option: (*edit.OptionRef)(o.Option)}
	node, anchor, target := edit.NodeRef(o.Node), edit.NodeRef(o.Anchor), edit.NodeRef(o.Target)
	switch key {
	case "set_property":
		// Without old_value, the property must not be written yet.
		if o.OldValue == nil {
			return &edit.SetProperty{Node: node, Property: o.Property, OldValue: edit.Value{Kind: edit.ValueNull}, OldAbsent: true, NewValue: value(o.NewValue), Common: c}
		}
		return &edit.SetProperty{Node: node, Property: o.Property, OldValue: value(o.OldValue), NewValue: value(o.NewValue), Common: c}
	case "bind_property":
		return &edit.BindProperty{Node: node, Property: o.Property, OldValue: value(o.OldValue), Target: target, Common: c}
	case "set_reference":
		var old string
		_ = json.Unmarshal(o.OldValue, &old) // decode checked it is a string
		return &edit.SetReference{Node: node, Property: o.Property, OldValue: old, Target: target, Common: c}
	case "list_element/remove":
		return &edit.ListRemove{Node: node, OldText: o.OldText, Common: c}
	case "list_element/insert":
		return &edit.ListInsert{Anchor: anchor, Position: o.Position, OldText: o.OldText, Element: o.Element, Common: c}
	case "declaration/create":
		return &edit.DeclCreate{Anchor: anchor, Position: o.Position, OldText: o.OldText, Declaration: o.Declaration, Common: c}
	case "declaration/update":
		return &edit.DeclUpdate{Node: node, OldText: o.OldText, Declaration: o.Declaration, Common: c}
	case "declaration/remove":
		return &edit.DeclRemove{Node: node, OldText: o.OldText, Common: c}
	case "import/add":
		return &edit.ImportAdd{Path: o.Path, ImportKind: o.ImportKind, Symbol: o.Symbol, From: o.From, Common: c}
	case "import/remove":
		return &edit.ImportRemove{Path: o.Path, Symbol: o.Symbol, OldText: o.OldText, Common: c}
	case "file/create":
		return &edit.FileCreate{Path: o.Path, Text: o.Text}
	case "file/remove":
		return &edit.FileRemove{Path: o.Path, OldSHA256: o.OldSHA256}
	case "rename":
		return &edit.Rename{Node: node, OldName: o.OldName, NewName: o.NewName, Common: c}
	case "route/add":
		args, _ := routeArgs(0, o.Args) // decodeOperation checked them
		r := &edit.RouteAdd{Path: o.Path, Page: o.Page, Args: args, Position: o.Position, OldText: o.OldText, Common: c}
		if o.Anchor != (nodeRef{}) {
			r.Anchor = &anchor
		}
		return r
	case "route/remove":
		return &edit.RouteRemove{Node: node, OldText: o.OldText, Common: c}
	}
	// replace_region, whose option is required.
	return &edit.ReplaceRegion{Path: o.Path, StartLine: o.StartLine, EndLine: o.EndLine, OldText: o.OldText, NewText: o.NewText,
		Option: *c.Option}
}

// value is an old_value or new_value, which decodeOperation found to be
// JSON.
func value(raw json.RawMessage) edit.Value {
	switch {
	case string(raw) == "null":
		return edit.Value{Kind: edit.ValueNull}
	case string(raw) == "true" || string(raw) == "false":
		return edit.Value{Kind: edit.ValueBool, Bool: string(raw) == "true"}
	case raw[0] == '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return edit.Value{Kind: edit.ValueString, Text: s}
	case raw[0] == '[' || raw[0] == '{':
		return edit.Value{Kind: edit.ValueOther, Text: compactText(raw)}
	}
	return edit.Value{Kind: edit.ValueNumber, Text: string(raw)}
}

// compactText is a list or an object as messages show it: compact, with
// object keys sorted and strings escaped as encoding/json does without
// HTML escaping.
func compactText(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func decodeField(o *wireOp, f string, v json.RawMessage) error {
	var dst any
	switch f {
	case "kind", "op":
		return nil
	case "node":
		dst = &o.Node
	case "anchor":
		dst = &o.Anchor
	case "target":
		dst = &o.Target
	case "property":
		dst = &o.Property
	case "old_value":
		o.OldValue = v
		return nil
	case "new_value":
		o.NewValue = v
		return nil
	case "old_text":
		dst = &o.OldText
	case "element":
		dst = &o.Element
	case "declaration":
		dst = &o.Declaration
	case "position":
		dst = &o.Position
	case "path":
		dst = &o.Path
	case "import_kind":
		dst = &o.ImportKind
	case "symbol":
		dst = &o.Symbol
	case "from":
		dst = &o.From
	case "start_line":
		dst = &o.StartLine
	case "end_line":
		dst = &o.EndLine
	case "new_text":
		dst = &o.NewText
	case "text":
		dst = &o.Text
	case "old_sha256":
		dst = &o.OldSHA256
	case "page":
		dst = &o.Page
	case "args":
		o.Args = v
		return nil
	case "old_name":
		dst = &o.OldName
	case "new_name":
		dst = &o.NewName
	case "handle":
		dst = &o.Handle
	case "expected_node_version":
		dst = &o.ExpectedNodeVersion
	case "option":
		var r optionRef
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return fmt.Errorf("must be {\"option_id\", \"fingerprint\"}: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
		var m map[string]json.RawMessage
		_ = json.Unmarshal(v, &m)
		if _, ok := m["option_id"]; !ok {
			return fmt.Errorf("option_id is required")
		}
		if _, ok := m["fingerprint"]; !ok {
			return fmt.Errorf("fingerprint is required")
		}
		o.Option = &r
		return nil
	default:
		return fmt.Errorf("unknown field")
	}
	if string(v) == "null" {
		return fmt.Errorf("must not be null")
	}
	if err := json.Unmarshal(v, dst); err != nil {
		var te *json.UnmarshalTypeError
		if ok := asTypeError(err, &te); ok {
			return fmt.Errorf("must be %s, not %s", wantType(f), te.Value)
		}
		return fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

func asTypeError(err error, te **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*te = t
	}
	return ok
}

func wantType(f string) string {
	switch f {
	case "start_line", "end_line":
		return "an integer"
	}
	return "a string"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// routeArgs decodes a route add's args: an object of parameter names to
// literal scalars, in name order (the engine writes them in the page's
// parameter order).
func routeArgs(i int, raw json.RawMessage) ([]edit.RouteArg, *protocol.Error) {
	if raw == nil {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, schemaError(i, ".args: must be an object of parameter names to values")
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]edit.RouteArg, 0, len(names))
	for _, k := range names {
		v := m[k]
		if len(v) == 0 || v[0] == '[' || v[0] == '{' || string(v) == "null" {
			return nil, schemaError(i, ".args.%s: must be a string, number or boolean", k)
		}
		var s string
		if json.Unmarshal(v, &s) == nil && utf8.RuneCountInString(s) > 4096 {
			return nil, schemaError(i, ".args.%s: is longer than 4096 characters", k)
		}
		out = append(out, edit.RouteArg{Name: k, Value: value(v)})
	}
	return out, nil
}
