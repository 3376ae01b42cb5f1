package web

import (
	"strings"
	"testing"
)

// TestPlainRows: a List whose item view binds only texts and classes of the
// item (and selections) and handles bubbling events is lowered to rows
// without effects (PL); any other item view to rows with a scope and
// effects each (G).
func TestPlainRows(t *testing.T) {
	for _, c := range []struct {
		name, decls, view string
		plain             bool
	}{
		{"item text", ``, `List(items: rows, key: |r| r.id) { r => Text(r.label) }`, true},
		{"literal texts and an icon", ``, `List(items: rows, key: |r| r.id) { r => Text("a") Icon(name: "star") Button("x", variant: "danger", on_press: || {}) }`, true},
		{"class of the item", ``, `List(items: rows, key: |r| r.id) { r => Text(r.label, class: if r.weight > 1.0 then "heavy" else "") }`, true},
		{"item_class and a selection", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id, item_class: |r| if selected == r.id then "on" else "") { r => Text(r.label) }`, true},
		{"handlers of press and double press", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id) { r => Button(r.label, on_press: || { selected = r.id }) Text("x", on_double_press: || { selected = 0 }) }`, true},
		{"a handler reading a state", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id) { r => Button(r.label, on_press: || { selected = selected + r.id }) }`, true},
		{"nested containers", ``, `List(items: rows, key: |r| r.id) { r => Row { Column { Text(r.label) } Text("" + r.id) } }`, true},
		{"the item's method", ``, `List(items: rows, key: |r| r.id) { r => Text(r.label.upper()) }`, true},

		{"a text reading a state", `state suffix: String = ""`, `List(items: rows, key: |r| r.id) { r => Text(r.label + suffix) }`, false},
		{"item_class reading a state", `state on: Bool = false`,
			`List(items: rows, key: |r| r.id, item_class: |r| if on then "on" else "") { r => Text(r.label) }`, false},
		{"a state compared with a constant", `state selected: Int = 0`,
			`List(items: rows, key: |r| r.id) { r => Text(r.label, class: if selected == 3 then "on" else "") }`, false},
		{"a bound visibility", ``, `List(items: rows, key: |r| r.id) { r => Text(r.label, visible: r.weight > 0.0) }`, false},
		{"a bound color", ``, `List(items: rows, key: |r| r.id) { r => Text(r.label, color: r.label) }`, false},
		{"a literal padding", ``, `List(items: rows, key: |r| r.id) { r => View(padding: 4) { Text(r.label) } }`, false},
		{"a field", `state draft: String = ""`, `List(items: rows, key: |r| r.id) { r => Input(value: draft) }`, false},
		{"a checkbox", ``, `List(items: rows, key: |r| r.id) { r => Checkbox(checked: r.weight > 0.0) }`, false},
		{"a conditional", ``, `List(items: rows, key: |r| r.id) { r => if r.weight > 0.0 { Text(r.label) } }`, false},
		{"a component", ``, `List(items: rows, key: |r| r.id) { r => Tag(name: r.label) }`, false},
		{"a nested list (whose own rows are without effects)", ``, `List(items: rows, key: |r| r.id) { r => List(items: r.tags, key: |g| g) { g => Text(g) } }`, false},
		{"a focus handler", `state n: Int = 0`, `List(items: rows, key: |r| r.id) { r => Button(r.label, on_press: || {}, on_focus: || { n = r.id }) }`, false},
		{"a Text with runs", ``, `List(items: rows, key: |r| r.id) { r => Text { Strong(r.label) } }`, false},
		{"a link", ``, `List(items: rows, key: |r| r.id) { r => Link(r.label, to: "/") }`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := pageJS(t, c.decls, c.view)
			// The outer list's rows come first (a nested list's rows are
			// lowered inside them).
			p, g := strings.Index(page, "PL("), strings.Index(page, "G(")
			if (p < 0) == (g < 0) && !strings.Contains(c.name, "nested") {
				t.Errorf("rows of both kinds or none:\n%s", page)
			}
			if plain := p >= 0 && (g < 0 || p < g); plain != c.plain {
				t.Errorf("rows without effects: %v, want %v\n%s", plain, c.plain, page)
			}
		})
	}
}
