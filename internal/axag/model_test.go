package axag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func fullAction() Action {
	return Action{
		Intent: "task.delete", ActionType: "delete", Description: "Delete a task",
		RiskLevel: "high", Idempotent: Bool(true), ConfirmationRequired: Bool(true),
		ApprovalRequired: Bool(true), ApprovalRoles: []string{"admin"}, Scope: "tenant",
		TenantBoundary: "strict", Preconditions: []string{"task exists"}, SideEffects: []string{},
		Parameters: map[string]Parameter{"id": {Type: "string", Required: true, Format: "uuid"}},
		SourceFile: "a.html", SourceLine: 3, SourceColumn: 5,
	}
}

func TestLevel(t *testing.T) {
	a := fullAction()
	if l, gaps := Gaps(a); l != LevelFull || gaps != nil {
		t.Fatalf("full action: %s %v", l, gaps)
	}
	b := a
	b.TenantBoundary = ""
	if l, gaps := Gaps(b); l != LevelIntermediate || strings.Join(gaps, ",") != "tenant_boundary" {
		t.Fatalf("no boundary: %s %v", l, gaps)
	}
	c := a
	c.Parameters = map[string]Parameter{"id": {Required: true}}
	if l, gaps := Gaps(c); l != LevelBasic || strings.Join(gaps, ",") != "parameters.id.type" {
		t.Fatalf("untyped: %s %v", l, gaps)
	}
	d := Normalize(Action{Intent: "task.list", ActionType: "read"})
	if l := Level(d); l != LevelBasic {
		t.Fatalf("minimal read: %s", l)
	}
	if l := Level(Action{Intent: "task.list"}); l != LevelNone {
		t.Fatalf("no type: %s", l)
	}
	if got := ManifestLevel([]Action{a, d}); got != LevelBasic {
		t.Fatalf("manifest level %s", got)
	}
}

func TestBuildDedupAndSort(t *testing.T) {
	a := fullAction()
	b := Action{Intent: "board.view", ActionType: "read", SourceFile: "b.html", SourceLine: 1}
	dup := a
	dup.SourceFile, dup.SourceLine, dup.SourceColumn = "c.html", 9, 2
	dup.Description = "second"
	m, fs := Build([]Action{a, b, dup}, Options{})
	if len(m.Actions) != 2 || m.Actions[0].Intent != "board.view" || m.Actions[1].Description != "Delete a task" {
		t.Fatalf("actions: %+v", m.Actions)
	}
	var found bool
	for _, f := range fs {
		if f.Rule == RuleDuplicateIntent {
			found = true
			if f.File != "c.html" || !strings.Contains(f.Message, "a.html:3:5") {
				t.Errorf("duplicate finding: %+v", f)
			}
		}
	}
	if !found {
		t.Fatalf("no duplicate finding: %+v", fs)
	}
	if m.Actions[0].Entity != "board" || m.Actions[0].OperationID != "board_view" {
		t.Errorf("defaults: %+v", m.Actions[0])
	}
}

func TestJSONBothVersionsValidate(t *testing.T) {
	a := fullAction()
	a.Parameters["title"] = Parameter{Type: "string", MaxLength: func() *int { n := 200; return &n }(), Default: "x", HasDefault: true}
	b := Action{Intent: "board.view", ActionType: "read", Description: "View"}
	m, _ := Build([]Action{a, b}, Options{GeneratedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), SourceURL: "https://example.com/app", Paths: []string{"src"}, ToolVersion: "0.1.0"})
	for _, v := range []string{Version100, Version110} {
		data, err := m.JSON(v)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := m.JSON(v)
		if !bytes.Equal(data, again) {
			t.Fatalf("%s: output not deterministic", v)
		}
		r, err := Validate(data, "")
		if err != nil {
			t.Fatal(err)
		}
		if !r.Valid || r.Version != v {
			t.Fatalf("%s: %+v\n%s", v, r, data)
		}
		back, got, err := ParseManifest(data)
		if err != nil || got != v {
			t.Fatalf("%s: parse %v %s", v, err, got)
		}
		if len(back.Actions) != 2 || back.Actions[1].Parameters["title"].Default != "x" || !back.GeneratedAt.Equal(m.GeneratedAt) {
			t.Fatalf("%s: round trip %+v", v, back)
		}
		re, _ := back.JSON(v)
		if v == Version110 && !bytes.Equal(re, data) {
			t.Errorf("%s: round trip changed bytes:\n%s\n%s", v, data, re)
		}
	}
	// The zero time is the Unix epoch: generated_at is required, never
	// left out, and the manifest stays valid.
	m.GeneratedAt = time.Time{}
	data, _ := m.JSON("")
	if !bytes.Contains(data, []byte(`"generated_at": "1970-01-01T00:00:00Z"`)) || !bytes.Contains(data, []byte(`"conformance": "basic"`)) {
		t.Fatalf("generated_at or conformance:\n%s", data)
	}
	if r, err := Validate(data, ""); err != nil || !r.Valid {
		t.Fatalf("zero time: %v %+v", err, r)
	}
	// Nor is the source block or the conformance left out of a manifest
	// that has neither.
	data, _ = (&Manifest{}).JSON(Version110)
	if r, err := Validate(data, ""); err != nil || !r.Valid {
		t.Fatalf("empty manifest: %v %+v\n%s", err, r, data)
	}
}

