package axag

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/rogpeppe/go-internal/txtar"
)

var updateAcore = flag.Bool("update-acore", false, "rewrite the golden files of testdata/acore")

// taskApp is the canonical example, prepared in the repository.
const taskApp = "../../examples/task-app"

func find(t *testing.T, as []Action, intent string) Action {
	t.Helper()
	for _, a := range as {
		if a.Intent == intent {
			return a
		}
	}
	t.Fatalf("no action %s in %v", intent, as)
	return Action{}
}

func TestScanAcoreTaskApp(t *testing.T) {
	as, fs, err := ScanAcore(taskApp)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 2 {
		t.Fatalf("actions %+v", as)
	}
	list := find(t, as, "task.list")
	if list.Entity != "task" || list.ActionType != "read" || list.Idempotent == nil || !*list.Idempotent || len(list.Parameters) != 0 {
		t.Errorf("task.list %+v", list)
	}
	if list.SourceFile != "main.acore" || list.SourceLine != 9 || list.OperationID != "list_tasks" {
		t.Errorf("task.list source %s:%d, operation %s", list.SourceFile, list.SourceLine, list.OperationID)
	}
	create := find(t, as, "task.create")
	// risk_level, idempotent and scope come from the contract's @axag.
	if create.Entity != "task" || create.ActionType != "write" || create.Idempotent == nil || *create.Idempotent || create.RiskLevel != "low" || create.Scope != "user" {
		t.Errorf("task.create %+v", create)
	}
	if p, ok := create.Parameters["title"]; !ok || p.Type != "string" || !p.Required || len(create.Parameters) != 1 {
		t.Errorf("task.create parameters %+v", create.Parameters)
	}
	if create.SourceLine != 10 {
		t.Errorf("task.create line %d", create.SourceLine)
	}
	if len(fs) != 0 {
		t.Errorf("scan findings %v", fs)
	}
	p, err := project.Open(taskApp)
	if err != nil {
		t.Fatal(err)
	}
	m, fs := ManifestFor(p, Options{})
	if m.Conformance != LevelIntermediate {
		t.Errorf("conformance %s", m.Conformance)
	}
	// Without the contract's facts a write has no risk level, the
	// reference linter's error (AXAG010); with them, nothing is wrong.
	if len(fs) != 0 {
		t.Errorf("findings %v", fs)
	}
}

// TestAcoreLevels: annotations raise the task-app's level.
func TestAcoreLevels(t *testing.T) {
	for _, c := range []struct{ dir, level string }{{"intermediate", LevelIntermediate}, {"full", LevelFull}} {
		p := openCase(t, c.dir)
		m, fs := ManifestFor(p, Options{})
		if m.Conformance != c.level {
			for _, a := range m.Actions {
				l, gaps := Gaps(a)
				t.Logf("%s: %s, missing %v", a.Intent, l, gaps)
			}
			t.Errorf("%s: conformance %s, want %s", c.dir, m.Conformance, c.level)
		}
		if HasErrors(fs, false) {
			t.Errorf("%s: findings %v", c.dir, fs)
		}
	}
}

func TestAcoreFull(t *testing.T) {
	as, _ := AcoreActions(openCase(t, "full"))
	c := find(t, as, "task.create")
	if c.ConfirmationRequired == nil || !*c.ConfirmationRequired || c.Description != "Adds a task with the typed title." ||
		c.ElementSelector != "element:Home/view/0/1" || c.ApprovalRequired == nil || !*c.ApprovalRequired ||
		strings.Join(c.ApprovalRoles, ",") != "member" || c.TenantBoundary != "strict" || len(c.SideEffects) != 1 {
		t.Errorf("task.create %+v", c)
	}
	l := find(t, as, "task.list")
	if l.SideEffects == nil || len(l.SideEffects) != 0 {
		t.Errorf("side_effects [] must be declared and empty: %#v", l.SideEffects)
	}
}

func TestAcoreRich(t *testing.T) {
	as, fs := AcoreActions(openCase(t, "rich"))
	got := map[string]Action{}
	for _, a := range as {
		got[a.Intent] = a
	}
	want := map[string]string{
		"note.browse": "read", "note.get": "read", "note.write": "write", "note.delete": "delete",
		"note.unpin": "write", "note.touch": "write", "page.open": "navigate",
		// An archive keeps the row: the development backend does not
		// implement it as a delete either (check.OperationKind).
		"note.archive": "write",
	}
	for intent, typ := range want {
		if got[intent].ActionType != typ {
			t.Errorf("%s: action type %q, want %q", intent, got[intent].ActionType, typ)
		}
	}
	if len(got) != len(want) {
		t.Errorf("actions %v", as)
	}
	if _, ok := got["line_item.list"]; ok {
		t.Error("skip: true keeps the action")
	}
	// Two members bind list_notes: one action, whose intent the second
	// member's annotation gives.
	ps := got["note.browse"].Parameters
	if ps["tag"].Required || ps["tag"].Type != "string" || ps["limit"].Default != int64(20) || !ps["limit"].HasDefault || ps["pinned_only"].Type != "boolean" {
		t.Errorf("note.browse parameters %+v", ps)
	}
	ps = got["note.write"].Parameters
	if ps["tags"].Type != "array" || ps["tags"].Items["type"] != "string" || ps["weight"].Type != "number" || ps["item"].Type != "object" || ps["item"].Required || !ps["body"].Required {
		t.Errorf("note.write parameters %+v", ps)
	}
	// The read on a mutation is refused; the element's intent renames it.
	if got["note.write"].RiskLevel != "medium" || got["note.write"].ElementSelector != "element:Home/view/0/0" {
		t.Errorf("note.write %+v", got["note.write"])
	}
	// The first of two conflicting risk levels is kept: the member's.
	if got["note.delete"].RiskLevel != "high" {
		t.Errorf("note.delete %+v", got["note.delete"])
	}
	rules := rulesOf(fs)
	for _, r := range []string{"AC401", "AC403", "AC404", RuleAcoreContradiction, RuleAcoreTrigger, RuleAcoreConflict} {
		if !rules[r] {
			t.Errorf("no %s finding in %v", r, fs)
		}
	}
	m, _ := Build(as, Options{})
	if _, err := m.JSON(Version100); err == nil {
		t.Error("a navigate action written as 1.0.0")
	}
}

