package edit

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
)

const rowModule = `module tasks.components.row

component Tile(title: String) {
  view { Text(title) }
}
`

// unusedMain is the task-app with an unused state, an unused action and
// an unused import.
func unusedMain(t testing.TB) string {
	src := replaceOnce(t, taskMain(t), "  state draft: String = \"\"\n", "  state draft: String = \"\"\n  state unused: Int = 0\n")
	src = replaceOnce(t, src, "use contract Tasks from \"tasks\" audience \"mobile\"\n", "use contract Tasks from \"tasks\" audience \"mobile\"\nuse component Tile from \"./components/row\"\n")
	return replaceOnce(t, src, "  view {\n", "  action clear() {\n    draft = \"\"\n  }\n\n  view {\n")
}

func TestApplyKinds(t *testing.T) {
	type tc struct {
		name  string
		base  func(t testing.TB) *project.Project
		ops   []string
		want  func(t testing.TB, src string) string // from the base's main.acore
		check func(t *testing.T, r *Result)
	}
	plain := func(t testing.TB) *project.Project { return taskApp(t) }
	routed := func(t testing.TB) *project.Project { return withFiles(t, map[string]string{"main.acore": routedMain}) }
	themed := func(t testing.TB) *project.Project {
		return withFiles(t, map[string]string{"main.acore": replaceOnce(t, routedMain, `(routing: "hash")`, `(routing: "hash", theme: "none")`)})
	}
	unused := func(t testing.TB) *project.Project {
		return withFiles(t, map[string]string{"main.acore": unusedMain(t), "components/row.acore": rowModule})
	}
	// lets is the task-app with an unused derived value.
	lets := func(t testing.TB) *project.Project {
		return withFiles(t, map[string]string{"main.acore": replaceOnce(t, taskMain(t), "  state draft: String = \"\"\n", "  state draft: String = \"\"\n  let shout = draft.upper()\n")})
	}
	cases := []tc{
		{name: "set_property string", base: plain,
			ops: []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"Add task"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `Button(label: "Add",`, `Button(label: "Add task",`)
			}},
		{name: "set_property escapes", base: plain,
			ops: []string{`{"kind":"set_property","node":"element:Home/view/0/0","property":"placeholder","old_value":"Add a task","new_value":"Say \"hi\"\n"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `placeholder: "Add a task"`, `placeholder: "Say \"hi\"\n"`)
			}},
		{name: "set_property int", base: plain,
			ops:  []string{`{"kind":"set_property","node":"element:Home/view/0/2/2/0","property":"span_count","old_value":1,"new_value":2.0}`},
			want: func(t testing.TB, s string) string { return replaceOnce(t, s, "span_count: 1", "span_count: 2") }},
		{name: "set_property state initial", base: plain,
			ops: []string{`{"kind":"set_property","node":"state:Home.draft","property":"initial","old_value":"","new_value":"x"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `state draft: String = ""`, `state draft: String = "x"`)
			}},
		{name: "set_property route renames", base: plain,
			ops:  []string{`{"kind":"set_property","node":"route:/","property":"path","old_value":"/","new_value":"/home"}`},
			want: func(t testing.TB, s string) string { return replaceOnce(t, s, `route "/" =>`, `route "/home" =>`) },
			check: func(t *testing.T, r *Result) {
				want := []IDMapEntry{{OldID: strp("route:/"), NewID: strp("route:/home"), Change: "renamed"}}
				if !reflect.DeepEqual(r.IDMap, want) || !reflect.DeepEqual(r.Operations[0].IDMap, want) {
					t.Errorf("id_map %s", jsonText(r.IDMap))
				}
			}},
		{name: "set_property route argument", base: routed,
			ops: []string{`{"kind":"set_property","node":"route:/active","property":"arg.filter","old_value":"active","new_value":"open"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `Home(filter: "active")`, `Home(filter: "open")`)
			}},
		{name: "set_property route: the app's routing", base: routed,
			ops: []string{`{"kind":"set_property","node":"app:TasksApp","property":"routing","old_value":"hash","new_value":"path"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `(routing: "hash")`, `(routing: "path")`)
			}},
		{name: "set_property the app's theme", base: themed,
			ops: []string{`{"kind":"set_property","node":"app:TasksApp","property":"theme","old_value":"none","new_value":"default"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `theme: "none")`, `theme: "default")`)
			}},
		{name: "set_property a link's route argument", base: routed,
			ops: []string{`{"kind":"set_property","node":"element:Home/view/1","property":"n","old_value":7,"new_value":8}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `to: "/items/:n", n: 7)`, `to: "/items/:n", n: 8)`)
			}},
		{name: "bind_property", base: plain,
			ops: []string{`{"kind":"bind_property","node":"element:Home/view/0/0","property":"placeholder","old_value":"Add a task","target":"state:Home.draft"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `placeholder: "Add a task"`, `placeholder: draft`)
			}},
		{name: "set_reference", base: unused,
			ops: []string{`{"kind":"set_reference","node":"element:Home/view/0/1","property":"on_press","old_value":"submit","target":"action:Home.clear"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "on_press: submit)", "on_press: clear)")
			}},
		{name: "list_element remove line", base: plain,
			ops: []string{`{"kind":"list_element","op":"remove","node":"element:Home/view/0/0","old_text":"Input(value: draft, placeholder: \"Add a task\")"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "      Input(value: draft, placeholder: \"Add a task\")\n", "")
			},
			check: func(t *testing.T, r *Result) {
				want := map[string]string{"element:Home/view/0/0": "", "element:Home/view/0/1": "element:Home/view/0/0",
					"conditional:Home/view/0/2": "conditional:Home/view/0/1", "element:Home/view/0/2/2/0/0": "element:Home/view/0/1/2/0/0"}
				got := map[string]string{}
				for _, e := range r.IDMap {
					got[*e.OldID] = deref(e.NewID)
				}
				for o, n := range want {
					if got[o] != n {
						t.Errorf("%s -> %q, want %q (id_map %s)", o, got[o], n, jsonText(r.IDMap))
					}
				}
			}},
		{name: "list_element remove blank lines", base: plain,
			ops: []string{`{"kind":"list_element","op":"remove","node":"element:Home/view/0/1","old_text":"Button(label: \"Add\", on_press: submit)"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "      Button(label: \"Add\", on_press: submit)\n", "")
			}},
		{name: "list_element remove on a shared line", base: plain,
			ops: []string{`{"kind":"list_element","op":"remove","node":"element:Home/view/0/2/0/0","old_text":"Text(\"Loading...\")"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `if tasks.pending { Text("Loading...") }`, `if tasks.pending { }`)
			}},
		{name: "list_element insert after", base: plain,
			ops: []string{`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"Tip\")","handle":"tip"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "on_press: submit)\n", "on_press: submit)\n      Text(\"Tip\")\n")
			},
			check: func(t *testing.T, r *Result) {
				if r.Operations[0].Created != "element:Home/view/0/2" {
					t.Errorf("created %q", r.Operations[0].Created)
				}
			}},
		{name: "list_element insert before, multi-line", base: plain,
			ops: []string{`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/0","position":"before","old_text":"Input(value: draft, placeholder: \"Add a task\")","element":"Row {\n  Text(\"a\")\n\n  Text(\"b\")\n}\n"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "      Input(", "      Row {\n        Text(\"a\")\n\n        Text(\"b\")\n      }\n      Input(")
			}},
		{name: "list_element insert inline", base: plain,
			ops: []string{`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/2/0/0","position":"after","old_text":"Text(\"Loading...\")","element":"Spinner"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `{ Text("Loading...") }`, `{ Text("Loading...") Spinner }`)
			}},
		{name: "declaration create before", base: plain,
			ops: []string{`{"kind":"declaration","op":"create","anchor":"state:Home.draft","position":"before","old_text":"state draft: String = \"\"","declaration":"state count: Int = 0","handle":"count"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "  state draft", "  state count: Int = 0\n  state draft")
			},
			check: func(t *testing.T, r *Result) {
				if r.Operations[0].Created != "state:Home.count" || len(r.IDMap) != 0 {
					t.Errorf("created %q, id_map %s", r.Operations[0].Created, jsonText(r.IDMap))
				}
			}},
		{name: "declaration create after, multi-line", base: plain,
			ops: []string{`{"kind":"declaration","op":"create","anchor":"action:Home.submit","position":"after","old_text":"action submit() {\n    create.run()\n    draft = \"\"\n  }","declaration":"action clear() {\n  draft = \"\"\n}"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "    draft = \"\"\n  }\n", "    draft = \"\"\n  }\n  action clear() {\n    draft = \"\"\n  }\n")
			}},
		{name: "declaration create first", base: plain,
			ops: []string{`{"kind":"declaration","op":"create","anchor":"page:Home","position":"first","old_text":"page Home {","declaration":"state count: Int = 0"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "page Home {\n", "page Home {\n  state count: Int = 0\n")
			}},
		{name: "declaration update", base: plain,
			ops: []string{`{"kind":"declaration","op":"update","node":"state:Home.draft","old_text":"state draft: String = \"\"","declaration":"state draft: String = \"new\""}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, `state draft: String = ""`, `state draft: String = "new"`)
			},
			check: func(t *testing.T, r *Result) {
				if len(r.IDMap) != 0 {
					t.Errorf("id_map %s", jsonText(r.IDMap))
				}
			}},
		{name: "declaration remove state", base: unused,
			ops:  []string{`{"kind":"declaration","op":"remove","node":"state:Home.unused","old_text":"state unused: Int = 0"}`},
			want: func(t testing.TB, s string) string { return replaceOnce(t, s, "  state unused: Int = 0\n", "") },
			check: func(t *testing.T, r *Result) {
				want := []IDMapEntry{{OldID: strp("state:Home.unused"), Change: "removed"}}
				if !reflect.DeepEqual(r.IDMap, want) {
					t.Errorf("id_map %s", jsonText(r.IDMap))
				}
			}},
		{name: "declaration remove action with its blank line", base: unused,
			ops: []string{`{"kind":"declaration","op":"remove","node":"action:Home.clear","old_text":"action clear() {\n    draft = \"\"\n  }"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "  action clear() {\n    draft = \"\"\n  }\n\n", "")
			}},
		{name: "declaration create let", base: plain,
			ops: []string{`{"kind":"declaration","op":"create","anchor":"state:Home.draft","position":"after","old_text":"state draft: String = \"\"","declaration":"let shout = draft.trim().upper()"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "  state draft: String = \"\"\n", "  state draft: String = \"\"\n  let shout = draft.trim().upper()\n")
			},
			check: func(t *testing.T, r *Result) {
				if r.Operations[0].Created != "let:Home.shout" {
					t.Errorf("created %q", r.Operations[0].Created)
				}
			}},
		{name: "declaration update let", base: lets,
			ops: []string{`{"kind":"declaration","op":"update","node":"let:Home.shout","old_text":"let shout = draft.upper()","declaration":"let shout = draft.lower()"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "let shout = draft.upper()", "let shout = draft.lower()")
			}},
		{name: "declaration remove let", base: lets,
			ops:  []string{`{"kind":"declaration","op":"remove","node":"let:Home.shout","old_text":"let shout = draft.upper()"}`},
			want: func(t testing.TB, s string) string { return replaceOnce(t, s, "  let shout = draft.upper()\n", "") },
			check: func(t *testing.T, r *Result) {
				want := []IDMapEntry{{OldID: strp("let:Home.shout"), Change: "removed"}}
				if !reflect.DeepEqual(r.IDMap, want) {
					t.Errorf("id_map %s", jsonText(r.IDMap))
				}
			}},
		{name: "import add", base: func(t testing.TB) *project.Project {
			return withFiles(t, map[string]string{"components/row.acore": rowModule})
		},
			ops: []string{`{"kind":"import","op":"add","path":"main.acore","import_kind":"component","symbol":"Tile","from":"./components/row","handle":"imp"}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "audience \"mobile\"\n", "audience \"mobile\"\nuse component Tile from \"./components/row\"\n")
			},
			check: func(t *testing.T, r *Result) {
				if r.Operations[0].Created != "import:main.acore#Tile" {
					t.Errorf("created %q", r.Operations[0].Created)
				}
			}},
		{name: "import remove", base: unused,
			ops: []string{`{"kind":"import","op":"remove","path":"main.acore","symbol":"Tile","old_text":"use component Tile from \"./components/row\""}`},
			want: func(t testing.TB, s string) string {
				return replaceOnce(t, s, "use component Tile from \"./components/row\"\n", "")
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := c.base(t)
			if base.Result.State != "validated" {
				t.Fatalf("base is %s: %v", base.Result.State, base.Result.Diagnostics)
			}
			r := mustApply(t, base, c.ops...)
			src := mainSrc(base)
			want := c.want(t, src)
			got, ok := r.Files["main.acore"]
			if !ok || string(got) != want {
				t.Fatalf("main.acore:\n%s\nwant:\n%s", got, want)
			}
			if len(r.Files) != 1 {
				t.Errorf("files %v", len(r.Files))
			}
			if r.Project == nil || r.Project.Result.State != "validated" || string(r.Project.File("main.acore").Src) != want {
				t.Errorf("final project not the written state")
			}
			if len(r.Operations) != len(c.ops) || r.Repair != nil {
				t.Errorf("operations %+v repair %+v", r.Operations, r.Repair)
			}
			if len(r.Touched) == 0 || len(r.Owners) == 0 && !strings.HasPrefix(c.name, "import") && !strings.HasPrefix(c.name, "set_property route") && !strings.HasPrefix(c.name, "set_property the app") {
				t.Errorf("touched %v owners %v", r.Touched, r.Owners)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// The reference's set_property and its old_value_mismatch.
func TestReferenceSetProperty(t *testing.T) {
	p := taskApp(t)
	_, e := run(t, p, `{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Create", "new_value": "Add task"}`)
	if e == nil {
		t.Fatal("accepted a stale old_value")
	}
	// The service's editError turns this into the reference's wire error
	// (see its test).
	want := Error{Kind: Precondition, Reason: reason.OldValueMismatch, Message: `label is "Add", expected "Create"`, OperationIndex: e.OperationIndex,
		Node: "element:Home/view/0/1", Property: "label", Next: Reread, NextNode: "element:Home/view/0/1"}
	if !reflect.DeepEqual(*e, want) || idx(e) != 0 {
		t.Errorf("error\n%+v\nwant\n%+v", *e, want)
	}
	r := mustApply(t, p, `{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"}`)
	if len(r.IDMap) != 0 || len(r.Operations) != 1 || r.Operations[0].Kind != "set_property" || len(r.Operations[0].IDMap) != 0 {
		t.Errorf("result %+v", r)
	}
	if !reflect.DeepEqual(r.Owners, []string{"page:Home"}) || !reflect.DeepEqual(r.Touched, []string{"main.acore: page Home"}) {
		t.Errorf("owners %v touched %v", r.Owners, r.Touched)
	}
	n, _ := r.Project.Result.Graph.Node("element:Home/view/0/1")
	if n.Props[0].Value != "Add task" {
		t.Errorf("label is %v", n.Props[0].Value)
	}
}

func TestRefusals(t *testing.T) {
	p := taskApp(t)
	buttonVersion := func() string {
		n, _ := p.Result.Graph.Node("element:Home/view/0/1")
		return p.Result.Graph.Version(n)
	}()
	broken := withMain(t, replaceOnce(t, taskMain(t), `Button(label: "Add", on_press: submit)`, `Button(label: "Add", label: "B", on_press: submit)`))
	noLock := func() *project.Project {
		in := *p.Inputs
		in.Lock = nil
		return project.Compile(&in)
	}()
	type tc struct {
		name   string
		base   *project.Project
		ops    []string
		code   Kind
		reason string
		index  int
	}
	setLabel := `{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"X"}`
	cases := []tc{
		{"old_value_mismatch", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"B","new_value":"X"}`}, Precondition, "old_value_mismatch", 0},
		{"old_text_mismatch", p, []string{`{"kind":"list_element","op":"remove","node":"element:Home/view/0/1","old_text":"Button"}`}, Precondition, "old_text_mismatch", 0},
		{"old_text_mismatch of an update", p, []string{`{"kind":"declaration","op":"update","node":"state:Home.draft","old_text":"state draft: String","declaration":"state draft: String = \"a\""}`}, Precondition, "old_text_mismatch", 0},
		{"node_version_mismatch", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"X","expected_node_version":"0000"}`}, Precondition, "node_version_mismatch", 0},
		{"node_version_mismatch after an earlier operation", p, []string{setLabel,
			`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"X","new_value":"Y","expected_node_version":"` + buttonVersion + `"}`}, Precondition, "node_version_mismatch", 1},
		{"option_stale", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"X","option":{"option_id":"o1","fingerprint":"00"}}`}, Precondition, "option_stale", 0},
		{"edit_not_offered: an Action property", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"on_press","old_value":"submit","new_value":"x"}`}, Unsupported, "edit_not_offered", 0},
		{"incompatible_target: a property the element does not accept", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"colour","old_value":null,"new_value":"red"}`}, Invalid, "incompatible_target", 0},
		{"edit_not_offered: adding an Action property", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"on_focus","new_value":"submit"}`}, Unsupported, "edit_not_offered", 0},
		{"old_value_mismatch: adding with an old value", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"variant","old_value":"primary","new_value":"link"}`}, Precondition, "old_value_mismatch", 0},
		{"old_value_mismatch: absent old_value of a written property", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","new_value":"X"}`}, Precondition, "old_value_mismatch", 0},
		{"incompatible_value: adding a value of another type", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"disabled","new_value":"yes"}`}, Invalid, "incompatible_value", 0},
		{"incompatible_target: a state where a top-level declaration goes", p, []string{`{"kind":"declaration","op":"create","anchor":"page:Home","position":"after","old_text":"page Home {","declaration":"state n: Int = 0"}`}, Invalid, "incompatible_target", 0},
		{"incompatible_target: a page among members", p, []string{`{"kind":"declaration","op":"create","anchor":"state:Home.draft","position":"after","old_text":"state draft: String = \"\"","declaration":"page Other {\n  view {\n    Text(\"x\")\n  }\n}"}`}, Invalid, "incompatible_target", 0},
		{"still_referenced: query", p, []string{`{"kind":"declaration","op":"remove","node":"query:Home.tasks","old_text":"query tasks = Tasks.list_tasks()"}`}, Unsupported, "still_referenced", 0},
		{"edit_not_offered: bind on a page", p, []string{`{"kind":"bind_property","node":"page:Home","property":"x","old_value":null,"target":"state:Home.draft"}`}, Unsupported, "edit_not_offered", 0},
		{"edit_not_offered: bind to a state of another type", p, []string{`{"kind":"bind_property","node":"element:Home/view/0/2/2/0","property":"span_count","old_value":1,"target":"state:Home.draft"}`}, Unsupported, "edit_not_offered", 0},
		{"edit_not_offered: list_element on a state", p, []string{`{"kind":"list_element","op":"remove","node":"state:Home.draft","old_text":"state draft: String = \"\""}`}, Unsupported, "edit_not_offered", 0},
		{"edit_not_offered: create first on a state", p, []string{`{"kind":"declaration","op":"create","anchor":"state:Home.draft","position":"first","old_text":"state draft: String = \"\"","declaration":"state n: Int = 0"}`}, Unsupported, "edit_not_offered", 0},
		{"edit_not_offered: set_reference without another action", p, []string{`{"kind":"set_reference","node":"element:Home/view/0/1","property":"on_press","old_value":"submit","target":"action:Home.submit"}`}, Unsupported, "edit_not_offered", 0},
		{"edit_not_offered: replace_region on a validated base", p, []string{`{"kind":"replace_region","path":"main.acore","start_line":1,"end_line":1,"old_text":"module tasks.app.ui","new_text":"module x","option":{"option_id":"r1","fingerprint":"00"}}`}, Unsupported, "edit_not_offered", 0},
		{"still_referenced: let", withFiles(t, map[string]string{"main.acore": replaceOnce(t, replaceOnce(t, taskMain(t), "  state draft: String = \"\"\n", "  state draft: String = \"\"\n  let shout = draft.upper()\n"), "Text(\"Loading...\")", "Text(shout)")}), []string{`{"kind":"declaration","op":"remove","node":"let:Home.shout","old_text":"let shout = draft.upper()"}`}, Unsupported, "still_referenced", 0},
		{"still_referenced: state", p, []string{`{"kind":"declaration","op":"remove","node":"state:Home.draft","old_text":"state draft: String = \"\""}`}, Unsupported, "still_referenced", 0},
		{"still_referenced: import", p, []string{`{"kind":"import","op":"remove","path":"main.acore","symbol":"Tasks","old_text":"use contract Tasks from \"tasks\" audience \"mobile\""}`}, Unsupported, "still_referenced", 0},
		{"ambiguous_owner", broken, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"X"}`}, Ambiguous, "duplicate_property", 0},
		{"read_only_origin", p, []string{`{"kind":"set_property","node":"contract_operation:Tasks.list_tasks","property":"kind","old_value":"query","new_value":"mutation"}`}, ReadOnly, "", 0},
		{"no_op", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"Add"}`}, Invalid, "no_op", 0},
		{"no_op of an update", p, []string{`{"kind":"declaration","op":"update","node":"state:Home.draft","old_text":"state draft: String = \"\"","declaration":"state draft: String = \"\""}`}, Invalid, "no_op", 0},
		{"no_op batch", p, []string{setLabel, `{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"X","new_value":"Add"}`}, Invalid, "no_op", 1},
		{"region_alone", p, []string{setLabel, `{"kind":"replace_region","path":"main.acore","start_line":1,"end_line":1,"old_text":"x","new_text":"y","option":{"option_id":"r1","fingerprint":"00"}}`}, Invalid, "region_alone", 1},
		{"incompatible_target: rename", p, []string{`{"kind":"declaration","op":"update","node":"state:Home.draft","old_text":"state draft: String = \"\"","declaration":"state text: String = \"\""}`}, Invalid, "incompatible_target", 0},
		{"incompatible_target: kind", p, []string{`{"kind":"declaration","op":"update","node":"state:Home.draft","old_text":"state draft: String = \"\"","declaration":"action draft() {\n}"}`}, Invalid, "incompatible_target", 0},
		{"incompatible_value", p, []string{`{"kind":"set_property","node":"element:Home/view/0/2/2/0","property":"span_count","old_value":1,"new_value":"two"}`}, Invalid, "incompatible_value", 0},
		{"null where the type has none", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":null}`}, Invalid, "incompatible_value", 0},
		{"unknown field", p, []string{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"X","force":true}`}, Invalid, "schema", 0},
		{"missing field", p, []string{setLabel, `{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","old_text":"x","element":"Text(\"a\")"}`}, Invalid, "schema", 1},
		{"bad position", p, []string{`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"first","old_text":"x","element":"Text(\"a\")"}`}, Invalid, "schema", 0},
		{"not one element", p, []string{`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"a\") Text(\"b\")"}`}, Invalid, "schema", 0},
		{"unknown handle", p, []string{`{"kind":"set_property","node":{"handle":"nope"},"property":"label","old_value":"Add","new_value":"X"}`}, Invalid, "unknown_handle", 0},
		{"unknown node", p, []string{`{"kind":"set_property","node":"element:Home/view/9","property":"label","old_value":"Add","new_value":"X"}`}, NotFound, "node_unknown", 0},
		{"removed node", p, []string{`{"kind":"list_element","op":"remove","node":"element:Home/view/0/1","old_text":"Button(label: \"Add\", on_press: submit)"}`, setLabel}, NotFound, "node_removed", 1},
		{"compile_failed", p, []string{setLabel, `{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"X\", on_press: submit)","element":"Nope(x: 1)"}`}, Compile, "candidate_errors", 1},
		{"not_validated", noLock, []string{setLabel}, Compile, "not_validated", -1},
		{"candidate_errors: a theme the app does not have", withMain(t, replaceOnce(t, routedMain, `(routing: "hash")`, `(routing: "hash", theme: "none")`)),
			[]string{`{"kind":"set_property","node":"app:TasksApp","property":"theme","old_value":"none","new_value":"dark"}`}, Compile, "candidate_errors", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, e := run(t, c.base, c.ops...)
			if e == nil {
				t.Fatalf("accepted: %s", r.Files["main.acore"])
			}
			if e.Kind != c.code || e.Reason.String() != c.reason || idx(e) != c.index {
				t.Fatalf("got %s/%s at %d (%s), want %s/%s at %d", e.Kind, e.Reason, idx(e), e.Message, c.code, c.reason, c.index)
			}
			if e.Message == "" || (e.Kind == Compile && e.Reason != reason.NotValidated && e.Diagnostics == nil) {
				t.Errorf("incomplete error %+v", e)
			}
			if c.code == Compile && c.reason == "" && len(e.Diagnostics) == 0 {
				t.Errorf("compile_failed without diagnostics")
			}
			if _, err := json.Marshal(e); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestStillReferencedNamesReferences(t *testing.T) {
	_, e := run(t, taskApp(t), `{"kind":"declaration","op":"remove","node":"state:Home.draft","old_text":"state draft: String = \"\""}`)
	if e == nil || e.Reason.String() != "still_referenced" {
		t.Fatalf("got %v", e)
	}
	by, _ := e.Details["referenced_by"].([]string)
	want := map[string]bool{"mutation:Home.create": true, "action:Home.submit": true, "element:Home/view/0/0": true}
	for _, id := range by {
		delete(want, id)
	}
	if len(want) > 0 {
		t.Errorf("referenced_by %v misses %v", by, want)
	}
}

// An option cited with its current fingerprint is accepted; after an
// earlier operation changed the node, the base's option is stale.
func TestOptions(t *testing.T) {
	p := taskApp(t)
	i, _ := p.Result.Graph.Lookup("element:Home/view/0/1")
	ne := EditsOf(testSnap, p, i, []string{"set_property"}, false, false)
	fp := ne.Options[0].Fingerprint
	op := func(old, nw string) string {
		return fmt.Sprintf(`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":%q,"new_value":%q,"option":{"option_id":"o1","fingerprint":%q},"expected_node_version":%q}`, old, nw, fp, ne.NodeVersion)
	}
	mustApply(t, p, op("Add", "X"))
	_, e := run(t, p, op("Add", "X"), op("X", "Y"))
	if e == nil || e.Reason.String() != "node_version_mismatch" || idx(e) != 1 {
		t.Fatalf("got %v", e)
	}
	// Without the version, the stale option is what is refused.
	_, e = run(t, p, op("Add", "X"), strings.Replace(op("X", "Y"), `,"expected_node_version":"`+ne.NodeVersion+`"`, "", 1))
	if e == nil || e.Reason.String() != "option_stale" || idx(e) != 1 {
		t.Fatalf("got %v", e)
	}
	// The fingerprint of the state after the first operation is accepted
	// (computed here from an applied copy).
	r := mustApply(t, p, op("Add", "X"))
	j, _ := r.Project.Result.Graph.Lookup("element:Home/view/0/1")
	ne2 := EditsOf(testSnap, r.Project, j, []string{"set_property"}, false, false)
	second := fmt.Sprintf(`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"X","new_value":"Y","option":{"option_id":"o1","fingerprint":%q},"expected_node_version":%q}`, ne2.Options[0].Fingerprint, ne2.NodeVersion)
	mustApply(t, p, op("Add", "X"), second)
}

