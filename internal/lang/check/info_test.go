package check_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// infoSources is a project that uses every expression form and declares
// every kind of declaration the checker knows.
var infoSources = map[string]string{
	"main.acore": `module app.main

use contract Tasks from "tasks" audience "web"
use component TaskRow from "./row"
use model Label from "models"

app A { route "/" => Home route "/other" => Other }

extern action beep(times: Int)
extern action chime()

model Local { name: String }

page Home {
  state draft: String = ""
  state n: Int = -1_000
  state f: Float = (2.5)
  state on: Bool = !false
  state tags: [String] = []
  state picked: Local? = null
  state mixed: [Float] = [1, 2.5]
  state lab: Label? = null
  query tasks = Tasks.list_tasks()
  query one = Tasks.get_task(id: draft)
  mutation create = Tasks.create_task(title: draft, priority: n + 1)
  let open = tasks.data.filter(|t| !t.done)
  let label = if open.count == 1 then "task" else "tasks"
  let top = (open[0] ?? Task(id: "-", title: draft.trim(), done: false)).with(done: true)

  action add(title: String, times: Int = 2) {
    create.run()
    tasks.refresh()
    draft = title + "!"
    beep(times: times)
    if on && n > 0 { navigate("/other") } else { n = -n }
  }

  action done() { tasks.refresh() }

  view {
    View {
      Input(value: draft, placeholder: "Add " + n)
      Button(label: "Add", on_press: || add(title: draft))
      Button(label: "Chime", on_press: chime)
      if tasks.pending || draft.is_empty { Text("Loading") }
      else if picked == null { Text("n: " + tasks.data.count) }
      else { List(items: tasks.data, key: |t| t.id) { t => TaskRow(task: t, on_done: done) } }
      Link(label: "Other", to: "/other")
    }
  }
}

page Other { view { Text("Other") } }
`,
	"row.acore": `module app.row

use contract Tasks from "tasks" audience "web"

component TaskRow(task: Task, on_done: Action, dense: Bool = false) {
  view {
    Row(gap: 4) {
      Text(task.title)
      Checkbox(checked: task.done, on_change: on_done)
    }
  }
}
`,
	"models.acore": "module app.models\n\nmodel Label { text: String }\n",
}

const infoContract = `contract Tasks audience "web" {
  model Task { id: String, title: String, done: Bool }
  query list_tasks(): [Task]
  query get_task(id: String): Task?
  mutation create_task(title: String, priority: Int = 1, tags: [String] = ["a", "b"]): Task
  mutation remove_task(id: String): Bool
}
`

const infoContractPath = ".axiom/dev/contracts/tasks.axiom"

// infoInput is a locked input of sources against infoContract.
func infoInput(sources map[string]string) (*check.Input, map[string]*syntax.File) {
	sum := sha256.Sum256([]byte(infoContract))
	sha := hex.EncodeToString(sum[:])
	in := &check.Input{
		Root:        "/info",
		Contracts:   []*syntax.File{syntax.Parse(infoContractPath, []byte(infoContract))},
		ContractSHA: map[string]string{infoContractPath: sha},
		Lock: &lock.Lock{LockVersion: 1, LanguageProfile: "acore-ui", Target: "web", CatalogVersion: catalog.Version,
			Contracts: []lock.Contract{{ID: "tasks", Name: "Tasks", Path: infoContractPath, SHA256: sha}}},
	}
	files := map[string]*syntax.File{infoContractPath: in.Contracts[0]}
	paths := make([]string, 0, len(sources))
	for p := range sources {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := syntax.Parse(p, []byte(sources[p]))
		in.Sources = append(in.Sources, f)
		files[p] = f
	}
	return in, files
}

func newInfo() *check.Info {
	return &check.Info{Types: map[syntax.Expr]*check.Type{}, Defs: map[*syntax.Ident]*check.Object{}, Uses: map[*syntax.Ident]*check.Object{},
		Values: map[syntax.Expr]any{}, Nodes: map[syntax.Node]int32{}, Syntax: map[int32]syntax.Node{}, Contracts: map[string]*check.Contract{}}
}

// compileInfo checks sources with a full record and fails on any error.
func compileInfo(t *testing.T) (*check.Result, *check.Info, map[string]*syntax.File) {
	t.Helper()
	in, files := infoInput(infoSources)
	in.Info = newInfo()
	res := check.Check(in)
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			t.Fatalf("%s:%d:%d: %s [%s]", d.Path, d.Line, d.Column, d.Message, d.Code)
		}
	}
	return res, in.Info, files
}

