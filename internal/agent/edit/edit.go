// Package edit applies edit operations to a compiled project: each
// operation's precondition is checked against the state the operations
// before it left, its text is spliced at exact spans, and the result is
// compiled. A batch is all or nothing. The operations are Go values (Op);
// decoding them from the protocol and its bounds on their fields are the
// service's.
package edit

import (
	"time"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/project"
)

// Options tune one batch.
type Options struct {
	// SnapshotID is the base snapshot's id, for option fingerprints.
	SnapshotID string
	// EditRules is the edit rules identity, for option fingerprints.
	EditRules string
	// DryRun checks the batch without compiling the final state beyond
	// what the checks need (edit.plan): operations that change ids or
	// edges are still compiled (their id_map needs it), a trailing run of
	// set_property is not, and the final state is not required to compile
	// (Result.Project is nil when it was not compiled).
	DryRun bool
	// CompileBudget bounds the batch's total compile time (the service's
	// group_compile_budget_ms); zero means no bound.
	CompileBudget time.Duration
	// Base and Touched are what the repair verdict judges the final state
	// against when the batch extends a candidate: the compile of the
	// candidate's base snapshot and the declarations its earlier versions
	// touched. Without Base the verdict is against the project the batch
	// applies to.
	Base    *check.Result
	Touched []string
}

// IDMapEntry says where a node id went: NewID nil when it was removed.
// OldID is always set: the protocol's idMapEntry requires an old id, so
// created nodes are reported as Outcome.Created, not in id maps. Change is
// moved (same name, new id), renamed (new name) or removed.
type IDMapEntry struct {
	OldID  *string `json:"old_id"`
	NewID  *string `json:"new_id"`
	Change string  `json:"change"` // moved, renamed or removed
}

// Outcome is the result of one operation of a batch.
type Outcome struct {
	Index int    `json:"index"`
	Kind  string `json:"kind"`
	Op    string `json:"op,omitempty"`
	Path  string `json:"path,omitempty"`
	Node  string `json:"node,omitempty"`
	// Property is the property a set_property, bind_property or
	// set_reference operation changed.
	Property string `json:"property,omitempty"`
	Created  string `json:"created,omitempty"`
	// Nodes, for a file operation, are the ids of the nodes declared in
	// the files it wrote (the artifact it re-prepared included), before
	// and after, and of the nodes it added elsewhere: the nodes it asked
	// to change.
	Nodes  []string     `json:"nodes,omitempty"`
	Handle string       `json:"handle,omitempty"`
	IDMap  []IDMapEntry `json:"id_map"`
}

// Result is a batch applied to a base.
type Result struct {
	// Files holds the new content of each changed file, by path.
	Files map[string][]byte
	// Project is the compiled final state.
	Project *project.Project
	// Operations has one outcome per operation, in order.
	Operations []Outcome
	// IDMap is composed over the batch, from the base to the final state.
	IDMap []IDMapEntry
	// Touched names the declarations the batch changed, as
	// "<path>: <kind> <name>".
	Touched []string
	// Owners are the pages and components the batch changes.
	Owners []string
	// Repair is set when the base was not validated (syntax or resolved)
	// and the batch was accepted as a bounded repair.
	Repair *Repair
}

// Apply applies ops, in order, to base. On failure nothing is kept and the
// error's OperationIndex names the operation.
func Apply(base *project.Project, ops []Op, opt Options) (*Result, *Error) {
	return apply(base, ops, opt)
}
