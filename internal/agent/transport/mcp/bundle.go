package mcp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"
)

// Tool input schemas are bundled: MCP clients read a tool's inputSchema as
// one document and skip (or refuse) a schema whose $ref points into another
// file. Each tool's schema is the request envelope without protocol and
// operation, with params replaced by the operation's request schema, and
// every schema it references (common.json, edits.json, recursively) copied
// into one local $defs, its $ref rewritten to "#/$defs/<name>". The tools
// list the bundle made compact (compact.go).

const (
	envelopeFile = "envelope.request.json"
	draft202012  = "https://json-schema.org/draft/2020-12/schema"
)

// schemaSet is the published schema files, by path and by $id.
type schemaSet struct {
	byPath map[string]map[string]any // "operations/node.find.request.json"
	base   map[string]*url.URL       // path -> base URI ($id)
	byURI  map[string]string         // $id without fragment -> path
}

func loadSchemas(fsys fs.FS) (*schemaSet, error) {
	s := &schemaSet{byPath: map[string]map[string]any{}, base: map[string]*url.URL{}, byURI: map[string]string{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") || p == "index.json" {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		// A file without $id is addressed by its path under a private base,
		// so relative references between files still resolve.
		id, _ := doc["$id"].(string)
		if id == "" {
			id = "acore-schema:///" + p
		}
		u, err := url.Parse(id)
		if err != nil {
			return fmt.Errorf("%s: $id %q: %v", p, id, err)
		}
		u.Fragment = ""
		s.byPath[p] = doc
		s.base[p] = u
		s.byURI[u.String()] = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.byPath[envelopeFile] == nil {
		return nil, fmt.Errorf("%s is missing", envelopeFile)
	}
	return s, nil
}

// bundler builds one self-contained schema.
type bundler struct {
	set  *schemaSet
	defs map[string]any    // name -> copied schema
	keys map[string]string // absolute ref -> name
	todo []pending
}

type pending struct {
	name, file, pointer string
}

// toolSchema returns the bundled input schema of op's tool.
func (s *schemaSet) toolSchema(op string) (map[string]any, error) {
	env := s.byPath[envelopeFile]
	reqFile := "operations/" + op + ".request.json"
	req := s.byPath[reqFile]
	if req == nil {
		return nil, fmt.Errorf("%s is missing", reqFile)
	}
	b := &bundler{set: s, defs: map[string]any{}, keys: map[string]string{}}

	// Which envelope fields op takes: x-envelope-fields says not_allowed,
	// optional, required or required_unless_params_candidate per field.
	rules, _ := env["x-envelope-fields"].(map[string]any)
	opRules, _ := rules[op].(map[string]any)

	envProps, _ := env["properties"].(map[string]any)
	props := map[string]any{}
	var required []string
	names := make([]string, 0, len(envProps))
	for name := range envProps {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		switch name {
		case "protocol", "operation":
			continue
		case "params":
			p, err := b.copySchema(req, reqFile)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", reqFile, err)
			}
			props[name] = p
			required = append(required, name)
			continue
		}
		rule, _ := opRules[name].(string)
		if rule == "not_allowed" {
			continue
		}
		p, err := b.copySchema(envProps[name], envelopeFile)
		if err != nil {
			return nil, fmt.Errorf("%s: properties.%s: %v", envelopeFile, name, err)
		}
		if m, ok := p.(map[string]any); ok {
			switch {
			case name == "workspace":
				m["description"] = "The workspace id from workspace.open. Optional over MCP: the server fills in the workspace of the root it serves."
			case rule == "required_unless_params_candidate":
				m["description"] = appendSentence(m["description"], "Required unless params.candidate is given.")
			}
		}
		props[name] = p
		// The server fills workspace; every other field the operation
		// requires stays required.
		if rule == "required" && name != "workspace" {
			required = append(required, name)
		}
	}
	if err := b.drain(); err != nil {
		return nil, err
	}
	sort.Strings(required)
	out := map[string]any{
		"$schema":     draft202012,
		"title":       op + " request",
		"description": "The request envelope of " + op + " without protocol and operation; params are the operation's arguments.",
		"type":        "object",
		"properties":  props,
		"required":    required,
	}
	if len(b.defs) > 0 {
		out["$defs"] = b.defs
	}
	return out, nil
}

func appendSentence(desc any, s string) string {
	d, _ := desc.(string)
	if d == "" {
		return s
	}
	return strings.TrimSpace(d) + " " + s
}

// drain copies every referenced schema not copied yet.
func (b *bundler) drain() error {
	for len(b.todo) > 0 {
		p := b.todo[0]
		b.todo = b.todo[1:]
		target, err := resolvePointer(b.set.byPath[p.file], p.pointer)
		if err != nil {
			return fmt.Errorf("%s#%s: %v", p.file, p.pointer, err)
		}
		c, err := b.copySchema(target, p.file)
		if err != nil {
			return fmt.Errorf("%s#%s: %v", p.file, p.pointer, err)
		}
		b.defs[p.name] = c
	}
	return nil
}

// Keywords whose values are schemas, maps of schemas or arrays of
// schemas (draft 2020-12). Every other keyword is copied as it is.
var (
	schemaKeywords = map[string]bool{"additionalProperties": true, "items": true, "contains": true, "not": true,
		"if": true, "then": true, "else": true, "propertyNames": true, "unevaluatedItems": true,
		"unevaluatedProperties": true, "additionalItems": true, "contentSchema": true}
	schemaMapKeywords   = map[string]bool{"properties": true, "patternProperties": true, "dependentSchemas": true}
	schemaArrayKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
)

// copySchema copies a schema found in file, rewriting its references to
// local ones and queueing their targets. Definitions ($defs) are not
// copied in place: what is referenced is copied to the top.
func (b *bundler) copySchema(v any, file string) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil // true, false
	}
	out := make(map[string]any, len(m))
	for k, val := range m {
		switch {
		case k == "$id" || k == "$schema" || k == "$defs" || k == "definitions" || k == "$comment":
			// $id would change the base of the local references; $schema
			// is only allowed at the root; $defs are copied on demand.
		case k == "$anchor" || k == "$dynamicAnchor" || k == "$dynamicRef" || k == "$recursiveRef":
			return nil, fmt.Errorf("%s is not supported by the bundler", k)
		case k == "$ref":
			ref, ok := val.(string)
			if !ok {
				return nil, fmt.Errorf("$ref is not a string")
			}
			local, err := b.ref(ref, file)
			if err != nil {
				return nil, err
			}
			out[k] = local
		case schemaKeywords[k]:
			c, err := b.copySchema(val, file)
			if err != nil {
				return nil, err
			}
			out[k] = c
		case schemaMapKeywords[k]:
			mm, ok := val.(map[string]any)
			if !ok {
				out[k] = val
				continue
			}
			cm := make(map[string]any, len(mm))
			for name, sub := range mm {
				c, err := b.copySchema(sub, file)
				if err != nil {
					return nil, err
				}
				cm[name] = c
			}
			out[k] = cm
		case strings.HasPrefix(k, "x-"):
			// Extensions are not validated, but may name schemas
			// (edits.json's x-variants): their references stay valid.
			c, err := b.copyExtension(val, file)
			if err != nil {
				return nil, err
			}
			out[k] = c
		case schemaArrayKeywords[k]:
			arr, ok := val.([]any)
			if !ok {
				out[k] = val
				continue
			}
			ca := make([]any, len(arr))
			for i, sub := range arr {
				c, err := b.copySchema(sub, file)
				if err != nil {
					return nil, err
				}
				ca[i] = c
			}
			out[k] = ca
		default:
			out[k] = val
		}
	}
	return out, nil
}

