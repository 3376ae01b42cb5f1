package change

import (
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
)

// todomvc compiles examples/todomvc with main.acore passed through edit.
func todomvc(t *testing.T, edit func(string) string) *graph.Graph {
	t.Helper()
	in, err := load.Load("../../../examples/todomvc")
	if err != nil {
		t.Fatal(err)
	}
	if in, err = in.With(map[string][]byte{"main.acore": []byte(edit(string(in.Data("main.acore"))))}); err != nil {
		t.Fatal(err)
	}
	p := project.Compile(in)
	if p.Result.Graph == nil {
		t.Fatal("no graph")
	}
	return p.Result.Graph
}

// renameTitle renames TodoMVC's Todo.title to text everywhere.
func renameTitle(s string) string {
	s = strings.Replace(s, "  title: String", "  text: String", 1)
	s = strings.ReplaceAll(s, "title: draft.trim()", "text: draft.trim()")
	s = strings.ReplaceAll(s, "t.with(title:", "t.with(text:")
	return strings.ReplaceAll(s, "t.title", "t.text")
}

// unpersist drops the @persist of TodoMVC's todos.
func unpersist(s string) string { return strings.Replace(s, `@persist("todos-acore")`, "", 1) }

// A field of the model of a @persist state that the candidate no longer
// has is a persisted_shape risk on the state; a field added, or one of a
// state that is not persisted, is none.
func TestPersistedShape(t *testing.T) {
	same := func(s string) string { return s }
	for _, c := range []struct {
		name      string
		pre, post func(string) string
		want      []string // risk node and field
	}{
		{"unchanged", same, same, nil},
		{"field renamed", same, renameTitle, []string{"state:Todos.todos field:Todo.title"}},
		{"field added", same, func(s string) string {
			return strings.Replace(s, "  title: String", "  title: String\n  note: String?", 1)
		}, nil},
		{"not persisted", unpersist, func(s string) string { return renameTitle(unpersist(s)) }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, r := range persistedShape(todomvc(t, c.pre), todomvc(t, c.post)) {
				if r.Kind != "persisted_shape" || !strings.Contains(r.Detail, `@persist("todos-acore")`) {
					t.Errorf("risk %+v", r)
				}
				for _, id := range []string{"field:Todo.id", "field:Todo.title", "field:Todo.completed"} {
					if strings.Contains(r.Detail, id) {
						got = append(got, r.Node+" "+id)
					}
				}
			}
			if strings.Join(got, ";") != strings.Join(c.want, ";") {
				t.Errorf("risks %v, want %v", got, c.want)
			}
		})
	}
}
