package service

import (
	"fmt"
	"slices"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/schema"
)

// Operation is one row of the operation table: what every transport and
// the manifest need to know about an operation. The names, their order
// and the envelope fields come from the published schemas
// (x-envelope-fields in envelope.request.json); the rest is this table's.
type Operation struct {
	Name string
	// Envelope is which envelope fields the operation takes.
	Envelope schema.Envelope
	// ReadOnly operations change nothing: neither the project nor the
	// service's candidates.
	ReadOnly bool
	// Destructive operations overwrite project files; they are
	// idempotent by request_id.
	Destructive bool
	// Frozen operations are frozen in v1.
	Frozen bool
	// Doc is one short sentence: what the operation is for (the MCP
	// tool's description).
	Doc string
}

type handler func(c *call) (any, *protocol.Error)

// operation is a row with its handler.
type operation struct {
	Operation
	run handler
}

// table is the operation table; init fills in the envelopes and checks
// that it lists exactly the schemas' operations, in their order. It is set
// in init because the handlers reach Manifest, which reads the table.
var (
	table  []operation
	byName map[string]*operation
)

func init() {
	table = []operation{
		{Operation{Name: "capabilities", ReadOnly: true, Frozen: true,
			Doc: "What this build serves (operations, edit kinds, checks, limits, error codes); call it first."}, opCapabilities},
		{Operation{Name: "workspace.open", ReadOnly: true, Frozen: true,
			Doc: "Attaches the project root and captures a snapshot."}, opWorkspaceOpen},
		{Operation{Name: "project.overview", ReadOnly: true, Frozen: true,
			Doc: "Modules with their pages, components and imports, entry points, contracts and diagnostics."}, opProjectOverview},
		{Operation{Name: "node.find", ReadOnly: true, Frozen: true,
			Doc: "Finds nodes by name, id or literal text, optionally by kind, owner or file."}, opNodeFind},
		{Operation{Name: "node.get", ReadOnly: true, Frozen: true,
			Doc: "Reads nodes: properties, edges, source and an edit summary."}, opNodeGet},
		{Operation{Name: "node.edits", ReadOnly: true, Frozen: true,
			Doc: "The edits each node accepts now, as options to cite in change_propose."}, opNodeEdits},
		{Operation{Name: "graph.query", ReadOnly: true, Frozen: true,
			Doc: "Relationships between nodes from compiler facts."}, opGraphQuery},
		{Operation{Name: "context.build", ReadOnly: true, Frozen: true,
			Doc: "A bounded slice of the project for a task."}, opContextBuild},
		{Operation{Name: "impact.analyze", ReadOnly: true, Frozen: true,
			Doc: "What depends on the targets, transitively up to limits.max_depth, with the linking edges."}, opImpactAnalyze},
		{Operation{Name: "changes.since", ReadOnly: true, Frozen: true,
			Doc: "What changed since an older snapshot, and where the nodes you hold are now."}, opChangesSince},
		{Operation{Name: "node.relocate", ReadOnly: true, Frozen: true,
			Doc: "Maps node ids from an older snapshot to the request's snapshot."}, opNodeRelocate},
		{Operation{Name: "change.propose",
			Doc: "Applies 1 to 50 edit operations in order to a private copy of base_snapshot and returns a checked candidate; nothing is written."}, opChangePropose},
		{Operation{Name: "change.inspect", ReadOnly: true,
			Doc: "What a candidate changes (semantic and source diffs, affected nodes, risks, checks), to review before change_apply."}, opChangeInspect},
		{Operation{Name: "check.run", ReadOnly: true,
			Doc: "Runs checks on a candidate, or on a snapshot plus unsaved file contents."}, opCheckRun},
		{Operation{Name: "change.apply", Destructive: true,
			Doc: "Writes a reviewed candidate to the project and returns a receipt."}, opChangeApply},
		{Operation{Name: "change.discard",
			Doc: "Closes an open candidate and releases it."}, opChangeDiscard},
		{Operation{Name: "edit.plan", ReadOnly: true,
			Doc: "A dry run of change_propose: the same operations and rules, returning owners, files and required checks."}, opEditPlan},
	}
	names := make([]string, len(table))
	byName = map[string]*operation{}
	for i := range table {
		op := &table[i]
		names[i] = op.Name
		op.Envelope, _ = schema.EnvelopeOf(op.Name)
		byName[op.Name] = op
	}
	if want := schema.Operations(); !slices.Equal(names, want) {
		panic(fmt.Sprintf("service: the operation table lists %v, the schemas %v", names, want))
	}
}

// Operations returns the operation table, in the reference's order.
func Operations() []Operation {
	out := make([]Operation, len(table))
	for i, op := range table {
		out[i] = op.Operation
	}
	return out
}

// FrozenOperations returns the names of the operations frozen in v1.
func FrozenOperations() []string {
	var out []string
	for _, op := range table {
		if op.Frozen {
			out = append(out, op.Name)
		}
	}
	return out
}
