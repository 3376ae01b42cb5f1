package service_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// propOf is the property name of node.get's first node, or nil.
func propOf(o obj, name string) map[string]any {
	for _, p := range o.list("result.nodes.0.properties") {
		if m := p.(map[string]any); m["name"] == name {
			return m
		}
	}
	return nil
}

// The @axag facts of a member are properties: node.get shows them,
// node.edits offers set_property on the literal ones and on the facts
// not written yet, and one batch that changes one and adds others is
// checked by the compile and the axag check and lands in the source as a
// person would write it. A value the checker does not allow fails the
// compile; an action member without @axag gets one.
func TestAxagFactsAsProperties(t *testing.T) {
	s, dir, ws, snap := openReadingList(t)
	o := do(t, s, v1+`"operation": "node.get", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["mutation:Home.remove"]}}`)
	risk, pre := propOf(o, "axag.risk_level"), propOf(o, "axag.preconditions")
	if risk == nil || risk["value"] != "high" || risk["type"] != "String" || risk["editable"] != true {
		t.Errorf("axag.risk_level of mutation:Home.remove: %v", risk)
	}
	if pre == nil || pre["type"] != "[String]" || pre["editable"] != false {
		t.Errorf("axag.preconditions of mutation:Home.remove: %v", pre)
	}

	o = do(t, s, v1+`"operation": "node.edits", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["mutation:Home.remove"], "kinds": ["set_property"]}}`)
	offered := map[string]bool{}
	for _, x := range o.list("result.nodes.0.options") {
		m := x.(map[string]any)
		offered[m["property"].(string)+map[bool]string{true: " (unwritten)"}[m["unwritten"] == true]] = true
	}
	for _, want := range []string{"axag.risk_level", "axag.async (unwritten)", "axag.intent (unwritten)"} {
		if !offered[want] {
			t.Errorf("node.edits does not offer %s: %v", want, offered)
		}
	}
	if offered["axag.idempotent (unwritten)"] || offered["axag.preconditions"] {
		t.Errorf("node.edits offers a written fact as unwritten, or a list: %v", offered)
	}

	// The axag check names the node a finding is on: the one to set.
	o = do(t, s, propose(ws, snap, "axag-low",
		`{"kind": "set_property", "node": "mutation:Home.remove", "property": "axag.risk_level", "old_value": "high", "new_value": "low"}`))
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "params": {"candidate": "`+o.str("result.candidate.id")+`", "checks": ["axag"]}}`)
	found := false
	for _, f := range o.list("result.checks.0.axag.findings") {
		m := f.(map[string]any)
		found = found || m["rule"] == "AXAG011" && m["node"] == "mutation:Home.remove"
	}
	if !found {
		t.Errorf("the axag check's findings do not name mutation:Home.remove for AXAG011: %s", jsonOf(o.get("result.checks.0.axag.findings")))
	}

	o = do(t, s, propose(ws, snap, "axag-1",
		`{"kind": "set_property", "node": "mutation:Home.remove", "property": "axag.risk_level", "old_value": "high", "new_value": "critical"}`,
		`{"kind": "set_property", "node": "mutation:Home.remove", "property": "axag.async", "new_value": true}`,
		`{"kind": "set_property", "node": "query:About.books", "property": "axag.risk_level", "new_value": "none"}`,
		`{"kind": "set_property", "node": "query:About.books", "property": "axag.scope", "old_value": null, "new_value": "user"}`))
	if o.get("error") != nil {
		t.Fatalf("propose: %s", jsonOf(o["error"]))
	}
	cand := o.str("result.candidate.id")
	o = do(t, s, v1+`"operation": "check.run", "workspace": "`+ws+`", "params": {"candidate": "`+cand+`", "checks": ["compile", "axag"]}}`)
	expect(t, o, "result.checks.1.check", "axag")
	expect(t, o, "result.checks.1.status", "passed")
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-axag-1", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile", "axag"]}}`)
	if o.get("error") != nil {
		t.Fatalf("apply: %s", jsonOf(o["error"]))
	}
	expect(t, o, "result.receipt.outcome", "applied")
	for file, wants := range map[string][]string{
		"main.acore": {`  @axag(risk_level: "critical", confirmation_required: true,`,
			"    approval_required: false, errors: [\"not_found\"], async: true)\n  mutation remove = Books.delete_book()\n"},
		"pages/about.acore": {"page About {\n  @axag(risk_level: \"none\", scope: \"user\")\n  query books = Books.list_books(sort: \"title\")\n"},
	} {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(string(src), want) {
				t.Errorf("%s on disk lacks %q:\n%s", file, want, src)
			}
		}
	}

	snap = do(t, s, v1+`"operation": "project.overview", "workspace": "`+ws+`", "snapshot": "latest", "params": {}}`).str("snapshot.id")
	o = do(t, s, v1+`"operation": "node.get", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["query:About.books"]}}`)
	if p := propOf(o, "axag.scope"); p == nil || p["value"] != "user" || p["editable"] != true {
		t.Errorf("axag.scope of query:About.books after the apply: %v", p)
	}
	// A plain action offers no @axag facts; one that has an @axag does.
	o = do(t, s, v1+`"operation": "node.edits", "workspace": "`+ws+`", "snapshot": "`+snap+`", "params": {"nodes": ["action:Home.reverse"], "kinds": ["set_property"]}}`)
	if opts := o.list("result.nodes.0.options"); len(opts) != 0 {
		t.Errorf("action:Home.reverse offers %v", opts)
	}
	o = do(t, s, propose(ws, snap, "axag-2",
		`{"kind": "set_property", "node": "mutation:Home.remove", "property": "axag.risk_level", "old_value": "critical", "new_value": "severe"}`))
	expect(t, o, "error.code", "compile_failed")
	if !strings.Contains(jsonOf(o["error"]), "AC403") {
		t.Errorf("a risk level the checker does not allow: %s", jsonOf(o["error"]))
	}
}

// A batch that changes a written property and then adds one to the same
// file: the addition lands where it belongs, after the first change.
func TestSetThenAddProperty(t *testing.T) {
	s, dir, ws, snap := openTaskApp(t)
	o := do(t, s, propose(ws, snap, "add-after-set", setLabel("Add", "Add task"),
		`{"kind": "set_property", "node": "element:Home/view/0/1", "property": "disabled", "new_value": false}`))
	if o.get("error") != nil {
		t.Fatalf("propose: %s", jsonOf(o["error"]))
	}
	cand := o.str("result.candidate.id")
	o = do(t, s, v1+`"operation": "change.apply", "workspace": "`+ws+`", "request_id": "apply-add-after-set", "params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	expect(t, o, "result.receipt.outcome", "applied")
	src, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `Button(label: "Add task", on_press: submit, disabled: false)`; !strings.Contains(string(src), want) {
		t.Errorf("main.acore on disk lacks %s:\n%s", want, src)
	}
}
