package service

import (
	"context"
	"encoding/json"
	"github.com/axiomcore/acore/internal/agent/ctxbuild"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/projgen"
)

type contextResultWire struct {
	Items []struct {
		Node struct {
			ID      string `json:"id"`
			Kind    string `json:"kind"`
			Version string `json:"version"`
		} `json:"node"`
		Depth            int                      `json:"depth"`
		Required         bool                     `json:"required"`
		Reasons          []ctxbuild.ContextReason `json:"reasons"`
		Signature        *string                  `json:"signature"`
		Implementation   *string                  `json:"implementation"`
		InputConstraints []struct {
			Name     string   `json:"name"`
			Type     string   `json:"type"`
			Required bool     `json:"required"`
			Values   []string `json:"values"`
		} `json:"input_constraints"`
		Diagnostics []struct {
			Code string `json:"code"`
		} `json:"diagnostics"`
	} `json:"items"`
	Edges []struct {
		From  string `json:"from"`
		Kind  string `json:"kind"`
		To    string `json:"to"`
		Layer string `json:"layer"`
	} `json:"edges"`
}

func TestContextChangeInputReference(t *testing.T) {
	s, _ := opsTaskApp(t)
	r := opsDo(t, s, "context.build", "latest", map[string]any{"max_bytes": 4096},
		map[string]any{"focus": []string{"element:Home/view/0/1"}, "purpose": "change_input"})
	var res contextResultWire
	opsOK(t, r, &res)
	if r.Truncation.Truncated || r.Truncation.Used.Bytes == 0 || r.Truncation.Used.Bytes > 4096 {
		t.Errorf("truncation: %+v", r.Truncation)
	}
	if len(res.Items) < 2 {
		t.Fatalf("items: %+v", res.Items)
	}
	b := res.Items[0]
	if b.Node.ID != "element:Home/view/0/1" || !b.Required || b.Depth != 0 || len(b.Reasons) != 1 ||
		b.Reasons[0] != (ctxbuild.ContextReason{Kind: "focus", Text: "element:Home/view/0/1: focus of change_input"}) ||
		b.Signature == nil || *b.Signature != `Button(label: "Add", on_press: submit)` {
		t.Errorf("focus item: %+v", b)
	}
	var label, variant bool
	for _, ic := range b.InputConstraints {
		label = label || ic.Name == "label" && ic.Type == "String" && ic.Required
		variant = variant || ic.Name == "variant" && strings.Join(ic.Values, ",") == "primary,secondary,danger,link"
	}
	if !label || !variant {
		t.Errorf("input constraints from the catalog: %+v", b.InputConstraints)
	}
	a := res.Items[1]
	want := ctxbuild.ContextReason{Kind: "signature", Text: "action:Home.submit: element:Home/view/0/1 triggers it", Via: "element:Home/view/0/1"}
	if a.Node.ID != "action:Home.submit" || a.Required || len(a.Reasons) != 1 || a.Reasons[0] != want || a.Signature == nil || *a.Signature != "submit()" {
		t.Errorf("second item: %+v", a)
	}
	found := false
	for _, e := range res.Edges {
		found = found || e.From == "element:Home/view/0/1" && e.Kind == "triggers" && e.To == "action:Home.submit" && e.Layer == "resolved"
	}
	if !found {
		t.Errorf("edges: %+v", res.Edges)
	}
}

