package service

import (
	"bytes"
	"encoding/json"

	"github.com/axiomcore/acore/internal/protocol"
	"github.com/axiomcore/acore/internal/schema"
)

// validateRequest checks the envelope, including the per-operation table of
// envelope fields, and the params against the published schemas; a failure
// is invalid_arguments (schema) naming the field.
func validateRequest(top map[string]json.RawMessage) *protocol.Error {
	b, _ := json.Marshal(top)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var env map[string]any
	if err := dec.Decode(&env); err != nil {
		return protocol.Errorf(protocol.CodeInvalidArguments, "schema", "%v", err)
	}
	if fe := schema.ValidateRequest(env); fe != nil {
		e := protocol.Errorf(protocol.CodeInvalidArguments, "schema", "%s", fe.Error())
		if fe.Field != "" {
			e.WithTarget("field", fe.Field)
		}
		return e
	}
	return nil
}
