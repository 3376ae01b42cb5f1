package format

import "github.com/axiomcore/acore/internal/lang/syntax"

type topKind uint8

const (
	topNone topKind = iota
	topModule
	topUse
	topDecl
)

type topItem struct {
	tok  int // index of the item's first token
	kind topKind
}

// roles are the facts about tokens that the token stream alone does not
// tell, keyed by token offset.
type roles struct {
	unary     map[int]bool // `!` or `-` of a unary expression
	paren     map[int]bool // `(` of a parenthesized expression
	lambda    map[int]bool // `|` or `||` opening a lambda
	index     map[int]bool // `[` of an index, x[i]
	itemStart map[int]bool // first token of an item in a `{ }` list
	top       []topItem
}

func collectRoles(f *syntax.File) roles {
	r := roles{
		unary:     map[int]bool{},
		paren:     map[int]bool{},
		lambda:    map[int]bool{},
		index:     map[int]bool{},
		itemStart: map[int]bool{},
	}
	c := &collector{f: f, r: &r}
	if f.Module != nil {
		c.top(f.Module, topModule)
	}
	for _, u := range f.Uses {
		c.top(u, topUse)
	}
	for _, d := range f.Decls {
		c.top(d, topDecl)
		c.node(d)
	}
	return r
}

type collector struct {
	f *syntax.File
	r *roles
}

// tokenAt returns the index of the token starting at off, or -1.
func (c *collector) tokenAt(off int32) int {
	toks := c.f.Tokens
	lo, hi := 0, len(toks)
	for lo < hi {
		m := (lo + hi) / 2
		if toks[m].Pos < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(toks) && toks[lo].Pos == off {
		return lo
	}
	return -1
}

func (c *collector) top(n syntax.Node, k topKind) {
	pos := n.Bounds().Pos
	c.r.itemStart[int(pos)] = true
	if i := c.tokenAt(pos); i >= 0 {
		c.r.top = append(c.r.top, topItem{i, k})
	}
}

// item marks the start of an item, and the token after its annotations,
// which starts a line of its own when the annotations stand above it.
func (c *collector) item(n syntax.Node, anns []*syntax.Annotation) {
	c.r.itemStart[int(n.Bounds().Pos)] = true
	if len(anns) > 0 {
		if i := c.tokenAfter(anns[len(anns)-1].End); i >= 0 {
			c.r.itemStart[int(c.f.Tokens[i].Pos)] = true
		}
	}
	for _, a := range anns {
		c.r.itemStart[int(a.Pos)] = true
		c.args(a.Args)
	}
}

// tokenAfter returns the index of the first token at or after off.
func (c *collector) tokenAfter(off int32) int {
	toks := c.f.Tokens
	for lo, hi := 0, len(toks); ; {
		if lo >= hi {
			if lo < len(toks) {
				return lo
			}
			return -1
		}
		m := (lo + hi) / 2
		if toks[m].Pos < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
}

// elseBefore marks the `else` token in front of the node at pos.
func (c *collector) elseBefore(pos int32) {
	if i := c.tokenAt(pos); i > 0 {
		c.r.itemStart[int(c.f.Tokens[i-1].Pos)] = true
	}
}

func (c *collector) args(args []*syntax.Arg) {
	for _, a := range args {
		c.expr(a.Value)
	}
}

func (c *collector) params(ps []*syntax.Param) {
	for _, p := range ps {
		if p.Default != nil {
			c.expr(p.Default)
		}
	}
}

func (c *collector) node(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.AppDecl:
		c.item(n, n.Annotations)
		c.args(n.Args)
		for _, r := range n.Routes {
			c.item(r, nil)
			c.args(r.Args)
		}
	case *syntax.OwnerDecl:
		c.item(n, n.Annotations)
		c.params(n.Params)
		for _, m := range n.Members {
			c.node(m)
		}
	case *syntax.ModelDecl:
		c.item(n, n.Annotations)
		for _, p := range n.Fields {
			c.item(p, nil)
		}
		c.params(n.Fields)
	case *syntax.ExternDecl:
		c.item(n, n.Annotations)
		c.params(n.Params)
	case *syntax.ContractDecl:
		for _, m := range n.Models {
			c.node(m)
		}
		for _, op := range n.Ops {
			c.item(op, op.Annotations)
			c.params(op.Params)
		}
	case *syntax.StateDecl:
		c.item(n, n.Annotations)
		if n.Init != nil {
			c.expr(n.Init)
		}
	case *syntax.LetDecl:
		c.item(n, n.Annotations)
		c.expr(n.Value)
	case *syntax.DataDecl:
		c.item(n, n.Annotations)
		c.expr(n.Value)
	case *syntax.ActionDecl:
		c.item(n, n.Annotations)
		c.params(n.Params)
		c.node(n.Body)
	case *syntax.ViewDecl:
		c.item(n, nil)
		c.viewItems(n.Items)
	case *syntax.Block:
		for _, s := range n.Stmts {
			c.node(s)
		}
	case *syntax.AssignStmt:
		c.item(n, nil)
		c.expr(n.Target)
		c.expr(n.Value)
	case *syntax.ExprStmt:
		c.item(n, nil)
		c.expr(n.X)
	case *syntax.IfStmt:
		c.item(n, nil)
		c.expr(n.Cond)
		c.node(n.Then)
		if n.Else != nil {
			c.elseBefore(n.Else.Bounds().Pos)
			c.node(n.Else)
		}
	case *syntax.ForStmt:
		c.item(n, nil)
		c.expr(n.List)
		c.node(n.Body)
	case *syntax.Element:
		c.item(n, n.Annotations)
		c.args(n.Args)
		if n.Children != nil {
			if n.Children.Param != nil {
				c.item(n.Children.Param, nil)
			}
			c.viewItems(n.Children.Items)
		}
	case *syntax.IfView:
		c.item(n, nil)
		for i, b := range n.Branches {
			if i > 0 {
				c.elseBefore(b.Pos)
			}
			if b.Cond != nil {
				c.expr(b.Cond)
			}
			c.viewItems(b.Items)
		}
	case *syntax.BadDecl:
	}
}

func (c *collector) viewItems(items []syntax.ViewItem) {
	for _, it := range items {
		c.node(it)
	}
}

func (c *collector) expr(x syntax.Expr) {
	switch x := x.(type) {
	case *syntax.ListLit:
		for _, e := range x.Elems {
			c.expr(e)
		}
	case *syntax.MemberExpr:
		c.expr(x.X)
	case *syntax.CallExpr:
		c.expr(x.Fun)
		c.args(x.Args)
	case *syntax.LambdaExpr:
		c.r.lambda[int(x.Pos)] = true
		c.expr(x.Body)
	case *syntax.BlockExpr:
		c.node(x.Block)
	case *syntax.UnaryExpr:
		c.r.unary[int(x.Pos)] = true
		c.expr(x.X)
	case *syntax.BinaryExpr:
		c.expr(x.X)
		c.expr(x.Y)
	case *syntax.ParenExpr:
		c.r.paren[int(x.Pos)] = true
		c.expr(x.X)
	case *syntax.CondExpr:
		c.expr(x.Cond)
		c.expr(x.Then)
		c.expr(x.Else)
	case *syntax.IndexExpr:
		if i := c.tokenAfter(x.X.Bounds().End); i >= 0 {
			c.r.index[int(c.f.Tokens[i].Pos)] = true
		}
		c.expr(x.X)
		c.expr(x.Index)
	}
}
