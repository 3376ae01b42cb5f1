package schema

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/axiomcore/acore/third_party/jsonschema"
)

// Requests are validated per operation, with schemas compiled for that
// operation alone. envelope.request.json refers to the request schemas of
// all 17 operations, and they to common.json and edits.json, which the
// compiler loads whole and validates against the 2020-12 metaschema:
// compiling the file took some 30 ms, most of a one-shot process. The
// schemas of one operation hold the same rules for its requests:
//
//   - its envelope is envelope.request.json with only the allOf branch
//     on that operation. The other branches are if/then pairs on another
//     operation const, without else: for a request of this operation
//     their condition fails, so they neither fail nor annotate;
//   - each file is loaded with only the $defs that the envelope and the
//     operation's request schema refer to, transitively. The validator
//     reaches a definition only through a $ref, so the others never take
//     part in a validation.
//
// So a request gets the same result, the same errors, from its
// operation's schemas as from envelope.request.json (TestEnvelopePerOperation
// compares them), and the files themselves are validated whole by
// TestEveryFileCompiles.

// request holds the compiled schemas of one operation's requests.
type request struct {
	once     sync.Once
	envelope *jsonschema.Schema
	params   *jsonschema.Schema // nil for the requests of no operation
	err      error
}

// request returns the schemas of op's requests ("" for a request whose
// operation is missing or not of v1), compiling them on first use.
func (c *compiled) request(op string) *request {
	r, ok := c.requests[op]
	if !ok {
		return &request{err: fmt.Errorf("unknown operation %q", op)}
	}
	r.once.Do(func() {
		r.envelope, r.params, r.err = c.compileRequest(op)
	})
	return r
}

// envelopeURL names the in-memory envelope schema of one operation. Its
// query keeps it apart from the file while relative references resolve
// as the file's do.
func envelopeURL(op string) string {
	return BaseID + EnvelopeRequestFile + "?operation=" + op
}

func (c *compiled) compileRequest(op string) (env, params *jsonschema.Schema, err error) {
	doc, err := c.envelopeDoc(op)
	if err != nil {
		return nil, nil, err
	}
	roots := map[string]any{EnvelopeRequestFile: doc}
	if op != "" {
		if roots[RequestFile(op)], err = c.doc(RequestFile(op)); err != nil {
			return nil, nil, err
		}
	}
	need, err := c.reach(roots)
	if err != nil {
		return nil, nil, err
	}
	comp := c.newCompiler(need)
	if err := comp.AddResource(envelopeURL(op), doc); err != nil {
		return nil, nil, fmt.Errorf("schema %s: %v", EnvelopeRequestFile, err)
	}
	if env, err = comp.Compile(envelopeURL(op)); err != nil {
		return nil, nil, fmt.Errorf("schema %s: %v", EnvelopeRequestFile, err)
	}
	if op != "" {
		if params, err = comp.Compile(BaseID + RequestFile(op)); err != nil {
			return nil, nil, fmt.Errorf("schema %s: %v", RequestFile(op), err)
		}
	}
	return env, params, nil
}

// envelopeDoc returns envelope.request.json as it applies to a request of
// operation op: the allOf branches on another operation left out.
func (c *compiled) envelopeDoc(op string) (map[string]any, error) {
	doc, err := c.doc(EnvelopeRequestFile)
	if err != nil {
		return nil, err
	}
	env := maps.Clone(doc.(map[string]any))
	env["$id"] = envelopeURL(op)
	branches, _ := env["allOf"].([]any)
	var keep []any
	for _, b := range branches {
		if cond, ok := operationCondition(b); !ok || cond == op {
			keep = append(keep, b)
		}
	}
	delete(env, "allOf")
	if len(keep) > 0 {
		env["allOf"] = keep
	}
	return env, nil
}

// operationCondition reads a branch of the envelope's allOf of the form
// {"if": {"properties": {"operation": {"const": op}}, "required":
// ["operation"]}, "then": ...} without else, and returns op; ok is false
// for a branch of any other form, which is kept whatever the operation.
func operationCondition(branch any) (op string, ok bool) {
	b, _ := branch.(map[string]any)
	if len(b) != 2 || b["if"] == nil || b["then"] == nil {
		return "", false
	}
	cond, _ := b["if"].(map[string]any)
	props, _ := cond["properties"].(map[string]any)
	operation, _ := props["operation"].(map[string]any)
	req, _ := cond["required"].([]any)
	op, ok = operation["const"].(string)
	if !ok || len(cond) != 2 || len(props) != 1 || len(operation) != 1 || len(req) != 1 || req[0] != "operation" {
		return "", false
	}
	return op, true
}

