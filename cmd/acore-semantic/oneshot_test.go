package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/projgen"
)

// oneShot runs one request as its own process, as the quick start does.
func oneShot(t *testing.T, root, req string) map[string]any {
	t.Helper()
	cmd := exec.Command(binary, "--root", root)
	cmd.Stdin = strings.NewReader(req)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", req, err)
	}
	var o map[string]any
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("%s: %v: %s", req, err, out)
	}
	return o
}

// TestOneShotChainsAcrossProcesses reads, edits the file by hand, and asks
// a later process what changed since the first snapshot: the snapshot an
// earlier process captured is still readable, and the workspace id it gave
// is accepted.
func TestOneShotChainsAcrossProcesses(t *testing.T) {
	root := taskApp(t)
	first := oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "workspace.open", "params": {"roots": [{"path": "`+root+`"}]}}`)
	ws, _ := first["workspace"].(string)
	snap, _ := first["snapshot"].(map[string]any)["id"].(string)
	main := filepath.Join(root, "main.acore")
	src, _ := os.ReadFile(main)
	if err := os.WriteFile(main, []byte(strings.Replace(string(src), `label: "Add"`, `label: "Add task"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	o := oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "changes.since", "workspace": "`+ws+`", "snapshot": "latest", "params": {"since": "`+snap+`", "scope": {"nodes": ["element:Home/view/0/1"]}}}`)
	res, _ := o["result"].(map[string]any)
	if res == nil {
		t.Fatalf("changes.since: %v", o["error"])
	}
	if res["history"] != "known" || res["relevant"] != true {
		t.Errorf("history %v relevant %v", res["history"], res["relevant"])
	}
	files, _ := res["files"].([]any)
	if len(files) != 1 || files[0].(map[string]any)["path"] != "main.acore" || files[0].(map[string]any)["change"] != "modified" {
		t.Errorf("files %v", files)
	}
	// The old snapshot itself is readable and says the disk changed.
	o = oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "node.get", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["element:Home/view/0/1"]}}`)
	if o["error"] != nil {
		t.Fatalf("old snapshot: %v", o["error"])
	}
	disk, _ := o["snapshot"].(map[string]any)["disk"].(map[string]any)
	if disk["state"] != "changed" {
		t.Errorf("disk %v", disk)
	}
	props := o["result"].(map[string]any)["nodes"].([]any)[0].(map[string]any)["properties"].([]any)
	if props[0].(map[string]any)["value"] != "Add" {
		t.Errorf("old snapshot shows %v", props[0])
	}
}

// TestOneShotCollectsNothing: a one-shot process answers with the
// collector off (its heap is freed when it exits), unless the user set
// GOGC, which it then keeps. gctrace prints a line for each collection.
func TestOneShotCollectsNothing(t *testing.T) {
	root := t.TempDir()
	if err := projgen.Write(root, projgen.Project(8, 512<<10)); err != nil {
		t.Fatal(err)
	}
	find := `{"protocol": "axiom-agent-semantic/v1", "operation": "node.find", "snapshot": "latest", "params": {"query": "Add", "kind": "element", "limit": 5}}`
	collections := func(env ...string) int {
		cmd := exec.Command(binary, "--root", root)
		cmd.Stdin = strings.NewReader(find)
		cmd.Env = append(os.Environ(), append([]string{"GODEBUG=gctrace=1", "ACORE_COMPILE_CACHE=off", "GOGC=", "GOMEMLIMIT="}, env...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), `"matches"`) {
			t.Fatalf("node.find: %v: %s %s", err, out, stderr.String())
		}
		n := 0
		for _, line := range strings.Split(stderr.String(), "\n") {
			// The one forced collection at the start frees the
			// huge-page reserve (hugeheap.Reserve) of a tiny heap.
			if strings.HasPrefix(line, "gc ") && !strings.HasSuffix(line, "(forced)") {
				n++
			}
		}
		return n
	}
	if n := collections(); n != 0 {
		t.Errorf("a one-shot node.find collected %d times, want none", n)
	}
	if n := collections("GOGC=100"); n == 0 {
		t.Error("with GOGC=100 set, a one-shot node.find never collected: the user's setting was not kept")
	}
}

// TestOneShotFollowsComponentBoundary asks, each in its own process (the
// later ones read the compile the first saved), for the path from the
// Button inside reading-list's BookRow to the operation it ends in, and
// for the instances that pass PageTitle's subtitle.
func TestOneShotFollowsComponentBoundary(t *testing.T) {
	root := filepath.Join(t.TempDir(), "reading-list")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "..", "examples", "reading-list"))); err != nil {
		t.Fatal(err)
	}
	first := oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "workspace.open", "params": {"roots": [{"path": "`+root+`"}]}}`)
	ws, _ := first["workspace"].(string)
	for range 2 {
		o := oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "graph.query", "workspace": "`+ws+`", "snapshot": "latest", "limits": {"max_depth": 8},
			"params": {"from": ["element:BookRow/view/0/1"], "to": ["contract_operation:Books.delete_book"], "mode": "paths", "transitive": true}}`)
		res, _ := o["result"].(map[string]any)
		if res == nil {
			t.Fatalf("graph.query: %v", o["error"])
		}
		if got, _ := json.Marshal(res["paths"]); string(got) != `[{"nodes":["element:BookRow/view/0/1","prop:BookRow.on_delete","action:Home.delete","mutation:Home.remove","contract_operation:Books.delete_book"]}]` {
			t.Errorf("paths %s", got)
		}
		if cov := o["coverage"].(map[string]any); cov["exhaustive"] != true {
			t.Errorf("coverage %v", cov)
		}
		o = oneShot(t, root, `{"protocol": "axiom-agent-semantic/v1", "operation": "impact.analyze", "workspace": "`+ws+`", "snapshot": "latest",
			"params": {"targets": ["prop:PageTitle.subtitle"], "direction": "dependents"}}`)
		got := map[string]any{}
		imp, _ := o["result"].(map[string]any)["impacted"].([]any)
		for _, im := range imp {
			im := im.(map[string]any)
			got[im["node"].(map[string]any)["id"].(string)] = im["site"]
		}
		for id, site := range map[string]string{"element:Home/view/0/1": "main.acore 40 50", "element:About/view/0/1": "pages/about.acore 14 43"} {
			s, _ := got[id].(map[string]any)
			if s == nil || strings.Join([]string{s["path"].(string), jsonNum(s["line"]), jsonNum(s["column"])}, " ") != site {
				t.Errorf("impact of prop:PageTitle.subtitle: %s at %v, want %s", id, got[id], site)
			}
		}
	}
}

func jsonNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
