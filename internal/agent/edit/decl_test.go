package edit

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
)

var update = flag.Bool("update", false, "rewrite the goldens under testdata/decl")

// declCard is a component with a required and a defaulted prop, placed
// twice by declMain.
const declCard = `component Card(title: String, subtitle: String = "") {
  view {
    Column {
      Text(title)
      Text(subtitle)
    }
  }
}
`

// declWide is a component with one parameter a line.
const declWide = `component Wide(
  title: String,
  subtitle: String = ""
) {
  view {
    Text(title)
  }
}
`

// declMain extends the task-app with a model, an extern action and two
// instances of Card.
func declMain(t testing.TB) string {
	m := taskMain(t)
	m = replaceOnce(t, m, "app TasksApp", "use component Card from \"card.acore\"\n\napp TasksApp")
	m = replaceOnce(t, m, "page Home {", "model Note {\n  text: String\n}\n\nextern action beep(times: Int) from \"sound\"\n\npage Home {")
	m = replaceOnce(t, m, "      Button(label: \"Add\", on_press: submit)\n", "      Button(label: \"Add\", on_press: submit)\n      Card(title: \"One\")\n      Card(title: \"Two\", subtitle: \"second\")\n")
	return m
}

func declBase(t testing.TB) *project.Project {
	t.Helper()
	p := withFiles(t, map[string]string{"main.acore": declMain(t), "card.acore": declCard, "wide.acore": declWide})
	if p.Result.State != "validated" {
		t.Fatalf("the declarations fixture is %s: %s", p.Result.State, firstError(p.Result))
	}
	return p
}

// declUnused is declBase with a query, a prop and a component nothing
// uses, for the removals that succeed.
func declUnused(t testing.TB) *project.Project {
	t.Helper()
	m := replaceOnce(t, declMain(t), "  query tasks = Tasks.list_tasks()\n", "  query tasks = Tasks.list_tasks()\n  query more = Tasks.list_tasks()\n")
	m = replaceOnce(t, m, "page Home {", "component Badge(text: String) {\n  view {\n    Text(text)\n  }\n}\n\npage Home {")
	c := replaceOnce(t, declCard, `subtitle: String = ""`, `subtitle: String = "", tone: String = "plain"`)
	p := withFiles(t, map[string]string{"main.acore": m, "card.acore": c})
	if p.Result.State != "validated" {
		t.Fatalf("the declarations fixture is %s: %s", p.Result.State, firstError(p.Result))
	}
	return p
}

// golden renders a batch's answer: the changed files and the outcomes,
// or the refusal with its diagnostics.
func golden(r *Result, e *Error) string {
	var b strings.Builder
	if e != nil {
		fmt.Fprintf(&b, "refused: %s/%s at operation %d\n%s\n", e.Kind, e.Reason.String(), idx(e), e.Message)
		for _, d := range e.Diagnostics {
			fmt.Fprintf(&b, "diagnostic %s %s:%d:%d %s\n", d.Code, d.Path, d.Line, d.Column, d.Message)
		}
		return b.String()
	}
	for _, o := range r.Operations {
		fmt.Fprintf(&b, "operation %d: %s %s node=%s created=%s property=%s\n", o.Index, o.Kind, o.Op, o.Node, o.Created, o.Property)
	}
	for _, m := range r.IDMap {
		nw := "-"
		if m.NewID != nil {
			nw = *m.NewID
		}
		fmt.Fprintf(&b, "id_map %s -> %s (%s)\n", *m.OldID, nw, m.Change)
	}
	fmt.Fprintf(&b, "touched: %s\n", strings.Join(r.Touched, "; "))
	fmt.Fprintf(&b, "owners: %s\n", strings.Join(r.Owners, "; "))
	var paths []string
	for p := range r.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "-- %s --\n%s", p, r.Files[p])
	}
	return b.String()
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "decl", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -args -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n%s", name, path, got)
	}
}

