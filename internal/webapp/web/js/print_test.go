package js

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func n(v float64) Expr { return Num(v) }

// TestPrintExpr prints expressions whose parentheses depend on precedence,
// associativity and the forms JavaScript reads otherwise.
func TestPrintExpr(t *testing.T) {
	a, b, c := Id("a"), Id("b"), Id("c")
	for _, tc := range []struct {
		name string
		e    Expr
		want string
	}{
		{"mul binds tighter", Bin(Add, a, Bin(Mul, b, c)), "a+b*c"},
		{"add inside mul", Bin(Mul, Bin(Add, a, b), c), "(a+b)*c"},
		{"left assoc", Bin(Sub, Bin(Sub, a, b), c), "a-b-c"},
		{"right operand of same level", Bin(Sub, a, Bin(Sub, b, c)), "a-(b-c)"},
		{"string concat order", Bin(Add, Str("x"), Bin(Add, n(1), n(2))), `"x"+(1+2)`},
		{"and in or", Bin(Or, Bin(And, a, b), c), "a&&b||c"},
		{"or in and", Bin(And, Bin(Or, a, b), c), "(a||b)&&c"},
		{"nullish with or", Bin(Nullish, Bin(Or, a, b), c), "(a||b)??c"},
		{"or with nullish", Bin(Or, a, Bin(Nullish, b, c)), "a||(b??c)"},
		{"and with nullish left", Bin(And, Bin(Nullish, a, b), c), "(a??b)&&c"},
		{"nullish chain", Bin(Nullish, Bin(Nullish, a, b), c), "a??b??c"},
		{"compare in equality", Bin(StrictEq, Bin(Less, a, b), Bool{true}.ptr()), "a<b===true"},
		{"not of binary", &Unary{Not, Bin(And, a, b)}, "!(a&&b)"},
		{"not of call", &Unary{Not, CallOf(a)}, "!a()"},
		{"neg neg", &Unary{Neg, &Unary{Neg, a}}, "- -a"},
		{"minus neg", Bin(Sub, a, &Unary{Neg, b}), "a- -b"},
		{"minus negative number", Bin(Sub, a, n(-1)), "a- -1"},
		{"plus negative number", Bin(Add, a, n(-1)), "a+-1"},
		{"negative number member", DotOf(n(-1), "x"), "(-1).x"},
		{"integer member", DotOf(n(1), "x"), "(1).x"},
		{"float member", DotOf(n(1.5), "x"), "1.5.x"},
		{"neg zero", n(math.Copysign(0, -1)), "-0"},
		{"infinities", &Array{[]Expr{n(math.Inf(1)), n(math.Inf(-1)), n(math.NaN())}}, "[Infinity,-Infinity,NaN]"},
		{"big number", n(1e21), "1e+21"},
		{"fraction", n(0.1), "0.1"},
		{"member of binary", DotOf(Bin(Add, a, b), "x"), "(a+b).x"},
		{"call of member", CallOf(DotOf(a, "b"), n(1), Bin(Add, b, c)), "a.b(1,b+c)"},
		{"optional member", &Dot{X: CallOf(a), Name: "b", Optional: true}, "a()?.b"},
		{"optional chain", &Dot{X: &Dot{X: a, Name: "b", Optional: true}, Name: "c", Optional: true}, "a?.b?.c"},
		{"member of optional", DotOf(&Dot{X: a, Name: "b", Optional: true}, "c"), "(a?.b).c"},
		{"call of optional", CallOf(&Dot{X: a, Name: "b", Optional: true}), "(a?.b)()"},
		{"index", &Index{X: Bin(Add, a, b), Index: Str("k")}, `(a+b)["k"]`},
		{"arrow", Thunk(Bin(Add, a, b)), "()=>a+b"},
		{"arrow one param", &Arrow{Params: []string{"x"}, Body: Id("x")}, "x=>x"},
		{"arrow two params", &Arrow{Params: []string{"x", "i"}, Body: Id("i")}, "(x,i)=>i"},
		{"arrow object", Thunk(&Object{[]Prop{{"a", n(1)}, {"b-c", Null{}.ptr()}, {"__proto__", n(2)}}}), `()=>({a:1,"b-c":null,["__proto__"]:2})`},
		{"arrow conditional on object", Thunk(&Cond{Test: &Object{}, Yes: a, No: b}), "()=>({}?a:b)"},
		{"arrow block", &Arrow{Block: []Stmt{&ExprStmt{CallOf(a)}}}, "()=>{a();}"},
		{"arrow in or", Bin(Or, a, Thunk(b)), "a||(()=>b)"},
		{"called arrow", CallOf(Thunk(n(1))), "(()=>1)()"},
		{"arrow returning arrow", Thunk(Thunk(a)), "()=>()=>a"},
		{"conditional", &Cond{Test: Bin(Or, a, b), Yes: Bin(Add, a, b), No: &Cond{Test: a, Yes: b, No: c}}, "a||b?a+b:a?b:c"},
		{"conditional in test", &Cond{Test: &Cond{Test: a, Yes: b, No: c}, Yes: a, No: b}, "(a?b:c)?a:b"},
		{"conditional operand", Bin(Add, a, &Cond{Test: a, Yes: b, No: c}), "a+(a?b:c)"},
		{"arrow in conditional", &Cond{Test: a, Yes: Thunk(b), No: c}, "a?()=>b:c"},
		{"assign right assoc", Bin(Assign, a, Bin(Assign, b, c)), "a=b=c"},
		{"assign member", Bin(Assign, DotOf(a, "textContent"), Str("x")), `a.textContent="x"`},
		{"assign in arg", CallOf(a, Bin(Assign, b, c)), "a(b=c)"},
		{"string escapes", Str("a\"b\\\n</script>é"), `"a\"b\\\n</script>é"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PrintExpr(nil, tc.e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func (b Bool) ptr() *Bool { return &b }
func (Null) ptr() *Null   { return &Null{} }

// TestPrintStmts prints statements, with an expression statement that
// begins with an object literal and an else-if chain.
func TestPrintStmts(t *testing.T) {
	a := Id("a")
	for _, tc := range []struct {
		name string
		s    []Stmt
		want string
	}{
		{"const", []Stmt{&Const{"v", CallOf(Id("h"), Str("p"))}}, "const v=h(\"p\");\n"},
		{"object statement", []Stmt{&ExprStmt{CallOf(DotOf(&Object{}, "f"))}}, "({}.f());\n"},
		{"if else if else", []Stmt{&If{Cond: a, Then: []Stmt{&ExprStmt{CallOf(a)}}, Else: []Stmt{&If{Cond: Id("b"), Then: nil, Else: []Stmt{&Return{}}}}}}, "if(a){a();}else if(b){}else{return;}\n"},
		{"function", []Stmt{&Function{Name: "f", Params: []string{"x"}, Body: []Stmt{&Block{[]Stmt{&Return{Id("x")}}}}}}, "function f(x){{return x;}\n}\n"},
		{"function body lines", []Stmt{&Function{Name: "f", Body: []Stmt{&Const{"a", Num(1)}, &Function{Name: "g", Body: []Stmt{&Return{}, &Return{}}}}}}, "function f(){const a=1;\nfunction g(){return;return;}\n}\n"},
		{"two lines", []Stmt{&ExprStmt{a}, &ExprStmt{a}}, "a;\na;\n"},
		{"for of", []Stmt{&ForOf{Name: "x", X: Bin(Or, a, &Array{}), Body: []Stmt{&ExprStmt{CallOf(a, Id("x"))}}}}, "for(const x of a||[]){a(x);}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Print(nil, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestPrintErrors: a tree the printer cannot write is an error, never
// text standing in for it.
func TestPrintErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    Expr
		want string
	}{
		{"nil", nil, "expression <nil>"},
		{"nil in call", CallOf(Id("f"), nil), "expression <nil>"},
		{"bad operator", &Binary{Op: 99, X: Id("a"), Y: Id("b")}, "binary operator 99"},
		{"bad member", DotOf(Id("a"), "b-c"), `member name "b-c"`},
		{"empty name", Id(""), "empty name"},
		{"body and block", &Arrow{Body: Id("a"), Block: []Stmt{}}, "arrow with both"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PrintExpr(nil, tc.e)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
	if _, err := Print(nil, []Stmt{nil}); err == nil {
		t.Error("a nil statement printed")
	}
}

// randExpr makes a random expression of the names a, b, o, f and the
// parameters x and y, every operator, literals and members. evaluable
// leaves out assignment, whose effects would differ between two
// evaluations.
func randExpr(r *rand.Rand, depth int, evaluable bool) Expr {
	if depth <= 0 || r.IntN(4) == 0 {
		switch r.IntN(8) {
		case 0:
			return Id([]string{"a", "b", "o", "f", "x", "y"}[r.IntN(6)])
		case 1:
			return Str([]string{"", "s", "1", "-", "a\"b"}[r.IntN(5)])
		case 2:
			return Num([]float64{0, 1, 2, 1.5, -1, -0.5, 1e21, math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1)}[r.IntN(11)])
		case 3:
			return &Bool{r.IntN(2) == 0}
		case 4:
			return &Null{}
		default:
			return Id([]string{"a", "b", "o"}[r.IntN(3)])
		}
	}
	d := depth - 1
	switch r.IntN(10) {
	case 0:
		return &Unary{UnaryOp(r.IntN(2)), randExpr(r, d, evaluable)}
	case 1, 2, 3:
		op := BinaryOp(1 + r.IntN(int(Rem)))
		if !evaluable && r.IntN(8) == 0 {
			op = Assign
		}
		return Bin(op, randExpr(r, d, evaluable), randExpr(r, d, evaluable))
	case 4:
		return &Dot{X: randExpr(r, d, evaluable), Name: []string{"p", "q", "length"}[r.IntN(3)], Optional: r.IntN(2) == 0}
	case 5:
		return &Index{X: randExpr(r, d, evaluable), Index: randExpr(r, d, evaluable)}
	case 6:
		args := make([]Expr, r.IntN(3))
		for i := range args {
			args[i] = randExpr(r, d, evaluable)
		}
		return CallOf(randExpr(r, d, evaluable), args...)
	case 7:
		ps := [][]string{nil, {"x"}, {"x", "y"}}[r.IntN(3)]
		if r.IntN(4) == 0 {
			return &Arrow{Params: ps, Block: []Stmt{&Return{randExpr(r, d, evaluable)}}}
		}
		return &Arrow{Params: ps, Body: randExpr(r, d, evaluable)}
	case 8:
		if r.IntN(3) == 0 {
			return &Cond{Test: randExpr(r, d, evaluable), Yes: randExpr(r, d, evaluable), No: randExpr(r, d, evaluable)}
		}
		xs := make([]Expr, r.IntN(3))
		for i := range xs {
			xs[i] = randExpr(r, d, evaluable)
		}
		return &Array{xs}
	default:
		ps := make([]Prop, r.IntN(3))
		for i := range ps {
			ps[i] = Prop{[]string{"p", "q", "a b"}[r.IntN(3)], randExpr(r, d, evaluable)}
		}
		return &Object{ps}
	}
}

// FuzzPrint: printing a random tree never panics, is deterministic, and
// the minimal printing is never longer than the fully parenthesised one.
func FuzzPrint(f *testing.F) {
	for _, s := range []uint64{0, 1, 2, 42, 1 << 40} {
		f.Add(s, s*7+3)
	}
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		e := randExpr(rand.New(rand.NewPCG(s1, s2)), 6, false)
		a, err := PrintExpr(nil, e)
		if err != nil {
			t.Fatal(err)
		}
		b, err := PrintExpr(nil, e)
		if err != nil || !bytes.Equal(a, b) {
			t.Fatalf("two printings differ: %s / %s (%v)", a, b, err)
		}
		full, err := printFull(e)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) > len(full) {
			t.Errorf("minimal %s is longer than %s", a, full)
		}
		if _, err := Print(nil, []Stmt{&ExprStmt{e}, &Const{"c", e}, &If{Cond: e, Then: []Stmt{&Return{e}}}}); err != nil {
			t.Fatal(err)
		}
	})
}
