package axag

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden manifests under testdata/web")

func scanCorpus(t *testing.T) (*Manifest, []Finding) {
	t.Helper()
	res, err := ScanWeb("testdata/web/src")
	if err != nil {
		t.Fatal(err)
	}
	m, fs := Build(res.Actions, Options{Paths: []string{"src"}, DynamicActions: res.Dynamic})
	all := append(res.Findings, fs...)
	SortFindings(all)
	return m, all
}

func TestWebCorpusGolden(t *testing.T) {
	m, fs := scanCorpus(t)
	var intents []string
	for _, a := range m.Actions {
		intents = append(intents, a.Intent)
	}
	want := "board.archive comment.add settings.open task.archive task.create task.delete task.list task.move task.search team.invite"
	if got := strings.Join(intents, " "); got != want {
		t.Errorf("intents:\n got %s\nwant %s", got, want)
	}
	for _, f := range fs {
		if f.Severity == SeverityError {
			t.Errorf("error finding in the corpus: %+v", f)
		}
	}
	if fs == nil {
		fs = []Finding{}
	}
	findings, _ := json.MarshalIndent(fs, "", "  ")
	checkGolden(t, "testdata/web/findings.golden.json", append(findings, '\n'))
	for _, v := range []string{Version100, Version110} {
		data, err := m.JSON(v)
		if v == Version100 {
			// settings.open is a navigation: not expressible in 1.0.0.
			if err == nil {
				t.Fatal("navigate written as 1.0.0")
			}
			m100 := *m
			m100.Actions = nil
			for _, a := range m.Actions {
				if a.ActionType != "navigate" {
					m100.Actions = append(m100.Actions, a)
				}
			}
			data, err = m100.JSON(v)
		}
		if err != nil {
			t.Fatal(err)
		}
		r, err := Validate(data, "")
		if err != nil || !r.Valid || r.Version != v {
			t.Fatalf("%s: %v %+v", v, err, r)
		}
		checkGolden(t, "testdata/web/manifest-"+v+".golden.json", data)
	}
}

func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update to accept):\n%s", golden, got)
	}
}

func TestWebCorpusDetails(t *testing.T) {
	m, _ := scanCorpus(t)
	by := map[string]Action{}
	for _, a := range m.Actions {
		by[a.Intent] = a
	}
	c := by["task.create"]
	if c.Scope != "tenant" || c.TenantBoundary != "strict" || strings.Join(c.RequiredRoles, ",") != "member" || c.SourceFile != "index.html" || c.SourceLine != 12 || c.SourceColumn != 5 {
		t.Errorf("task.create context/position: %+v", c)
	}
	if p := c.Parameters["priority"]; p.Type != "integer" || p.Required || *p.Minimum != 1 || p.Default != float64(3) {
		t.Errorf("priority: %+v", p)
	}
	if Level(c) != LevelFull {
		t.Errorf("task.create level %s", Level(c))
	}
	if d := by["task.delete"]; d.Description != "Delete a task & its comments" || strings.Join(d.RequiredRoles, ",") != "member,owner" || d.SideEffects == nil || Level(d) != LevelFull {
		t.Errorf("task.delete: %+v level %s", d, Level(d))
	}
	mv := by["task.move"]
	if mv.ActionType != "write" || mv.Idempotent == nil || !*mv.Idempotent || mv.Scope != "user" || len(mv.Parameters) != 2 || mv.SourceFile != "components/Board.jsx" {
		t.Errorf("task.move: %+v", mv)
	}
	if l, gaps := Gaps(mv); l != LevelBasic || !strings.Contains(strings.Join(gaps, " "), "parameters.column.type") {
		t.Errorf("task.move gaps: %s %v", l, gaps)
	}
	if a := by["board.archive"]; a.Scope != "user" {
		t.Errorf("board.archive inside an attribute expression: %+v", a)
	}
	if a := by["comment.add"]; a.TenantBoundary != "strict" || a.SourceFile != "components/Comments.vue" {
		t.Errorf("comment.add: %+v", a)
	}
	if a := by["team.invite"]; a.Scope != "tenant" || a.Parameters["email"].Format != "email" {
		t.Errorf("team.invite: %+v", a)
	}
	if m.Conformance != LevelBasic {
		t.Errorf("conformance %s", m.Conformance)
	}
}

func scanOne(t *testing.T, name, src string) (*WebScan, []Finding) {
	t.Helper()
	res := ScanWebSource(name, []byte(src))
	_, fs := Build(res.Actions, Options{})
	all := append(append([]Finding{}, res.Findings...), fs...)
	SortFindings(all)
	return res, all
}

