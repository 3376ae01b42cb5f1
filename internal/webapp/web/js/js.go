// Package js is the small JavaScript syntax tree the web compiler lowers
// an Acore program to, and its printer. The printer writes compact code
// with the fewest parentheses the precedence of each operator allows (as
// esbuild's js_printer does): every expression is printed with the level
// its context needs and parenthesised only when its own level is lower.
//
// A tree means what it says node by node: the printer adds whatever
// parentheses keep that meaning, for example around an optional chain that
// a member access or call continues ((a?.b).c is not a?.b.c).
package js

// Expr is an expression.
type Expr interface{ expr() }

// Stmt is a statement.
type Stmt interface{ stmt() }

// Ident is a name. The printer writes it as given: names are made by the
// compiler, never taken from data.
type Ident struct{ Name string }

// String is a string literal; any text is printed escaped.
type String struct{ Value string }

// Number is a number literal. A negative value, NaN or an infinity is
// printed as the expression that makes it.
type Number struct{ Value float64 }

// Bool is true or false.
type Bool struct{ Value bool }

// Null is null.
type Null struct{}

// Array is an array literal.
type Array struct{ Elems []Expr }

// Object is an object literal, its properties in order.
type Object struct{ Props []Prop }

// Prop is one property of an object literal; any key is printed as a
// plain name when it is one, else as a string.
type Prop struct {
	Key   string
	Value Expr
}

// Unary is a prefix operator applied to X.
type Unary struct {
	Op UnaryOp
	X  Expr
}

// Binary is X Op Y; Assign's X is a name or a member.
type Binary struct {
	Op   BinaryOp
	X, Y Expr
}

// Dot is X.Name, or X?.Name when Optional.
type Dot struct {
	X        Expr
	Name     string
	Optional bool
}

// Cond is Test ? Yes : No.
type Cond struct{ Test, Yes, No Expr }

// Index is X[Index].
type Index struct{ X, Index Expr }

// Call is Fun(Args...).
type Call struct {
	Fun  Expr
	Args []Expr
}

// Arrow is an arrow function: (Params) => Body, or with a block of
// statements when Body is nil.
type Arrow struct {
	Params []string
	Body   Expr
	Block  []Stmt
}

// UnaryOp is a prefix operator.
type UnaryOp uint8

// The prefix operators.
const (
	Not UnaryOp = iota
	Neg
)

// BinaryOp is an infix operator.
type BinaryOp uint8

// The infix operators.
const (
	Assign BinaryOp = iota
	Nullish
	Or
	And
	StrictEq
	StrictNotEq
	Less
	LessEq
	Greater
	GreaterEq
	Add
	Sub
	Mul
	Div
	Rem
)

// ExprStmt is an expression evaluated for its effect.
type ExprStmt struct{ X Expr }

// Const declares Name = Value.
type Const struct {
	Name  string
	Value Expr
}

// If runs Then when Cond holds, else Else (nil for none; an else-if is an
// Else holding one If).
type If struct {
	Cond       Expr
	Then, Else []Stmt
}

// ForOf runs Body for each element of X, bound to the constant Name.
type ForOf struct {
	Name string
	X    Expr
	Body []Stmt
}

// Block is a block of statements with its own scope.
type Block struct{ Stmts []Stmt }

// Function declares a function.
type Function struct {
	Name   string
	Params []string
	Body   []Stmt
}

// ImportAll is import * as Name from "From".
type ImportAll struct{ Name, From string }

// Return returns X (nil for none).
type Return struct{ X Expr }

func (*Ident) expr()  {}
func (*String) expr() {}
func (*Number) expr() {}
func (*Bool) expr()   {}
func (*Null) expr()   {}
func (*Array) expr()  {}
func (*Object) expr() {}
func (*Unary) expr()  {}
func (*Binary) expr() {}
func (*Dot) expr()    {}
func (*Index) expr()  {}
func (*Cond) expr()   {}
func (*Call) expr()   {}
func (*Arrow) expr()  {}

func (*ExprStmt) stmt()  {}
func (*Const) stmt()     {}
func (*If) stmt()        {}
func (*Block) stmt()     {}
func (*ForOf) stmt()     {}
func (*Function) stmt()  {}
func (*Return) stmt()    {}
func (*ImportAll) stmt() {}

// Helpers that keep the compiler's tree building short.

// Id is a name.
func Id(name string) *Ident { return &Ident{name} }

// Str is a string literal.
func Str(s string) *String { return &String{s} }

// Num is a number literal.
func Num(v float64) *Number { return &Number{v} }

// CallOf is fun(args...).
func CallOf(fun Expr, args ...Expr) *Call { return &Call{Fun: fun, Args: args} }

// DotOf is x.name.
func DotOf(x Expr, name string) *Dot { return &Dot{X: x, Name: name} }

// Bin is x op y.
func Bin(op BinaryOp, x, y Expr) *Binary { return &Binary{Op: op, X: x, Y: y} }

// Thunk is () => body.
func Thunk(body Expr) *Arrow { return &Arrow{Body: body} }