// copyExtension copies the value of an extension keyword, rewriting every
// {"$ref": "..."} in it.
func (b *bundler) copyExtension(v any, file string) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, val := range v {
			if ref, ok := val.(string); ok && k == "$ref" {
				local, err := b.ref(ref, file)
				if err != nil {
					return nil, err
				}
				out[k] = local
				continue
			}
			c, err := b.copyExtension(val, file)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, val := range v {
			c, err := b.copyExtension(val, file)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

// ref resolves ref against file's base and returns the local reference
// of its copy.
func (b *bundler) ref(ref, file string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("$ref %q: %v", ref, err)
	}
	abs := b.set.base[file].ResolveReference(r)
	pointer := abs.Fragment
	abs.Fragment = ""
	target, ok := b.set.byURI[abs.String()]
	if !ok {
		return "", fmt.Errorf("$ref %q: %s is not a published schema", ref, abs)
	}
	if pointer != "" && !strings.HasPrefix(pointer, "/") {
		return "", fmt.Errorf("$ref %q: only JSON pointer fragments are supported", ref)
	}
	key := target + "#" + pointer
	if name, ok := b.keys[key]; ok {
		return "#/$defs/" + escapeToken(name), nil
	}
	name := defName(target, pointer)
	for i := 2; b.taken(name); i++ {
		name = fmt.Sprintf("%s_%d", defName(target, pointer), i)
	}
	b.keys[key] = name
	b.defs[name] = nil // reserved until drained
	b.todo = append(b.todo, pending{name: name, file: target, pointer: pointer})
	return "#/$defs/" + escapeToken(name), nil
}

func (b *bundler) taken(name string) bool {
	_, ok := b.defs[name]
	return ok
}

// defName names the copy of file#pointer: common.json#/$defs/nodeId is
// "common.nodeId", operations/x.request.json is "x.request".
func defName(file, pointer string) string {
	name := strings.TrimSuffix(path.Base(file), ".json")
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if tok == "" || tok == "$defs" || tok == "definitions" {
			continue
		}
		name += "." + unescapeToken(tok)
	}
	return name
}

func resolvePointer(doc any, pointer string) (any, error) {
	if pointer == "" {
		return doc, nil
	}
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = unescapeToken(tok) // the fragment is already URL-decoded
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("no %q", tok)
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("no index %q", tok)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("no %q", tok)
		}
	}
	return cur, nil
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