func findRule(fs []Finding, rule string) *Finding {
	for i := range fs {
		if fs[i].Rule == rule {
			return &fs[i]
		}
	}
	return nil
}

const okButton = `axag-action-type="write" axag-risk-level="low" axag-idempotent="true"`

func TestWebRules(t *testing.T) {
	cases := []struct {
		rule, name, bad, good string
	}{
		{RuleInvalidJSON, "a.html", `<button axag-intent="t.a" ` + okButton + ` axag-side-effects='["x",]'></button>`,
			`<button axag-intent="t.a" ` + okButton + ` axag-side-effects='["x"]'></button>`},
		{RuleInvalidJSON, "a.jsx", "x = <b axag-intent=\"t.a\" " + okButton + " axag-required-parameters='[{\"name\": }]' />;",
			"x = <b axag-intent=\"t.a\" " + okButton + " axag-required-parameters='[{\"name\": \"a\"}]' />;"},
		{RuleParameterBoth, "a.html", `<b axag-intent="t.a" ` + okButton + ` axag-required-parameters='["x"]' axag-optional-parameters='["x"]'></b>`,
			`<b axag-intent="t.a" ` + okButton + ` axag-required-parameters='["x"]' axag-optional-parameters='["y"]'></b>`},
		{RuleContextLessRestrictive, "a.html", `<div axag-scope="tenant"><b axag-intent="t.a" ` + okButton + ` axag-scope="public"></b></div>`,
			`<div axag-scope="tenant"><b axag-intent="t.a" ` + okButton + ` axag-scope="user"></b></div>`},
		{RuleContextLessRestrictive, "a.vue", `<template><div axag-tenant-boundary="strict"><p><b axag-intent="t.a" ` + okButton + ` axag-tenant-boundary="relaxed"></b></p></div></template>`,
			`<template><div axag-tenant-boundary="relaxed"><p><b axag-intent="t.a" ` + okButton + ` axag-tenant-boundary="strict"></b></p></div></template>`},
		{RuleContextLessRestrictive, "a.tsx", `const x = <div axag-required-roles='["admin"]'><b axag-intent="t.a" ` + okButton + ` axag-required-roles='["viewer"]' /></div>;`,
			`const x = <div axag-required-roles='["admin"]'><b axag-intent="t.a" ` + okButton + ` axag-required-roles='["viewer", "admin"]' /></div>;`},
		{RuleInvalidValue, "a.html", `<b axag-intent="t.a" ` + okButton + ` axag-async="yes"></b>`, `<b axag-intent="t.a" ` + okButton + ` axag-async="false"></b>`},
		{RuleInvalidValue, "a.html", `<div axag-scope="planet"><b axag-intent="t.a" ` + okButton + `></b></div>`, `<div axag-scope="global"><b axag-intent="t.a" ` + okButton + `></b></div>`},
		{RuleInvalidValue, "a.html", `<b axag-intent="t.a" ` + okButton + ` axag-required-parameters='[{"type": "string"}]'></b>`, `<b axag-intent="t.a" ` + okButton + ` axag-required-parameters='[{"name": "n", "type": "string"}]'></b>`},
		{RuleUnknownAttribute, "a.html", `<b axag-intent="t.a" ` + okButton + ` axag-risk="low"></b>`, `<b axag-intent="t.a" ` + okButton + ` data-risk="low"></b>`},
		{RuleUnknownAttribute, "a.html", `<b axag-intent="t.a" ` + okButton + ` axag-x="1"></b>`, `<b axag-intent="t.a" ` + okButton + ` axag-x-team="growth" AXAG-X-Trace="1"></b>`},
		{RuleDynamicValue, "a.jsx", `x = <b axag-intent={name} ` + okButton + ` />;`, `x = <b axag-intent={"t.a"} ` + okButton + ` />;`},
		{RuleDynamicValue, "a.vue", `<template><b axag-intent="t.a" ` + okButton + ` :axag-scope="s"></b></template>`, `<template><b axag-intent="t.a" ` + okButton + ` :axag-scope="'user'"></b></template>`},
		{RuleDynamicValue, "a.component.html", `<b [attr.axag-intent]="intent" ` + okButton + `></b>`, `<b axag-intent="t.a" ` + okButton + `></b>`},
		{RuleNoIntent, "a.html", `<b axag-action-type="read"></b>`, `<b axag-scope="user"></b>`},
		{RuleDuplicateIntent, "a.html", `<b axag-intent="t.a" ` + okButton + `></b>` + "\n" + `<i axag-intent="t.a" ` + okButton + `></i>`,
			`<b axag-intent="t.a" ` + okButton + `></b>` + "\n" + `<i axag-intent="t.b" ` + okButton + `></i>`},
		{RuleInvalidEnum, "a.html", `<b axag-intent="t.a" axag-action-type="update"></b>`, `<b axag-intent="t.a" axag-action-type="read"></b>`},
		{RuleUnreadable, "a.html", `<b axag-intent="t.a" ` + okButton + `></b><!-- open`, `<b axag-intent="t.a" ` + okButton + `></b><!-- closed -->`},
	}
	for _, c := range cases {
		_, bad := scanOne(t, c.name, c.bad)
		if findRule(bad, c.rule) == nil {
			t.Errorf("%s not triggered by %s: %+v", c.rule, c.bad, bad)
		}
		_, good := scanOne(t, c.name, c.good)
		if f := findRule(good, c.rule); f != nil {
			t.Errorf("%s triggered by %s: %+v", c.rule, c.good, f)
		}
	}
}

