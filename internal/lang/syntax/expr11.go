package syntax

// The forms of Acore 1.1's expressions and derived values.

// letDecl parses `let name = expr` after its annotations.
func (p *parser) letDecl(anns []*Annotation) *LetDecl {
	d := new(LetDecl)
	d.Annotations = anns
	p.next()
	d.Name = p.ident("after let")
	if p.expect(Assign, "after the let name; a derived value is `let name = expression`") {
		d.Value = p.expr()
	} else {
		d.Value = &BadExpr{Span: p.missing()}
	}
	return d
}

// condExpr parses `if c then a else b` once `if` is consumed. The else
// branch extends as far as an expression can, like a lambda's body.
func (p *parser) condExpr(pos int32) Expr {
	e := &CondExpr{Span: Span{Pos: pos}}
	e.Cond = p.expr()
	if p.is("then") {
		p.next()
		e.Then = p.expr()
	} else {
		p.unexpected("`then` after the condition of an `if` expression (if c then a else b)")
		e.Then = &BadExpr{Span: p.missing()}
	}
	if p.is("else") {
		p.next()
		e.Else = p.expr()
	} else {
		p.unexpected("`else` in an `if` expression; both branches are needed (if c then a else b)")
		e.Else = &BadExpr{Span: p.missing()}
	}
	e.End = p.end(e.Pos)
	return e
}

// index parses `[i]` after x.
func (p *parser) index(x Expr) Expr {
	p.next() // [
	e := &IndexExpr{X: x}
	e.Index = p.expr()
	p.expect(RBrack, "to close the index")
	e.Span = Span{x.Bounds().Pos, p.prevEnd()}
	return e
}