// TestDeclarationKinds creates, updates and removes every declaration
// kind, and refuses what the compile refuses; the goldens hold the files
// each batch writes, or its refusal with the checker's diagnostics.
func TestDeclarationKinds(t *testing.T) {
	const home = `"anchor":"page:Home","old_text":"page Home {"`
	const card = `"anchor":"component:Card","old_text":"component Card(title: String, subtitle: String = \"\") {"`
	const sub = `"subtitle: String = \"\""`
	cases := []struct {
		name    string
		ops     []string
		created string // the first operation's created id, or "" for a refusal
	}{
		{"create_page_after", []string{`{"kind":"declaration","op":"create",` + home + `,"position":"after","declaration":"page Stats {\n  view {\n    Text(\"Stats\")\n  }\n}"}`}, "page:Stats"},
		{"create_component_before", []string{`{"kind":"declaration","op":"create",` + home + `,"position":"before","declaration":"component Badge(text: String) {\n  view {\n    Text(text)\n  }\n}"}`}, "component:Badge"},
		{"create_model_after_model", []string{`{"kind":"declaration","op":"create","anchor":"model:Note","old_text":"model Note {\n  text: String\n}","position":"after","declaration":"model Tag {\n  name: String\n}"}`}, "model:Tag"},
		{"create_extern_before_page", []string{`{"kind":"declaration","op":"create",` + home + `,"position":"before","declaration":"extern action log(message: String) from \"console\""}`}, "extension:log"},
		{"create_state_first", []string{`{"kind":"declaration","op":"create",` + home + `,"position":"first","declaration":"state count: Int = 0"}`}, "state:Home.count"},
		{"create_let_after_state", []string{`{"kind":"declaration","op":"create","anchor":"state:Home.draft","old_text":"state draft: String = \"\"","position":"after","declaration":"let shout = draft.upper()"}`}, "let:Home.shout"},
		{"create_query_after_query", []string{`{"kind":"declaration","op":"create","anchor":"query:Home.tasks","old_text":"query tasks = Tasks.list_tasks()","position":"after","declaration":"query more = Tasks.list_tasks()"}`}, "query:Home.more"},
		{"create_mutation_before_action", []string{`{"kind":"declaration","op":"create","anchor":"action:Home.submit","old_text":"action submit() {\n    create.run()\n    draft = \"\"\n  }","position":"before","declaration":"mutation again = Tasks.create_task(title: draft)"}`}, "mutation:Home.again"},
		{"create_action_after_state", []string{`{"kind":"declaration","op":"create","anchor":"state:Home.draft","old_text":"state draft: String = \"\"","position":"after","declaration":"action clear() {\n  draft = \"\"\n}"}`}, "action:Home.clear"},
		{"create_prop_with_default_after_prop", []string{`{"kind":"declaration","op":"create","anchor":"prop:Card.subtitle","old_text":` + sub + `,"position":"after","declaration":"tone: String = \"plain\""}`}, "prop:Card.tone"},
		{"create_prop_with_default_first", []string{`{"kind":"declaration","op":"create",` + card + `,"position":"first","declaration":"count: Int = 0"}`}, "prop:Card.count"},
		{"create_prop_in_multiline_header", []string{`{"kind":"declaration","op":"create","anchor":"prop:Wide.title","old_text":"title: String","position":"after","declaration":"tone: String = \"plain\""}`}, "prop:Wide.tone"},
		{"create_prop_before_last_in_multiline_header", []string{`{"kind":"declaration","op":"create","anchor":"prop:Wide.subtitle","old_text":"subtitle: String = \"\"","position":"before","declaration":"tone: String = \"plain\""}`}, "prop:Wide.tone"},
		{"create_prop_after_last_in_multiline_header", []string{`{"kind":"declaration","op":"create","anchor":"prop:Wide.subtitle","old_text":"subtitle: String = \"\"","position":"after","declaration":"tone: String = \"plain\""}`}, "prop:Wide.tone"},
		{"refuse_prop_among_members", []string{`{"kind":"declaration","op":"create","anchor":"state:Home.draft","old_text":"state draft: String = \"\"","position":"after","declaration":"tone: String = \"plain\""}`}, ""},
		{"refuse_member_next_to_model", []string{`{"kind":"declaration","op":"create","anchor":"model:Note","old_text":"model Note {\n  text: String\n}","position":"after","declaration":"state n: Int = 0"}`}, ""},
		{"refuse_page_among_props", []string{`{"kind":"declaration","op":"create","anchor":"prop:Card.subtitle","old_text":` + sub + `,"position":"after","declaration":"page P {\n  view {\n    Text(\"x\")\n  }\n}"}`}, ""},
		{"update_model", []string{`{"kind":"declaration","op":"update","node":"model:Note","old_text":"model Note {\n  text: String\n}","declaration":"model Note {\n  text: String\n  done: Bool\n}"}`}, ""},
		{"update_prop_default", []string{`{"kind":"declaration","op":"update","node":"prop:Card.subtitle","old_text":` + sub + `,"declaration":"subtitle: String = \"none\""}`}, ""},
		{"remove_model", []string{`{"kind":"declaration","op":"remove","node":"model:Note","old_text":"model Note {\n  text: String\n}"}`}, ""},
		{"remove_extern", []string{`{"kind":"declaration","op":"remove","node":"extension:beep","old_text":"extern action beep(times: Int) from \"sound\""}`}, ""},
		{"remove_unused_query", []string{`{"kind":"declaration","op":"remove","node":"query:Home.more","old_text":"query more = Tasks.list_tasks()"}`}, ""},
		{"remove_unused_prop", []string{`{"kind":"declaration","op":"remove","node":"prop:Card.tone","old_text":"tone: String = \"plain\""}`}, ""},
		{"remove_unused_component", []string{`{"kind":"declaration","op":"remove","node":"component:Badge","old_text":"component Badge(text: String) {"}`}, ""},
		// Referenced elsewhere: the compile refuses, with its diagnostic.
		{"remove_referenced_component", []string{`{"kind":"declaration","op":"remove",` + strings.Replace(card, `"anchor"`, `"node"`, 1) + `}`}, ""},
		{"remove_referenced_prop", []string{`{"kind":"declaration","op":"remove","node":"prop:Card.subtitle","old_text":` + sub + `}`}, ""},
		{"remove_routed_page", []string{`{"kind":"declaration","op":"remove","node":"page:Home","old_text":"page Home {"}`}, ""},
		{"create_page_that_does_not_parse", []string{`{"kind":"declaration","op":"create",` + home + `,"position":"after","declaration":"page Stats {\n  view {\n    Text(\"Stats\"\n  }\n}"}`}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := declBase
			if strings.HasPrefix(c.name, "remove_unused") {
				base = declUnused
			}
			r, e := run(t, base(t), c.ops...)
			if c.created != "" {
				if e != nil {
					t.Fatalf("refused: %v (diagnostics %v)", e, e.Diagnostics)
				}
				if r.Operations[0].Created != c.created {
					t.Errorf("created %q, want %q", r.Operations[0].Created, c.created)
				}
				if _, ok := r.Project.Result.Graph.Lookup(c.created); !ok {
					t.Errorf("%s is not in the final graph", c.created)
				}
			}
			if strings.HasPrefix(c.name, "refuse_") && (e == nil || e.Reason.String() != "incompatible_target") {
				t.Fatalf("got %v, want incompatible_target", e)
			}
			if strings.HasPrefix(c.name, "remove_referenced") || strings.HasPrefix(c.name, "remove_routed") || strings.HasSuffix(c.name, "does_not_parse") {
				if e == nil || e.Kind != Compile || len(e.Diagnostics) == 0 {
					t.Fatalf("got %v, want compile_failed with diagnostics", e)
				}
			}
			checkGolden(t, c.name, golden(r, e))
		})
	}
}

