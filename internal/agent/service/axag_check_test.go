package service_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckRunAxag runs the axag check on the task-app's snapshot and on
// overlays that annotate it: the contract's @axag facts make it
// intermediate, annotations make it full, and an annotation that weakens
// the contract or an invalid one fails the check.
func TestCheckRunAxag(t *testing.T) {
	s, _, ws, snap := openTaskApp(t)
	run := func(files string) obj {
		t.Helper()
		o := do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"files": `+files+`, "checks": ["axag", "compile"]}}`)
		expect(t, o, "result.checks.0.check", "axag")
		return o
	}
	overlay := func(path string) string {
		t.Helper()
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return `[{"path": "main.acore", "content": ` + jsonOf(string(src)) + `, "sha256": "` + mainBefore + `"}]`
	}

	// The task-app as it is: intermediate from its contract's @axag (risk,
	// idempotency, scope), without findings.
	o := run(`[]`)
	expect(t, o, "result.ok", true)
	expect(t, o, "result.checks.0.status", "passed")
	expect(t, o, "result.checks.1.status", "passed")
	expect(t, o, "result.checks.0.axag.level", "intermediate")
	expect(t, o, "result.checks.0.axag.base_level", "intermediate")
	expect(t, o, "result.checks.0.axag.actions", 2)
	expect(t, o, "result.checks.0.axag.action_levels.0.intent", "task.create")
	expect(t, o, "result.checks.0.axag.action_levels.0.missing.0", "preconditions or postconditions")

	// A binding may not weaken the contract: a lower risk is AXAG102.
	plain, err := os.ReadFile("../../../examples/task-app/main.acore")
	if err != nil {
		t.Fatal(err)
	}
	weak := strings.Replace(string(plain), "  mutation create", "  @axag(risk_level: \"none\")\n  mutation create", 1)
	o = run(`[{"path": "main.acore", "content": ` + jsonOf(weak) + `, "sha256": "` + mainBefore + `"}]`)
	expect(t, o, "result.checks.0.status", "failed")
	if !hasCode(o.list("result.checks.0.diagnostics"), "AXAG102") {
		t.Errorf("diagnostics %v", o.get("result.checks.0.diagnostics"))
	}

	o = run(overlay("../../axag/testdata/acore/intermediate/src/main.acore"))
	expect(t, o, "result.ok", true)
	expect(t, o, "result.checks.0.status", "passed")
	expect(t, o, "result.checks.0.axag.level", "intermediate")
	expect(t, o, "result.checks.0.axag.base_level", "intermediate")

	o = run(overlay("../../axag/testdata/acore/full/src/main.acore"))
	expect(t, o, "result.checks.0.status", "passed")
	expect(t, o, "result.checks.0.axag.level", "full")
	if n := len(o.list("result.checks.0.axag.findings")); n != 0 {
		t.Errorf("findings %v", o.get("result.checks.0.axag.findings"))
	}

	// An unknown risk level is the checker's AC403: the axag check fails
	// (and so does compile).
	src, err := os.ReadFile("../../axag/testdata/acore/intermediate/src/main.acore")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), `risk_level: "low"`, `risk_level: "severe"`, 1)
	o = run(`[{"path": "main.acore", "content": ` + jsonOf(bad) + `, "sha256": "` + mainBefore + `"}]`)
	expect(t, o, "result.checks.0.status", "failed")
	expect(t, o, "result.checks.1.status", "failed")
	expect(t, o, "result.checks.0.axag.level", "intermediate")
	if !hasCode(o.list("result.checks.0.diagnostics"), "AC403") {
		t.Errorf("diagnostics %v", o.get("result.checks.0.diagnostics"))
	}
}

// TestProposeAxag: change.propose runs the axag check on the candidate and
// compares its level with the base's; check.run on the candidate too.
func TestProposeAxag(t *testing.T) {
	s, _, ws, snap := openTaskApp(t)
	req := v1 + `"operation": "change.propose", "workspace": "` + ws + `", "base_snapshot": "` + snap + `", "request_id": "ax1", "params": {"operations": [` +
		setLabel("Add", "Add task") + `], "checks": ["axag"]}}`
	o := do(t, s, req)
	expect(t, o, "result.checks.0.check", "compile")
	expect(t, o, "result.checks.1.check", "axag")
	expect(t, o, "result.checks.1.axag.level", "intermediate")
	expect(t, o, "result.checks.1.axag.base_level", "intermediate")
	cand := o.str("result.candidate.id")
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "checks": ["axag"]}}`)
	expect(t, o, "result.checks.0.axag.actions", 2)
	expect(t, o, "result.checks.0.status", "passed")

	o = do(t, s, v1+`"operation": "capabilities", "params": {}}`)
	found := false
	for _, c := range o.list("result.manifest.checks") {
		if m, ok := c.(map[string]any); ok && m["name"] == "axag" && m["status"] == "implemented" {
			found = true
		}
	}
	if !found {
		t.Errorf("capabilities checks %v", o.get("result.manifest.checks"))
	}
}

func hasCode(ds []any, code string) bool {
	for _, d := range ds {
		if m, ok := d.(map[string]any); ok && m["code"] == code {
			return true
		}
	}
	return false
}

// TestCheckRunAxagLowered: on a base at the full level, an overlay that
// drops the annotations shows base_level full and level intermediate (what
// the contract declares).
func TestCheckRunAxagLowered(t *testing.T) {
	s, dir := taskApp(t)
	annotated, err := os.ReadFile("../../axag/testdata/acore/full/src/main.acore")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), annotated, 0o644); err != nil {
		t.Fatal(err)
	}
	o := do(t, s, v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+dir+`"}]}}`)
	ws, snap := o.str("workspace"), o.str("snapshot.id")
	sum := sha256.Sum256(annotated)
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"files": [{"path": "main.acore", "content": `+
		jsonOf(string(plain))+`, "sha256": "`+hex.EncodeToString(sum[:])+`"}], "checks": ["axag"]}}`)
	expect(t, o, "result.checks.0.axag.base_level", "full")
	expect(t, o, "result.checks.0.axag.level", "intermediate")
	expect(t, o, "result.checks.0.status", "passed")
}