// at finds the syntax node of type T in file path whose text is text, the
// n-th (from 0) in source order.
func at[T syntax.Node](t *testing.T, files map[string]*syntax.File, path, text string, n int) T {
	t.Helper()
	f := files[path]
	var found []T
	walkNodes(f, func(x syntax.Node) {
		if v, ok := x.(T); ok && f.Text(x) == text {
			found = append(found, v)
		}
	})
	if n >= len(found) {
		var zero T
		t.Fatalf("%s: no %T %q number %d (found %d)", path, zero, text, n, len(found))
	}
	return found[n]
}

// atExpr finds the n-th value expression of file path whose text is
// text.
func atExpr(t *testing.T, files map[string]*syntax.File, path, text string, n int) syntax.Expr {
	t.Helper()
	f := files[path]
	var found []syntax.Expr
	walkExprs(f, func(e syntax.Expr) {
		if f.Text(e) == text {
			found = append(found, e)
		}
	})
	if n >= len(found) {
		t.Fatalf("%s: no expression %q number %d (found %d)", path, text, n, len(found))
	}
	return found[n]
}

// walkNodes calls visit on every expression and identifier of f, and on
// the declarations, elements and conditionals, in source order.
func walkNodes(f *syntax.File, visit func(syntax.Node)) {
	var expr func(e syntax.Expr)
	expr = func(e syntax.Expr) {
		if e == nil {
			return
		}
		visit(e)
		switch e := e.(type) {
		case *syntax.ParenExpr:
			expr(e.X)
		case *syntax.UnaryExpr:
			expr(e.X)
		case *syntax.BinaryExpr:
			expr(e.X)
			expr(e.Y)
		case *syntax.MemberExpr:
			expr(e.X)
			visit(e.Sel)
		case *syntax.CallExpr:
			expr(e.Fun)
			for _, a := range e.Args {
				expr(a.Value)
			}
		case *syntax.LambdaExpr:
			for _, p := range e.Params {
				visit(p)
			}
			expr(e.Body)
		case *syntax.ListLit:
			for _, x := range e.Elems {
				expr(x)
			}
		case *syntax.CondExpr:
			expr(e.Cond)
			expr(e.Then)
			expr(e.Else)
		case *syntax.IndexExpr:
			expr(e.X)
			expr(e.Index)
		}
	}
	typ := func(t *syntax.TypeExpr) {
		for ; t != nil; t = t.Elem {
			if t.Name != nil {
				visit(t.Name)
			}
		}
	}
	params := func(ps []*syntax.Param) {
		for _, p := range ps {
			visit(p)
			visit(p.Name)
			typ(p.Type)
			expr(p.Default)
		}
	}
	var stmt func(s syntax.Stmt)
	stmt = func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.AssignStmt:
			expr(s.Target)
			expr(s.Value)
		case *syntax.ExprStmt:
			expr(s.X)
		case *syntax.IfStmt:
			expr(s.Cond)
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *syntax.Block:
			for _, x := range s.Stmts {
				stmt(x)
			}
		}
	}
	var items func([]syntax.ViewItem)
	items = func(its []syntax.ViewItem) {
		for _, it := range its {
			visit(it)
			switch it := it.(type) {
			case *syntax.Element:
				visit(it.Name)
				for _, a := range it.Args {
					expr(a.Value)
				}
				if it.Children != nil {
					if it.Children.Param != nil {
						visit(it.Children.Param)
					}
					items(it.Children.Items)
				}
			case *syntax.IfView:
				for _, b := range it.Branches {
					expr(b.Cond)
					items(b.Items)
				}
			}
		}
	}
	if f.Module != nil {
		visit(f.Module)
	}
	for _, u := range f.Uses {
		visit(u)
		visit(u.Name)
	}
	for _, d := range f.Decls {
		visit(d)
		switch d := d.(type) {
		case *syntax.AppDecl:
			visit(d.Name)
			for _, r := range d.Routes {
				visit(r)
				expr(r.Path)
				visit(r.Target)
			}
		case *syntax.ModelDecl:
			visit(d.Name)
			params(d.Fields)
		case *syntax.ExternDecl:
			visit(d.Name)
			params(d.Params)
		case *syntax.ContractDecl:
			visit(d.Name)
			for _, m := range d.Models {
				visit(m)
				visit(m.Name)
				params(m.Fields)
			}
			for _, op := range d.Ops {
				visit(op)
				visit(op.Name)
				params(op.Params)
				typ(op.Result)
			}
		case *syntax.OwnerDecl:
			visit(d.Name)
			params(d.Params)
			for _, m := range d.Members {
				visit(m)
				switch m := m.(type) {
				case *syntax.StateDecl:
					visit(m.Name)
					typ(m.Type)
					expr(m.Init)
				case *syntax.DataDecl:
					visit(m.Name)
					expr(m.Value)
				case *syntax.LetDecl:
					visit(m.Name)
					expr(m.Value)
				case *syntax.ActionDecl:
					visit(m.Name)
					params(m.Params)
					if m.Body != nil {
						stmt(m.Body)
					}
				case *syntax.ViewDecl:
					items(m.Items)
				}
			}
		}
	}
}

