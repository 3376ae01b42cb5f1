package project_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/project"
)

const letSource = `module m

app A { route "/" => Home }

model Todo {
  title: String
  completed: Bool
}

page Home {
  state todos: [Todo] = []
  let remaining = todos.count(|t| !t.completed)
  let label = if remaining == 1 then "item" else "items"
  state note: String = label

  view {
    Text(remaining + " " + label)
  }
}
`

// TestLetGraph holds the graph of derived values to docs/language.md §7:
// a let:Owner.name node with its inferred type, reads edges from it to
// what its expression reads, and reads edges to it from its readers.
func TestLetGraph(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(letSource), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Result.State != "validated" {
		t.Fatalf("state %s, diagnostics %v", p.Result.State, p.Result.Diagnostics)
	}
	g := p.Result.Graph
	reads := func(id string) []string {
		i, ok := g.Lookup(id)
		if !ok {
			t.Fatalf("no node %s", id)
		}
		var to []string
		for _, ei := range g.Out(i) {
			if e := &g.Edges[ei]; e.Kind() == graph.EdgeReads {
				to = append(to, g.At(e.To).ID)
			}
		}
		return to
	}
	n, ok := g.Node("let:Home.remaining")
	if !ok || n.Kind != graph.KindLet || n.Name != "remaining" || n.Owner != "page:Home" {
		t.Fatalf("let:Home.remaining = %+v", n)
	}
	typ := ""
	for _, pr := range n.Props {
		if pr.Name == "type" {
			typ, _ = pr.Value.(string)
		}
	}
	if typ != "Int" {
		t.Errorf("let:Home.remaining has type %q, want Int (props %+v)", typ, n.Props)
	}
	for id, want := range map[string][]string{
		"let:Home.remaining":  {"state:Home.todos"},
		"let:Home.label":      {"let:Home.remaining"},
		"state:Home.note":     {"let:Home.label"},
		"element:Home/view/0": {"let:Home.remaining", "let:Home.label"},
	} {
		got := reads(id)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s reads %v, want %s among them", id, got, w)
			}
		}
	}
}

// TestScaffoldLocks11: `axiom new` (scaffold.New) writes a lock pinning
// catalog 1.1.0, and the new app compiles.
func TestScaffoldLocks11(t *testing.T) {
	p := taskApp(t)
	if p.Result.State != "validated" {
		t.Fatalf("state %s: %v", p.Result.State, p.Result.Diagnostics)
	}
	l, _, err := lock.Read(p.Inputs.Root)
	if err != nil {
		t.Fatal(err)
	}
	if l.CatalogVersion != "1.1.0" {
		t.Errorf("catalog_version %q, want 1.1.0", l.CatalogVersion)
	}
}