func TestWebFindingPositions(t *testing.T) {
	src := "<div>\n  <button axag-intent=\"t.a\" " + okButton + "\n    axag-preconditions='[\"a\" \"b\"]'></button>\n</div>"
	_, fs := scanOne(t, "p.html", src)
	f := findRule(fs, RuleInvalidJSON)
	if f == nil || f.Line != 3 || f.Column != 30 || f.File != "p.html" || f.Fix == "" {
		t.Fatalf("%+v", fs)
	}
	_, fs = scanOne(t, "p.html", `<b axag-intent="t.a" axag-action-type="read" axag-risk-level="severe"></b>`)
	f = findRule(fs, RuleInvalidEnum)
	if f == nil || !strings.Contains(f.Message, "none, low, medium, high, critical") {
		t.Fatalf("%+v", fs)
	}
	_, fs = scanOne(t, "p.html", `<b axag-intent="t.a" axag-action-type="read" axag-idempotnt="true"></b>`)
	if f := findRule(fs, RuleUnknownAttribute); f == nil || !strings.Contains(f.Fix, "axag-idempotent") {
		t.Fatalf("%+v", fs)
	}
	_, fs = scanOne(t, "p.html", "<i axag-intent=\"t.a\" "+okButton+"></i>\n\n<b axag-intent=\"t.a\" "+okButton+"></b>")
	if f := findRule(fs, RuleDuplicateIntent); f == nil || f.Line != 3 || !strings.Contains(f.Message, "p.html:1:1") {
		t.Fatalf("%+v", fs)
	}
}

func TestWebSkipAndDynamic(t *testing.T) {
	res, _ := scanOne(t, "a.jsx", `const a = <div axag-skip><b axag-intent="t.a" axag-action-type="read" /></div>;
const b = <b axag-intent={`+"`t.${x}`"+`} axag-action-type="read" />;
const c = <div axag-skip="false"><b axag-intent="t.c" axag-action-type="read" /></div>;`)
	if len(res.Actions) != 1 || res.Actions[0].Intent != "t.c" {
		t.Fatalf("%+v", res.Actions)
	}
	if len(res.Dynamic) != 1 || res.Dynamic[0].SourceLine != 2 {
		t.Fatalf("%+v", res.Dynamic)
	}
}

func TestScanWebSkipsDirs(t *testing.T) {
	res, err := ScanWeb("testdata/web/src")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if strings.Contains(f, "node_modules") || strings.HasPrefix(f, "dist/") {
			t.Errorf("scanned %s", f)
		}
	}
	one, err := ScanWeb(filepath.Join("testdata/web/src", "index.html"))
	if err != nil || len(one.Actions) != 3 {
		t.Fatalf("%v %+v", err, one)
	}
	if _, err := ScanWeb("testdata/web/missing"); err == nil {
		t.Fatal("missing root accepted")
	}
}

func TestScanWebTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("<p>x</p>\n", 20)
	if err := os.WriteFile(filepath.Join(dir, "big.html"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	old := MaxWebFileBytes
	MaxWebFileBytes = 100
	defer func() { MaxWebFileBytes = old }()
	res, err := ScanWeb(dir)
	if err != nil {
		t.Fatal(err)
	}
	if f := findRule(res.Findings, RuleUnreadable); f == nil || f.File != "big.html" || !strings.Contains(f.Message, "not scanned") {
		t.Fatalf("%+v", res.Findings)
	}
	MaxWebFileBytes = 1000
	if res, _ := ScanWeb(dir); len(res.Findings) != 0 {
		t.Fatalf("%+v", res.Findings)
	}
}
