package service

import (
	"context"
	"encoding/json"
	"github.com/axiomcore/acore/internal/agent/schema"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// opsTaskApp writes the task-app of the protocol reference into a temp
// directory and returns a service for it.
func opsTaskApp(t *testing.T) (*Service, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	s, err := newForTest(t, Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// opsResponse is a decoded response.
type opsResponse struct {
	Snapshot *struct {
		ID            string `json:"id"`
		SemanticState string `json:"semantic_state"`
	} `json:"snapshot"`
	Coverage struct {
		Completeness string `json:"completeness"`
		Exhaustive   bool   `json:"exhaustive"`
		Gaps         []struct {
			Reason string   `json:"reason"`
			Nodes  []string `json:"nodes"`
		} `json:"gaps"`
	} `json:"coverage"`
	Truncation struct {
		Truncated bool `json:"truncated"`
		Used      struct {
			Bytes int `json:"bytes"`
		} `json:"used"`
		Omissions []struct {
			Reason string   `json:"reason"`
			Count  int      `json:"count"`
			Nodes  []string `json:"nodes"`
			Expand []struct {
				Ref  string `json:"ref"`
				Node string `json:"node"`
			} `json:"expand"`
		} `json:"omissions"`
	} `json:"truncation"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code        string         `json:"code"`
		Reason      string         `json:"reason"`
		Message     string         `json:"message"`
		Target      map[string]any `json:"target"`
		Retryable   string         `json:"retryable"`
		NextActions []struct {
			Operation string `json:"operation"`
			Reason    string `json:"reason"`
		} `json:"next_actions"`
		Details json.RawMessage `json:"details"`
	} `json:"error"`
}

// opsDo sends one request (snapshot "" means none) and checks that the
// response has exactly one of result and error.
func opsDo(t *testing.T, s *Service, op, snap string, limits map[string]any, params any) opsResponse {
	t.Helper()
	req := map[string]any{"protocol": "axiom-agent-semantic/v1", "operation": op, "params": params}
	if snap != "" {
		req["snapshot"] = snap
	}
	if limits != nil {
		req["limits"] = limits
	}
	raw, _ := json.Marshal(req)
	out := s.Handle(context.Background(), raw)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(out, &top); err != nil {
		t.Fatalf("%s: response is not a JSON object: %v\n%s", op, err, out)
	}
	_, hasRes := top["result"]
	_, hasErr := top["error"]
	if hasRes == hasErr {
		t.Fatalf("%s: response must have exactly one of result and error:\n%s", op, out)
	}
	var v any
	_ = json.Unmarshal(out, &v)
	if err := schema.ValidateResponse(v); err != nil {
		t.Errorf("%s: response breaks the schema: %v\n%s", op, err, out)
	}
	var r opsResponse
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s: %v\n%s", op, err, out)
	}
	return r
}

func opsOK(t *testing.T, r opsResponse, v any) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("unexpected error %s (%s): %s", r.Error.Code, r.Error.Reason, r.Error.Message)
	}
	rv := reflect.ValueOf(v).Elem() // decode into a fresh value
	rv.Set(reflect.Zero(rv.Type()))
	if err := json.Unmarshal(r.Result, v); err != nil {
		t.Fatalf("result: %v\n%s", err, r.Result)
	}
}

func opsErr(t *testing.T, r opsResponse, code string) {
	t.Helper()
	if r.Error == nil {
		t.Fatalf("want error %s, got result %s", code, r.Result)
	}
	if r.Error.Code != code {
		t.Fatalf("want error %s, got %s (%s): %s", code, r.Error.Code, r.Error.Reason, r.Error.Message)
	}
}

// opsEdit rewrites main.acore with old replaced by new.
func opsEdit(t *testing.T, dir, old, new string) {
	t.Helper()
	p := filepath.Join(dir, "main.acore")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("main.acore has no %q", old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

type editsResult struct {
	Nodes []struct {
		Node        string       `json:"node"`
		NodeVersion string       `json:"node_version"`
		Options     []EditOption `json:"options"`
		Unavailable []struct {
			Kind   string `json:"kind"`
			Code   string `json:"code"`
			Reason string `json:"reason"`
		} `json:"unavailable"`
	} `json:"nodes"`
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

func TestNodeEditsButtonReference(t *testing.T) {
	s, _ := opsTaskApp(t)
	r := opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/0/1"}, "include_unavailable": true})
	var res editsResult
	opsOK(t, r, &res)
	if len(res.Nodes) != 1 {
		t.Fatalf("nodes: %+v", res.Nodes)
	}
	n := res.Nodes[0]
	if n.Node != "element:Home/view/0/1" || !hex64.MatchString(n.NodeVersion) {
		t.Fatalf("node %s version %s", n.Node, n.NodeVersion)
	}
	// The three options of what the Button writes, then one per literal
	// property it accepts and does not write, each with current_value null.
	if len(n.Options) != 7 {
		t.Fatalf("want 7 options, got %+v", n.Options)
	}
	if string(n.Options[0].CurrentValue) != `"Add"` {
		t.Errorf("o1 current_value %s, want \"Add\"", n.Options[0].CurrentValue)
	}
	var adds []string
	for _, o := range n.Options[3:] {
		if o.Kind != "set_property" || !o.Unwritten || string(o.CurrentValue) != "null" {
			t.Errorf("%s: %+v, want an unwritten set_property option with current_value null", o.OptionID, o)
		}
		adds = append(adds, o.Property)
	}
	if strings.Join(adds, ",") != "variant,disabled,visible,class" {
		t.Errorf("unwritten options %v", adds)
	}
	o1, o2, o3 := n.Options[0], n.Options[1], n.Options[2]
	if o1.OptionID != "o1" || o1.Kind != "set_property" || o1.Property != "label" || o1.Accepts != "String" {
		t.Errorf("o1: %+v", o1)
	}
	if o2.OptionID != "o2" || o2.Kind != "bind_property" || o2.Property != "label" || o2.Accepts != "String" ||
		len(o2.States) != 1 || o2.States[0] != "state:Home.draft" {
		t.Errorf("o2: %+v", o2)
	}
	if o3.OptionID != "o3" || o3.Kind != "list_element" || o3.Accepts != "Element" || strings.Join(o3.Ops, ",") != "remove,insert" ||
		o3.Text == nil || *o3.Text != `Button(label: "Add", on_press: submit)` {
		t.Errorf("o3: %+v", o3)
	}
	seen := map[string]bool{}
	for _, o := range n.Options {
		if !hex64.MatchString(o.Fingerprint) || seen[o.Fingerprint] {
			t.Errorf("fingerprint %q: not lowercase hex SHA-256 or repeated", o.Fingerprint)
		}
		seen[o.Fingerprint] = true
	}
	var kinds []string
	for _, u := range n.Unavailable {
		kinds = append(kinds, u.Kind)
		if u.Code != "unsupported_operation" {
			t.Errorf("unavailable %s: code %s", u.Kind, u.Code)
		}
		if strings.Contains(u.Reason, "does not report why") || u.Reason == "" {
			t.Errorf("unavailable %s: reason does not say why: %q", u.Kind, u.Reason)
		}
	}
	if strings.Join(kinds, ",") != "declaration,set_reference,import,file" {
		t.Fatalf("unavailable: %v", kinds)
	}
	if !strings.Contains(n.Unavailable[0].Reason, "props, states, derived values (let), queries, mutations and actions") || !strings.Contains(n.Unavailable[0].Reason, "element:Home/view/0/1 is an element") {
		t.Errorf("declaration reason: %q", n.Unavailable[0].Reason)
	}
	if !strings.Contains(n.Unavailable[1].Reason, "on_press") || !strings.Contains(n.Unavailable[1].Reason, "submit") {
		t.Errorf("set_reference reason: %q", n.Unavailable[1].Reason)
	}
	if !strings.Contains(n.Unavailable[2].Reason, "module") {
		t.Errorf("import reason: %q", n.Unavailable[2].Reason)
	}

	// The fingerprint is the documented canonical input, stable on the same
	// snapshot.
	snap := r.Snapshot.ID
	for _, o := range n.Options {
		o := o
		fp := o.Fingerprint
		o.OptionID, o.Fingerprint = "", ""
		if got := OptionFingerprint(snap, n.Node, n.NodeVersion, &o); got != fp {
			t.Errorf("%s: fingerprint %s, canonical input gives %s", o.Kind, fp, got)
		}
	}
	r2 := opsDo(t, s, "node.edits", snap, nil, map[string]any{"nodes": []string{"element:Home/view/0/1"}})
	var res2 editsResult
	opsOK(t, r2, &res2)
	if res2.Nodes[0].Options[0].Fingerprint != o1.Fingerprint {
		t.Errorf("fingerprint not stable on one snapshot")
	}
	if res2.Nodes[0].Unavailable != nil {
		t.Errorf("unavailable listed without include_unavailable: %+v", res2.Nodes[0].Unavailable)
	}
}

func TestNodeEditsFamilies(t *testing.T) {
	s, dir := opsTaskApp(t)
	r := opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{
		"state:Home.draft", "action:Home.submit", "page:Home", "module:main.acore", "element:Home/view/0/0", "conditional:Home/view/0/2",
	}, "include_unavailable": true})
	var res editsResult
	opsOK(t, r, &res)
	byNode := map[string][]EditOption{}
	unavail := map[string]map[string]string{}
	next := 1
	for _, n := range res.Nodes {
		byNode[n.Node] = n.Options
		unavail[n.Node] = map[string]string{}
		for _, u := range n.Unavailable {
			unavail[n.Node][u.Kind] = u.Reason
		}
		for _, o := range n.Options {
			if want := "o" + itoa(next); o.OptionID != want {
				t.Errorf("%s: option id %s, want %s (numbered per response)", n.Node, o.OptionID, want)
			}
			next++
		}
	}
	draft := byNode["state:Home.draft"]
	if len(draft) != 2 || draft[0].Kind != "set_property" || draft[0].Property != "initial" || draft[0].Accepts != "String" {
		t.Fatalf("draft options: %+v", draft)
	}
	if d := draft[1]; d.Kind != "declaration" || strings.Join(d.Ops, ",") != "create,update" || d.Text == nil || *d.Text != `state draft: String = ""` {
		t.Errorf("draft declaration (referenced, so no remove): %+v", d)
	}
	sub := byNode["action:Home.submit"]
	if len(sub) != 1 || sub[0].Kind != "declaration" || strings.Join(sub[0].Ops, ",") != "create,update" || !strings.HasPrefix(*sub[0].Text, "action submit() {") {
		t.Errorf("submit: %+v", sub)
	}
	if !strings.Contains(unavail["action:Home.submit"]["set_property"], "no properties") {
		t.Errorf("submit set_property reason: %q", unavail["action:Home.submit"]["set_property"])
	}
	home := byNode["page:Home"]
	if len(home) != 1 || home[0].Kind != "declaration" || strings.Join(home[0].Ops, ",") != "create,remove" ||
		strings.Join(home[0].Positions, ",") != "before,after,first" || *home[0].Text != "page Home {" {
		t.Errorf("page: %+v", home)
	}
	mod := byNode["module:main.acore"]
	if len(mod) != 2 || mod[0].Kind != "import" || strings.Join(mod[0].Ops, ",") != "add" {
		t.Errorf("module: %+v", mod)
	}
	if len(mod) == 2 && (mod[1].Kind != "file" || strings.Join(mod[1].Ops, ",") != "remove" || mod[1].Path != "main.acore" || len(mod[1].OldSHA256) != 64) {
		t.Errorf("module file option: %+v", mod[1])
	}
	input := byNode["element:Home/view/0/0"]
	var kinds []string
	for _, o := range input {
		kinds = append(kinds, o.Kind+":"+o.Property)
	}
	// value is bound to draft, the only String state: no other state to bind.
	if strings.Join(kinds, ",") != "set_property:placeholder,bind_property:placeholder,list_element:,"+
		"set_property:label,set_property:input_type,set_property:max_length,set_property:disabled,set_property:autofocus,set_property:class" {
		t.Errorf("input options: %v", kinds)
	}
	if why := unavail["element:Home/view/0/0"]["set_reference"]; !strings.Contains(why, "no on_* handler") {
		t.Errorf("input set_reference reason: %q", why)
	}
	cond := byNode["conditional:Home/view/0/2"]
	if len(cond) != 1 || cond[0].Kind != "list_element" || !strings.HasPrefix(*cond[0].Text, "if tasks.pending {") {
		t.Errorf("conditional: %+v", cond)
	}

	// kinds filters the families, in both lists.
	r = opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/0/1"}, "kinds": []string{"bind_property", "replace_region"}, "include_unavailable": true})
	opsOK(t, r, &res)
	if len(res.Nodes[0].Options) != 1 || res.Nodes[0].Options[0].Kind != "bind_property" || res.Nodes[0].Options[0].OptionID != "o1" {
		t.Errorf("kinds filter: %+v", res.Nodes[0].Options)
	}
	if u := res.Nodes[0].Unavailable; len(u) != 1 || u[0].Kind != "replace_region" || !strings.Contains(u[0].Reason, "syntax snapshot") {
		t.Errorf("replace_region named in kinds: %+v", u)
	}

	// Errors.
	opsErr(t, opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/0/1"}, "kinds": []string{"rename"}}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{}}), "invalid_arguments")
	many := make([]string, 21)
	for i := range many {
		many[i] = "page:Home"
	}
	opsErr(t, opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": many}), "invalid_arguments")
	opsErr(t, opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/9"}}), "not_found")
	// A param it does not know is ignored (the reference's Conventions).
	if r := opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"page:Home"}, "extra": true}); r.Error != nil {
		t.Errorf("an unknown param: %s (%s)", r.Error.Code, r.Error.Reason)
	}

	// A new snapshot gives new fingerprints.
	before := byNode["element:Home/view/0/0"][0].Fingerprint
	opsEdit(t, dir, `"Add"`, `"Add task"`)
	r = opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/0/0"}})
	opsOK(t, r, &res)
	if res.Nodes[0].Options[0].Fingerprint == before {
		t.Errorf("fingerprint did not change with the snapshot")
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestNodeEditsSetReferenceAndRemove(t *testing.T) {
	s, dir := opsTaskApp(t)
	opsEdit(t, dir, "  view {", "  action clear() {\n    draft = \"\"\n  }\n\n  action pick(n: Int) {\n  }\n\n  view {")
	r := opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/0/1", "action:Home.clear"}})
	var res editsResult
	opsOK(t, r, &res)
	if r.Snapshot.SemanticState != "validated" {
		t.Fatalf("state %s", r.Snapshot.SemanticState)
	}
	var ref *EditOption
	for i, o := range res.Nodes[0].Options {
		if o.Kind == "set_reference" {
			ref = &res.Nodes[0].Options[i]
		}
	}
	if ref == nil || ref.Property != "on_press" || strings.Join(ref.Targets, ",") != "action:Home.clear" {
		t.Fatalf("set_reference (pick takes a parameter): %+v", res.Nodes[0].Options)
	}
	clear := res.Nodes[1].Options
	if len(clear) != 1 || strings.Join(clear[0].Ops, ",") != "create,update,remove" {
		t.Errorf("unreferenced action: %+v", clear)
	}
}

func TestNodeEditsUnavailableAndSyntax(t *testing.T) {
	s, dir := opsTaskApp(t)
	// A project without its UI lock is unavailable.
	if err := os.Rename(filepath.Join(dir, ".axiom", "ui.lock"), filepath.Join(dir, "ui.lock.bak")); err != nil {
		t.Fatal(err)
	}
	r := opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"page:Home"}})
	opsErr(t, r, "compile_failed")
	if r.Error.Reason != "not_validated" {
		t.Errorf("reason %s", r.Error.Reason)
	}
	if err := os.Rename(filepath.Join(dir, "ui.lock.bak"), filepath.Join(dir, ".axiom", "ui.lock")); err != nil {
		t.Fatal(err)
	}

	// A syntax error: replace_region around it.
	opsEdit(t, dir, `Button(label: "Add", on_press: submit)`, `Button(label: "Add", on_press: submit`)
	r = opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"module:main.acore", "page:Home"}, "kinds": []string{"replace_region"}, "include_unavailable": true})
	var res editsResult
	opsOK(t, r, &res)
	if r.Snapshot.SemanticState != "syntax" {
		t.Fatalf("state %s", r.Snapshot.SemanticState)
	}
	opts := res.Nodes[0].Options
	if len(opts) == 0 {
		t.Fatalf("no region: %+v", res.Nodes[0])
	}
	src, _ := os.ReadFile(filepath.Join(dir, "main.acore"))
	lines := strings.Split(string(src), "\n")
	for i, o := range opts {
		if o.OptionID != "r"+itoa(i+1) || o.Kind != "replace_region" || o.Region == nil {
			t.Fatalf("region option: %+v", o)
		}
		g := o.Region
		if g.Path != "main.acore" || g.StartLine < 1 || g.EndLine < g.StartLine || g.EndLine-g.StartLine >= 200 {
			t.Fatalf("region: %+v", g)
		}
		if want := strings.Join(lines[g.StartLine-1:g.EndLine], "\n"); g.OldText != want {
			t.Errorf("old_text %q, want lines %d..%d %q", g.OldText, g.StartLine, g.EndLine, want)
		}
		if fp := OptionFingerprint(r.Snapshot.ID, "", "", &EditOption{Kind: "replace_region", Region: g}); fp != o.Fingerprint {
			t.Errorf("region fingerprint is not bound to the file only")
		}
	}
	if !strings.Contains(opts[0].Region.OldText, "Button(") {
		t.Errorf("region does not hold the broken line: %q", opts[0].Region.OldText)
	}
}
