package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// An MCP client sends every tool's inputSchema with every model request, so
// the listed schema is the bundled one made compact. Every field, enum
// value, const and required flag stays, and so does every bound an agent
// could get wrong (schema_test.go checks them against the published
// schemas); the server still validates each call against the published
// schemas through service.Handle.
//
//   - Documentation stays where only this operation says it: the
//     descriptions of the operation's own request schema, each cut to its
//     first sentence. The shared definitions (common.json, edits.json) and
//     the envelope lose theirs, which the server's instructions, the agent
//     skill and the published schemas (all offered as resources) give
//     once; envelopeDocs keeps what a field needs. change.propose's edit
//     shapes keep the first sentence of their titles.
//   - An edit operation, which edits.json selects by if/then on kind and op
//     for precise validator errors, is listed as anyOf its shapes (see
//     variantsToAnyOf).
//   - A closed object whose fields share one schema (limits) is written
//     with propertyNames (see uniformProperties).
//   - The project-relative path pattern is written in an equivalent shorter
//     form (compactPatterns).
//   - Opaque ids the service hands out lose their maxLength (opaqueIDs).
//   - A definition used once, or as short as a reference to it, is written
//     in place; the others keep a short name.

// envelopeDocs are the envelope fields' descriptions in the tool schemas.
// The published ones explain the protocol's rules for every transport;
// these say what an agent needs to fill the field, where its name and
// schema do not: request_id's where it is required (elsewhere it may be
// left out), and the server's instructions say what snapshot and
// base_snapshot take.
var envelopeDocs = map[string]string{
	"request_id": "Idempotency key you choose: new for each intent, the same only to resend the same request.",
}

// compactPatterns maps a published pattern to an equivalent shorter one.
// common.json's path: a segment is one or more allowed characters except .
// and ..; the short form says it as "up to two dots and another character,
// or three dots, then anything", so it names each character class once per
// segment.
var compactPatterns = map[string]string{
	`^(?:[^/\\\x00-\x1f\x7f.][^/\\\x00-\x1f\x7f]*|\.[^/\\\x00-\x1f\x7f.][^/\\\x00-\x1f\x7f]*|\.\.[^/\\\x00-\x1f\x7f]+)(?:/(?:[^/\\\x00-\x1f\x7f.][^/\\\x00-\x1f\x7f]*|\.[^/\\\x00-\x1f\x7f.][^/\\\x00-\x1f\x7f]*|\.\.[^/\\\x00-\x1f\x7f]+))*$`: `^(?:(?:\.{0,2}[^./\\\x00-\x1f\x7f]|\.{3})[^/\\\x00-\x1f\x7f]*/)*(?:\.{0,2}[^./\\\x00-\x1f\x7f]|\.{3})[^/\\\x00-\x1f\x7f]*$`,
}

// opaqueIDs are the published definitions of values an agent copies from
// an answer and never writes itself. Their maxLength is left to the
// server: it guards the service, and an id the service gave out is within
// it.
var opaqueIDs = map[string]bool{
	"common.workspaceId": true, "common.snapshotRef": true, "common.snapshotId": true,
	"common.candidateId": true, "common.nodeId": true, "common.cursor": true,
}

// inlineMaxBytes: a definition whose JSON is at most this long is written
// in place of its references; "$ref":"#/$defs/…" costs about as much.
const inlineMaxBytes = 48

