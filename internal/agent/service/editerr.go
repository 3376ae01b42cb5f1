package service

import (
	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// editError is the one place the edit engine's errors become wire errors:
// the reason names the code (read_only_origin, which has none, is named by
// the kind), the targets become a target, the next request a next action.
// A compile error takes compile_failed's one shape; its node.edits names
// nodes, the base nodes the batch's operations edit.
func editError(e *edit.Error, nodes []string) *protocol.Error {
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
		if e.Reason == reason.CandidateErrors && len(nodes) > 0 {
			pe.NextActions[0].Params = map[string]any{"nodes": nodes}
		}
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
		pe.Next("node.get", "Re-read the node and rebuild the operation", nodeParams(n))
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

// nodeParams are the params of a node.get or node.edits of node n, or nil
// when the error names no node.
func nodeParams(n string) map[string]any {
	if n == "" {
		return nil
	}
	return map[string]any{"nodes": []string{n}}
}

// opNodes are the base nodes a batch's operations edit or anchor on, in
// order, each once, at most the node.get request's 100; handles name
// nodes of the batch, which no snapshot holds.
func opNodes(ops []edit.Op) []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range ops {
		var r edit.NodeRef
		switch o := o.(type) {
		case *edit.SetProperty:
			r = o.Node
		case *edit.BindProperty:
			r = o.Node
		case *edit.SetReference:
			r = o.Node
		case *edit.ListRemove:
			r = o.Node
		case *edit.ListInsert:
			r = o.Anchor
		case *edit.DeclCreate:
			r = o.Anchor
		case *edit.DeclUpdate:
			r = o.Node
		case *edit.DeclRemove:
			r = o.Node
		}
		if r.IsHandle || r.ID == "" || seen[r.ID] || len(out) == 100 {
			continue
		}
		seen[r.ID] = true
		out = append(out, r.ID)
	}
	return out
}