func TestAcoreUnprepared(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata/acore/unprepared/src"), dir)
	as, fs, err := ScanAcore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 0 || len(fs) != 1 || fs[0].Rule != RuleAcoreCompile || fs[0].Severity != SeverityError || !strings.Contains(fs[0].Fix, "axiom prepare") {
		t.Errorf("actions %v, findings %v", as, fs)
	}
	if _, _, err := ScanAcore(filepath.Join(dir, "nothere")); err == nil {
		t.Error("no error for a missing root")
	}
}

// TestAcoreGolden writes each case's manifest in both schema versions
// (without a timestamp) and its findings, compares them with the golden
// files, and validates the manifests against the schemas.
func TestAcoreGolden(t *testing.T) {
	cases := map[string]*project.Project{"taskapp": nil}
	for _, c := range []string{"intermediate", "full", "rich", "contract", "context", "handlers"} {
		cases[c] = openCase(t, c)
	}
	var err error
	if cases["taskapp"], err = project.Open(taskApp); err != nil {
		t.Fatal(err)
	}
	for name, p := range cases {
		m, fs := ManifestFor(p, Options{Tool: "acore-axag", Paths: []string{"main.acore"}})
		var b strings.Builder
		fmt.Fprintf(&b, "conformance %s\n", m.Conformance)
		for _, a := range m.Actions {
			l, gaps := Gaps(a)
			fmt.Fprintf(&b, "action %s: %s; missing %v\n", a.Intent, l, gaps)
		}
		for _, f := range fs {
			fmt.Fprintf(&b, "%s: %s %s: %s\n", Where(f.File, f.Line, f.Column), f.Severity, f.Rule, f.Message)
			if f.Fix != "" {
				fmt.Fprintf(&b, "\tfix: %s\n", f.Fix)
			}
		}
		golden(t, filepath.Join("testdata/acore", name, "findings.golden"), []byte(b.String()))
		for _, v := range []string{Version100, Version110} {
			data, err := m.JSON(v)
			if err != nil {
				if name == "rich" && v == Version100 {
					continue // navigate has no 1.0.0 form
				}
				t.Fatalf("%s %s: %v", name, v, err)
			}
			r, err := Validate(data, v)
			if err != nil || !r.Valid {
				t.Errorf("%s %s: %v %+v", name, v, err, r)
			}
			golden(t, filepath.Join("testdata/acore", name, "manifest-"+v+".json"), data)
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *updateAcore {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update-acore)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// openCase copies testdata/acore/<name>/src to a fresh root, prepares and
// compiles it.
func openCase(t *testing.T, name string) *project.Project {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata/acore", name, "src"), dir)
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAcoreCheckCorpus runs AcoreActions on every project of the
// checker's test corpus (broken ones included): no panic, and every action
// it returns has an intent, an entity and an action type.
func TestAcoreCheckCorpus(t *testing.T) {
	files, _ := filepath.Glob("../lang/project/testdata/check/*.txtar")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, f := range ar.Files {
				if f.Name == "want" {
					continue
				}
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, _ = prepare.Run(dir)
			p, err := project.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			as, _ := AcoreActions(p)
			for _, a := range as {
				if !check.ValidIntent(a.Intent) || !check.ValidEntity(a.Entity) || a.ActionType == "" {
					t.Errorf("action %+v", a)
				}
			}
			if m, _ := ManifestFor(p, Options{}); m == nil {
				t.Error("no manifest")
			}
		})
	}
}

// TestAcoreComponent: a component's mutation is an action, and an element
// inside the component annotates it.
func TestAcoreComponent(t *testing.T) {
	p := openCase(t, "component")
	if p.Result.State != "validated" {
		t.Fatalf("state %s: %v", p.Result.State, p.Result.Diagnostics)
	}
	as, fs := AcoreActions(p)
	d := find(t, as, "task.delete")
	if d.ActionType != "delete" || d.RiskLevel != "high" || d.ConfirmationRequired == nil || d.SourceFile != "row.acore" ||
		d.ElementSelector != "element:TaskRow/view/0/1" || d.Parameters["id"].Type != "string" {
		t.Errorf("task.delete %+v", d)
	}
	if len(fs) != 0 {
		t.Errorf("findings %v", fs)
	}
}

// TestAcoreRouteParameters: a navigation to a route with parameters is an
// action whose parameters are the route's, typed by the page's.
func TestAcoreRouteParameters(t *testing.T) {
	p := openCase(t, "routes")
	if p.Result.State != "validated" {
		t.Fatalf("state %s: %v", p.Result.State, p.Result.Diagnostics)
	}
	as, fs := AcoreActions(p)
	a := find(t, as, "book.open")
	if a.ActionType != "navigate" || len(a.Parameters) != 2 || a.Parameters["id"].Type != "string" || !a.Parameters["id"].Required ||
		a.Parameters["page"].Type != "integer" || !a.Parameters["page"].Required {
		t.Errorf("book.open %+v", a)
	}
	if len(fs) != 0 {
		t.Errorf("findings %v", fs)
	}
}