// compactSchema returns the listed form of op's bundled tool schema.
func compactSchema(full map[string]any, op string) (map[string]any, error) {
	s := deepCopy(full).(map[string]any)
	delete(s, "$schema")
	delete(s, "title")
	delete(s, "description")
	props, _ := s["properties"].(map[string]any)
	defs, _ := s["$defs"].(map[string]any)
	opPrefix := op + ".request."

	// Documentation: the operation's own descriptions stay.
	for name, p := range props {
		m, ok := p.(map[string]any)
		if !ok {
			continue
		}
		if name == "params" {
			delete(m, "title")
			delete(m, "description") // the tool's description says it
			stripDocs(m, true)
			walkSchemas(m, func(m map[string]any) {
				if d, ok := m["description"].(string); ok {
					m["description"] = firstSentence(d)
				}
			})
			continue
		}
		unless := strings.HasSuffix(fmt.Sprint(m["description"]), "Required unless params.candidate is given.")
		stripDocs(m, false)
		switch {
		case unless:
			m["description"] = "Required unless params.candidate is given."
		case name == "request_id" && !contains(s["required"], name):
		case envelopeDocs[name] != "":
			m["description"] = envelopeDocs[name]
		}
	}
	for name, d := range defs {
		m, ok := d.(map[string]any)
		if !ok {
			continue
		}
		if opaqueIDs[name] {
			delete(m, "maxLength")
		}
		title, _ := m["title"].(string)
		stripDocs(m, strings.HasPrefix(name, opPrefix))
		// edit.plan takes change.propose's operations: their shapes are
		// described once, there.
		if len(m) > 0 && title != "" && op == "change.propose" && !strings.HasPrefix(name, opPrefix) {
			if t := shapeSummary(title, m); t != "" {
				m["description"] = t
			}
		}
	}

	// Edit operations: anyOf their shapes.
	for _, name := range sortedKeys(defs) {
		if m, ok := defs[name].(map[string]any); ok && m["x-variants"] != nil {
			if err := variantsToAnyOf(m, name, defs); err != nil {
				return nil, fmt.Errorf("$defs/%s: %w", name, err)
			}
		}
	}
	walkSchemas(s, func(m map[string]any) {
		for k := range m {
			if strings.HasPrefix(k, "x-") {
				delete(m, k)
			}
		}
		if p, ok := m["pattern"].(string); ok && compactPatterns[p] != "" {
			m["pattern"] = compactPatterns[p]
		}
		uniformProperties(m)
	})

	if defs != nil {
		if err := inlineDefs(s, defs); err != nil {
			return nil, err
		}
		shortenDefNames(s)
	}
	return s, nil
}

// uniformProperties rewrites a closed object whose three or more fields
// all have the same schema (limits: four positive integers) as
// {"propertyNames": {"enum": fields}, "additionalProperties": schema}: the
// same fields, each with the same schema, and no other.
func uniformProperties(m map[string]any) {
	props, ok := m["properties"].(map[string]any)
	if !ok || len(props) < 3 || m["additionalProperties"] != false || m["propertyNames"] != nil || m["patternProperties"] != nil {
		return
	}
	keys := sortedKeys(props)
	first, err := json.Marshal(props[keys[0]])
	if pm, ok := props[keys[0]].(map[string]any); err != nil || !ok || pm["description"] != nil {
		return // a field with its own description keeps its place
	}
	names := make([]any, len(keys))
	for i, name := range keys {
		if b, err := json.Marshal(props[name]); err != nil || string(b) != string(first) {
			return
		}
		names[i] = name
	}
	m["additionalProperties"] = props[keys[0]]
	m["propertyNames"] = map[string]any{"enum": names}
	delete(m, "properties")
}

// stripDocs removes the annotations an agent does not need to write a
// valid request from a schema and its subschemas: titles, examples,
// comments, and descriptions unless keep.
func stripDocs(v any, keep bool) {
	walkSchemas(v, func(m map[string]any) {
		delete(m, "title")
		delete(m, "examples")
		delete(m, "$comment")
		if !keep {
			delete(m, "description")
		}
	})
}

// shapeSummary is the first sentence of an edit shape's title without the
// kind and op it names ("set_property: Set one authored literal scalar." is
// "Set one authored literal scalar."), or "" for another definition.
func shapeSummary(title string, m map[string]any) string {
	props, _ := m["properties"].(map[string]any)
	kind, _ := props["kind"].(map[string]any)
	k, ok := kind["const"].(string)
	if !ok {
		return ""
	}
	prefix := k
	if op, ok := props["op"].(map[string]any); ok {
		if o, ok := op["const"].(string); ok {
			prefix += ", op: " + o
		}
	}
	rest, ok := strings.CutPrefix(title, prefix+": ")
	if !ok {
		return ""
	}
	return firstSentence(rest)
}