func TestNavigateNot100(t *testing.T) {
	m, _ := Build([]Action{{Intent: "page.open", ActionType: "navigate"}}, Options{})
	if _, err := m.JSON(Version100); err == nil || !strings.Contains(err.Error(), "navigate") {
		t.Fatalf("err = %v", err)
	}
	if _, err := m.JSON("2.0.0"); err == nil {
		t.Fatal("unknown version accepted")
	}
}

func TestValidateProblems(t *testing.T) {
	bad := `{"version":"1.1.0","actions":[{"intent":"Task.Create","entity":"task","action_type":"update","description":"x","extra":1}]}`
	r, err := Validate([]byte(bad), "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Valid || len(r.Problems) == 0 {
		t.Fatalf("%+v", r)
	}
	msgs, _ := json.Marshal(r.Problems)
	for _, want := range []string{"/actions/0/intent", "/actions/0/action_type", "extra"} {
		if !strings.Contains(string(msgs), want) {
			t.Errorf("problems lack %q: %s", want, msgs)
		}
	}
	// Forced version: a 1.1.0 document against 1.0.0 lacks entities.
	good := `{"version":"1.1.0","generated_at":"2026-01-02T03:04:05Z","source":{},"conformance":"basic","actions":[]}`
	if r, _ := Validate([]byte(good), Version100); r.Valid || !r.Forced {
		t.Fatalf("forced: %+v", r)
	}
	if r, _ := Validate([]byte(good), ""); !r.Valid {
		t.Fatalf("detected: %+v", r)
	}
	bad100 := `{"version":"1.0.0","entities":[{"name":"Task","actions":[]}],"metadata":{"generated_at":"yesterday"}}`
	if r, _ := Validate([]byte(bad100), ""); r.Valid || r.Version != Version100 || len(r.Problems) < 2 {
		t.Fatalf("1.0.0: %+v", r)
	}
	if _, err := Validate([]byte("{"), ""); err == nil {
		t.Fatal("bad JSON accepted")
	}
}

// TestSchemaRequires: the embedded 1.1.0 schema requires what the
// published one requires; leaving out any of them is a problem.
func TestSchemaRequires(t *testing.T) {
	full := map[string]string{
		"version": `"1.1.0"`, "generated_at": `"2026-01-02T03:04:05Z"`, "source": `{"tool":"x"}`,
		"conformance": `"basic"`, "actions": `[]`,
	}
	for _, drop := range []string{"version", "generated_at", "source", "conformance", "actions"} {
		var parts []string
		for _, k := range []string{"version", "generated_at", "source", "conformance", "actions"} {
			if k != drop {
				parts = append(parts, fmt.Sprintf("%q:%s", k, full[k]))
			}
		}
		doc := "{" + strings.Join(parts, ",") + "}"
		r, err := Validate([]byte(doc), Version110)
		if err != nil {
			t.Fatalf("%s: %v", drop, err)
		}
		if r.Valid || !strings.Contains(fmt.Sprint(r.Problems), drop) {
			t.Errorf("without %s: %+v", drop, r)
		}
	}
}

// TestUnknownMajor: a manifest of a major version this build does not
// know is refused, naming the versions it reads, even when a schema is
// forced.
func TestUnknownMajor(t *testing.T) {
	for _, doc := range []string{
		`{"version":"2.0.0","generated_at":"2026-01-02T03:04:05Z","source":{},"conformance":"basic","actions":[]}`,
		`{"version":"0.9.0","entities":[]}`,
	} {
		for _, forced := range []string{"", Version110, Version100} {
			_, err := Validate([]byte(doc), forced)
			if err == nil || !strings.Contains(err.Error(), "1.0.0 and 1.1.0") {
				t.Errorf("%s forced %q: err = %v", doc, forced, err)
			}
		}
		if _, _, err := ParseManifest([]byte(doc)); err == nil {
			t.Errorf("%s parsed", doc)
		}
	}
	if _, err := Validate([]byte(`{"version":"1.1.7","generated_at":"2026-01-02T03:04:05Z","source":{},"conformance":"basic","actions":[]}`), ""); err != nil {
		t.Errorf("1.1.7: %v", err)
	}
}

