package edit

import (
	"encoding/json"

	"github.com/axiomcore/acore/internal/project"
	"github.com/axiomcore/acore/internal/protocol"
)

// apply is being written; until then every batch is refused.
func apply(base *project.Project, ops []json.RawMessage, opt Options) (*Result, *protocol.Error) {
	return nil, protocol.Errorf(protocol.CodeUnsupportedOperation, "not_implemented", "edits are not implemented by this build")
}