func TestContextInsufficientReference(t *testing.T) {
	s, _ := opsTaskApp(t)
	r := opsDo(t, s, "context.build", "latest", map[string]any{"max_bytes": 256}, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand"})
	opsErr(t, r, "insufficient_context")
	e := r.Error
	var d struct {
		RequiredBytes int `json:"required_bytes"`
		RequiredItems int `json:"required_items"`
		Expand        []struct {
			EstimatedBytes int    `json:"estimated_bytes"`
			Kind           string `json:"kind"`
			Node           string `json:"node"`
			Reason         string `json:"reason"`
			Ref            string `json:"ref"`
		} `json:"expand"`
	}
	if err := json.Unmarshal(e.Details, &d); err != nil {
		t.Fatal(err)
	}
	if d.RequiredBytes <= 256 || d.RequiredItems != 1 || len(d.Expand) != 1 {
		t.Fatalf("details: %+v", d)
	}
	msg := "the required context of understand on page:Home is " + itoa(d.RequiredBytes) + " bytes, more than limits.max_bytes (256); it is never cut. Repeat with limits.max_bytes of at least " +
		itoa(d.RequiredBytes) + " (and max_nodes of at least 1), a narrower include, or fewer focus nodes"
	if e.Message != msg {
		t.Errorf("message:\n%s\nwant\n%s", e.Message, msg)
	}
	if nodes, _ := e.Target["nodes"].([]any); len(nodes) != 1 || nodes[0] != "page:Home" {
		t.Errorf("target: %v", e.Target)
	}
	if e.Retryable != "none" || len(e.NextActions) != 1 || e.NextActions[0].Operation != "context.build" ||
		e.NextActions[0].Reason != "Repeat with limits.max_bytes of at least details.required_bytes, or a narrower include" {
		t.Errorf("retry advice: %s %+v", e.Retryable, e.NextActions)
	}
	x := d.Expand[0]
	ref := "ctx1:" + r.Snapshot.ID[len("snap-"):len("snap-")+16] + ":node:page:Home"
	if x.Ref != ref || x.Kind != "node" || x.Node != "page:Home" || x.EstimatedBytes <= 0 || x.EstimatedBytes > d.RequiredBytes ||
		x.Reason != "the item page:Home (required context); pass this ref in params.expand to include it as required" {
		t.Errorf("expand: %+v (want ref %s)", x, ref)
	}

	// With at least required_bytes the focus fits; optional members that do
	// not are omitted with expansion refs.
	r = opsDo(t, s, "context.build", r.Snapshot.ID, map[string]any{"max_bytes": d.RequiredBytes + 300}, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand"})
	var res contextResultWire
	opsOK(t, r, &res)
	if len(res.Items) == 0 || res.Items[0].Node.ID != "page:Home" || !res.Items[0].Required {
		t.Fatalf("items: %+v", res.Items)
	}
	if r.Truncation.Used.Bytes > d.RequiredBytes+300 {
		t.Errorf("used %d bytes over max_bytes", r.Truncation.Used.Bytes)
	}
	if !r.Truncation.Truncated || len(r.Truncation.Omissions) != 1 || r.Truncation.Omissions[0].Reason != "max_bytes" {
		t.Fatalf("omissions: %+v", r.Truncation)
	}
	om := r.Truncation.Omissions[0]
	if om.Count == 0 || len(om.Nodes) != om.Count || len(om.Expand) != om.Count {
		t.Fatalf("omission: %+v", om)
	}
	for _, it := range res.Items {
		for _, n := range om.Nodes {
			if it.Node.ID == n {
				t.Errorf("%s both included and omitted", n)
			}
		}
	}
	// Passing an omitted item's ref includes it as required.
	missing := om.Expand[0]
	r = opsDo(t, s, "context.build", r.Snapshot.ID, nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand", "expand": []string{missing.Ref}})
	opsOK(t, r, &res)
	ok := false
	for _, it := range res.Items {
		if it.Node.ID == missing.Node {
			ok = it.Required && it.Reasons[0].Kind == "expand"
		}
	}
	if !ok {
		t.Errorf("expanded %s not required: %+v", missing.Node, res.Items)
	}
	// A ref of another snapshot, a malformed ref, an unknown node.
	opsErr(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand", "expand": []string{"ctx1:0000000000000000:node:page:Home"}}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand", "expand": []string{"nope"}}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand",
		"expand": []string{"ctx1:" + r.Snapshot.ID[5:21] + ":node:element:Home/view/9"}}), "not_found")
}