// TestRequiredProp: a required prop added to a component placed twice
// fails the compile with the checker's missing-argument diagnostic,
// unless the same batch passes it at every instance.
func TestRequiredProp(t *testing.T) {
	add := `{"kind":"declaration","op":"create","anchor":"prop:Card.subtitle","old_text":"subtitle: String = \"\"","position":"after","declaration":"level: Int"}`
	pass := func(node string) string {
		return `{"kind":"set_property","node":"` + node + `","property":"level","new_value":2}`
	}
	cases := []struct {
		name string
		ops  []string
		ok   bool
	}{
		{"required_prop_alone", []string{add}, false},
		{"required_prop_one_instance", []string{add, pass("element:Home/view/0/2")}, false},
		{"required_prop_every_instance", []string{add, pass("element:Home/view/0/2"), pass("element:Home/view/0/3")}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, e := run(t, declBase(t), c.ops...)
			if c.ok != (e == nil) {
				t.Fatalf("accepted %v, want %v: %v", e == nil, c.ok, e)
			}
			if !c.ok && (e.Kind != Compile || len(e.Diagnostics) == 0) {
				t.Fatalf("got %v, want compile_failed with the missing argument", e)
			}
			checkGolden(t, c.name, golden(r, e))
		})
	}
}

// TestSetPropertyAdd adds properties the source does not write, with
// old_value absent or null, and node.edits lists them with their current
// value.
func TestSetPropertyAdd(t *testing.T) {
	cases := []struct {
		name string
		src  string // replaces the Button line of the task-app
		op   string
	}{
		{"add_disabled_absent_old", "", `{"kind":"set_property","node":"element:Home/view/0/1","property":"disabled","new_value":true}`},
		{"add_variant_null_old", "", `{"kind":"set_property","node":"element:Home/view/0/1","property":"variant","old_value":null,"new_value":"link"}`},
		{"add_to_element_without_args", "", `{"kind":"set_property","node":"element:Home/view/0","property":"padding","new_value":8}`},
		{"add_to_instance", "      Button(label: \"Add\", on_press: submit)\n      Card()\n", `{"kind":"set_property","node":"element:Home/view/0/2","property":"title","new_value":"Hello"}`},
		{"add_to_multiline_args", "      Button(\n        label: \"Add\",\n        on_press: submit,\n      )\n", `{"kind":"set_property","node":"element:Home/view/0/1","property":"disabled","old_value":null,"new_value":false}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := taskApp(t)
			if c.src != "" {
				m := replaceOnce(t, taskMain(t), "      Button(label: \"Add\", on_press: submit)\n", c.src)
				if strings.Contains(c.src, "Card") {
					m = replaceOnce(t, m, "app TasksApp", "use component Card from \"card.acore\"\n\napp TasksApp")
				}
				p = withFiles(t, map[string]string{"main.acore": m, "card.acore": declCard})
			}
			r, e := run(t, p, c.op)
			if e != nil {
				t.Fatalf("refused: %v (diagnostics %v)", e, e.Diagnostics)
			}
			checkGolden(t, c.name, golden(r, e))
		})
	}
}

// TestUnwrittenOptions: node.edits carries the current value of each
// authored property and offers the unwritten ones after every other
// option, with null.
func TestUnwrittenOptions(t *testing.T) {
	p := taskApp(t)
	i, _ := p.Result.Graph.Lookup("element:Home/view/0/1")
	ne := EditsOf(testSnap, p, i, []string{"set_property", "bind_property", "list_element"}, false, false)
	var got []string
	for _, o := range ne.Options {
		got = append(got, fmt.Sprintf("%s %s %s current=%s unwritten=%v", o.Kind, o.Property, o.Accepts, o.CurrentValue, o.Unwritten))
	}
	want := []string{
		`set_property label String current="Add" unwritten=false`,
		`bind_property label String current= unwritten=false`,
		`list_element  Element current= unwritten=false`,
		`set_property variant String current=null unwritten=true`,
		`set_property disabled Bool current=null unwritten=true`,
		`set_property visible Bool current=null unwritten=true`,
		`set_property class String current=null unwritten=true`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("options:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUnwrittenOptionsOn10: a project locked to the catalog of Acore 1.0
// is offered none of the properties 1.1 added, and adding one is refused
// as the checker would refuse it.
func TestUnwrittenOptionsOn10(t *testing.T) {
	base := taskApp(t)
	in := *base.Inputs
	l := *in.Lock
	l.Data = []byte(strings.Replace(string(l.Data), `"catalog_version": "1.1.0"`, `"catalog_version": "1.0.0"`, 1))
	in.Lock = &l
	p := project.Compile(&in)
	if p.Result.State != "validated" {
		t.Fatalf("the 1.0 task-app is %s: %s", p.Result.State, firstError(p.Result))
	}
	i, _ := p.Result.Graph.Lookup("element:Home/view/0/1")
	var adds []string
	for _, o := range EditsOf(testSnap, p, i, []string{"set_property"}, false, false).Options {
		if o.Unwritten {
			adds = append(adds, o.Property)
		}
	}
	if strings.Join(adds, ",") != "variant,disabled,visible" {
		t.Errorf("unwritten options on 1.0: %v, want variant, disabled, visible", adds)
	}
	_, e := run(t, p, `{"kind":"set_property","node":"element:Home/view/0/1","property":"class","new_value":"wide"}`)
	if e == nil || e.Reason.String() != "incompatible_target" {
		t.Fatalf("adding class on 1.0: %v, want incompatible_target", e)
	}
}