// exprForms lists the expression types of package syntax: the types with
// an expr method in ast.go, so that a form added there is one this test
// asks for.
func exprForms(t *testing.T) []string {
	fs, err := parser.ParseFile(token.NewFileSet(), "../syntax/ast.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range fs.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || fd.Name.Name != "expr" {
			continue
		}
		if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
			out = append(out, "*syntax."+star.X.(*ast.Ident).Name)
		}
	}
	if len(out) < 10 {
		t.Fatalf("found only %v in ast.go", out)
	}
	return out
}

// TestInfoEveryExpressionTyped: every expression of the sources has a
// recorded type, but the contract names of query and mutation
// declarations (recorded in Uses) and defaults in contracts and extern
// actions, which the checker does not type; and the sources hold every
// expression form, a bad one included.
func TestInfoEveryExpressionTyped(t *testing.T) {
	broken := map[string]string{"main.acore": "app A { route \"/\" => P }\npage P {\n  state x: Int = (1 + )\n  state y: Int = 2\n  view { Text(\"a\") }\n}\n"}
	seen := map[string]bool{}
	for _, sources := range []map[string]string{infoSources, broken} {
		in, files := infoInput(sources)
		in.Info = &check.Info{Types: map[syntax.Expr]*check.Type{}}
		check.Check(in)
		for path, f := range files {
			if path == infoContractPath {
				continue
			}
			skip := map[syntax.Node]bool{}
			for _, d := range f.Decls {
				if o, ok := d.(*syntax.OwnerDecl); ok {
					for _, m := range o.Members {
						if dd, ok := m.(*syntax.DataDecl); ok {
							if call, ok := dd.Value.(*syntax.CallExpr); ok {
								if sel, ok := call.Fun.(*syntax.MemberExpr); ok {
									skip[sel.X] = true
								}
							}
						}
					}
				}
				if ex, ok := d.(*syntax.ExternDecl); ok {
					for _, p := range ex.Params {
						if p.Default != nil {
							skip[p.Default] = true
						}
					}
				}
			}
			walkExprs(f, func(e syntax.Expr) {
				if skip[e] {
					return
				}
				form := fmt.Sprintf("%T", e)
				seen[form] = true
				if in.Info.Types[e] == nil {
					p := f.Position(int(e.Bounds().Pos))
					t.Errorf("%s:%d:%d: %s %q has no type", path, p.Line, p.Column, form, f.Text(e))
				}
			})
		}
	}
	for _, form := range exprForms(t) {
		if !seen[form] {
			t.Errorf("the sources have no %s", form)
		}
	}
}

// walkExprs calls visit on the expressions of f that are values (not
// selectors or declared names).
func walkExprs(f *syntax.File, visit func(syntax.Expr)) {
	sels := map[syntax.Node]bool{}
	walkNodes(f, func(n syntax.Node) {
		switch n := n.(type) {
		case *syntax.MemberExpr:
			sels[n.Sel] = true
		case *syntax.LambdaExpr:
			for _, p := range n.Params {
				sels[p] = true
			}
		}
	})
	walkNodes(f, func(n syntax.Node) {
		e, ok := n.(syntax.Expr)
		if !ok || sels[n] {
			return
		}
		if _, ok := n.(*syntax.Ident); ok && !valueIdent(f, n.(*syntax.Ident)) {
			return
		}
		visit(e)
	})
}

