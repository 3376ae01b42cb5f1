package devbackend

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// parsed checks an artifact text as contract k, as loadContracts does.
func parsed(src string) *contract {
	return checked("k", []byte(src))
}

// checked checks the artifact text src as contract id.
func checked(id string, src []byte) *contract {
	c := &contract{id: id, name: id, path: ".axiom/dev/contracts/" + id + ".axiom"}
	useChecked(map[string]*contract{id: c}, []*syntax.File{syntax.Parse(c.path, src)})
	return c
}

// TestInfer checks what each operation shape becomes: the verb and model
// it is implemented with, or why it is not.
func TestInfer(t *testing.T) {
	c := parsed(`contract K {
  model Task { id: String, title: String, done: Bool, tags: [String], sort: String }
  model TodoItem { id: Int, text: String? }
  model Note { text: String }

  query list_tasks(done: Bool?, sort: String): [Task]
  query list_open(tags: [String]): [Task]
  query list_todo_items(sort: String?): [TodoItem]
  query list_notes(): [Note]?
  query list_maybe(): [Task?]
  query list_one(): Task
  mutation get_task(id: String): Task
  query get_task2(id: String): [Task]
  query get_any(): Task
  query get_todo(id: Int?): TodoItem?
  query get_todo_text(text: Int): TodoItem
  query create_x(text: String): Note
  mutation create_todo_item(text: String?): Bool
  mutation create_note(text: String): [Note]
  mutation create_tasks(): Int
  mutation update_task(id: String, title: String?, done: Bool?): Task?
  mutation update_todo_item(id: String): Bool
  mutation update_note(text: String): Note
  mutation update_tasks(title: String): Task
  mutation delete_task(id: String)
  mutation delete_todo_items(id: Int, force: Bool): Bool
  mutation delete_nothing(id: String): Bool
  mutation remove_task(id: String): Task?
  mutation remove_todo_item(id: Int, why: String): Bool
  query list_(): [Task]
  query search(q: String): [Task]
  query list_todo_items_by_text(sort: Int): [TodoItem]
}`)
	if c.broken != "" {
		t.Fatal(c.broken)
	}
	for _, tc := range []struct {
		op   string
		verb verb
		want string // the model and shape, or a piece of why
	}{
		{"list_tasks", vList, "Task 0 [done sort] sort=false"}, // Task has a field sort: it filters
		{"list_open", vList, "Task 0 [tags] sort=false"},
		{"list_todo_items", vList, "TodoItem 0 [] sort=true"},
		{"list_notes", vList, "Note 0 [] sort=false"},
		{"list_maybe", vNone, "list_* returns a list of a model, like [Task]; list_maybe returns [Task?]"},
		{"list_one", vNone, "list_one returns Task"},
		{"get_task", vNone, "get_* operations are queries, and get_task is a mutation"},
		{"get_task2", vNone, "get_* returns a model, like Task or Task?; get_task2 returns [Task]"},
		{"get_any", vNone, "get_* needs a parameter named like a field of Task, such as id"},
		{"get_todo", vGet, "TodoItem 2 [id] sort=false"},
		{"get_todo_text", vNone, "its parameter text is Int, but TodoItem.text is String?"},
		{"create_x", vNone, "create_* operations are mutations, and create_x is a query"},
		{"create_todo_item", vCreate, "TodoItem 3 [text] sort=false"},
		{"create_note", vNone, "create_* returns Note, Note?, Bool or nothing; create_note returns [Note]"},
		{"create_tasks", vNone, "create_* returns Task, Task?, Bool or nothing; create_tasks returns Int"},
		{"update_task", vUpdate, "Task 2 [title done] sort=false"},
		{"update_todo_item", vNone, "its parameter id is String, but TodoItem.id is Int"},
		{"update_note", vNone, "update_* finds the row by its id, and Note has no field id: String or id: Int"},
		{"update_tasks", vNone, "update_* finds the row by its id, and update_tasks has no parameter id"},
		{"delete_task", vDelete, "Task 4 [] sort=false"},
		{"delete_todo_items", vNone, "delete_* takes only the parameter id; delete_todo_items has force"},
		{"remove_task", vDelete, "Task 2 [] sort=false"},
		{"remove_todo_item", vNone, "remove_* takes only the parameter id; remove_todo_item has why"},
		{"delete_nothing", vNone, `"nothing" names no model of K (models: Task, TodoItem, Note)`},
		{"list_", vNone, "its name does not start with list_, get_, create_, update_, delete_ or remove_ followed by a name"},
		{"search", vNone, "its name does not start with"},
		{"list_todo_items_by_text", vNone, "its parameter sort orders the rows by a field name and must be String or String?, not Int"},
	} {
		o := c.ops[tc.op]
		if o == nil {
			t.Fatalf("no operation %s", tc.op)
		}
		p := o.plan
		got := p.why
		if p.verb != vNone {
			got = fmt.Sprintf("%s %d [%s] sort=%v", p.model.Name, p.shape, strings.Join(p.fields, " "), p.sort)
		}
		if p.verb != tc.verb || !strings.Contains(got, tc.want) {
			t.Errorf("%s: verb %d, %q; want verb %d, %q", tc.op, p.verb, got, tc.verb, tc.want)
		}
	}
}

