package check

import "github.com/axiomcore/acore/internal/lang/syntax"

// Runs calls visit for each name that the handler or action body n may
// run: the query of q.refresh(), the mutation of m.run(), an action, an
// Action prop or an extern action called or named as a handler, with
// loop set when the call stands inside a for loop. n is a handler (an
// expression: a name, a lambda with a call or a block), a statement or a
// block. The web backend and the AXAG manifest read what a handler does
// through it, so that both see one set of runs.
func Runs(n syntax.Node, visit func(name *syntax.Ident, loop bool)) {
	runs(n, false, visit)
}

func runs(n syntax.Node, loop bool, visit func(*syntax.Ident, bool)) {
	switch n := n.(type) {
	case *syntax.Ident:
		visit(n, loop)
	case *syntax.LambdaExpr:
		runs(n.Body, loop, visit)
	case *syntax.ParenExpr:
		runs(n.X, loop, visit)
	case *syntax.BlockExpr:
		runs(n.Block, loop, visit)
	case *syntax.CallExpr:
		switch f := n.Fun.(type) {
		case *syntax.Ident:
			visit(f, loop)
		case *syntax.MemberExpr:
			if id, ok := f.X.(*syntax.Ident); ok && (f.Sel.Name == "run" || f.Sel.Name == "refresh") {
				visit(id, loop)
			}
		}
	case *syntax.Block:
		if n == nil {
			return
		}
		for _, s := range n.Stmts {
			runs(s, loop, visit)
		}
	case *syntax.ExprStmt:
		runs(n.X, loop, visit)
	case *syntax.IfStmt:
		runs(n.Then, loop, visit)
		if n.Else != nil {
			runs(n.Else, loop, visit)
		}
	case *syntax.ForStmt:
		runs(n.Body, true, visit)
	}
}
