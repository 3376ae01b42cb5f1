package service

import (
	"encoding/json"

	"github.com/axiomcore/acore/internal/protocol"
)

// validateRequest checks the envelope and params against the published
// schemas. Until the schema package lands, params are checked by each
// handler's strict decoding.
func validateRequest(op string, top map[string]json.RawMessage) *protocol.Error {
	return nil
}