// Handles: insert an element, then edit it through its handle.
func TestHandles(t *testing.T) {
	p := taskApp(t)
	r := mustApply(t, p,
		`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"before","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"hi\")","handle":"greeting"}`,
		`{"kind":"set_property","node":{"handle":"greeting"},"property":"text","old_value":"hi","new_value":"hello"}`,
		`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"Add task"}`)
	want := replaceOnce(t, mainSrc(p), "      Button(label: \"Add\",", "      Text(\"hello\")\n      Button(label: \"Add task\",")
	if got := string(r.Files["main.acore"]); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	o := r.Operations
	if o[0].Created != "element:Home/view/0/1" || o[0].Handle != "greeting" || o[1].Node != "element:Home/view/0/1" || o[2].Node != "element:Home/view/0/2" {
		t.Errorf("outcomes %+v", o)
	}
	got := map[string]string{}
	for _, e := range r.IDMap {
		got[*e.OldID] = deref(e.NewID) + " " + e.Change
	}
	want2 := map[string]string{
		"element:Home/view/0/1":       "element:Home/view/0/2 moved",
		"conditional:Home/view/0/2":   "conditional:Home/view/0/3 moved",
		"element:Home/view/0/2/0/0":   "element:Home/view/0/3/0/0 moved",
		"element:Home/view/0/2/1/0":   "element:Home/view/0/3/1/0 moved",
		"element:Home/view/0/2/2/0":   "element:Home/view/0/3/2/0 moved",
		"element:Home/view/0/2/2/0/0": "element:Home/view/0/3/2/0/0 moved",
	}
	if !reflect.DeepEqual(got, want2) {
		t.Errorf("id_map %v", got)
	}
	// A handle names the created node wherever later operations move it.
	r = mustApply(t, p,
		`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"a\")","handle":"a"}`,
		`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"b\")","handle":"b"}`,
		`{"kind":"set_property","node":{"handle":"a"},"property":"text","old_value":"a","new_value":"A"}`)
	if r.Operations[0].Created != "element:Home/view/0/3" || r.Operations[1].Created != "element:Home/view/0/2" || r.Operations[2].Node != "element:Home/view/0/3" {
		t.Errorf("outcomes %+v", r.Operations)
	}
	if !strings.Contains(string(r.Files["main.acore"]), "submit)\n      Text(\"b\")\n      Text(\"A\")\n") {
		t.Errorf("got\n%s", r.Files["main.acore"])
	}
	// A handle reused, and a handle of a removed node.
	_, e := run(t, p,
		`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"a\")","handle":"a"}`,
		`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"b\")","handle":"a"}`)
	if e == nil || e.Reason.String() != "handle_reused" || idx(e) != 1 {
		t.Errorf("got %v", e)
	}
	_, e = run(t, p,
		`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"a\")","handle":"a"}`,
		`{"kind":"list_element","op":"remove","node":{"handle":"a"},"old_text":"Text(\"a\")"}`,
		`{"kind":"set_property","node":{"handle":"a"},"property":"text","old_value":"a","new_value":"A"}`)
	if e == nil || e.Reason.String() != "node_removed" || idx(e) != 2 {
		t.Errorf("got %v", e)
	}
}

