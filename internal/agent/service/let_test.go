package service

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLetNodeGetAndEdits: node.get shows a derived value with its kind,
// inferred type and expression, and node.edits offers the declaration
// family on it: update and create always, remove only while nothing reads
// it.
func TestLetNodeGetAndEdits(t *testing.T) {
	s, dir := opsTaskApp(t)
	opsEdit(t, dir, "  state draft: String = \"\"\n", "  state draft: String = \"\"\n  let shout = draft.trim().upper()\n  let size = draft.length\n")
	opsEdit(t, dir, "Text(\"Loading...\")", "Text(shout)")
	r := opsDo(t, s, "node.get", "latest", nil, map[string]any{"nodes": []string{"let:Home.shout"}})
	var got struct {
		Nodes []struct {
			Node struct {
				ID   string `json:"id"`
				Kind string `json:"kind"`
			} `json:"node"`
			Edges []struct {
				Direction, Kind, Node string
			} `json:"edges"`
			Properties []struct {
				Name  string `json:"name"`
				Type  string `json:"type"`
				Value any    `json:"value"`
			} `json:"properties"`
		} `json:"nodes"`
	}
	opsOK(t, r, &got)
	if r.Snapshot.SemanticState != "validated" {
		t.Fatalf("state %s", r.Snapshot.SemanticState)
	}
	if len(got.Nodes) != 1 || got.Nodes[0].Node.Kind != "let" {
		t.Fatalf("node.get: %s", r.Result)
	}
	props := map[string]string{}
	for _, p := range got.Nodes[0].Properties {
		v, _ := json.Marshal(p.Value)
		props[p.Name] = p.Type + " " + string(v)
	}
	reads := false
	for _, e := range got.Nodes[0].Edges {
		reads = reads || e.Direction == "outgoing" && e.Kind == "reads" && e.Node == "state:Home.draft"
	}
	if !reads {
		t.Errorf("no reads edge to state:Home.draft: %s", r.Result)
	}
	if props["type"] != `Type "String"` || !strings.Contains(props["value"], "draft.trim().upper()") {
		t.Errorf("properties %v", props)
	}
	r = opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"let:Home.shout", "let:Home.size"}})
	var res editsResult
	opsOK(t, r, &res)
	for k, want := range []string{"create,update", "create,update,remove"} {
		o := res.Nodes[k].Options
		if len(o) != 2 || o[0].Kind != "declaration" || strings.Join(o[0].Ops, ",") != want || o[1].Kind != "rename" {
			t.Errorf("%s: options %+v, want declaration %s and rename", res.Nodes[k].Node, o, want)
		}
	}
}
