package service_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/service"
)

const cardSrc = `component Card(title: String, subtitle: String = "") {
  view {
    Text(title)
  }
}
`

// openCardApp writes card.acore and two Card instances into a fresh
// task-app and opens it.
func openCardApp(t *testing.T) (s *service.Service, dir, ws, snap string) {
	t.Helper()
	s, dir = taskApp(t)
	if err := os.WriteFile(filepath.Join(dir, "card.acore"), []byte(cardSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.acore")
	b, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "app TasksApp", "use component Card from \"card.acore\"\n\napp TasksApp", 1)
	src = strings.Replace(src, "      Button(label: \"Add\", on_press: submit)\n",
		"      Button(label: \"Add\", on_press: submit)\n      Card(title: \"One\")\n      Card(title: \"Two\")\n", 1)
	if err := os.WriteFile(main, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	o := do(t, s, v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+dir+`"}]}}`)
	if st := o.str("snapshot.semantic_state"); st != "validated" {
		t.Fatalf("the card app is %s", st)
	}
	return s, dir, o.str("workspace"), o.str("snapshot.id")
}

const addLevel = `{"kind": "declaration", "op": "create", "anchor": "prop:Card.subtitle", "position": "after", "old_text": "subtitle: String = \"\"", "declaration": "level: Int"}`

func passLevel(node string) string {
	return `{"kind": "set_property", "node": "` + node + `", "property": "level", "new_value": 2}`
}

// TestDeclarationEdits drives the declaration and set_property additions
// through change.propose; do validates every answer against the
// published schemas.
func TestDeclarationEdits(t *testing.T) {
	s, dir, ws, snap := openCardApp(t)
	cases := []struct {
		name     string
		ops      []string
		code     string // "" for an accepted candidate
		reason   string
		contains string // in the error's details or the candidate's operations
	}{
		{"page after page", []string{`{"kind": "declaration", "op": "create", "anchor": "page:Home", "position": "after", "old_text": "page Home {", "declaration": "page Stats {\n  view {\n    Text(\"Stats\")\n  }\n}"}`}, "", "", `"created":"page:Stats"`},
		{"model before page", []string{`{"kind": "declaration", "op": "create", "anchor": "page:Home", "position": "before", "old_text": "page Home {", "declaration": "model Note {\n  text: String\n}"}`}, "", "", `"created":"model:Note"`},
		{"let after state", []string{`{"kind": "declaration", "op": "create", "anchor": "state:Home.draft", "position": "after", "old_text": "state draft: String = \"\"", "declaration": "let shout = draft.upper()"}`}, "", "", `"created":"let:Home.shout"`},
		{"state where a top-level declaration goes", []string{`{"kind": "declaration", "op": "create", "anchor": "page:Home", "position": "after", "old_text": "page Home {", "declaration": "state n: Int = 0"}`}, "invalid_arguments", "incompatible_target", ""},
		{"required prop alone", []string{addLevel}, "compile_failed", "candidate_errors", "Card needs level"},
		{"required prop at one instance", []string{addLevel, passLevel("element:Home/view/0/2")}, "compile_failed", "candidate_errors", "Card needs level"},
		{"required prop at every instance", []string{addLevel, passLevel("element:Home/view/0/2"), passLevel("element:Home/view/0/3")}, "", "", `"created":"prop:Card.level"`},
		{"remove a component still placed", []string{`{"kind": "declaration", "op": "remove", "node": "component:Card", "old_text": "component Card(title: String, subtitle: String = \"\") {"}`}, "compile_failed", "candidate_errors", "AC205"},
		{"add a property the element does not accept", []string{`{"kind": "set_property", "node": "element:Home/view/0/1", "property": "colour", "new_value": "red"}`}, "invalid_arguments", "incompatible_target", "colour"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := do(t, s, propose(ws, snap, "decl-"+string(rune('a'+i)), c.ops...))
			if c.code == "" {
				if o["error"] != nil {
					t.Fatalf("refused: %v", o["error"])
				}
				ops, _ := json.Marshal(o.get("result.candidate.operations"))
				if !strings.Contains(string(ops), c.contains) && !strings.Contains(jsonOf(o["result"]), c.contains) {
					t.Errorf("result has no %s: %s", c.contains, jsonOf(o["result"]))
				}
				do(t, s, v1+`"operation": "change.discard", "workspace": "`+ws+`", "params": {"candidate": "`+o.str("result.candidate.id")+`"}}`)
				return
			}
			expect(t, o, "error.code", c.code)
			expect(t, o, "error.reason", c.reason)
			if all := jsonOf(o["error"]); !strings.Contains(all, c.contains) {
				t.Errorf("error has no %q: %s", c.contains, all)
			}
		})
	}
	// Nothing was written by the proposals.
	if b, _ := os.ReadFile(filepath.Join(dir, "card.acore")); string(b) != cardSrc {
		t.Errorf("card.acore changed:\n%s", b)
	}
}

// TestSetPropertyAddFromOption: node.edits lists disabled, which the
// Button does not write, with current_value null; a set_property citing
// that option without old_value is applied to disk.
func TestSetPropertyAddFromOption(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	o := do(t, s, v1+`"operation": "node.edits", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["element:Home/view/0/1"], "kinds": ["set_property"]}}`)
	var id, fp string
	for _, op := range o.list("result.nodes.0.options") {
		op := obj(op.(map[string]any))
		if op.str("property") == "label" && op.get("current_value") != "Add" {
			t.Errorf("label's current_value %v, want Add", op.get("current_value"))
		}
		if op.str("property") == "disabled" {
			if op.get("unwritten") != true || op.get("current_value") != nil {
				t.Errorf("disabled option %v", op)
			}
			id, fp = op.str("option_id"), op.str("fingerprint")
		}
	}
	if id == "" {
		t.Fatalf("no disabled option: %v", o.get("result"))
	}
	o = do(t, s, propose(ws, snap, "add-disabled",
		`{"kind": "set_property", "node": "element:Home/view/0/1", "property": "disabled", "new_value": true, "option": {"option_id": "`+id+`", "fingerprint": "`+fp+`"}}`))
	cand := o.str("result.candidate.id")
	if cand == "" {
		t.Fatalf("refused: %v", o["error"])
	}
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-disabled", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")
	b, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `Button(label: "Add", on_press: submit, disabled: true)`) {
		t.Errorf("main.acore after the apply:\n%s", b)
	}
}
