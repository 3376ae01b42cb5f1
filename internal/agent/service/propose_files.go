package service

import (
	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// fileWrites decodes change.propose's params.files, raw text for when no
// edit family fits, into the engine's file writes, which apply after the
// batch's first n operations with the same preconditions, compile,
// verdict and journaled apply. The bounds: at most operations_max
// operations and files together (resource_limit, too_many_operations),
// check.run's check_content_max_bytes of content (resource_limit,
// content_too_large) and a path once (invalid_arguments, duplicate_path). Each file's sha256
// pins the file it replaces in the state the operations before it left
// (null: it must not exist); the engine refuses another as stale_snapshot
// (overlay_mismatch), as check.run does.
func fileWrites(files []overlayFile, n int) ([]edit.Op, *protocol.Error) {
	total := 0
	for _, f := range files {
		total += len(f.Content)
	}
	if total > protocol.CheckContentMaxBytes {
		return nil, protocol.Errorf(reason.ContentTooLarge,
			"the files hold %d bytes, more than check_content_max_bytes (%d)", total, protocol.CheckContentMaxBytes).WithTarget("field", "params.files")
	}
	if n+len(files) > protocol.OperationsMax {
		return nil, protocol.Errorf(reason.TooManyOperations,
			"%d operations and %d files, more than operations_max (%d) together", n, len(files), protocol.OperationsMax).WithTarget("field", "params.files")
	}
	seen := map[string]bool{}
	out := make([]edit.Op, 0, len(files))
	for _, f := range files {
		if seen[f.Path] {
			return nil, protocol.Errorf(reason.DuplicatePath, "params.files names %s twice", f.Path).WithTarget("path", f.Path)
		}
		seen[f.Path] = true
		out = append(out, &edit.FileWrite{Path: f.Path, SHA256: f.SHA256, Text: f.Content})
	}
	return out, nil
}