// needs lists, for each file a compiler may load, the names of the $defs
// it needs, or whole when the file is needed whole. A file it does not
// list is loaded whole.
type needs map[string]*need

type need struct {
	whole bool
	defs  map[string]bool
}

// prune returns doc with only the $defs n lists for file: a shallow copy,
// the shared document is not modified.
func (n needs) prune(file string, doc any) any {
	fn := n[file]
	obj, ok := doc.(map[string]any)
	if fn == nil || fn.whole || !ok {
		return doc
	}
	defs, ok := obj["$defs"].(map[string]any)
	if !ok {
		return doc
	}
	kept := make(map[string]any, len(fn.defs))
	for name := range fn.defs {
		if d, ok := defs[name]; ok {
			kept[name] = d
		}
	}
	pruned := maps.Clone(obj)
	pruned["$defs"] = kept
	return pruned
}

// reach follows the $refs of the root documents (keyed by the file they
// resolve relative references from) through the embedded files, and
// returns what each file must keep. A reference to a definition,
// file#/$defs/name or below it, needs that definition; any other
// reference needs its file whole, as does a file with keywords that
// could reach a schema otherwise ($anchor, $dynamicRef, a nested $id).
func (c *compiled) reach(roots map[string]any) (needs, error) {
	type item struct {
		file string
		v    any
	}
	n := needs{}
	var queue []item
	isPrunable := map[string]bool{}
	for file, doc := range roots {
		n[file] = &need{whole: true}
		queue = append(queue, item{file, doc})
	}
	add := func(file, def string) error {
		fn := n[file]
		if fn != nil && (fn.whole || fn.defs[def]) {
			return nil
		}
		doc, err := c.doc(file)
		if err != nil {
			return err
		}
		p, ok := isPrunable[file]
		if !ok {
			p = prunable(doc)
			isPrunable[file] = p
		}
		obj, _ := doc.(map[string]any)
		defs, _ := obj["$defs"].(map[string]any)
		if _, ok := defs[def]; def == "" || !ok || !p {
			n[file] = &need{whole: true}
			queue = append(queue, item{file, doc})
			return nil
		}
		if fn == nil {
			fn = &need{defs: map[string]bool{}}
			n[file] = fn
		}
		fn.defs[def] = true
		queue = append(queue, item{file, defs[def]})
		return nil
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		for _, ref := range refs(it.v, nil) {
			target, frag, _ := strings.Cut(ref, "#")
			switch {
			case strings.HasPrefix(target, BaseID):
				target = strings.TrimPrefix(target, BaseID)
			case strings.Contains(target, ":"):
				continue // not an embedded file: the compiler refuses it
			case target == "":
				target = it.file
			default:
				target = path.Join(path.Dir(it.file), target)
			}
			if _, ok := roots[target]; ok || !slices.Contains(c.files, target) {
				continue // loaded whole, or refused by the compiler
			}
			def := ""
			if rest, ok := strings.CutPrefix(frag, "/$defs/"); ok {
				def, _, _ = strings.Cut(rest, "/")
				if strings.ContainsAny(def, "~%") {
					def = "" // escaped: needs the file whole
				}
			}
			if err := add(target, def); err != nil {
				return nil, err
			}
		}
	}
	return n, nil
}

// refs appends the $ref values in v.
func refs(v any, out []string) []string {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "$ref" {
				out = append(out, s)
				continue
			}
			out = refs(e, out)
		}
	case []any:
		for _, e := range x {
			out = refs(e, out)
		}
	}
	return out
}

// prunable reports whether a document can lose definitions no $ref names:
// nothing in it reaches a schema by other means than a $ref to it.
func prunable(doc any) bool {
	var ok func(v any, root bool) bool
	ok = func(v any, root bool) bool {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				switch k {
				case "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef":
					return false
				case "$id":
					if !root {
						return false
					}
				}
				if !ok(e, false) {
					return false
				}
			}
		case []any:
			for _, e := range x {
				if !ok(e, false) {
					return false
				}
			}
		}
		return true
	}
	return ok(doc, true)
}