// valueIdent reports whether id is an identifier in an expression
// position: not a declared name, a type name, an element's name, a route's
// target, a use line's name or a list's item parameter.
func valueIdent(f *syntax.File, id *syntax.Ident) bool {
	named := map[*syntax.Ident]bool{}
	var items func([]syntax.ViewItem)
	items = func(its []syntax.ViewItem) {
		for _, it := range its {
			switch it := it.(type) {
			case *syntax.Element:
				named[it.Name] = true
				if it.Children != nil {
					if it.Children.Param != nil {
						named[it.Children.Param] = true
					}
					items(it.Children.Items)
				}
			case *syntax.IfView:
				for _, b := range it.Branches {
					items(b.Items)
				}
			}
		}
	}
	walkNodes(f, func(n syntax.Node) {
		switch n := n.(type) {
		case *syntax.Param:
			named[n.Name] = true
			for t := n.Type; t != nil; t = t.Elem {
				named[t.Name] = true
			}
		case *syntax.UseDecl:
			named[n.Name] = true
		case *syntax.RouteDecl:
			named[n.Target] = true
		case *syntax.OwnerDecl:
			named[n.Name] = true
		case *syntax.AppDecl:
			named[n.Name] = true
		case *syntax.ModelDecl:
			named[n.Name] = true
		case *syntax.ExternDecl:
			named[n.Name] = true
		case *syntax.StateDecl:
			named[n.Name] = true
			for t := n.Type; t != nil; t = t.Elem {
				named[t.Name] = true
			}
		case *syntax.DataDecl:
			named[n.Name] = true
		case *syntax.LetDecl:
			named[n.Name] = true
		case *syntax.ActionDecl:
			named[n.Name] = true
		case *syntax.ViewDecl:
			items(n.Items)
		}
	})
	return !named[id]
}

// TestInfoTypes gives the type recorded for expressions of every form.
func TestInfoTypes(t *testing.T) {
	_, info, files := compileInfo(t)
	for _, tc := range []struct {
		path, text string
		n          int // which occurrence
		want       string
	}{
		{"main.acore", `""`, 0, "String"},
		{"main.acore", `-1_000`, 0, "Int"},
		{"main.acore", `1_000`, 0, "Int"},
		{"main.acore", `(2.5)`, 0, "Float"},
		{"main.acore", `2.5`, 0, "Float"},
		{"main.acore", `!false`, 0, "Bool"},
		{"main.acore", `false`, 0, "Bool"},
		{"main.acore", `[]`, 0, "[String]"},
		{"main.acore", `null`, 0, "null"},
		{"main.acore", `[1, 2.5]`, 0, "[Float]"},
		{"main.acore", `Tasks.list_tasks()`, 0, "Query<[Task]>"},
		{"main.acore", `Tasks.list_tasks`, 0, "Query<[Task]>"},
		{"main.acore", `Tasks.get_task(id: draft)`, 0, "Query<Task?>"},
		{"main.acore", `Tasks.create_task(title: draft, priority: n + 1)`, 0, "Mutation<Task>"},
		{"main.acore", `n + 1`, 0, "Int"},
		{"main.acore", `create.run()`, 0, "nothing"},
		{"main.acore", `create.run`, 0, "Action"},
		{"main.acore", `create`, 0, "Mutation<Task>"},
		{"main.acore", `tasks`, 1, "Query<[Task]>"},
		{"main.acore", `title + "!"`, 0, "String"},
		{"main.acore", `title`, 0, "String"},
		{"main.acore", `beep(times: times)`, 0, "nothing"},
		{"main.acore", `beep`, 0, "Action"},
		{"main.acore", `times`, 0, "Int"},
		{"main.acore", `on && n > 0`, 0, "Bool"},
		{"main.acore", `n > 0`, 0, "Bool"},
		{"main.acore", `navigate`, 0, "Action"},
		{"main.acore", `"/other"`, 1, "String"},
		{"main.acore", `-n`, 0, "Int"},
		{"main.acore", `"Add " + n`, 0, "String"},
		{"main.acore", `|| add(title: draft)`, 0, "|| nothing"},
		{"main.acore", `add`, 0, "Action"},
		{"main.acore", `chime`, 0, "Action"},
		{"main.acore", `tasks.pending || draft.is_empty`, 0, "Bool"},
		{"main.acore", `tasks.pending`, 0, "Bool"},
		{"main.acore", `draft.is_empty`, 0, "Bool"},
		{"main.acore", `picked == null`, 0, "Bool"},
		{"main.acore", `picked`, 0, "Local?"},
		{"main.acore", `tasks.data.count`, 0, "Int"},
		{"main.acore", `tasks.data`, 0, "[Task]"},
		{"main.acore", `|t| t.id`, 0, "|_| String"},
		{"main.acore", `t.id`, 0, "String"},
		{"main.acore", `t`, 1, "Task"},
		{"main.acore", `done`, 0, "Action"},
		{"row.acore", `task.title`, 0, "String"},
		{"row.acore", `task.done`, 0, "Bool"},
		{"row.acore", `on_done`, 0, "Action"},
		{"row.acore", `false`, 0, "Bool"},
		{"row.acore", `4`, 0, "Int"},
	} {
		e := atExpr(t, files, tc.path, tc.text, tc.n)
		if got := info.TypeOf(e); got == nil || got.String() != tc.want {
			t.Errorf("%s %q (%d): type %v, want %s", tc.path, tc.text, tc.n, got, tc.want)
		}
	}
}

