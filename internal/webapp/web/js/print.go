package js

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Level is a precedence level, lowest first (ECMAScript's, as esbuild
// names them). An expression printed in a context of level l is
// parenthesised when its own level is l or lower.
type Level uint8

// The levels.
const (
	LLowest Level = iota
	LComma
	LAssign
	LConditional
	LNullish
	LOr
	LAnd
	LEquals
	LCompare
	LAdd
	LMultiply
	LPrefix
	LPostfix
	LCall
	LMember
)

type binaryInfo struct {
	text  string
	level Level
	right bool // right associative
}

var binaries = [...]binaryInfo{
	Assign:      {"=", LAssign, true},
	Nullish:     {"??", LNullish, false},
	Or:          {"||", LOr, false},
	And:         {"&&", LAnd, false},
	StrictEq:    {"===", LEquals, false},
	StrictNotEq: {"!==", LEquals, false},
	Less:        {"<", LCompare, false},
	LessEq:      {"<=", LCompare, false},
	Greater:     {">", LCompare, false},
	GreaterEq:   {">=", LCompare, false},
	Add:         {"+", LAdd, false},
	Sub:         {"-", LAdd, false},
	Mul:         {"*", LMultiply, false},
	Div:         {"/", LMultiply, false},
	Rem:         {"%", LMultiply, false},
}

var unaries = [...]string{Not: "!", Neg: "-"}

// String returns the operator's text.
func (op BinaryOp) String() string { return binaries[op].text }

// String returns the operator's text.
func (op UnaryOp) String() string { return unaries[op] }

// Level returns the level of the expression's outermost operator: the
// level at which it is printed without parentheses.
func (op BinaryOp) Level() Level { return binaries[op].level }

// printer writes code into out. full parenthesises every compound
// expression (the tests compare it with the minimal printing).
type printer struct {
	out   []byte
	full  bool
	lines bool
	depth int // of functions
}

// Error is a tree the printer cannot write: a node of a type it does not
// know or a nil where an expression must be. It is the compiler's fault,
// never the program's.
type Error struct{ What string }

func (e *Error) Error() string { return "js: " + e.What }

// Print appends the statements to out, one top-level statement a line;
// the statements of a top-level function's body and blocks of statements
// end their lines too, so that a diff of the output reads.
func Print(out []byte, stmts []Stmt) (res []byte, err error) {
	p := &printer{out: out, lines: true}
	defer p.recover(&err)
	for _, s := range stmts {
		p.stmt(s)
		p.out = append(p.out, '\n')
	}
	return p.out, nil
}

// PrintExpr appends the expression to out.
func PrintExpr(out []byte, e Expr) (res []byte, err error) {
	p := &printer{out: out}
	defer p.recover(&err)
	p.expr(e, LLowest)
	return p.out, nil
}

// printFull is PrintExpr with every compound expression parenthesised.
func printFull(e Expr) (string, error) {
	p := &printer{full: true}
	var err error
	func() {
		defer p.recover(&err)
		p.expr(e, LLowest)
	}()
	return string(p.out), err
}

func (p *printer) recover(err *error) {
	if r := recover(); r != nil {
		e, ok := r.(*Error)
		if !ok {
			panic(r)
		}
		*err = e
	}
}

func (p *printer) fail(format string, args ...any) {
	panic(&Error{fmt.Sprintf(format, args...)})
}

func (p *printer) str(s string) { p.out = append(p.out, s...) }

// op writes an operator, after a space when it would otherwise join the
// operator before it ("a- -b", not the decrement "a--b").
func (p *printer) op(s string) {
	if n := len(p.out); n > 0 && (s[0] == '-' || s[0] == '+') && p.out[n-1] == s[0] {
		p.out = append(p.out, ' ')
	}
	p.str(s)
}

func (p *printer) newline() {
	if p.lines && len(p.out) > 0 && p.out[len(p.out)-1] != '\n' {
		p.out = append(p.out, '\n')
	}
}

func (p *printer) stmts(ss []Stmt) {
	for _, s := range ss {
		p.stmt(s)
	}
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *ExprStmt:
		// A statement that starts with { would be a block.
		if startsWithObject(s.X) {
			p.str("(")
			p.expr(s.X, LLowest)
			p.str(")")
		} else {
			p.expr(s.X, LLowest)
		}
		p.str(";")
	case *Const:
		p.str("const " + s.Name + "=")
		p.expr(s.Value, LComma)
		p.str(";")
	case *If:
		p.str("if(")
		p.expr(s.Cond, LLowest)
		p.str("){")
		p.stmts(s.Then)
		p.str("}")
		if s.Else != nil {
			p.str("else")
			if len(s.Else) == 1 {
				if elif, ok := s.Else[0].(*If); ok {
					p.str(" ")
					p.stmt(elif)
					return
				}
			}
			p.str("{")
			p.stmts(s.Else)
			p.str("}")
		}
	case *Block:
		p.str("{")
		p.stmts(s.Stmts)
		p.str("}")
		p.newline()
	case *ForOf:
		p.str("for(const " + s.Name + " of ")
		p.expr(s.X, LComma)
		p.str("){")
		p.stmts(s.Body)
		p.str("}")
	case *Function:
		p.str("function " + s.Name)
		p.params(s.Params, true)
		p.str("{")
		p.depth++
		top := p.depth == 1
		for _, s := range s.Body {
			p.stmt(s)
			if top {
				p.newline()
			}
		}
		p.depth--
		p.str("}")
	case *ImportAll:
		p.str("import * as " + s.Name + " from ")
		p.out = appendString(p.out, s.From)
		p.str(";")
	case *Return:
		if s.X == nil {
			p.str("return;")
			return
		}
		p.str("return ")
		p.expr(s.X, LLowest)
		p.str(";")
	default:
		p.fail("statement %T", s)
	}
}

