package features

import (
	"go.lsp.dev/protocol"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/editor/position"
	"github.com/axiomcore/acore/internal/lang/graph"
)

// InlayHints are the compiler's facts that the text of rel in r does not
// show: the type the checker inferred for each let, after its name, and,
// when withAxag, the AXAG action of each query and mutation member, after
// its declaration, as the manifest tells runtime agents (withAxag once the
// snapshot's AXAG findings are made: both need the recorded compile,
// which waits for a pause in typing).
func InlayHints(fs *Files, rel string, r protocol.Range, withAxag bool) []protocol.InlayHint {
	p := fs.Snap.Project()
	m := fs.Mapper(rel)
	if p == nil || p.Result == nil || p.Result.Graph == nil || m == nil {
		return nil
	}
	g := p.Result.Graph
	var actions map[string]axag.Action
	if withAxag {
		actions = fs.Snap.MemberActions()
	}
	yes := true
	var out []protocol.InlayHint
	for _, i := range g.NodesIn(rel) {
		n := g.At(i)
		switch n.Kind {
		case graph.KindLet:
			typ := ""
			for _, pr := range n.Props {
				if pr.Name == "type" {
					typ, _ = pr.Value.(string)
				}
			}
			name, ok := m.Offset(position.Position{Line: uint32(n.Line - 1), Character: uint32(n.Column - 1)}, position.UTF32)
			if typ == "" || !ok {
				continue
			}
			at := fs.Range(rel, name+len(n.Name), name+len(n.Name)).Start
			if inRange(at, r) {
				out = append(out, protocol.InlayHint{Position: at, Label: protocol.String(": " + typ), Kind: protocol.InlayHintKindType})
			}
		case graph.KindQuery, graph.KindMutation:
			a, ok := actions[n.ID]
			if !ok {
				continue
			}
			at := fs.Range(rel, int(n.End), int(n.End)).Start
			if inRange(at, r) {
				out = append(out, protocol.InlayHint{Position: at, Label: protocol.String("AXAG " + a.Intent + ": " + actionFacts(a)), PaddingLeft: &yes,
					Tooltip: protocol.String("What the AXAG manifest tells runtime agents of this member's action.")})
			}
		}
	}
	return out
}

func inRange(p protocol.Position, r protocol.Range) bool {
	return !before(p, r.Start) && !before(r.End, p)
}