// A set_reference to an action created earlier in the batch.
func TestCreateThenReference(t *testing.T) {
	p := taskApp(t)
	r := mustApply(t, p,
		`{"kind":"declaration","op":"create","anchor":"action:Home.submit","position":"after","old_text":"action submit() {\n    create.run()\n    draft = \"\"\n  }","declaration":"action clear() {\n  draft = \"\"\n}","handle":"clear"}`,
		`{"kind":"set_reference","node":"element:Home/view/0/1","property":"on_press","old_value":"submit","target":{"handle":"clear"}}`)
	if !strings.Contains(string(r.Files["main.acore"]), "on_press: clear)") || r.Operations[0].Created != "action:Home.clear" {
		t.Errorf("got %+v\n%s", r.Operations, r.Files["main.acore"])
	}
}

// 50 operations: 25 inserts, each followed by a set_property through its
// handle.
func TestFiftyOperations(t *testing.T) {
	p := taskApp(t)
	var js []string
	for k := range 25 {
		js = append(js,
			fmt.Sprintf(`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"t%d\")","handle":"h%d"}`, k, k),
			fmt.Sprintf(`{"kind":"set_property","node":{"handle":"h%d"},"property":"text","old_value":"t%d","new_value":"u%d"}`, k, k, k))
	}
	r := mustApply(t, p, js...)
	var lines strings.Builder
	for k := 24; k >= 0; k-- {
		fmt.Fprintf(&lines, "      Text(\"u%d\")\n", k)
	}
	want := replaceOnce(t, mainSrc(p), "on_press: submit)\n", "on_press: submit)\n"+lines.String())
	if got := string(r.Files["main.acore"]); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if len(r.Operations) != 50 {
		t.Fatalf("%d outcomes", len(r.Operations))
	}
	for k := range 25 {
		if c := r.Operations[2*k].Created; c != fmt.Sprintf("element:Home/view/0/%d", 2+24-k) {
			t.Errorf("op %d created %s", 2*k, c)
		}
	}
	got := map[string]string{}
	for _, e := range r.IDMap {
		got[*e.OldID] = deref(e.NewID)
	}
	if got["conditional:Home/view/0/2"] != "conditional:Home/view/0/27" || got["element:Home/view/0/2/2/0/0"] != "element:Home/view/0/27/2/0/0" || len(got) != 5 {
		t.Errorf("id_map %v", got)
	}
	// 50 set_property on one property, each seeing the one before.
	js = js[:0]
	prev := "Add"
	for k := range 50 {
		js = append(js, fmt.Sprintf(`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":%q,"new_value":"L%d"}`, prev, k))
		prev = fmt.Sprintf("L%d", k)
	}
	r = mustApply(t, p, js...)
	if !strings.Contains(string(r.Files["main.acore"]), `Button(label: "L49", on_press: submit)`) {
		t.Errorf("got\n%s", r.Files["main.acore"])
	}
}

