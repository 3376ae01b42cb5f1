package annotate

import (
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// TestSetAxag: the splice that sets a fact, applied, gives the text a
// person would write: a value replaced, an argument added to the action's
// @axag (not a parameter's), or a new @axag above the declaration, or
// before an element that does not start its line.
func TestSetAxag(t *testing.T) {
	for _, tc := range []struct {
		name, src, at, key, value, want string
	}{
		{"replace", "page P {\n  @axag(risk_level: \"low\")\n  mutation m = C.delete_x()\n}\n", "m", "risk_level", `"high"`,
			"page P {\n  @axag(risk_level: \"high\")\n  mutation m = C.delete_x()\n}\n"},
		{"add", "page P {\n  @axag(risk_level: \"low\")\n  mutation m = C.delete_x()\n}\n", "m", "idempotent", "true",
			"page P {\n  @axag(risk_level: \"low\", idempotent: true)\n  mutation m = C.delete_x()\n}\n"},
		{"empty", "page P {\n  @axag()\n  action a() { }\n}\n", "a", "intent", `"x.y"`,
			"page P {\n  @axag(intent: \"x.y\")\n  action a() { }\n}\n"},
		{"not the parameter's", "page P {\n  @axag(parameter: \"t\", maxLength: 9)\n  mutation m = C.create_x()\n}\n", "m", "risk_level", `"low"`,
			"page P {\n  @axag(parameter: \"t\", maxLength: 9)\n  @axag(risk_level: \"low\")\n  mutation m = C.create_x()\n}\n"},
		{"new line", "page P {\n  query q = C.list_x()\n  mutation m = C.delete_x()\n}\n", "m", "risk_level", `"high"`,
			"page P {\n  query q = C.list_x()\n  @axag(risk_level: \"high\")\n  mutation m = C.delete_x()\n}\n"},
		{"element on its line", "page P {\n  view {\n    View {\n      Button(\"Go\")\n    }\n  }\n}\n", "Button", "intent", `"x.go"`,
			"page P {\n  view {\n    View {\n      @axag(intent: \"x.go\")\n      Button(\"Go\")\n    }\n  }\n}\n"},
		{"element after another", "page P {\n  view {\n    View { Button(\"Go\") }\n  }\n}\n", "Button", "intent", `"x.go"`,
			"page P {\n  view {\n    View { @axag(intent: \"x.go\") Button(\"Go\") }\n  }\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte("module m\n\n" + tc.src)
			f := syntax.Parse("main.acore", src)
			// The name where it is declared, or the element's.
			name := -1
			for _, w := range []string{"mutation " + tc.at, "action " + tc.at, tc.at + "("} {
				if i := strings.Index(string(src), w); i >= 0 {
					name = i + len(w) - len(tc.at)
					if w == tc.at+"(" {
						name = i
					}
					break
				}
			}
			at, ok := At(f, int32(name))
			if !ok {
				t.Fatalf("no target at %q", tc.at)
			}
			sp := SetAxag(src, at, tc.key, tc.value)
			got := string(src[:sp.Pos]) + sp.Text + string(src[sp.End:])
			if want := "module m\n\n" + tc.want; got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			if f := syntax.Parse("main.acore", []byte(got)); len(f.Errors) > 0 {
				t.Errorf("the result does not parse: %v", f.Errors)
			}
		})
	}
}

// TestRemoveAxag: leaving a fact out removes its argument and comma, or
// the annotation when it was the only one.
func TestRemoveAxag(t *testing.T) {
	for _, tc := range []struct{ name, src, key, want string }{
		{"first", "page P {\n  @axag(risk_level: \"low\", idempotent: true)\n  mutation m = C.delete_x()\n}\n", "risk_level",
			"page P {\n  @axag(idempotent: true)\n  mutation m = C.delete_x()\n}\n"},
		{"later", "page P {\n  @axag(idempotent: true, risk_level: \"low\")\n  mutation m = C.delete_x()\n}\n", "risk_level",
			"page P {\n  @axag(idempotent: true)\n  mutation m = C.delete_x()\n}\n"},
		{"only", "page P {\n  query q = C.list_x()\n  @axag(action_type: \"read\")\n  mutation m = C.delete_x()\n}\n", "action_type",
			"page P {\n  query q = C.list_x()\n  mutation m = C.delete_x()\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte("module m\n\n" + tc.src)
			f := syntax.Parse("main.acore", src)
			at, ok := At(f, int32(strings.Index(string(src), "mutation m")+len("mutation ")))
			if !ok {
				t.Fatal("no target")
			}
			sp, ok := RemoveAxag(src, at, tc.key)
			if !ok {
				t.Fatalf("%s not found", tc.key)
			}
			if got, want := string(src[:sp.Pos])+sp.Text+string(src[sp.End:]), "module m\n\n"+tc.want; got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
