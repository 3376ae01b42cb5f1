package change

import (
	"fmt"
	"strings"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
)

// Risk is something to review.
type Risk struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	Node   string `json:"node,omitempty"`
}

// Risks are what to review in candidate cand compiled as cc, whose
// semantic diff is diff: changes no operation asked for, new diagnostics,
// files it writes that changed on disk since its base (diskChanged), and
// a bounded repair, and fields of persisted states renamed or removed.
func Risks(cand *candidate.Candidate, cc *Compiled, diff []DiffEntry, data *Data, diskChanged []string) []Risk {
	out := []Risk{}
	for _, d := range diff {
		if !d.Expected {
			out = append(out, Risk{Kind: "unexpected_change", Detail: fmt.Sprintf("%s is %s though no operation asked for it", d.Node, d.Change), Node: d.Node})
		}
	}
	seen := map[string]int{}
	key := func(d diag.Diagnostic) string { return d.Code + "\x00" + d.Path + "\x00" + d.Decl + "\x00" + d.Message }
	for _, d := range cc.Base.Project.Result.Diagnostics {
		seen[key(d)]++
	}
	n := 0
	for _, d := range cc.Project.Result.Diagnostics {
		if seen[key(d)] > 0 {
			seen[key(d)]--
			continue
		}
		if n++; n > 20 {
			break
		}
		out = append(out, Risk{Kind: "new_diagnostic", Detail: fmt.Sprintf("%s %s at %s:%d:%d: %s", d.Severity, d.Code, d.Path, d.Line, d.Column, d.Message)})
	}
	set := stringSet(diskChanged)
	for _, f := range cand.Files {
		if set[f.Path] {
			out = append(out, Risk{Kind: "disk_changed", Detail: f.Path + " changed on disk since the base snapshot; change.apply will refuse to overwrite it"})
		}
	}
	out = append(out, persistedShape(cc.Base.Project.Result.Graph, cc.Project.Result.Graph)...)
	if data.BaseState != "" && data.BaseState != check.StateValidated {
		detail := fmt.Sprintf("the base is %s with %s; the candidate is a bounded repair", data.BaseState, diag.Errors(data.BaseErrors))
		// A repair that also writes declarations the base never had (a
		// whole new page in a replaced region or a raw file) is new code:
		// the label says so rather than calling all of it a repair.
		if added := edit.NewDeclarations(cc.Base.Project, cc.Project, data.Touched); len(added) > 0 {
			detail = fmt.Sprintf("the base is %s with %s; the candidate repairs it and also adds %d declarations the base does not have (%s): review them as new code, not as a bounded repair",
				data.BaseState, diag.Errors(data.BaseErrors), len(added), strings.Join(capStrings(added, 10), ", "))
		}
		out = append(out, Risk{Kind: "repair", Detail: detail})
	}
	return out
}

func capStrings(l []string, n int) []string {
	if len(l) > n {
		return l[:n]
	}
	return l
}

// persistedShape are the fields of the models of @persist states in pre
// that post no longer has, renamed or removed: a browser that stored the
// state before keeps the value under the old field, which the new code
// does not read.
func persistedShape(pre, post *graph.Graph) []Risk {
	out := []Risk{}
	if pre == nil || post == nil {
		return out
	}
	for i := range int32(pre.Len()) {
		st := pre.At(i)
		key, persisted := persistKey(st)
		if st.Kind != graph.KindState || !persisted {
			continue
		}
		for _, e := range pre.Out(i) {
			edge := pre.Edges[e]
			model := pre.At(edge.To)
			if edge.Kind() != graph.EdgeUsesType || model.Kind != graph.KindModel {
				continue
			}
			for _, fe := range pre.In(edge.To) {
				f := pre.At(pre.Edges[fe].From)
				if f.Kind != graph.KindField || pre.Edges[fe].Kind() != graph.EdgeDeclaredIn {
					continue
				}
				if _, ok := post.Lookup(f.ID); !ok {
					out = append(out, Risk{Kind: "persisted_shape", Node: st.ID,
						Detail: fmt.Sprintf("%s is kept under @persist(%q) as %s; the candidate renames or removes %s, so a value stored before the change keeps the old field, which the new code does not read", st.ID, key, model.Name, f.ID)})
				}
			}
		}
	}
	return out
}

func persistKey(n *graph.Node) (string, bool) {
	for _, p := range n.Props {
		if p.Name == "persist" {
			s, _ := p.Value.(string)
			return s, true
		}
	}
	return "", false
}