func TestContextRecipes(t *testing.T) {
	s, _ := opsTaskApp(t)
	ids := func(res contextResultWire) map[string]string {
		m := map[string]string{}
		for _, it := range res.Items {
			m[it.Node.ID] = it.Reasons[0].Kind
		}
		return m
	}
	// understand on a page: its members and children.
	var res contextResultWire
	opsOK(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand"}), &res)
	got := ids(res)
	for id, kind := range map[string]string{"page:Home": "focus", "state:Home.draft": "member", "action:Home.submit": "member", "element:Home/view/0": "child"} {
		if got[id] != kind {
			t.Errorf("understand: %s is %q, want %q (%v)", id, got[id], kind, got)
		}
	}
	// change_behavior on the Button: the action, its effects, its callers.
	opsOK(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"element:Home/view/0/1"}, "purpose": "change_behavior", "include": []string{"implementation"}}), &res)
	got = ids(res)
	for id, kind := range map[string]string{"action:Home.submit": "behavior", "mutation:Home.create": "effect", "state:Home.draft": "effect"} {
		if got[id] != kind {
			t.Errorf("change_behavior: %s is %q, want %q (%v)", id, got[id], kind, got)
		}
	}
	for _, it := range res.Items {
		if it.Signature != nil || it.Implementation == nil {
			t.Errorf("include [implementation]: %s has signature %v, implementation %v", it.Node.ID, it.Signature, it.Implementation)
		}
		if it.Node.ID == "action:Home.submit" && !strings.HasPrefix(*it.Implementation, "action submit() {") {
			t.Errorf("implementation: %q", *it.Implementation)
		}
	}
	// callers and consumers of a state.
	opsOK(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"state:Home.draft"}, "purpose": "change_input", "include": []string{"consumers"}}), &res)
	got = ids(res)
	if got["element:Home/view/0/0"] != "consumer" || got["mutation:Home.create"] != "consumer" {
		t.Errorf("consumers: %v", got)
	}
	opsOK(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"action:Home.submit"}, "purpose": "understand", "include": []string{"callers"}}), &res)
	if got = ids(res); got["element:Home/view/0/1"] != "caller" {
		t.Errorf("callers: %v", got)
	}
	// diagnose: the node holding each diagnostic of the file.
	opsOK(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "diagnose"}), &res)
	found := false
	for _, it := range res.Items {
		for _, d := range it.Diagnostics {
			found = found || d.Code == "AC503" && it.Reasons[0].Kind == "diagnostic"
		}
	}
	if !found {
		t.Errorf("diagnose: %+v", res.Items)
	}
	// tests and authorization are coverage gaps.
	r := opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand", "include": []string{"signature", "tests", "authorization"}})
	opsOK(t, r, &res)
	var gaps []string
	for _, g := range r.Coverage.Gaps {
		gaps = append(gaps, g.Reason)
	}
	if strings.Join(gaps, ",") != "no_tests_in_profile,no_authorization_in_profile" || r.Coverage.Completeness != "partial" {
		t.Errorf("coverage: %+v", r.Coverage)
	}
	// max_nodes cuts optional items only.
	r = opsDo(t, s, "context.build", "latest", map[string]any{"max_nodes": 2}, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand"})
	opsOK(t, r, &res)
	if len(res.Items) != 2 || len(r.Truncation.Omissions) != 1 || r.Truncation.Omissions[0].Reason != "max_nodes" {
		t.Errorf("max_nodes: %d items, %+v", len(res.Items), r.Truncation.Omissions)
	}
	r = opsDo(t, s, "context.build", "latest", map[string]any{"max_nodes": 1}, map[string]any{"focus": []string{"page:Home", "state:Home.draft"}, "purpose": "understand"})
	opsErr(t, r, "insufficient_context")
	if !strings.Contains(r.Error.Message, "2 items, more than limits.max_nodes (1)") {
		t.Errorf("max_nodes message: %s", r.Error.Message)
	}
	// Errors.
	r = opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "change_schema"})
	opsErr(t, r, "unsupported_operation")
	opsErr(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "guess"}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{}, "purpose": "understand"}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Home"}, "purpose": "understand", "include": []string{"everything"}}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "context.build", "latest", nil, map[string]any{"focus": []string{"page:Nope"}, "purpose": "understand"}), "not_found")
}