// A set_property run sees its own values and versions without compiling:
// the third operation's expected version is the list's version after the
// first two, as a compiled copy computes it.
func TestDeferredState(t *testing.T) {
	p := taskApp(t)
	first := []string{
		`{"kind":"set_property","node":"element:Home/view/0/2/2/0","property":"list_type","old_value":"single","new_value":"grid"}`,
		`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"Go"}`,
	}
	two := mustApply(t, p, first...)
	g := two.Project.Result.Graph
	list, _ := g.Node("element:Home/view/0/2/2/0")
	third := fmt.Sprintf(`{"kind":"set_property","node":"element:Home/view/0/2/2/0","property":"span_count","old_value":1,"new_value":3,"expected_node_version":%q}`, g.Version(list))
	r := mustApply(t, p, append(first, third)...)
	if !strings.Contains(string(r.Files["main.acore"]), `list_type: "grid", span_count: 3`) {
		t.Errorf("got\n%s", r.Files["main.acore"])
	}
	// The values the run wrote are the old values of the next operations.
	_, e := run(t, p, append(first, `{"kind":"set_property","node":"element:Home/view/0/2/2/0","property":"list_type","old_value":"single","new_value":"single"}`)...)
	if e == nil || e.Reason.String() != "old_value_mismatch" || e.Message != `list_type is "grid", expected "single"` {
		t.Errorf("got %v", e)
	}
}

