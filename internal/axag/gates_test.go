package axag

import (
	"os"
	"strings"
	"testing"
)

func readTestFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestDuplicateSafetyFacts: two declarations of an intent that disagree
// on a safety fact are an error naming both places (a low-risk quick
// button must not hide the approval-gated refund); declarations that agree
// stay a warning.
func TestDuplicateSafetyFacts(t *testing.T) {
	for _, tc := range []struct {
		dir, rule, severity string
		want                []string
	}{
		{"testdata/gates/conflict", RuleConflictingDuplicate, SeverityError,
			[]string{"order.refund", "orders.html:2:3", "Quick.jsx:2:10", "risk_level", "confirmation_required", "approval_required", "approval_roles", "required_roles", "scope", "tenant_boundary"}},
		{"testdata/gates/same", RuleDuplicateIntent, SeverityWarning, []string{"order.list", "a.html:1:1"}},
	} {
		res, err := ScanWeb(tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		_, fs := Build(res.Actions, Options{})
		var got *Finding
		for i := range fs {
			if fs[i].Rule == RuleConflictingDuplicate || fs[i].Rule == RuleDuplicateIntent {
				got = &fs[i]
			}
		}
		if got == nil || got.Rule != tc.rule || got.Severity != tc.severity {
			t.Fatalf("%s: %+v", tc.dir, fs)
		}
		for _, w := range tc.want {
			if !strings.Contains(got.Message, w) {
				t.Errorf("%s: message %q lacks %q", tc.dir, got.Message, w)
			}
		}
	}
}

func TestSafetyDiff(t *testing.T) {
	base := Action{Intent: "a.b", ActionType: "write", RequiredRoles: []string{"x", "y"}}
	for _, tc := range []struct {
		name  string
		other Action
		want  string
	}{
		{"same roles in another order", Action{Intent: "a.b", ActionType: "write", RequiredRoles: []string{"y", "x"}}, ""},
		{"roles undeclared", Action{Intent: "a.b", ActionType: "write"}, "required_roles"},
		{"confirmation declared false", Action{Intent: "a.b", ActionType: "write", RequiredRoles: []string{"x", "y"}, ConfirmationRequired: Bool(false)}, "confirmation_required"},
		{"description only", Action{Intent: "a.b", ActionType: "write", RequiredRoles: []string{"x", "y"}, Description: "other"}, ""},
	} {
		if got := strings.Join(SafetyDiff(base, tc.other), ","); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestVocabulary: every attribute of the published vocabulary, and the
// axag-x-* extension form, is valid AXAG: no finding at all, so --strict
// passes.
func TestVocabulary(t *testing.T) {
	res, err := ScanWeb("testdata/gates/vocabulary")
	if err != nil {
		t.Fatal(err)
	}
	m, fs := Build(res.Actions, Options{})
	if all := append(res.Findings, fs...); len(all) != 0 || len(m.Actions) != 1 {
		t.Fatalf("findings %+v, actions %+v", all, m.Actions)
	}
	for _, a := range webAttributes {
		if !strings.Contains(readTestFile(t, "testdata/gates/vocabulary/a.html"), "axag-"+a+"=") {
			t.Errorf("the vocabulary test lacks axag-%s", a)
		}
	}
}
