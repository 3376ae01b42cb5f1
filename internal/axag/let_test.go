package axag

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
)

// TestAcoreLetKeepsFacts: derived values are reads. The task-app with
// derived values over its query's data and its draft, read by the Add
// button and by a Text, has the same actions with the same facts as
// without them (source lines aside), and @axag on a derived value is
// AC404, as on a state.
func TestAcoreLetKeepsFacts(t *testing.T) {
	manifest := func(src string) []Action {
		t.Helper()
		dir := t.TempDir()
		copyTree(t, taskApp, dir)
		if src != "" {
			if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := prepare.Run(dir); err != nil {
			t.Fatal(err)
		}
		p, err := project.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if p.Result.State != "validated" {
			t.Fatalf("state %s: %v", p.Result.State, p.Result.Diagnostics)
		}
		m, fs := ManifestFor(p, Options{})
		if len(fs) != 0 {
			t.Errorf("findings %v", fs)
		}
		for i := range m.Actions {
			m.Actions[i].SourceLine = 0
		}
		return m.Actions
	}
	data, err := os.ReadFile(filepath.Join(taskApp, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(data), "  action submit() {", "  let open = tasks.data.count\n  let label = if draft.trim().is_empty then \"Add\" else \"Add \" + draft.trim()\n\n  action submit() {", 1)
	src = strings.Replace(src, `Button(label: "Add", on_press: submit)`, `Button(label: label, on_press: submit)
      Text(open + " open")`, 1)
	if src == string(data) {
		t.Fatal("the task-app changed; this test no longer edits it")
	}
	before, after := manifest(""), manifest(src)
	if len(before) != 2 || !reflect.DeepEqual(before, after) {
		t.Errorf("actions without derived values:\n%+v\nwith them:\n%+v", before, after)
	}

	dir := t.TempDir()
	copyTree(t, taskApp, dir)
	ann := strings.Replace(src, "  let open =", "  @axag(risk_level: \"high\")\n  let open =", 1)
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(ann), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range p.Result.Diagnostics {
		found = found || d.Code == "AC404" && strings.Contains(d.Message, "a derived value (let)")
	}
	if !found {
		t.Errorf("@axag on a let: diagnostics %v, want AC404", p.Result.Diagnostics)
	}
}