// TestBrokenArtifact lists artifacts the backend cannot use and the
// reason each call of theirs answers with.
func TestBrokenArtifact(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"contract K {\n  model A { x: Nope }\n}", "k.axiom:2:16: unknown type Nope"},
		{"contract K {\n  query q(): [Nope?]\n}", "k.axiom:2:15: unknown type Nope"},
		{"contract K {\n  model A { x: Int }\n  model A { y: Int }\n}", "k.axiom:3:9: model A is declared twice"},
		{"contract K {\n  model A { x: Int, x: String }\n}", "field x of A is declared twice"},
		{"contract K {\n  query q(): Int\n  query q(): Int\n}", "operation q is declared twice"},
		{"contract K {\n  query q(a: Int, a: Int): Int\n}", "parameter a of q is declared twice"},
		{"contract K {\n  query q(a: Int = \"x\"): Int\n}", "k.axiom:2:20: the default of parameter a of q must be Int, got a string [AC301]"},
		{"contract K {\n  query q(a: Int = b): Int\n}", "only literals"},
		{"contract K {}\ncontract L {}", "k.axiom:2:1: a contract file holds exactly one contract declaration"},
		{"module x\ncontract K {}", "a contract file holds only a contract declaration"},
		{"// nothing\n", "the artifact declares no contract"},
		{"contract K {\n  model A { x: }\n}", "k.axiom:2:"},
	} {
		c := parsed(tc.src)
		if !strings.Contains(c.broken, tc.want) || !strings.HasSuffix(c.broken, "; fix the contract source and run `axiom prepare`") {
			t.Errorf("%q: broken = %q, want it to contain %q", tc.src, c.broken, tc.want)
		}
	}
}

// TestDefaults: literal defaults of every type become argument values.
func TestDefaults(t *testing.T) {
	c := parsed(`contract K {
  model Task { id: Int, n: Int, f: Float, s: String, b: Bool, l: [Float], o: Int? }
  query list_tasks(n: Int = -1_000, f: Float = (2), s: String = "a\n", b: Bool = true, l: [Float] = [1, -2.5e1], o: Int? = null): [Task]
}`)
	if c.broken != "" {
		t.Fatal(c.broken)
	}
	o := c.ops["list_tasks"]
	args, err := decodeArgs(c, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(args)
	if want := `{"b":true,"f":2,"l":[1,-25],"n":-1000,"o":null,"s":"a\n"}`; string(got) != want {
		t.Errorf("defaults = %s, want %s", got, want)
	}
}

func TestEqualAndCompare(t *testing.T) {
	m := &check.Model{Name: "A", Fields: []check.Field{{Name: "x", Type: &check.Type{Kind: check.TInt}}}}
	rec := func(x int64) *record { return &record{model: m, vals: []any{x}} }
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{[]any{"a", "b"}, []any{"a", "b"}, true},
		{[]any{"a", "b"}, []any{"a"}, false},
		{[]any{"a", "b"}, []any{"b", "a"}, false},
		{[]any{}, nil, false},
		{rec(1), rec(1), true},
		{rec(1), rec(2), false},
		{[]any{rec(1), nil}, []any{rec(1), nil}, true},
		{int64(1), int64(1), true},
		{nil, nil, true},
		{"a", nil, false},
	} {
		if got := equal(tc.a, tc.b); got != tc.want {
			t.Errorf("equal(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
	for _, tc := range []struct {
		a, b any
		want int
	}{
		{nil, "a", -1}, {"a", nil, 1}, {nil, nil, 0},
		{false, true, -1}, {true, false, 1}, {true, true, 0},
		{int64(2), int64(10), -1}, {2.5, 2.5, 0}, {"b", "a", 1}, {"É", "Z", 1},
	} {
		if got := compare(tc.a, tc.b); got != tc.want {
			t.Errorf("compare(%v, %v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