func TestBudget(t *testing.T) {
	p := taskApp(t)
	_, e := Apply(p, ops(t, `{"kind":"list_element","op":"remove","node":"element:Home/view/0/0","old_text":"Input(value: draft, placeholder: \"Add a task\")"}`),
		Options{SnapshotID: testSnap, CompileBudget: 1})
	if e == nil || e.Kind != Limit || e.Reason.String() != "budget_exhausted" || idx(e) != 0 {
		t.Fatalf("got %v", e)
	}
}

func TestDryRun(t *testing.T) {
	p := taskApp(t)
	r, e := Apply(p, ops(t, `{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"Add task"}`),
		Options{SnapshotID: testSnap, DryRun: true})
	if e != nil || r.Project != nil || len(r.Files) != 1 || r.Owners[0] != "page:Home" {
		t.Fatalf("got %+v %v", r, e)
	}
}

// Bounded repair on a broken base.
func TestRepair(t *testing.T) {
	src := replaceOnce(t, taskMain(t), `Button(label: "Add", on_press: submit)`, `Button(label: "Add", on_press: submit`)
	base := withMain(t, src)
	if base.Result.State != "syntax" {
		t.Fatalf("base is %s", base.Result.State)
	}
	m, _ := base.Result.Graph.Lookup("module:main.acore")
	ne := EditsOf(testSnap, base, m, []string{"replace_region"}, true, false)
	if len(ne.Options) == 0 {
		t.Fatal("no region offered")
	}
	reg := ne.Options[0].Region
	fixed := strings.Replace(reg.OldText, "on_press: submit\n", "on_press: submit)\n", 1)
	if !strings.HasSuffix(reg.OldText, "on_press: submit") {
		fixed = strings.Replace(reg.OldText, "on_press: submit", "on_press: submit)", 1)
	}
	op := func(newText, fp string) string {
		return fmt.Sprintf(`{"kind":"replace_region","path":"main.acore","start_line":%d,"end_line":%d,"old_text":%s,"new_text":%s,"option":{"option_id":"r1","fingerprint":%q}}`,
			reg.StartLine, reg.EndLine, q(reg.OldText), q(newText), fp)
	}
	r := mustApply(t, base, op(fixed, ne.Options[0].Fingerprint))
	if string(r.Files["main.acore"]) != taskMain(t) {
		t.Errorf("got\n%s", r.Files["main.acore"])
	}
	if r.Repair == nil || r.Repair.BaseState != "syntax" || r.Repair.ResultState != "validated" || r.Repair.ResultErrors != 0 || r.Repair.BaseErrors == 0 ||
		!reflect.DeepEqual(r.Repair.Touched, []string{"main.acore: page Home"}) {
		t.Errorf("repair %+v", r.Repair)
	}
	// The stale option, and a repair that does not repair.
	if _, e := run(t, base, op(fixed, "00")); e == nil || e.Reason.String() != "option_stale" {
		t.Errorf("got %v", e)
	}
	if _, e := run(t, base, op(reg.OldText+" ", ne.Options[0].Fingerprint)); e == nil || e.Kind != Compile || e.Reason.String() != "repair_regression" {
		t.Errorf("got %v", e)
	}
	// Other edits on a broken base are bounded repairs too: one that
	// leaves the error is refused.
	_, e := run(t, base, `{"kind":"set_property","node":"element:Home/view/0/0","property":"placeholder","old_value":"Add a task","new_value":"New"}`)
	if e == nil || e.Reason.String() != "repair_regression" || len(e.Diagnostics) != 1 {
		t.Errorf("got %v", e)
	}
}

