package service

import (
	"bytes"
	"encoding/json"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// validateRequest checks the envelope, including the per-operation table of
// envelope fields, and the params against the published schemas; a failure
// is invalid_arguments (schema) naming the field.
func validateRequest(b []byte) *protocol.Error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var env map[string]any
	if err := dec.Decode(&env); err != nil {
		return protocol.Errorf(reason.Schema, "%v", err)
	}
	// More than operations_max operations, or operations and raw files
	// together, is that bound's resource_limit (too_many_operations), as
	// the reference's Limits table says, not the schema's maxItems.
	if op, _ := env["operation"].(string); op == "change.propose" || op == "edit.plan" {
		params, _ := env["params"].(map[string]any)
		ops, _ := params["operations"].([]any)
		files, _ := params["files"].([]any)
		if len(ops) > protocol.OperationsMax {
			return protocol.Errorf(reason.TooManyOperations,
				"%d operations, more than operations_max (%d); split the batch", len(ops), protocol.OperationsMax).
				WithTarget("field", "params.operations")
		}
		if len(ops)+len(files) > protocol.OperationsMax {
			return protocol.Errorf(reason.TooManyOperations,
				"%d operations and %d files, more than operations_max (%d) together; split the batch", len(ops), len(files), protocol.OperationsMax).
				WithTarget("field", "params.files")
		}
	}
	if fe := schema.ValidateRequest(env); fe != nil {
		if p, ok := schema.ValueAt(env, fe.Field).(string); ok && fsutil.Escapes(p) {
			return protocol.Errorf(reason.PathEscape,
				"%s: %q leaves the project root; paths are project-relative, without .. segments", fe.Field, p).WithTarget("path", p)
		}
		e := protocol.Errorf(reason.Schema, "%s", fe.Error())
		if fe.Field != "" {
			e.WithTarget("field", fe.Field)
		}
		return e
	}
	return nil
}
