package service

import (
	"path/filepath"
	"slices"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/reason"
)

func opCapabilities(c *call) (any, *protocol.Error) {
	var p struct {
		Profiles []string `json:"profiles"`
	}
	if e := c.params(&p); e != nil {
		return nil, e
	}
	m := c.s.manifest
	languages := []Language{ProfileLanguage}
	if p.Profiles != nil && !slices.Contains(p.Profiles, ProfileLanguage.Profile) {
		languages = []Language{}
	}
	if p.Profiles != nil {
		want := stringSet(p.Profiles)
		cp := make(map[string]any, len(m))
		for k, v := range m {
			cp[k] = v
		}
		var profiles []any
		for _, pr := range m["profiles"].([]any) {
			if want[pr.(map[string]any)["name"].(string)] {
				profiles = append(profiles, pr)
			}
		}
		if profiles == nil {
			profiles = []any{}
		}
		cp["profiles"] = profiles
		m = cp
	}
	return map[string]any{"manifest": m, "manifest_fingerprint": c.s.manifestFingerprint, "languages": languages}, nil
}

type openParams struct {
	Roots []struct {
		Path  string `json:"path"`
		Entry string `json:"entry,omitempty"`
	} `json:"roots"`
	LanguageProfile string `json:"language_profile,omitempty"`
	Target          string `json:"target,omitempty"`
}

func opWorkspaceOpen(c *call) (any, *protocol.Error) {
	var p openParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if len(p.Roots) != 1 {
		return nil, protocol.Errorf(reason.MultipleRoots,
			"this service serves one root per process, %s; pass exactly that one", c.s.root)
	}
	r := p.Roots[0]
	if !filepath.IsAbs(r.Path) {
		return nil, protocol.Errorf(reason.Schema, "params.roots[0].path: %q is not an absolute path", r.Path)
	}
	if r.Entry != "" && r.Entry != check.Entry {
		return nil, protocol.Errorf(reason.Schema, "params.roots[0].entry: the entry of an acore-ui project is main.acore, not %q", r.Entry)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(r.Path))
	if err != nil {
		return nil, protocol.Errorf(reason.RootNotFound, "root %s does not exist: %v", r.Path, err).WithTarget("path", r.Path)
	}
	if real != c.s.root {
		return nil, protocol.Errorf(reason.RootNotAllowed,
			"this service was started for %s and serves only that root, not %s", c.s.root, r.Path).WithTarget("path", r.Path)
	}
	snapID := "latest"
	if c.req.Snapshot != nil {
		snapID = *c.req.Snapshot
	}
	if e := c.resolveSnapshot(snapID); e != nil && c.snap == nil {
		return nil, e
	}
	res := c.snap.Project.Result
	ws := c.s.wsID
	c.req.Workspace = &ws
	errs, warns := diag.Count(res.Diagnostics)
	proj := map[string]any{
		"project_id":        filepath.Base(c.s.root),
		"entry":             check.Entry,
		"language_profile":  "acore-ui",
		"target":            "web",
		"semantic_state":    res.State,
		"status":            res.Status,
		"preparation":       preparation(res),
		"diagnostic_counts": map[string]int{"errors": errs, "warnings": warns},
	}
	if (p.LanguageProfile != "" && p.LanguageProfile != "acore-ui") || (p.Target != "" && p.Target != "web") {
		proj["status"] = "unsupported"
		proj["unsupported_reason"] = "this build serves language profile acore-ui for target web"
	}
	return map[string]any{
		"workspace": map[string]any{
			"id":               ws,
			"roots":            []any{map[string]any{"root_id": filepath.Base(c.s.root), "path": c.s.root}},
			"source_authority": "local_filesystem",
		},
		"projects":     []any{proj},
		"capabilities": c.s.manifest,
	}, nil
}

func preparation(r *check.Result) []any {
	out := []any{}
	for _, cmd := range r.Preparation {
		out = append(out, map[string]any{"command": cmd, "reason": "write the development contracts and the UI lock"})
	}
	return out
}