func TestRepairRegression(t *testing.T) {
	card := "module cards\n\ncomponent Card(title: String) { view { Text(title } }\n"
	src := replaceOnce(t, taskMain(t), "use contract Tasks from \"tasks\" audience \"mobile\"\n", "use contract Tasks from \"tasks\" audience \"mobile\"\nuse component Card from \"cards\"\n")
	src = replaceOnce(t, src, "      Input(", "      Card(title: \"x\")\n      Input(")
	base := withFiles(t, map[string]string{"main.acore": src, "cards.acore": card})
	if base.Result.State != "syntax" {
		t.Fatalf("base is %s: %v", base.Result.State, base.Result.Diagnostics)
	}
	m, _ := base.Result.Graph.Lookup("module:cards.acore")
	ne := EditsOf(testSnap, base, m, []string{"replace_region"}, true, false)
	if len(ne.Options) != 1 {
		t.Fatalf("options %+v", ne.Options)
	}
	reg := ne.Options[0].Region
	newText := strings.Replace(strings.Replace(reg.OldText, "Text(title }", "Text(heading) }", 1), "Card(title: String)", "Card(heading: String)", 1)
	_, e := run(t, base, fmt.Sprintf(`{"kind":"replace_region","path":"cards.acore","start_line":%d,"end_line":%d,"old_text":%s,"new_text":%s,"option":{"option_id":"r1","fingerprint":%q}}`,
		reg.StartLine, reg.EndLine, q(reg.OldText), q(newText), ne.Options[0].Fingerprint))
	if e == nil || e.Reason.String() != "repair_regression" {
		t.Fatalf("got %v", e)
	}
	if rep := e.Repair; rep == nil || !reflect.DeepEqual(rep.Regressed, []string{"main.acore: page Home"}) || len(e.Diagnostics) == 0 {
		t.Errorf("repair %+v, diagnostics %v (%s)", e.Repair, e.Diagnostics, e.Message)
	}
}