// TestContextEconomy holds context.build to the target of issue 6 as
// acore-bench measures it: on a node of a generated project at the service
// bounds (64 files, 4 MiB), the whole answer is at most 5 % of the bytes an
// agent would otherwise read (the owning file and the file it imports),
// and the change_behavior answer still has what changing the action needs.
func TestContextEconomy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := projgen.Write(dir, projgen.Project(64, 4<<20-64<<10)); err != nil {
		t.Fatal(err)
	}
	s, err := newForTest(t, Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	var read int
	for _, f := range []string{"main.acore", "contracts/store.axiom"} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		read += int(fi.Size())
	}
	answers, snap := map[string]contextResultWire{}, "latest"
	for _, tc := range []struct{ purpose, focus string }{
		{"change_input", "element:P0_0/view/0/1/1"},
		{"change_behavior", "action:P0_0.submit"},
	} {
		raw, _ := json.Marshal(map[string]any{"protocol": "axiom-agent-semantic/v1", "operation": "context.build", "snapshot": snap,
			"params": map[string]any{"focus": []string{tc.focus}, "purpose": tc.purpose}})
		out := s.Handle(context.Background(), raw)
		var resp struct {
			Snapshot struct {
				ID string `json:"id"`
			} `json:"snapshot"`
			Truncation struct {
				Truncated bool `json:"truncated"`
			} `json:"truncation"`
			Result *contextResultWire `json:"result"`
		}
		if err := json.Unmarshal(out, &resp); err != nil || resp.Result == nil {
			t.Fatalf("%s: %v\n%s", tc.purpose, err, out)
		}
		snap = resp.Snapshot.ID
		if resp.Truncation.Truncated {
			t.Errorf("%s: truncated\n%s", tc.purpose, out)
		}
		pct := float64(len(out)) * 100 / float64(read)
		t.Logf("%s: %d / %d bytes = %.2f %%", tc.purpose, len(out), read, pct)
		if len(out)*20 > read {
			t.Errorf("%s: the answer is %d bytes, %.2f %% of the %d bytes of main.acore and contracts/store.axiom (at most 5 %%)\n%s", tc.purpose, len(out), pct, read, out)
		}
		answers[tc.purpose] = *resp.Result
	}

	// change_behavior keeps the action's body, what it writes and invokes
	// (with their signatures) and what triggers it.
	res := answers["change_behavior"]
	items := map[string]int{}
	for k, it := range res.Items {
		items[it.Node.ID] = k
	}
	want := []struct{ id, kind, text, via, sig string }{
		{"action:P0_0.submit", "focus", "action:P0_0.submit: focus of change_behavior", "", ""},
		{"mutation:P0_0.create", "effect", "the action invokes it", "action:P0_0.submit", "mutation create = Store.create_item(title: draft, price: price)"},
		{"state:P0_0.draft", "effect", "the action writes it", "action:P0_0.submit", `state draft: String = ""`},
		{"state:P0_0.count", "effect", "the action writes it", "action:P0_0.submit", "state count: Int = 0"},
		{"query:P0_0.items", "effect", "the action invokes it", "action:P0_0.submit", "query items = Store.list_items()"},
		{"element:P0_0/view/0/1/1", "caller", "it triggers the action", "action:P0_0.submit", `Button(label: "Add", on_press: submit, disabled: draft.is_empty)`},
	}
	if len(res.Items) != len(want) {
		t.Errorf("change_behavior: %d items, want %d: %+v", len(res.Items), len(want), res.Items)
	}
	for _, w := range want {
		k, ok := items[w.id]
		if !ok {
			t.Errorf("change_behavior: %s missing", w.id)
			continue
		}
		it := res.Items[k]
		if it.Required != (w.kind == "focus") || len(it.Reasons) != 1 || it.Reasons[0] != (ctxbuild.ContextReason{Kind: w.kind, Text: w.text, Via: w.via}) {
			t.Errorf("change_behavior: %s: required %v, reasons %+v", w.id, it.Required, it.Reasons)
		}
		if w.kind == "focus" {
			body := "action submit() {\n    create.run()\n    draft = \"\"\n    count = count + 1\n    items.refresh()\n  }"
			if it.Implementation == nil || *it.Implementation != body || it.Signature != nil {
				t.Errorf("change_behavior: the focus has implementation %v, signature %v; want the body only", it.Implementation, it.Signature)
			}
		} else if it.Signature == nil || *it.Signature != w.sig || it.Implementation != nil {
			t.Errorf("change_behavior: %s has signature %v, implementation %v; want the signature %q only", w.id, it.Signature, it.Implementation, w.sig)
		}
	}
	var edges []string
	for _, e := range res.Edges {
		edges = append(edges, e.From+" "+e.Kind+" "+e.To+" "+e.Layer)
	}
	wantEdges := []string{
		"action:P0_0.submit invokes mutation:P0_0.create resolved",
		"action:P0_0.submit writes state:P0_0.draft resolved",
		"action:P0_0.submit writes state:P0_0.count resolved",
		"action:P0_0.submit reads state:P0_0.count resolved",
		"action:P0_0.submit invokes query:P0_0.items resolved",
		"element:P0_0/view/0/1/1 triggers action:P0_0.submit resolved",
	}
	if strings.Join(edges, "\n") != strings.Join(wantEdges, "\n") {
		t.Errorf("change_behavior edges:\n%s\nwant\n%s", strings.Join(edges, "\n"), strings.Join(wantEdges, "\n"))
	}
}