func (p *printer) params(ps []string, parens bool) {
	if !parens && len(ps) == 1 {
		p.str(ps[0])
		return
	}
	p.str("(")
	for i, n := range ps {
		if i > 0 {
			p.str(",")
		}
		p.str(n)
	}
	p.str(")")
}

// startsWithObject reports whether the printed expression begins with an
// object literal.
func startsWithObject(e Expr) bool {
	for {
		switch x := e.(type) {
		case *Object:
			return true
		case *Binary:
			e = x.X
		case *Cond:
			e = x.Test
		case *Dot:
			e = x.X
		case *Index:
			e = x.X
		case *Call:
			e = x.Fun
		default:
			return false
		}
	}
}

// wrap opens a parenthesis when cond holds (or in full mode, for every
// compound expression) and returns whether it did.
func (p *printer) wrap(cond bool) bool {
	if cond || p.full {
		p.str("(")
		return true
	}
	return false
}

func (p *printer) close(open bool) {
	if open {
		p.str(")")
	}
}

// target prints the object of a member access or the function of a call:
// at the postfix level, and in parentheses when it is an optional chain
// that the access must not continue.
func (p *printer) target(x Expr) {
	if d, ok := x.(*Dot); ok && d.Optional && !p.full {
		p.str("(")
		p.expr(x, LLowest)
		p.str(")")
		return
	}
	if n, ok := x.(*Number); ok {
		// 1.x would read as the number 1. and a name.
		if s := number(n.Value); s != "" && isDigits(s) {
			p.str("(" + s + ")")
			return
		}
	}
	p.expr(x, LPostfix)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// number returns the literal of a non-negative finite value, or "".
func number(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v == 0 && math.Signbit(v) {
		return ""
	}
	if v == math.Trunc(v) && v < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func (p *printer) expr(e Expr, level Level) {
	switch e := e.(type) {
	case *Ident:
		if e == nil || e.Name == "" {
			p.fail("empty name")
		}
		p.str(e.Name)
	case *String:
		p.out = appendString(p.out, e.Value)
	case *Number:
		v := e.Value
		if s := number(v); s != "" {
			p.str(s)
			return
		}
		switch {
		case math.IsNaN(v):
			p.str("NaN")
		case math.IsInf(v, 1):
			p.str("Infinity")
		default:
			open := p.wrap(level >= LPrefix)
			p.op("-")
			if math.IsInf(v, -1) {
				p.str("Infinity")
			} else {
				p.str(number(-v))
			}
			p.close(open)
		}
	case *Bool:
		if e.Value {
			p.str("true")
		} else {
			p.str("false")
		}
	case *Null:
		p.str("null")
	case *Array:
		p.str("[")
		for i, x := range e.Elems {
			if i > 0 {
				p.str(",")
			}
			p.expr(x, LComma)
		}
		p.str("]")
	case *Object:
		p.str("{")
		for i, pr := range e.Props {
			if i > 0 {
				p.str(",")
			}
			switch {
			case pr.Key == "__proto__":
				// A literal __proto__ key sets the prototype; a computed
				// one makes a property.
				p.str(`["__proto__"]`)
			case isName(pr.Key):
				p.str(pr.Key)
			default:
				p.out = appendString(p.out, pr.Key)
			}
			p.str(":")
			p.expr(pr.Value, LComma)
		}
		p.str("}")
	case *Unary:
		if int(e.Op) >= len(unaries) {
			p.fail("unary operator %d", e.Op)
		}
		open := p.wrap(level >= LPrefix)
		p.op(unaries[e.Op])
		p.expr(e.X, LPrefix-1)
		p.close(open)
	case *Binary:
		if int(e.Op) >= len(binaries) {
			p.fail("binary operator %d", e.Op)
		}
		b := binaries[e.Op]
		open := p.wrap(level >= b.level)
		left, right := b.level-1, b.level
		if b.right {
			left, right = b.level, b.level-1
		}
		// ?? does not mix with || or && without parentheses.
		if mixesNullish(e.Op, e.X) {
			left = LPrefix
		}
		if mixesNullish(e.Op, e.Y) {
			right = LPrefix
		}
		p.expr(e.X, left)
		p.op(b.text)
		p.expr(e.Y, right)
		p.close(open)
	case *Dot:
		open := p.wrap(level >= LMember)
		if e.Optional {
			p.expr(e.X, LPostfix)
			p.str("?.")
		} else {
			p.target(e.X)
			p.str(".")
		}
		if !isName(e.Name) {
			p.fail("member name %q", e.Name)
		}
		p.str(e.Name)
		p.close(open)
	case *Cond:
		open := p.wrap(level >= LConditional)
		p.expr(e.Test, LConditional)
		p.str("?")
		p.expr(e.Yes, LComma)
		p.str(":")
		p.expr(e.No, LComma)
		p.close(open)
	case *Index:
		open := p.wrap(level >= LMember)
		p.target(e.X)
		p.str("[")
		p.expr(e.Index, LLowest)
		p.str("]")
		p.close(open)
	case *Call:
		open := p.wrap(level >= LCall)
		p.target(e.Fun)
		p.str("(")
		for i, a := range e.Args {
			if i > 0 {
				p.str(",")
			}
			p.expr(a, LComma)
		}
		p.str(")")
		p.close(open)
	case *Arrow:
		open := p.wrap(level >= LAssign)
		p.params(e.Params, false)
		p.str("=>")
		switch {
		case e.Body != nil && e.Block != nil:
			p.fail("arrow with both a body and a block")
		case e.Body != nil:
			if startsWithObject(e.Body) {
				p.str("(")
				p.expr(e.Body, LLowest)
				p.str(")")
			} else {
				p.expr(e.Body, LComma)
			}
		default:
			p.str("{")
			p.stmts(e.Block)
			p.str("}")
		}
		p.close(open)
	default:
		p.fail("expression %T", e)
	}
}

func mixesNullish(op BinaryOp, x Expr) bool {
	b, ok := x.(*Binary)
	if !ok {
		return false
	}
	if op == Nullish {
		return b.Op == Or || b.Op == And
	}
	return (op == Or || op == And) && b.Op == Nullish
}

// isName reports whether s can be written as a property name or member
// without quotes: an ASCII identifier name (reserved words are allowed
// there).
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// appendString writes s as a JavaScript string literal: JSON, without the
// HTML escaping a script file does not need.
func appendString(out []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		out = append(out, '"')
		out = append(out, s...)
		return append(out, '"')
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return append(out, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}

// Quote returns s as a JavaScript string literal.
func Quote(s string) string { return string(appendString(nil, s)) }