// firstSentence shortens a description to its first sentence, unless that
// is too short to stand alone ("Preset. summary: node only. …").
func firstSentence(d string) string {
	if i := strings.Index(d, ". "); i >= 20 {
		return d[:i+1]
	}
	return d
}

// variantsToAnyOf replaces a schema that selects one of its x-variants by
// if/then with {"type": "object", "anyOf": variants}. Each variant must be
// an object schema that fixes kind (and op, if it has one) by const and
// rejects unknown fields, and no two may fix the same pair: then at most one
// variant matches a value, and the two forms accept the same values.
//
// The variants are written in place, without the type their parent now
// gives, and the fields nearly all of them share with the same schema are
// defined once (<name>Fields), referred to by each variant that has them
// all. Unknown fields are rejected once, by the parent's
// unevaluatedProperties: false, which sees the fields of the one variant
// that matched, its reference's included.
func variantsToAnyOf(m map[string]any, name string, defs map[string]any) error {
	list, ok := m["x-variants"].([]any)
	if !ok || len(list) == 0 {
		return fmt.Errorf("x-variants is not a list of schemas")
	}
	seen := map[string]bool{}
	variants := make([]map[string]any, len(list))
	for i, v := range list {
		vm, _ := v.(map[string]any)
		ref, ok := localDef(vm)
		if !ok || len(vm) != 1 {
			return fmt.Errorf("x-variants/%d is not a reference to a definition", i)
		}
		def, _ := deepCopy(defs[ref]).(map[string]any)
		props, _ := def["properties"].(map[string]any)
		kind, _ := props["kind"].(map[string]any)
		op, _ := props["op"].(map[string]any)
		k, ok := kind["const"].(string)
		if !ok || def["type"] != "object" || def["additionalProperties"] != false || !contains(def["required"], "kind") {
			return fmt.Errorf("x-variants/%d (%s) does not fix kind and reject unknown fields", i, ref)
		}
		key := k
		if op != nil {
			o, ok := op["const"].(string)
			if !ok || !contains(def["required"], "op") {
				return fmt.Errorf("x-variants/%d (%s) does not fix op", i, ref)
			}
			key += " " + o
		}
		if seen[key] {
			return fmt.Errorf("x-variants/%d (%s): two variants for %s", i, ref, key)
		}
		seen[key] = true
		delete(def, "type")
		variants[i] = def
	}

	// The fields three in four variants or more have, each with one schema
	// wherever it appears.
	present := map[string]int{}
	first := map[string]any{}
	same := map[string]bool{}
	for _, v := range variants {
		for field, fs := range v["properties"].(map[string]any) {
			present[field]++
			if prev, ok := first[field]; !ok {
				first[field], same[field] = fs, true
			} else if !sameJSON(prev, fs) {
				same[field] = false
			}
		}
	}
	shared := map[string]any{}
	for field, n := range present {
		if same[field] && 4*n >= 3*len(variants) && field != "kind" && field != "op" {
			shared[field] = deepCopy(first[field])
		}
	}
	anyOf := make([]any, len(variants))
	sharedName := strings.TrimSuffix(lastPart(name), "Operation") + "Fields"
	used := false
	for i, v := range variants {
		props := v["properties"].(map[string]any)
		all := len(shared) > 1
		for field := range shared {
			if _, ok := props[field]; !ok {
				all = false
			}
		}
		delete(v, "additionalProperties")
		if all {
			for field := range shared {
				delete(props, field)
			}
			v["$ref"] = "#/$defs/" + escapeToken(sharedName)
			used = true
		}
		anyOf[i] = v
	}
	if used {
		if _, taken := defs[sharedName]; taken {
			return fmt.Errorf("$defs/%s is taken", sharedName)
		}
		defs[sharedName] = map[string]any{"properties": shared}
	}
	for k := range m {
		delete(m, k)
	}
	m["type"] = "object"
	m["anyOf"] = anyOf
	m["unevaluatedProperties"] = false
	return nil
}

func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

func contains(list any, s string) bool {
	switch l := list.(type) {
	case []any:
		for _, e := range l {
			if e == s {
				return true
			}
		}
	case []string:
		for _, e := range l {
			if e == s {
				return true
			}
		}
	}
	return false
}