// TestInfoObjects gives what names declare and use: the object's kind,
// name, type and graph node.
func TestInfoObjects(t *testing.T) {
	res, info, files := compileInfo(t)
	g := res.Graph
	for _, tc := range []struct {
		path, text string
		n          int
		kind       check.ObjKind
		typ        string // "" for none
		node       string // "" for no node
	}{
		{"main.acore", "draft", 0, check.ObjState, "String", "state:Home.draft"},
		{"main.acore", "draft", 2, check.ObjState, "String", "state:Home.draft"},
		{"main.acore", "tasks", 0, check.ObjQuery, "Query<[Task]>", "query:Home.tasks"},
		{"main.acore", "tasks", 2, check.ObjQuery, "Query<[Task]>", "query:Home.tasks"},
		{"main.acore", "create", 1, check.ObjMutation, "Mutation<Task>", "mutation:Home.create"},
		{"main.acore", "add", 0, check.ObjAction, "Action", "action:Home.add"},
		{"main.acore", "add", 1, check.ObjAction, "Action", "action:Home.add"},
		{"main.acore", "title", 0, check.ObjParam, "String", ""},
		{"main.acore", "title", 1, check.ObjParam, "String", ""},
		{"main.acore", "times", 1, check.ObjParam, "Int", ""},
		{"main.acore", "times", 2, check.ObjParam, "Int", ""},
		{"main.acore", "beep", 0, check.ObjExtern, "Action", "extension:beep"},
		{"main.acore", "beep", 1, check.ObjExtern, "Action", "extension:beep"},
		{"main.acore", "chime", 1, check.ObjExtern, "Action", "extension:chime"},
		{"main.acore", "Home", 0, check.ObjPage, "", "page:Home"},
		{"main.acore", "Home", 1, check.ObjPage, "", "page:Home"},
		{"main.acore", "Other", 1, check.ObjPage, "", "page:Other"},
		{"main.acore", "TaskRow", 0, check.ObjComponent, "", "component:TaskRow"},
		{"main.acore", "TaskRow", 1, check.ObjComponent, "", "component:TaskRow"},
		{"main.acore", "Label", 0, check.ObjModel, "Label", "model:Label"},
		{"main.acore", "Label", 1, check.ObjModel, "Label", "model:Label"},
		{"main.acore", "Local", 0, check.ObjModel, "Local", "model:Local"},
		{"main.acore", "Local", 1, check.ObjModel, "Local", "model:Local"},
		{"main.acore", "Tasks", 0, check.ObjContract, "", "contract_import:Tasks"},
		{"main.acore", "Tasks", 1, check.ObjContract, "", "contract_import:Tasks"},
		{"main.acore", "list_tasks", 0, check.ObjOperation, "Query<[Task]>", "contract_operation:Tasks.list_tasks"},
		{"main.acore", "t", 0, check.ObjLocal, "Task", ""},
		{"main.acore", "t", 1, check.ObjLocal, "Task", ""},
		{"main.acore", "t", 2, check.ObjLocal, "Task", ""},
		{"main.acore", "t", 3, check.ObjLocal, "Task", ""},
		{"row.acore", "task", 0, check.ObjProp, "Task", "prop:TaskRow.task"},
		{"row.acore", "task", 1, check.ObjProp, "Task", "prop:TaskRow.task"},
		{"row.acore", "on_done", 1, check.ObjProp, "Action", "prop:TaskRow.on_done"},
		{"row.acore", "Task", 0, check.ObjModel, "Task", "model:Tasks.Task"},
		{"models.acore", "Label", 0, check.ObjModel, "Label", "model:Label"},
		{infoContractPath, "Task", 0, check.ObjModel, "Task", "model:Tasks.Task"},
		{infoContractPath, "Task", 1, check.ObjModel, "Task", "model:Tasks.Task"},
		{infoContractPath, "create_task", 0, check.ObjOperation, "Mutation<Task>", "contract_operation:Tasks.create_task"},
		{infoContractPath, "priority", 0, check.ObjParam, "Int", ""},
		{infoContractPath, "Tasks", 0, check.ObjContract, "", "contract_import:Tasks"},
		// Fields: declared in a contract's or a module's model, used by
		// member accesses and by the labels of record values and with.
		{infoContractPath, "title", 0, check.ObjField, "String", "field:Tasks.Task.title"},
		{infoContractPath, "done", 0, check.ObjField, "Bool", "field:Tasks.Task.done"},
		{"models.acore", "text", 0, check.ObjField, "String", "field:Label.text"},
		{"row.acore", "title", 0, check.ObjField, "String", "field:Tasks.Task.title"},
		{"row.acore", "done", 0, check.ObjField, "Bool", "field:Tasks.Task.done"},
		{"main.acore", "done", 0, check.ObjField, "Bool", "field:Tasks.Task.done"},
	} {
		id := at[*syntax.Ident](t, files, tc.path, tc.text, tc.n)
		o := info.ObjectOf(id)
		if o == nil {
			t.Errorf("%s %s (%d): no object", tc.path, tc.text, tc.n)
			continue
		}
		typ, node := "", ""
		if o.Type != nil {
			typ = o.Type.String()
		}
		if o.Node >= 0 {
			node = g.At(o.Node).ID
		}
		if o.Kind != tc.kind || o.Name != tc.text || typ != tc.typ || node != tc.node {
			t.Errorf("%s %s (%d): %s %s type %q node %q; want %s type %q node %q", tc.path, tc.text, tc.n, o.Kind, o.Name, typ, node, tc.kind, tc.typ, tc.node)
		}
		if tc.kind == check.ObjModel && o.Model == nil || tc.kind == check.ObjOperation && o.Op == nil || tc.kind == check.ObjContract && o.Contract == nil {
			t.Errorf("%s %s: object %+v misses what it declares", tc.path, tc.text, o)
		}
	}
	// A declaration and its uses are one object.
	decl := at[*syntax.Ident](t, files, "main.acore", "tasks", 0)
	use := at[*syntax.Ident](t, files, "main.acore", "tasks", 1)
	if info.Defs[decl] == nil || info.Defs[decl] != info.Uses[use] {
		t.Errorf("tasks: def %p, use %p", info.Defs[decl], info.Uses[use])
	}
	if op := info.Defs[decl].Op; op == nil || op.Name != "list_tasks" || op.Result.String() != "[Task]" {
		t.Errorf("the query tasks calls %+v", op)
	}
	// A field's declaration, in the contract, and its uses in modules are
	// one object; an operation's parameter of the same name is another.
	field := info.Defs[at[*syntax.Ident](t, files, infoContractPath, "title", 0)]
	if u := info.Uses[at[*syntax.Ident](t, files, "row.acore", "title", 0)]; field == nil || u != field || field.Model == nil || field.Model.Name != "Task" {
		t.Errorf("title: def %+v, use %+v", field, u)
	}
	if p := info.Defs[at[*syntax.Ident](t, files, infoContractPath, "title", 1)]; p == nil || p == field || p.Kind != check.ObjParam {
		t.Errorf("create_task's title: %+v", p)
	}
	// The labels of a record value and of with are uses of the fields.
	done := info.Defs[at[*syntax.Ident](t, files, infoContractPath, "done", 0)]
	record := `Task(id: "-", title: draft.trim(), done: false)`
	for _, call := range []string{record, "(open[0] ?? " + record + ").with(done: true)"} {
		for _, a := range at[*syntax.CallExpr](t, files, "main.acore", call, 0).Args {
			want := map[string]*check.Object{"title": field, "done": done}[a.Name.Name]
			if u := info.Uses[a.Name]; u == nil || u.Kind != check.ObjField || want != nil && u != want {
				t.Errorf("%s: label %s is %+v", call, a.Name.Name, u)
			}
		}
	}
}