// Every created or moved id of a batch is a node of the final graph, and
// every listed old id is a node of the base.
func TestIDMapNodes(t *testing.T) {
	p := taskApp(t)
	r := mustApply(t, p,
		`{"kind":"list_element","op":"remove","node":"element:Home/view/0/0","old_text":"Input(value: draft, placeholder: \"Add a task\")"}`,
		`{"kind":"list_element","op":"insert","anchor":"conditional:Home/view/0/2","position":"before","old_text":`+q(nodeText(t, p, "conditional:Home/view/0/2"))+`,"element":"Divider","handle":"d"}`)
	for _, e := range r.IDMap {
		if _, ok := p.Result.Graph.Node(*e.OldID); !ok {
			t.Errorf("old id %s is not a base node", *e.OldID)
		}
		if e.NewID != nil {
			if _, ok := r.Project.Result.Graph.Node(*e.NewID); !ok {
				t.Errorf("new id %s is not a final node", *e.NewID)
			}
		}
	}
	if r.Operations[1].Created != "element:Home/view/0/1" {
		t.Errorf("created %s", r.Operations[1].Created)
	}
}

func nodeText(t testing.TB, p *project.Project, id string) string {
	n, ok := p.Result.Graph.Node(id)
	if !ok {
		t.Fatalf("no %s", id)
	}
	return string(p.File(n.Path).Src[n.Pos:n.End])
}

