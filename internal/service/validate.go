package service

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/protocol"
	"github.com/axiomcore/acore/internal/schema"
)

// validateRequest checks the envelope, including the per-operation table of
// envelope fields, and the params against the published schemas; a failure
// is invalid_arguments (schema) naming the field.
func validateRequest(b []byte) *protocol.Error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var env map[string]any
	if err := dec.Decode(&env); err != nil {
		return protocol.Errorf(protocol.CodeInvalidArguments, "schema", "%v", err)
	}
	// More than operations_max operations is that bound's resource_limit
	// (too_many_operations), as the reference's Limits table says, not the
	// schema's maxItems.
	if op, _ := env["operation"].(string); op == "change.propose" || op == "edit.plan" {
		params, _ := env["params"].(map[string]any)
		if ops, ok := params["operations"].([]any); ok && len(ops) > protocol.OperationsMax {
			return protocol.Errorf(protocol.CodeResourceLimit, "too_many_operations",
				"%d operations, more than operations_max (%d); split the batch", len(ops), protocol.OperationsMax).
				WithTarget("field", "params.operations")
		}
	}
	if fe := schema.ValidateRequest(env); fe != nil {
		if p, ok := valueAt(env, fe.Field).(string); ok && escapes(p) {
			return protocol.Errorf(protocol.CodePermissionDenied, "path_escape",
				"%s: %q leaves the project root; paths are project-relative, without .. segments", fe.Field, p).WithTarget("path", p)
		}
		e := protocol.Errorf(protocol.CodeInvalidArguments, "schema", "%s", fe.Error())
		if fe.Field != "" {
			e.WithTarget("field", fe.Field)
		}
		return e
	}
	return nil
}

// escapes reports a path that points outside the project root: absolute,
// or with a .. segment.
func escapes(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\") || (len(p) > 1 && p[1] == ':') {
		return true
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
	}
	return false
}

// valueAt finds the value a schema error names, as params.scope.paths[0].
func valueAt(v any, field string) any {
	for field != "" {
		var key string
		key, field, _ = strings.Cut(field, ".")
		for key != "" {
			name, rest, idx := key, "", -1
			if i := strings.IndexByte(key, '['); i >= 0 {
				name, rest = key[:i], key[i:]
			}
			if name != "" {
				m, _ := v.(map[string]any)
				v = m[name]
			}
			if rest == "" {
				break
			}
			j := strings.IndexByte(rest, ']')
			if j < 0 {
				return nil
			}
			idx, _ = strconv.Atoi(rest[1:j])
			l, _ := v.([]any)
			if idx < 0 || idx >= len(l) {
				return nil
			}
			v = l[idx]
			key = rest[j+1:]
		}
	}
	return v
}
