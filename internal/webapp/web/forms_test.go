package web

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/webapp/web/js"
)

// TestElementSpecs: every catalog element has a description, and every
// description is of a catalog element.
func TestElementSpecs(t *testing.T) {
	var names []string
	for _, e := range catalog.All() {
		names = append(names, e.Name)
		if elementSpecs[e.Name] == nil {
			t.Errorf("the catalog element %s has no description in elementSpecs", e.Name)
		}
	}
	for n := range elementSpecs {
		if !slices.Contains(names, n) {
			t.Errorf("elementSpecs describes %s, which the catalog does not have", n)
		}
	}
}

// forms returns the types of internal/lang/syntax that have the marker method
// (expr, stmt or viewItem), read from its source (every file, as the
// forms of Acore 1.1 have files of their own), so that a form added there
// shows here.
func forms(t *testing.T, marker string) []string {
	t.Helper()
	fs := token.NewFileSet()
	paths, err := filepath.Glob("../../lang/syntax/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var decls []ast.Decl
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		decls = append(decls, f.Decls...)
	}
	slices.SortFunc(decls, func(a, b ast.Decl) int { return int(a.Pos() - b.Pos()) })
	for _, d := range decls {
		fd, ok := d.(*ast.FuncDecl)
		// The marker methods are empty and give nothing; the parser's
		// methods of the same names parse.
		if !ok || fd.Recv == nil || fd.Name.Name != marker || fd.Type.Results != nil {
			continue
		}
		if star, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
			out = append(out, star.X.(*ast.Ident).Name)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s forms in internal/lang/syntax/ast.go", marker)
	}
	return out
}

// formGen is a gen whose record knows a String state s and an action a,
// and gives every expression the type String.
type formInfo struct {
	g *gen
	s *check.Object
	a *check.Object
}

func formGen() *formInfo {
	info := &check.Info{Types: map[syntax.Expr]*check.Type{}, Uses: map[*syntax.Ident]*check.Object{}}
	return &formInfo{
		g: &gen{info: info, owners: map[string]*owner{}, externs: map[string]*externRef{}, items: map[*syntax.Ident]bool{}},
		s: &check.Object{Kind: check.ObjState, Name: "s", Type: &check.Type{Kind: check.TString}},
		a: &check.Object{Kind: check.ObjAction, Name: "a", Type: &check.Type{Kind: check.TAction}, Decl: &syntax.ActionDecl{}},
	}
}

// record notes the types and uses of the expressions a sample holds.
func (f *formInfo) record(exprs ...syntax.Expr) {
	for _, e := range exprs {
		if e == nil {
			continue
		}
		f.g.info.Types[e] = &check.Type{Kind: check.TString}
		switch e := e.(type) {
		case *syntax.Ident:
			switch e.Name {
			case "s":
				f.g.info.Uses[e] = f.s
			case "a":
				f.g.info.Uses[e] = f.a
			}
		case *syntax.ListLit:
			f.record(e.Elems...)
		case *syntax.MemberExpr:
			f.record(e.X)
		case *syntax.LambdaExpr:
			f.record(e.Body)
			if b, ok := e.Body.(*syntax.Ident); ok && len(e.Params) == 1 && b.Name == e.Params[0].Name {
				f.g.info.Uses[b] = &check.Object{Kind: check.ObjLocal, Name: b.Name, Decl: e.Params[0]}
			}
		case *syntax.UnaryExpr:
			f.record(e.X)
		case *syntax.BinaryExpr:
			f.record(e.X, e.Y)
		case *syntax.ParenExpr:
			f.record(e.X)
		case *syntax.CondExpr:
			f.record(e.Cond, e.Then, e.Else)
		case *syntax.IndexExpr:
			f.record(e.X, e.Index)
		case *syntax.CallExpr:
			f.record(e.Fun)
		}
	}
}

func id(n string) *syntax.Ident { return &syntax.Ident{Name: n} }

// lower runs f and returns the internal error it stopped with, if any.
func lower(f func()) (err error) {
	defer catch(&err)
	f()
	return nil
}