// TestInfoValues gives the values of constants, and no value for the
// expressions that are not constant.
func TestInfoValues(t *testing.T) {
	_, info, files := compileInfo(t)
	for _, tc := range []struct {
		path, text string
		n          int
		want       any // absent: no value
	}{
		{"main.acore", `""`, 0, ""},
		{"main.acore", `-1_000`, 0, int64(-1000)},
		{"main.acore", `(2.5)`, 0, 2.5},
		{"main.acore", `false`, 0, false},
		{"main.acore", `null`, 0, nil},
		{"main.acore", `[1, 2.5]`, 0, []any{int64(1), 2.5}},
		{"main.acore", `[]`, 0, []any{}},
		{"main.acore", `"/other"`, 0, "/other"},
		{"main.acore", `"/other"`, 1, "/other"},
		{"main.acore", `2`, 0, int64(2)},
		{"main.acore", `!false`, 0, absent{}},
		{"main.acore", `n + 1`, 0, absent{}},
		{"main.acore", `draft`, 1, absent{}},
		{infoContractPath, `1`, 0, int64(1)},
		{infoContractPath, `["a", "b"]`, 0, []any{"a", "b"}},
	} {
		e := atExpr(t, files, tc.path, tc.text, tc.n)
		v, ok := info.Values[e]
		if _, none := tc.want.(absent); none {
			if ok {
				t.Errorf("%s %q: value %#v, want none", tc.path, tc.text, v)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(v, tc.want) {
			t.Errorf("%s %q (%d): value %#v (%v), want %#v", tc.path, tc.text, tc.n, v, ok, tc.want)
		}
	}
}

type absent struct{}

// TestInfoNodes: every graph node made from a declaration, use line,
// route, element or conditional maps to its syntax node and back, and each
// kind of node has one.
func TestInfoNodes(t *testing.T) {
	res, info, _ := compileInfo(t)
	g := res.Graph
	kinds := map[string]bool{}
	for i := range int32(g.Len()) {
		n := g.At(i)
		s, ok := info.Syntax[i]
		if !ok {
			t.Errorf("node %s has no syntax", n.ID)
			continue
		}
		kinds[n.Kind] = true
		if j, ok := info.Nodes[s]; !ok || j != i {
			t.Errorf("node %s: its syntax %T maps to %d", n.ID, s, j)
		}
		if n.Kind != graph.KindModule && s.Bounds().Pos != n.Pos {
			t.Errorf("node %s at %d, its syntax %T at %d", n.ID, n.Pos, s, s.Bounds().Pos)
		}
	}
	for _, k := range []string{graph.KindModule, graph.KindApp, graph.KindRoute, graph.KindPage, graph.KindComponent, graph.KindProp, graph.KindModel,
		graph.KindState, graph.KindQuery, graph.KindMutation, graph.KindAction, graph.KindElement, graph.KindConditional,
		graph.KindContractImport, graph.KindOperation, graph.KindImport, graph.KindExtension} {
		if !kinds[k] {
			t.Errorf("no %s node has its syntax", k)
		}
	}
}

// TestInfoContracts: the checked contracts, with their models, operations,
// parameters and defaults.
func TestInfoContracts(t *testing.T) {
	_, info, _ := compileInfo(t)
	k := info.Contracts["tasks"]
	if k == nil || k.Name != "Tasks" || k.Path != infoContractPath || len(k.Models) != 1 || len(k.Ops) != 4 {
		t.Fatalf("contract %+v", k)
	}
	var b strings.Builder
	for _, m := range k.Models {
		fmt.Fprintf(&b, "model %s:", m.Name)
		for _, f := range m.Fields {
			fmt.Fprintf(&b, " %s %s", f.Name, f.Type)
		}
		b.WriteString("\n")
	}
	for _, op := range k.Ops {
		fmt.Fprintf(&b, "%s %s %s:", op.Kind, op.Name, op.Does())
		for _, p := range op.Params {
			fmt.Fprintf(&b, " %s %s required=%v", p.Name, p.Type, p.Required)
			if p.Default != nil {
				fmt.Fprintf(&b, " = %v", info.Values[p.Default])
			}
		}
		fmt.Fprintf(&b, " -> %s\n", op.Result)
	}
	want := `model Task: id String title String done Bool
query list_tasks read: -> [Task]
query get_task read: id String required=true -> Task?
mutation create_task create: title String required=true priority Int required=false = 1 tags [String] required=false = [a b] -> Task
mutation remove_task delete: id String required=true -> Bool
`
	if b.String() != want {
		t.Errorf("contracts:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestInfoSameCompile: a compile with a record gives the graph and the
// diagnostics of one without, which checks modules in parallel.
func TestInfoSameCompile(t *testing.T) {
	plain, _ := infoInput(infoSources)
	withInfo, _ := infoInput(infoSources)
	withInfo.Info = newInfo()
	a, b := check.Check(plain), check.Check(withInfo)
	if !reflect.DeepEqual(a.Diagnostics, b.Diagnostics) || a.State != b.State {
		t.Fatalf("diagnostics differ:\n%v\n%v", a.Diagnostics, b.Diagnostics)
	}
	if a.Graph.Len() != b.Graph.Len() || len(a.Graph.Edges) != len(b.Graph.Edges) {
		t.Fatalf("graphs differ: %d/%d nodes, %d/%d edges", a.Graph.Len(), b.Graph.Len(), len(a.Graph.Edges), len(b.Graph.Edges))
	}
	for i := range int32(a.Graph.Len()) {
		if !reflect.DeepEqual(*a.Graph.At(i), *b.Graph.At(i)) {
			t.Errorf("node %d: %+v\n%+v", i, *a.Graph.At(i), *b.Graph.At(i))
		}
	}
	if !reflect.DeepEqual(a.Graph.Edges, b.Graph.Edges) {
		t.Error("edges differ")
	}
	// Recheck refuses a record: its caller compiles whole.
	again, _ := infoInput(infoSources)
	again.Info = newInfo()
	if r := check.Recheck(a, again, []string{"row.acore"}); r != nil {
		t.Error("Recheck filled no record but returned a result")
	}
}

// TestInfoOnlyAskedMaps: a record with only some maps fills those.
func TestInfoOnlyAskedMaps(t *testing.T) {
	in, _ := infoInput(infoSources)
	in.Info = &check.Info{Uses: map[*syntax.Ident]*check.Object{}}
	check.Check(in)
	if len(in.Info.Uses) == 0 || in.Info.Types != nil || in.Info.Defs != nil || in.Info.Values != nil || in.Info.Nodes != nil {
		t.Errorf("record %+v", in.Info)
	}
}

// TestOperationKind: what each operation name says it does.
func TestOperationKind(t *testing.T) {
	for _, tc := range []struct {
		name string
		want check.OpKind
		verb string
	}{
		{"list_tasks", check.OpRead, "list"},
		{"get_task", check.OpRead, "get"},
		{"create_task", check.OpCreate, "create"},
		{"update_task", check.OpUpdate, "update"},
		{"delete_task", check.OpDelete, "delete"},
		{"remove_task", check.OpDelete, "remove"},
		{"archive_tasks", check.OpUnknown, ""},
		{"list_", check.OpUnknown, ""},
		{"list", check.OpUnknown, ""},
		{"search", check.OpUnknown, ""},
		{"deletetask", check.OpUnknown, ""},
		{"Delete_task", check.OpUnknown, ""},
		{"", check.OpUnknown, ""},
	} {
		if got := check.OperationKind(tc.name); got != tc.want {
			t.Errorf("OperationKind(%q) = %s, want %s", tc.name, got, tc.want)
		}
		if got := check.OperationVerb(tc.name); got != tc.verb {
			t.Errorf("OperationVerb(%q) = %q, want %q", tc.name, got, tc.verb)
		}
	}
}

// TestInfoSegments: the :id segments of a route and of the navigations
// that name it are recorded as the page parameter, at the name's bytes
// inside the literals, and the navigations' labels are its uses.
func TestInfoSegments(t *testing.T) {
	src := `module app

app A {
  route "/" => Home
  route "/items/:id/edit" => Item
}

page Home {
  action open() { navigate("/items/:id/edit", id: "a") }
  view { Link(label: "B", to: "/items/:id/edit?tab=1", id: "b") }
}

page Item(id: String) { view { Text(id) } }
`
	in, files := infoInput(map[string]string{"main.acore": src})
	in.Info = newInfo()
	in.Info.Segments = map[*syntax.Ident]check.Segment{}
	res := check.Check(in)
	for _, d := range res.Diagnostics {
		t.Errorf("diagnostic %v", d)
	}
	param := in.Info.Defs[at[*syntax.Ident](t, files, "main.acore", "id", 0)]
	if param == nil || param.Kind != check.ObjProp {
		t.Fatalf("the parameter is %+v", param)
	}
	n := 0
	for id, s := range in.Info.Segments {
		if s.Path != "main.acore" || s.Obj != param || src[id.Pos:id.End] != "id" || src[id.Pos-1] != ':' {
			t.Errorf("segment %q at %d: %+v", src[id.Pos:id.End], id.Pos, s)
		}
		n++
	}
	if n != 3 {
		t.Errorf("%d segments, want the route's, navigate's and Link's", n)
	}
	labels := 0
	for id, o := range in.Info.Uses {
		if o == param && id.Name == "id" && strings.HasPrefix(src[id.End:], ": \"") {
			labels++
		}
	}
	if labels != 2 {
		t.Errorf("%d labels name the parameter, want navigate's and Link's", labels)
	}
}
