package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
)

// TestSelection: the compiler reads a selector (SEL) for a scalar state
// compared with a list item, or a field of it, in the item's view or its
// item_class, and Acore's == (eq) everywhere else. Each case's page
// function is compared with testdata/select/<case>.js (-update rewrites
// them).
func TestSelection(t *testing.T) {
	for _, c := range []struct {
		name, decls, view string
		sel               bool // whether the page reads a selector
	}{
		{"item_class", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id, item_class: |r| if selected == r.id then "danger" else "") { r => Text(r.label) }`, true},
		{"class_in_row", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id) { r => Text(r.label, class: if r.id == selected then "on" else "") }`, true},
		{"not_equal", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id) { r => Text(r.label, visible: selected != r.id) }`, true},
		{"string_field", `state picked: String = ""`,
			`List(items: rows, key: |r| r.id) { r => Text(r.label, class: if (picked) == (r.label) then "on" else "") }`, true},
		{"two_states_one_selector_each", "state selected: Int = 0\n  state hovered: Int = 0",
			`List(items: rows, key: |r| r.id) { r => Text(r.label, class: if selected == r.id || hovered == r.id || selected == r.id then "on" else "") }`, true},
		{"outside_list", `state selected: Int = 0`,
			`Text("x", visible: selected == 3)`, false},
		{"state_and_constant_in_row", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id) { r => Text(r.label, visible: selected == 3) }`, false},
		{"item_expression_not_a_field", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id) { r => Text(r.label, visible: selected == r.id + 1) }`, false},
		{"float_compared", `state level: Float = 0.5`,
			`List(items: rows, key: |r| r.id) { r => Text(r.label, visible: level == r.weight) }`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := pageJS(t, c.decls, c.view)
			if got := strings.Contains(page, "SEL("); got != c.sel {
				t.Errorf("reads a selector: %v, want %v\n%s", got, c.sel, page)
			}
			golden := filepath.Join("testdata", "select", c.name+".js")
			if *update {
				if err := os.WriteFile(golden, []byte(page), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if page != string(want) {
				t.Errorf("%s differs:\n%s\nwant:\n%s", golden, page, want)
			}
		})
	}
}

// pageJS builds a one-page app whose Home page has decls and view, with a
// Row model and a rows state, and returns its page function.
func pageJS(t *testing.T, decls, view string) string {
	t.Helper()
	dir := t.TempDir()
	src := `module sel

app Sel { route "/" => Home }

model Row {
  id: Int
  label: String
  weight: Float
  tags: [String]
}

component Tag(name: String) {
  view { Text(name) }
}

page Home {
  ` + decls + `
  state rows: [Row] = []

  view {
    ` + view + `
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	js := string(build(t, dir).Files["app.js"])
	i, j := strings.Index(js, "function P_Home("), strings.Index(js, "\nconst R=")
	if i < 0 || j < i {
		t.Fatalf("no page function in app.js:\n%s", js)
	}
	return js[i : j+1]
}
