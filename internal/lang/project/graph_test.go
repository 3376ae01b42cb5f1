package project_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

func taskApp(t testing.TB) *project.Project {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// dumpGraph renders every node with its properties and outgoing edges.
func dumpGraph(g *graph.Graph) string {
	var b strings.Builder
	for i := range int32(g.Len()) {
		n := g.At(i)
		fmt.Fprintf(&b, "%s kind=%s name=%q %s:%d:%d owner=%q\n", n.ID, n.Kind, n.Name, n.Path, n.Line, n.Column, n.Owner)
		if sig := g.Signature(g.At(i)); sig != "" {
			fmt.Fprintf(&b, "  signature %s\n", sig)
		}
		fmt.Fprintf(&b, "  version %s\n", g.Version(g.At(i))[:12])
		for _, p := range n.Props {
			if p.Name == "sha256" {
				p.Value = "…"
			}
			fmt.Fprintf(&b, "  prop %s: %s = %#v editable=%v\n", p.Name, p.Type, p.Value, p.Editable)
		}
		for _, ei := range g.Out(i) {
			e := &g.Edges[ei]
			s := g.EdgeSite(ei)
			via := ""
			if v, ok := g.Via(ei); ok {
				via = " via " + g.At(v).ID
			}
			fmt.Fprintf(&b, "  %s -> %s (%s) at %s:%d:%d%s\n", e.Kind(), g.At(e.To).ID, e.Layer(), s.Path, s.Line, s.Column, via)
		}
	}
	return b.String()
}

func TestTaskAppGraphGolden(t *testing.T) {
	p := taskApp(t)
	if p.Result.State != "validated" {
		t.Fatalf("state %s, diagnostics %v", p.Result.State, p.Result.Diagnostics)
	}
	got := dumpGraph(p.Result.Graph)
	golden := "testdata/taskapp.graph.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("graph differs from %s; run go test -update and review the diff\n%s", golden, got)
	}
}

// TestTaskAppReferenceFacts holds the graph to the facts the protocol
// reference's examples show for the task-app.
func TestTaskAppReferenceFacts(t *testing.T) {
	p := taskApp(t)
	g := p.Result.Graph
	node := func(id string) *graph.Node {
		n, ok := g.Node(id)
		if !ok {
			t.Fatalf("no node %s", id)
		}
		return n
	}
	for id, name := range map[string]string{"element:Home/view/0/0": "Input", "element:Home/view/0/1": "Button", "element:Home/view/0": "View"} {
		if n := node(id); n.Kind != "element" || n.Name != name || n.Path != "main.acore" {
			t.Errorf("%s is %s %s in %s, want element %s in main.acore", id, n.Kind, n.Name, n.Path, name)
		}
	}
	for _, id := range []string{"page:Home", "state:Home.draft", "query:Home.tasks", "mutation:Home.create", "action:Home.submit", "contract_import:Tasks"} {
		node(id)
	}
	btn := node("element:Home/view/0/1")
	props := fmt.Sprint(btn.Props[0].Name, btn.Props[0].Type, btn.Props[0].Value, btn.Props[0].Editable, " ",
		btn.Props[1].Name, btn.Props[1].Type, btn.Props[1].Value, btn.Props[1].Editable, " ", len(btn.Props))
	if props != "labelStringAddtrue on_pressActionsubmitfalse 2" {
		t.Errorf("Button properties: %s", props)
	}
	bi, _ := g.Lookup(btn.ID)
	var edges []string
	for _, ei := range g.Out(bi) {
		e := g.Edges[ei]
		edges = append(edges, e.Kind()+" "+e.Layer()+" "+g.At(e.To).ID)
	}
	if got := strings.Join(edges, "; "); got != "child_of declared element:Home/view/0; triggers resolved action:Home.submit" {
		t.Errorf("Button edges: %s", got)
	}
	incoming := func(to string) map[string]string {
		ti, _ := g.Lookup(to)
		out := map[string]string{}
		for _, ei := range g.In(ti) {
			e := &g.Edges[ei]
			s := g.EdgeSite(ei)
			out[g.At(e.From).ID] = fmt.Sprintf("%s %s %s:%d:%d", e.Kind(), e.Layer(), s.Path, s.Line, s.Column)
		}
		return out
	}
	draft := incoming("state:Home.draft")
	for from, want := range map[string]string{
		"mutation:Home.create":  "reads resolved main.acore:10:12",
		"element:Home/view/0/0": "reads resolved main.acore:19:7",
		"action:Home.submit":    "writes resolved main.acore:12:10",
	} {
		if draft[from] != want {
			t.Errorf("%s -> state:Home.draft is %q, want %q", from, draft[from], want)
		}
	}
	if len(draft) != 3 {
		t.Errorf("state:Home.draft has %d dependents, want 3: %v", len(draft), draft)
	}
	if got := fmt.Sprint(p.Result.EntryPoints); got != "[page:Home]" {
		t.Errorf("entry points %s", got)
	}
	if len(p.Result.Contracts) != 1 || p.Result.Contracts[0].Path != ".axiom/dev/contracts/tasks.axiom" || p.Result.Contracts[0].Node != "contract_import:Tasks" {
		t.Errorf("contracts %+v", p.Result.Contracts)
	}
	ds := p.Result.Diagnostics
	if len(ds) != 1 || ds[0].Line != 3 || ds[0].Column != 26 || ds[0].Severity != "warning" || ds[0].Path != "main.acore" ||
		ds[0].Message != "development contract `tasks` uses an unsigned local artifact; a production release requires Axiom Cloud signing" {
		t.Errorf("diagnostics %+v", ds)
	}
}
