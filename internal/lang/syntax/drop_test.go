package syntax

import (
	"strings"
	"testing"
)

func TestDropBodies(t *testing.T) {
	src := `module m

// a comment
page Home {
  state n: Int = 1 + 2
  query items = Store.list(limit: 3)

  action add(by: Int = 1) {
    n = n + by
  }

  view {
    Column {
      Text("hi")
    }
  }
}
`
	f := Parse("m.acore", []byte(src))
	if len(f.Errors) > 0 {
		t.Fatalf("errors: %v", f.Errors)
	}
	o := f.Decls[0].(*OwnerDecl)
	action, view := o.Members[2].(*ActionDecl), o.Members[3].(*ViewDecl)
	body := action.Body.Span
	f.DropBodies()

	if !f.Headers || f.Comments != nil || f.Tokens != nil {
		t.Errorf("Headers %v, %d comments, %d tokens after DropBodies; want true, none, none", f.Headers, len(f.Comments), len(f.Tokens))
	}
	if len(view.Items) != 0 || len(action.Body.Stmts) != 0 {
		t.Errorf("view has %d items and the action %d statements after DropBodies; want none", len(view.Items), len(action.Body.Stmts))
	}
	if action.Body.Span != body {
		t.Errorf("action body span %v after DropBodies, want %v", action.Body.Span, body)
	}
	// What other modules see stays, with its exact text.
	state, query := o.Members[0].(*StateDecl), o.Members[1].(*DataDecl)
	for _, c := range []struct {
		what string
		n    Node
		want string
	}{
		{"state initial value", state.Init, "1 + 2"},
		{"state type", state.Type, "Int"},
		{"query value", query.Value, "Store.list(limit: 3)"},
		{"action parameter", action.Params[0], "by: Int = 1"},
		{"view", view, "view {\n    Column {\n      Text(\"hi\")\n    }\n  }"},
	} {
		if got := f.Text(c.n); got != c.want {
			t.Errorf("%s: %q, want %q", c.what, got, c.want)
		}
	}
	if !strings.HasPrefix(f.Text(o), "page Home {") || o.Name.Name != "Home" {
		t.Errorf("owner %q (%q) after DropBodies", o.Name.Name, f.Text(o))
	}
}

// DropBodies keeps the annotations of the elements of views, nested and in
// conditional branches, in source order.
func TestDropBodiesKeepsElementAnnotations(t *testing.T) {
	src := `page Home {
  state on: Bool = true
  view {
    @axag(intent: "list")
    Column {
      Text("plain")
      if on {
        @axag(intent: "add one")
        Button(label: "Add", on_press: go)
      } else {
        @axag(intent: "none")
        Text("off")
      }
    }
  }
}
`
	f := Parse("m.acore", []byte(src))
	if len(f.Errors) > 0 {
		t.Fatalf("errors: %v", f.Errors)
	}
	f.DropBodies()
	var got []string
	for _, a := range f.Annotated {
		if len(a.Annotations) != 1 {
			t.Fatalf("element at %d has %d annotations, want 1", a.Pos, len(a.Annotations))
		}
		// An element's span begins with its annotations.
		ann := a.Annotations[0]
		if ann.Pos != a.Pos {
			t.Errorf("annotation at %d, its element at %d", ann.Pos, a.Pos)
		}
		got = append(got, f.Text(ann.Args[0].Value)+" on "+strings.Fields(src[ann.End:])[0])
	}
	want := []string{`"list" on Column`, `"add one" on Button(label:`, `"none" on Text("off")`}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("Annotated: %q, want %q", got, want)
	}
}
