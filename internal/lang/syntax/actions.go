package syntax

import (
	"fmt"

	"github.com/axiomcore/acore/internal/lang/diag"
)

// The forms of Acore 1.1's actions and handlers: loops, handler blocks
// and `;` between statements (see stmt).

// ForStmt is `for x in list { statements }` in an action body or a
// handler block (Acore 1.1).
type ForStmt struct {
	Span
	Var  *Ident
	List Expr
	Body *Block
}

// BlockExpr is a block of statements as the body of a handler lambda,
// `|| { editing = true; edit_text = t.title }` (Acore 1.1). It is an
// expression only so that a lambda holds it; the checker accepts it as a
// handler's body and nowhere else.
type BlockExpr struct {
	Span
	Block *Block
}

func (*ForStmt) stmt()   {}
func (*BlockExpr) expr() {}

// atFor reports a loop: `for` followed by the loop variable's name. `for`
// is a contextual keyword, so a state named for is still assigned as
// `for = ...`.
func (p *parser) atFor() bool {
	return p.is("for") && p.peek(1).Kind == Name
}

// forStmt parses `for x in list { ... }`.
func (p *parser) forStmt() *ForStmt {
	s := &ForStmt{Span: Span{Pos: p.tok.Pos}}
	p.next()
	s.Var = p.ident("after for")
	if p.is("in") {
		p.next()
		s.List = p.expr()
	} else {
		p.unexpected("`in` after the loop variable (for x in list { ... })")
		s.List = &BadExpr{Span: p.missing()}
	}
	s.Body = p.block()
	s.End = p.end(s.Pos)
	return s
}

// blockExpr parses a handler's `{ statements }`.
func (p *parser) blockExpr() *BlockExpr {
	b := p.block()
	return &BlockExpr{Span: b.Span, Block: b}
}

// assignInLambda reports `|| x = v`: an assignment is a statement, so a
// handler that assigns has a block. The value is parsed and dropped.
func (p *parser) assignInLambda(lam *LambdaExpr) {
	at := p.tok
	p.next()
	v := p.expr()
	defer func() { lam.Body = &BadExpr{Span: Span{lam.Body.Bounds().Pos, v.Bounds().End}} }()
	p.errorAt(at.Pos, at.End, diag.UnexpectedToken, fmt.Sprintf("an assignment in a handler needs a block, as || { %s = %s }", p.f.Src[lam.Body.Bounds().Pos:lam.Body.Bounds().End], p.f.Src[v.Bounds().Pos:v.Bounds().End]))
}