// Splices around one-line owners and files without use lines.
func TestLayouts(t *testing.T) {
	about := "page About { view { Text(\"About\") } }\n"
	src := replaceOnce(t, taskMain(t), "app TasksApp { route \"/\" => Home }\n", "app TasksApp {\n  route \"/\" => Home\n  route \"/about\" => About\n}\n")
	base := withFiles(t, map[string]string{"main.acore": src, "about.acore": about, "components/row.acore": rowModule})
	if base.Result.State != "validated" {
		t.Fatalf("base is %s: %v", base.Result.State, base.Result.Diagnostics)
	}
	r := mustApply(t, base,
		`{"kind":"declaration","op":"create","anchor":"page:About","position":"first","old_text":"page About {","declaration":"state n: Int = 0","handle":"n"}`,
		`{"kind":"import","op":"add","path":"about.acore","import_kind":"component","symbol":"Tile","from":"./components/row"}`,
		`{"kind":"list_element","op":"insert","anchor":"element:About/view/0","position":"after","old_text":"Text(\"About\")","element":"Tile(title: \"r\")"}`)
	want := "use component Tile from \"./components/row\"\n\npage About {\n  state n: Int = 0\n  view { Text(\"About\") Tile(title: \"r\") } }\n"
	if got := string(r.Files["about.acore"]); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if r.Operations[0].Created != "state:About.n" || r.Operations[1].Created != "import:about.acore#Tile" {
		t.Errorf("outcomes %+v", r.Operations)
	}
	// An empty owner.
	base = withFiles(t, map[string]string{"main.acore": src, "about.acore": "module about\n\npage About {}\n", "components/row.acore": rowModule})
	if base.Result.State != "validated" {
		t.Fatalf("base is %s: %v", base.Result.State, base.Result.Diagnostics)
	}
	r = mustApply(t, base,
		`{"kind":"declaration","op":"create","anchor":"page:About","position":"first","old_text":"page About {","declaration":"state n: Int = 0"}`,
		`{"kind":"import","op":"add","path":"about.acore","import_kind":"component","symbol":"Tile","from":"./components/row"}`)
	want = "module about\n\nuse component Tile from \"./components/row\"\n\npage About {\n  state n: Int = 0\n}\n"
	if got := string(r.Files["about.acore"]); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// An element or declaration that does not parse is refused as the
// candidate it would make: compile_failed with the parser's diagnostic
// where the text lands in the file, and details.source at the place in
// the agent's own text, never at a bracket the wrapper around it added.
func TestFragmentThatDoesNotParse(t *testing.T) {
	p := taskApp(t)
	const button = `Button(label: \"Add\", on_press: submit)`
	cases := []struct {
		name, op        string
		code            string
		line, column    int // in main.acore
		srcLine, srcCol int // in the agent's text
		message         string
	}{
		{"element cut short",
			`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"` + button + `","element":"Button(\"Oops\", on_press: submit"}`,
			"AC107", 21, 38, 1, 32, "expected `)` to close the arguments, found the end of the element"},
		{"element over lines, after a blank first line",
			`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"before","old_text":"` + button + `","element":"\n  Row {\n    Text(\"a\"\n  }"}`,
			"AC107", 22, 9, 4, 3, "expected `)` to close the arguments, found `}`"},
		{"element with a stray brace",
			`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"` + button + `","element":"Text(\"a\") }"}`,
			"AC101", 21, 17, 1, 11, "`}` closes a bracket the element did not open"},
		{"declaration create cut short",
			`{"kind":"declaration","op":"create","anchor":"state:Home.draft","position":"after","old_text":"state draft: String = \"\"","declaration":"state n: Int = "}`,
			"AC101", 9, 17, 1, 15, "expected an expression, found the end of the declaration"},
		{"declaration update with an unclosed call",
			`{"kind":"declaration","op":"update","node":"action:Home.submit","old_text":"action submit() {\n    create.run()\n    draft = \"\"\n  }","declaration":"action submit() {\n  create.run(\n}"}`,
			"AC101", 14, 1, 3, 1, "expected an expression, found `}`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, e := run(t, p, c.op)
			if e == nil {
				t.Fatal("accepted")
			}
			if e.Kind != Compile || e.Reason != reason.CandidateErrors || idx(e) != 0 {
				t.Fatalf("got %s/%s at %d: %s", e.Kind, e.Reason, idx(e), e.Message)
			}
			if len(e.Diagnostics) != 1 {
				t.Fatalf("diagnostics %+v, want one", e.Diagnostics)
			}
			d := e.Diagnostics[0]
			if d.Code != c.code || d.Path != "main.acore" || d.Line != c.line || d.Column != c.column || d.Message != c.message {
				t.Errorf("diagnostic %s %s:%d:%d %q, want %s main.acore:%d:%d %q", d.Code, d.Path, d.Line, d.Column, d.Message, c.code, c.line, c.column, c.message)
			}
			src, _ := e.Details["source"].(map[string]any)
			if src["line"] != c.srcLine || src["column"] != c.srcCol {
				t.Errorf("details.source %v, want line %d column %d", src, c.srcLine, c.srcCol)
			}
			if e.Node == "" {
				t.Error("no target node")
			}
		})
	}
}

// routedMain uses the routing of Acore 1.1: hash routing, a literal route
// argument, a route parameter and a Link that gives it.
const routedMain = `module tasks

app TasksApp(routing: "hash") {
  route "/" => Home(filter: "all")
  route "/active" => Home(filter: "active")
  route "/items/:n" => Item
}

page Home(filter: String) {
  view {
    Text("Filter: " + filter)
    Link("Item 7", to: "/items/:n", n: 7)
  }
}

page Item(n: Int) {
  view { Text("Item " + n) }
}
`
