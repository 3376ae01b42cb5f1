package service

import (
	"github.com/axiomcore/acore/internal/edit"
	"github.com/axiomcore/acore/internal/protocol"
	"github.com/axiomcore/acore/internal/reason"
)

// editError is the one place the edit engine's errors become wire errors:
// the reason names the code (read_only_origin, which has none, is named by
// the kind), the targets become a target, the next request a next action.
// A compile error takes compile_failed's one shape.
func editError(e *edit.Error) *protocol.Error {
	var pe *protocol.Error
	switch {
	case e.Kind == edit.Compile:
		var diags []protocol.Diagnostic
		if e.Diagnostics != nil {
			diags = protocol.Diagnostics(e.Diagnostics)
		}
		var repair any
		if e.Repair != nil {
			repair = e.Repair
		}
		pe = protocol.CompileFailed(e.Reason, diags, repair, "%s", e.Message)
	case e.Reason == reason.None:
		pe = protocol.CodeErrorf(e.Kind, "%s", e.Message)
	default:
		pe = protocol.Errorf(e.Reason, "%s", e.Message)
	}
	if e.Kind != edit.Compile && e.Diagnostics != nil {
		pe.Diagnostics = protocol.Diagnostics(e.Diagnostics)
	}
	pe.OperationIndex = e.OperationIndex
	for _, t := range []struct{ k, v string }{{"node", e.Node}, {"property", e.Property}, {"option", e.Option}, {"path", e.Path}} {
		if t.v != "" {
			pe.WithTarget(t.k, t.v)
		}
	}
	for k, v := range e.Details {
		pe.Detail(k, v)
	}
	n := e.NextNode
	switch e.Next {
	case edit.Refind:
		pe.Next("node.find", "Re-find the node on this snapshot", nil)
	case edit.Reread:
		pe.Next("node.get", "Re-read the node and rebuild the operation", nil)
	case edit.ReadOptions:
		pe.Next("node.edits", "Read the node's current options and rebuild the operation", map[string]any{"nodes": []string{n}})
	case edit.ReadText:
		pe.Next("node.edits", "Read the node's current text and rebuild the operation", map[string]any{"nodes": []string{n}})
	case edit.ListEdits:
		pe.Next("node.edits", "List the edits the node accepts now", map[string]any{"nodes": []string{n}, "include_unavailable": true})
	case edit.ListReferences:
		pe.Next("graph.query", "List the references to remove first", map[string]any{"from": []string{n}, "mode": "references"})
	case edit.ReadRegions:
		pe.Next("node.edits", "Read the module's current region options", map[string]any{"nodes": []string{n}, "kinds": []string{"replace_region"}})
	}
	return pe
}
