package service

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/reason"
)

type overviewParams struct {
	Projects []string `json:"projects,omitempty"`
	Include  []string `json:"include,omitempty"`
	Cursor   string   `json:"cursor,omitempty"`
}

func opProjectOverview(c *call) (any, *protocol.Error) {
	var p overviewParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if e := c.readSnapshot(false); e != nil {
		return nil, e
	}
	projectID := filepath.Base(c.s.root)
	for _, id := range p.Projects {
		if id != projectID {
			return nil, protocol.Errorf(reason.ProjectUnknown, "no project %s in this workspace; its project is %s", id, projectID).WithTarget("project", id)
		}
	}
	include := stringSet(p.Include)
	if p.Include == nil {
		include = stringSet([]string{"modules", "entry_points", "contracts", "diagnostics"})
	}
	sum := sha256.Sum256([]byte(strings.Join(p.Projects, ",") + "|" + strings.Join(p.Include, ",") + "|" + strconv.Itoa(c.limits.MaxItems)))
	shape := hex.EncodeToString(sum[:6])
	offset, e := c.cursorOffset(p.Cursor, "ov1", shape)
	if e != nil {
		return nil, e
	}
	r := c.snap.Project.Result
	max := c.limits.MaxItems
	more := false
	page := func(n int) (int, int) {
		lo, hi := min(offset, n), min(offset+max, n)
		if hi < n {
			more = true
		}
		return lo, hi
	}
	modules := []any{}
	if include["modules"] {
		lo, hi := page(len(r.Modules))
		for _, m := range r.Modules[lo:hi] {
			modules = append(modules, moduleEntry(m))
		}
	}
	entries := []graph.Summary{}
	if include["entry_points"] && r.Graph != nil {
		lo, hi := page(len(r.EntryPoints))
		for _, id := range r.EntryPoints[lo:hi] {
			if n, ok := r.Graph.Node(id); ok {
				entries = append(entries, r.Graph.Summary(n))
			}
		}
	}
	contracts := []any{}
	if include["contracts"] {
		lo, hi := page(len(r.Contracts))
		for _, k := range r.Contracts[lo:hi] {
			contracts = append(contracts, map[string]any{"name": k.Name, "node": k.Node, "path": k.Path, "sha256": k.SHA256})
		}
	}
	diags := []protocol.Diagnostic{}
	if include["diagnostics"] {
		all := wireDiagnostics(r, len(r.Diagnostics))
		lo, hi := page(len(all))
		if hi-lo > 200 {
			hi = lo + 200
			more = true
		}
		diags = all[lo:hi]
	}
	errs, warns := diag.Count(r.Diagnostics)
	projects := []any{map[string]any{"project_id": projectID, "entry": "main.acore", "language_profile": "acore-ui", "target": "web",
		"semantic_state": r.State, "status": r.Status, "diagnostic_counts": map[string]int{"errors": errs, "warnings": warns}}}
	if more {
		c.continueAt("ov1", shape, offset+max)
	}
	return map[string]any{"projects": projects, "modules": modules, "entry_points": entries, "contracts": contracts, "diagnostics": diags}, nil
}

// moduleEntry is a module as project.overview lists it.
func moduleEntry(m check.ModuleInfo) map[string]any {
	owners, imports := m.Owners, m.Imports
	if owners == nil {
		owners = []string{}
	}
	if imports == nil {
		imports = []string{}
	}
	return map[string]any{"path": m.Path, "module": m.Name, "owners": owners, "imports": imports,
		"diagnostic_counts": map[string]int{"errors": m.Errors, "warnings": m.Warnings}}
}
