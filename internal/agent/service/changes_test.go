package service

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/axiomcore/acore/internal/agent/change"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/agent/snapshot"
)

type changesWire struct {
	Since   string              `json:"since"`
	History string              `json:"history"`
	Files   []change.FileChange `json:"files"`
	Nodes   []struct {
		OldID    string  `json:"old_id"`
		NewID    *string `json:"new_id"`
		Status   string  `json:"status"`
		Relation string  `json:"relation"`
		Basis    string  `json:"basis"`
	} `json:"nodes"`
	Relevant bool `json:"relevant"`
}

type relocateWire struct {
	Relocations []struct {
		OldID    string  `json:"old_id"`
		NewID    *string `json:"new_id"`
		Status   string  `json:"status"`
		Relation string  `json:"relation"`
		Basis    string  `json:"basis"`
	} `json:"relocations"`
}

func fileSHA(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestChangesSinceReference(t *testing.T) {
	s, dir := opsTaskApp(t)
	first := opsDo(t, s, "node.get", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/0/1"}}).Snapshot.ID
	before := fileSHA(t, dir)

	// Nothing changed yet.
	var res changesWire
	opsOK(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": first}), &res)
	if res.History != "known" || len(res.Files) != 0 || res.Relevant {
		t.Errorf("unchanged: %+v", res)
	}

	opsEdit(t, dir, `Button(label: "Add"`, `Button(label: "Add task"`)
	after := fileSHA(t, dir)
	r := opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": first, "scope": map[string]any{"nodes": []string{"element:Home/view/0/1"}}})
	opsOK(t, r, &res)
	if r.Snapshot.ID == first {
		t.Fatalf("latest is still %s", first)
	}
	if res.Since != first || res.History != "known" || !res.Relevant {
		t.Errorf("changes: %+v", res)
	}
	if len(res.Files) != 1 || res.Files[0].Path != "main.acore" || res.Files[0].Change != "modified" ||
		res.Files[0].Before == nil || *res.Files[0].Before != before || res.Files[0].After == nil || *res.Files[0].After != after {
		t.Errorf("files: %+v (before %s after %s)", res.Files, before, after)
	}
	if len(res.Nodes) != 1 {
		t.Fatalf("nodes: %+v", res.Nodes)
	}
	n := res.Nodes[0]
	if n.OldID != "element:Home/view/0/1" || n.NewID == nil || *n.NewID != "element:Home/view/0/1" || n.Status != "ok" || n.Relation != "inferred" || n.Basis != "path" {
		t.Errorf("relocation: %+v", n)
	}

	// A node that did not change is not relevant, even though its file did.
	opsOK(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": first, "scope": map[string]any{"nodes": []string{"state:Home.draft"}}}), &res)
	if res.Relevant || len(res.Nodes) != 1 || res.Nodes[0].Basis != "exact" {
		t.Errorf("unchanged node: %+v", res)
	}
	// scope.paths limits files.
	opsOK(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": first, "scope": map[string]any{"paths": []string{"other.acore"}}}), &res)
	if res.Relevant || len(res.Files) != 0 {
		t.Errorf("other path: %+v", res)
	}
	opsOK(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": first, "scope": map[string]any{"paths": []string{"main.acore"}}}), &res)
	if !res.Relevant || len(res.Files) != 1 {
		t.Errorf("main.acore: %+v", res)
	}
	// A file added and max_items paging.
	if err := os.WriteFile(filepath.Join(dir, "extra.acore"), []byte("module extra\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = opsDo(t, s, "changes.since", "latest", map[string]any{"max_items": 1}, map[string]any{"since": first})
	opsOK(t, r, &res)
	if len(res.Files) != 1 || res.Files[0].Path != "extra.acore" || res.Files[0].Change != "added" || res.Files[0].Before != nil || !r.Truncation.Truncated {
		t.Fatalf("page 1: %+v %+v", res.Files, r.Truncation)
	}
	cont := continuation(t, s, r.Snapshot.ID, first)
	opsOK(t, opsDo(t, s, "changes.since", r.Snapshot.ID, map[string]any{"max_items": 1}, map[string]any{"since": first, "cursor": cont}), &res)
	if len(res.Files) != 1 || res.Files[0].Path != "main.acore" {
		t.Errorf("page 2: %+v", res.Files)
	}
	opsErr(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": first, "cursor": cont}), "invalid_arguments")

	// History: expired for an id this service issued that the store does
	// not hold, unknown for an id that is not a capture of this service.
	opsOK(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": snapshot.IDFromDigest(make([]byte, 12))}), &res)
	if res.History != "expired" || len(res.Files) != 0 || len(res.Nodes) != 0 || !res.Relevant {
		t.Errorf("expired: %+v", res)
	}
	for _, id := range []string{"snap-unavailable", "snap-00000000000000000000000000000000"} {
		opsOK(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": id}), &res)
		if res.History != "unknown" {
			t.Errorf("unknown %s: %+v", id, res)
		}
	}
	opsErr(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": "latest"}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{"since": first, "scope": map[string]any{"candidate": "cand-1"}}), "not_found")
	opsErr(t, opsDo(t, s, "changes.since", "latest", nil, map[string]any{}), "invalid_arguments")
}

// continuation reads the continuation cursor of the first page.
func continuation(t *testing.T, s *Service, snap, since string) string {
	t.Helper()
	raw := s.Handle(t.Context(), []byte(`{"protocol":"axiom-agent-semantic/v1","operation":"changes.since","snapshot":"`+snap+
		`","limits":{"max_items":1},"params":{"since":"`+since+`"}}`))
	var top struct {
		Truncation struct {
			Continuation *string `json:"continuation"`
		} `json:"truncation"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &top); err != nil || (top.Result == nil) == (top.Error == nil) || top.Truncation.Continuation == nil {
		t.Fatalf("no continuation: %s", raw)
	}
	return *top.Truncation.Continuation
}

func TestNodeRelocateReference(t *testing.T) {
	s, dir := opsTaskApp(t)
	first := opsDo(t, s, "node.get", "latest", nil, map[string]any{"nodes": []string{"page:Home"}}).Snapshot.ID
	opsEdit(t, dir, `Button(label: "Add"`, `Button(label: "Add task"`)
	var res relocateWire
	opsOK(t, opsDo(t, s, "node.relocate", "latest", nil, map[string]any{"from_snapshot": first,
		"nodes": []string{"element:Home/view/0/1", "state:Home.draft", "element:Home/view/9"}}), &res)
	if len(res.Relocations) != 3 {
		t.Fatalf("relocations: %+v", res.Relocations)
	}
	b, d, x := res.Relocations[0], res.Relocations[1], res.Relocations[2]
	if b.OldID != "element:Home/view/0/1" || b.NewID == nil || *b.NewID != "element:Home/view/0/1" || b.Status != "ok" || b.Relation != "inferred" || b.Basis != "path" {
		t.Errorf("button: %+v", b)
	}
	if d.OldID != "state:Home.draft" || d.NewID == nil || *d.NewID != "state:Home.draft" || d.Status != "ok" || d.Basis != "exact" {
		t.Errorf("draft: %+v", d)
	}
	if x.NewID != nil || x.Status != "not_found" || x.Basis != "missing" {
		t.Errorf("unknown id: %+v", x)
	}

	// An element inserted before the Button: the Button moves to /0/2, the
	// conditional to /0/3; a removed element is missing.
	second := opsDo(t, s, "node.get", "latest", nil, map[string]any{"nodes": []string{"page:Home"}}).Snapshot.ID
	opsEdit(t, dir, `      Button(label: "Add task"`, "      Text(\"New\")\n      Button(label: \"Add task\"")
	opsEdit(t, dir, `      Input(value: draft, placeholder: "Add a task")`+"\n", "")
	opsOK(t, opsDo(t, s, "node.relocate", "latest", nil, map[string]any{"from_snapshot": second,
		"nodes": []string{"element:Home/view/0/1", "conditional:Home/view/0/2", "element:Home/view/0/0", "action:Home.submit"}}), &res)
	want := []struct{ newID, status, basis string }{
		{"element:Home/view/0/1", "ok", "exact"}, // Button: now /0/1 again (Text at /0/0) with the same text
		{"conditional:Home/view/0/2", "ok", "exact"},
		{"", "missing", "missing"}, // the Input
		{"action:Home.submit", "ok", "exact"},
	}
	for i, w := range want {
		got := res.Relocations[i]
		id := ""
		if got.NewID != nil {
			id = *got.NewID
		}
		if id != w.newID || got.Status != w.status || got.Basis != w.basis {
			t.Errorf("%s: got %s %s %s, want %+v", got.OldID, id, got.Status, got.Basis, w)
		}
	}

	// Errors.
	opsErr(t, opsDo(t, s, "node.relocate", "latest", nil, map[string]any{"from_snapshot": snapshot.IDFromDigest(make([]byte, 12)), "nodes": []string{"page:Home"}}), "snapshot_expired")
	opsErr(t, opsDo(t, s, "node.relocate", "latest", nil, map[string]any{"from_snapshot": "bogus", "nodes": []string{"page:Home"}}), "not_found")
	opsErr(t, opsDo(t, s, "node.relocate", "latest", nil, map[string]any{"from_snapshot": "latest", "nodes": []string{"page:Home"}}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "node.relocate", "latest", nil, map[string]any{"from_snapshot": first, "nodes": []string{}}), "invalid_arguments")
}

func TestNodeRelocateMoved(t *testing.T) {
	s, dir := opsTaskApp(t)
	first := opsDo(t, s, "node.get", "latest", nil, map[string]any{"nodes": []string{"page:Home"}}).Snapshot.ID
	opsEdit(t, dir, `      Button(label: "Add"`, "      Text(\"New\")\n      Button(label: \"Add\"")
	var res relocateWire
	opsOK(t, opsDo(t, s, "node.relocate", "latest", nil, map[string]any{"from_snapshot": first,
		"nodes": []string{"element:Home/view/0/1", "conditional:Home/view/0/2", "element:Home/view/0/2/0/0", "element:Home/view/0/0"}}), &res)
	want := []struct{ newID, status, basis string }{
		{"element:Home/view/0/2", "moved", "text"},
		{"conditional:Home/view/0/3", "moved", "text"},
		{"element:Home/view/0/3/0/0", "moved", "text"},
		{"element:Home/view/0/0", "ok", "exact"},
	}
	for i, w := range want {
		got := res.Relocations[i]
		id := ""
		if got.NewID != nil {
			id = *got.NewID
		}
		if id != w.newID || got.Status != w.status || got.Basis != w.basis || got.Relation != "inferred" {
			t.Errorf("%s: got %s %s %s, want %+v", got.OldID, id, got.Status, got.Basis, w)
		}
	}
}
