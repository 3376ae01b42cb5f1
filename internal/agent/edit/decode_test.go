package edit_test

import (
	"encoding/json"

	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/service"
)

// The engine's tests write their operations as the protocol does and
// decode them with the service's decoder, which imports the engine.
func init() {
	edit.DecodeOps = func(raws []json.RawMessage) ([]edit.Op, *edit.Error) {
		ops, e := service.DecodeOperations(raws)
		if e != nil {
			return nil, &edit.Error{Kind: e.Code, Reason: e.Reason, Message: e.Message, OperationIndex: e.OperationIndex}
		}
		return ops, nil
	}
}