// TestExprForms: every expression form of the syntax has a case in the
// backend: a value form lowers to JavaScript that prints, the forms a
// checked program never has where a value is read are internal errors of
// their own, and none reaches the backend's "no case" error.
func TestExprForms(t *testing.T) {
	samples := map[string]syntax.Expr{
		"Ident":      id("s"),
		"StringLit":  &syntax.StringLit{Value: "x"},
		"NumberLit":  &syntax.NumberLit{Raw: "1_000"},
		"BoolLit":    &syntax.BoolLit{Value: true},
		"NullLit":    &syntax.NullLit{},
		"ListLit":    &syntax.ListLit{Elems: []syntax.Expr{&syntax.NumberLit{Raw: "1"}}},
		"MemberExpr": &syntax.MemberExpr{X: id("s"), Sel: id("length")},
		"LambdaExpr": &syntax.LambdaExpr{Params: []*syntax.Ident{id("x")}, Body: id("x")},
		"UnaryExpr":  &syntax.UnaryExpr{Op: syntax.Not, X: &syntax.BoolLit{}},
		"BinaryExpr": &syntax.BinaryExpr{Op: syntax.Plus, X: id("s"), Y: &syntax.NumberLit{Raw: "1"}},
		"ParenExpr":  &syntax.ParenExpr{X: id("s")},
		"CondExpr":   &syntax.CondExpr{Cond: &syntax.BoolLit{}, Then: id("s"), Else: &syntax.StringLit{Value: "y"}},
		"IndexExpr":  &syntax.IndexExpr{X: &syntax.ListLit{Elems: []syntax.Expr{id("s")}}, Index: &syntax.NumberLit{Raw: "0"}},
		"CallExpr":   &syntax.CallExpr{Fun: id("a")},
		"BadExpr":    &syntax.BadExpr{},
		"BlockExpr":  &syntax.BlockExpr{Block: &syntax.Block{}},
	}
	refused := map[string]string{"CallExpr": "a call where a value is read", "BadExpr": "did not parse", "BlockExpr": "a handler block where a value is read"}
	for _, form := range forms(t, "expr") {
		t.Run(form, func(t *testing.T) {
			e, ok := samples[form]
			if !ok {
				t.Fatalf("syntax.%s has no sample here: add one, and a case to gen.expr", form)
			}
			f := formGen()
			f.record(e)
			var x js.Expr
			err := lower(func() { x = f.g.expr(e) })
			if want, ok := refused[form]; ok {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("error %v, want one with %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := js.PrintExpr(nil, x); err != nil {
				t.Fatal(err)
			}
		})
	}
	// A form the switch does not know is an internal error, never text.
	var ie *internalError
	if err := lower(func() { formGen().g.expr(nil) }); !errors.As(err, &ie) || !strings.Contains(err.Error(), "no case") {
		t.Errorf("an unknown form gives %v", err)
	}
}

// TestStmtForms: every statement form has a case.
func TestStmtForms(t *testing.T) {
	call := &syntax.ExprStmt{X: &syntax.CallExpr{Fun: id("a")}}
	samples := map[string]syntax.Stmt{
		"AssignStmt": &syntax.AssignStmt{Target: id("s"), Value: &syntax.StringLit{Value: "x"}},
		"ExprStmt":   call,
		"IfStmt":     &syntax.IfStmt{Cond: &syntax.BoolLit{}, Then: &syntax.Block{Stmts: []syntax.Stmt{call}}, Else: &syntax.Block{}},
		"Block":      &syntax.Block{Stmts: []syntax.Stmt{call}},
		"ForStmt":    &syntax.ForStmt{Var: id("x"), List: id("s"), Body: &syntax.Block{Stmts: []syntax.Stmt{call}}},
		"BadDecl":    &syntax.BadDecl{},
	}
	for _, form := range forms(t, "stmt") {
		t.Run(form, func(t *testing.T) {
			s, ok := samples[form]
			if !ok {
				t.Fatalf("syntax.%s has no sample here: add one, and a case to gen.stmt", form)
			}
			f := formGen()
			switch s := s.(type) {
			case *syntax.AssignStmt:
				f.record(s.Target, s.Value)
			case *syntax.IfStmt:
				f.record(s.Cond)
			case *syntax.ForStmt:
				f.record(s.List)
			}
			f.record(call.X)
			var st js.Stmt
			err := lower(func() { st = f.g.stmt(s) })
			if form == "BadDecl" {
				if err == nil || !strings.Contains(err.Error(), "did not parse") {
					t.Fatalf("error %v, want one that says it did not parse", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := js.Print(nil, []js.Stmt{st}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestViewItemForms: every view item form has a case.
func TestViewItemForms(t *testing.T) {
	handled := []string{"Element", "IfView", "BadDecl"}
	for _, form := range forms(t, "viewItem") {
		if !slices.Contains(handled, form) {
			t.Errorf("syntax.%s has no case in viewItems and htmlItems", form)
		}
	}
	o := &owner{d: &syntax.OwnerDecl{Name: id("O")}}
	if err := lower(func() { formGen().g.viewItems(o, []syntax.ViewItem{&syntax.BadDecl{}}, js.Id("w")) }); err == nil || !strings.Contains(err.Error(), "did not parse") {
		t.Errorf("a BadDecl view item gives %v", err)
	}
}