func rulesOf(fs []Finding) map[string]bool {
	m := map[string]bool{}
	for _, f := range fs {
		m[f.Rule] = true
	}
	return m
}

func TestCheckRules(t *testing.T) {
	ok := fullAction()
	cases := []struct {
		rule string
		bad  func(a *Action)
		good func(a *Action)
	}{
		{RuleMissingEntityOrType, func(a *Action) { a.ActionType = "" }, func(a *Action) {}},
		{RuleMissingEntityOrType, func(a *Action) { a.Intent, a.Entity = "task", "" }, func(a *Action) { a.Intent, a.Entity = "task", "task" }},
		{RuleInvalidEnum, func(a *Action) { a.ActionType = "update" }, func(a *Action) {}},
		{RuleInvalidEnum, func(a *Action) { a.RiskLevel = "severe" }, func(a *Action) {}},
		{RuleHighRiskConfirmation, func(a *Action) { a.ConfirmationRequired = nil }, func(a *Action) {}},
		{RuleHighRiskConfirmation, func(a *Action) { a.RiskLevel, a.ConfirmationRequired = "critical", Bool(false) }, func(a *Action) { a.RiskLevel, a.ConfirmationRequired = "medium", nil }},
		{RuleMutationIdempotent, func(a *Action) { a.Idempotent = nil }, func(a *Action) { a.Idempotent, a.ActionType, a.RiskLevel = nil, "read", "low" }},
		{RuleApprovalRoles, func(a *Action) { a.ApprovalRoles = []string{} }, func(a *Action) { a.ApprovalRequired, a.ApprovalRoles = Bool(false), nil }},
		{RuleReadCritical, func(a *Action) { a.ActionType, a.RiskLevel = "read", "critical" }, func(a *Action) { a.ActionType, a.RiskLevel = "read", "high" }},
		{RuleMutationRisk, func(a *Action) { a.RiskLevel = "" }, func(a *Action) {}},
		{RuleDeleteRisk, func(a *Action) { a.RiskLevel = "medium" }, func(a *Action) { a.RiskLevel = "critical" }},
		{RuleIntentPattern, func(a *Action) { a.Intent = "Task.delete" }, func(a *Action) {}},
		{RuleIntentPattern, func(a *Action) { a.Intent = "task-delete" }, func(a *Action) {}},
		{RuleEntityCase, func(a *Action) { a.Entity = "TaskItem" }, func(a *Action) { a.Entity = "task_item" }},
		{RuleInvalidValue, func(a *Action) { a.Scope = "world" }, func(a *Action) {}},
		{RuleInvalidValue, func(a *Action) { a.TenantBoundary = "loose" }, func(a *Action) {}},
		{RuleInvalidValue, func(a *Action) { a.Parameters = map[string]Parameter{"x": {Type: "str"}} }, func(a *Action) {}},
		{RuleInvalidValue, func(a *Action) { a.Parameters = map[string]Parameter{"x": {Type: "string", Format: "phone"}} }, func(a *Action) {}},
		{RuleNoIntent, func(a *Action) { a.Intent = "" }, func(a *Action) {}},
	}
	for _, c := range cases {
		bad, good := ok, ok
		bad.Parameters, good.Parameters = map[string]Parameter{}, map[string]Parameter{}
		c.bad(&bad)
		c.good(&good)
		if !rulesOf(Check(bad))[c.rule] {
			t.Errorf("%s not triggered by %+v: %+v", c.rule, bad, Check(bad))
		}
		if fs := Check(good); rulesOf(fs)[c.rule] {
			t.Errorf("%s triggered by %+v: %+v", c.rule, good, fs)
		}
	}
	if fs := Check(ok); len(fs) != 0 {
		t.Errorf("full action has findings: %+v", fs)
	}
	for _, f := range Check(Action{Intent: "Bad", ActionType: "x", SourceFile: "f.html", SourceLine: 2, SourceColumn: 3}) {
		if f.Fix == "" || f.File != "f.html" || f.Line != 2 || f.Column != 3 {
			t.Errorf("finding without fix or place: %+v", f)
		}
	}
}

func TestBuildDropsInvalid(t *testing.T) {
	m, fs := Build([]Action{
		{Intent: "Bad.intent", ActionType: "read"},
		{Intent: "task.view", ActionType: "read", Scope: "world", RiskLevel: "meh"},
	}, Options{})
	if len(m.Actions) != 1 || m.Actions[0].Scope != "" || m.Actions[0].RiskLevel != "" {
		t.Fatalf("%+v", m.Actions)
	}
	if !HasErrors(fs, false) {
		t.Fatal("no errors")
	}
	data, _ := m.JSON("")
	if r, _ := Validate(data, ""); !r.Valid {
		t.Fatalf("%+v", r)
	}
}