// inlineDefs writes in place each definition referenced once, or no longer
// than inlineMaxBytes, and drops the definitions no longer referenced.
func inlineDefs(root map[string]any, defs map[string]any) error {
	tried := map[string]bool{}
	for changed := true; changed; {
		changed = false
		uses := map[string]int{}
		walkSchemas(root, func(m map[string]any) {
			if name, ok := localDef(m); ok {
				uses[name]++
			}
		})
		for name := range defs {
			if uses[name] == 0 {
				delete(defs, name)
				changed = true
			}
		}
		for _, name := range sortedKeys(defs) {
			if tried[name] {
				continue
			}
			def := defs[name]
			b, err := json.Marshal(def)
			if err != nil {
				return err
			}
			if uses[name] != 1 && len(b) > inlineMaxBytes {
				continue
			}
			tried[name] = true
			if refersTo(def, name) {
				continue
			}
			inlined := true
			walkSchemas(root, func(m map[string]any) {
				if n, ok := localDef(m); ok && n == name {
					if !mergeRef(m, def) {
						inlined = false
					}
				}
			})
			if inlined {
				delete(defs, name)
			}
			changed = true
			break // the uses changed
		}
	}
	if len(defs) == 0 {
		delete(root, "$defs")
	}
	return nil
}

// mergeRef replaces {"$ref": …, siblings} by the referenced schema with the
// siblings added, when no sibling other than an annotation would overwrite
// one of its keywords. It reports whether it did.
func mergeRef(m map[string]any, def any) bool {
	d, ok := deepCopy(def).(map[string]any)
	if !ok {
		return false // true or false: keep the reference
	}
	for k, v := range m {
		if k == "$ref" {
			continue
		}
		if _, clash := d[k]; clash && k != "description" {
			return false
		}
		d[k] = v
	}
	for k := range m {
		delete(m, k)
	}
	for k, v := range d {
		m[k] = v
	}
	return true
}

// shortenDefNames renames common.nodeId to nodeId, and so on, when the
// short name is not taken.
func shortenDefNames(root map[string]any) {
	defs, _ := root["$defs"].(map[string]any)
	if len(defs) == 0 {
		return
	}
	short := map[string]string{}
	count := map[string]int{}
	for name := range defs {
		count[lastPart(name)]++
	}
	for name := range defs {
		if s := lastPart(name); count[s] == 1 && defs[s] == nil {
			short[name] = s
		}
	}
	walkSchemas(root, func(m map[string]any) {
		if n, ok := localDef(m); ok && short[n] != "" {
			m["$ref"] = "#/$defs/" + escapeToken(short[n])
		}
	})
	for long, s := range short {
		defs[s] = defs[long]
		delete(defs, long)
	}
}

func lastPart(name string) string {
	if i := strings.LastIndex(name, "."); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// localDef returns the definition a {"$ref": "#/$defs/<name>"} names.
func localDef(m map[string]any) (string, bool) {
	ref, ok := m["$ref"].(string)
	if !ok {
		return "", false
	}
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok || strings.Contains(name, "/") {
		return "", false
	}
	return unescapeToken(name), true
}

func refersTo(v any, name string) bool {
	found := false
	walkSchemas(v, func(m map[string]any) {
		if n, ok := localDef(m); ok && n == name {
			found = true
		}
	})
	return found
}

// walkSchemas calls fn for every schema in the schema v, parents first,
// including definitions and the variants an x-variants lists.
func walkSchemas(v any, fn func(map[string]any)) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	fn(m)
	for _, k := range sortedKeys(m) {
		switch val := m[k].(type) {
		case map[string]any:
			switch {
			case schemaKeywords[k]:
				walkSchemas(val, fn)
			case schemaMapKeywords[k] || k == "$defs":
				for _, name := range sortedKeys(val) {
					walkSchemas(val[name], fn)
				}
			}
		case []any:
			if schemaArrayKeywords[k] || k == "x-variants" {
				for _, e := range val {
					walkSchemas(e, fn)
				}
			}
		}
	}
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	case []string:
		return append([]string(nil), v...)
	}
	return v
}
