package syntax

// Span is a half-open byte range [Pos, End) of a file's source. Its
// offsets are 32-bit, like tokens' and lines': files are far smaller than
// 2 GiB, and every node of a tree embeds a Span.
type Span struct {
	Pos, End int32
}

// Span returns the span itself, so that every node that embeds a Span
// satisfies Node.
func (s Span) Bounds() Span { return s }

// Node is any syntax tree node.
type Node interface {
	Bounds() Span
}

// File is the syntax tree of one .acore or .axiom file. Src is kept so that
// any node's exact text is Src[Pos:End], and the file is printed back byte
// for byte from its tokens and the trivia between them.
type File struct {
	Path     string
	Src      []byte
	Tokens   []Token
	Comments []Comment
	Lines    []int32 // offset of the first byte of each line

	Module *ModuleDecl // nil when absent
	Uses   []*UseDecl
	Decls  []Decl

	Errors []Error
	// Limit is set when a bracket bound stopped the parse; the tree is then
	// empty and Errors holds the one limit diagnostic.
	Limit string
	// Brackets is the number of opening brackets in the file.
	Brackets int
	// Headers is set by DropBodies: views' items, action bodies' statements
	// and comments are gone.
	Headers bool
	// Annotated lists, once DropBodies has run, the annotated elements of
	// the views in source order: what is read of the bodies (AXAG
	// manifests) without parsing the file again.
	Annotated []AnnotatedElement
}

// AnnotatedElement is the start of an element in a view and its
// annotations.
type AnnotatedElement struct {
	Pos         int32
	Annotations []*Annotation
}

// DropBodies frees what only checking a file's bodies needs: the items
// of its views (but for the annotations of their elements, in Annotated),
// the statements of its actions and its comments. The declarations, their
// names, types, parameters and initial values stay, with every span, as do
// Src and Lines. A compiled project keeps its trees this way, as what
// other modules see of each file, and parses a file again when a body is
// needed (see project.Project.File); bodies are about two thirds of a tree.
func (f *File) DropBodies() {
	var annotated func(items []ViewItem)
	annotated = func(items []ViewItem) {
		for _, it := range items {
			switch it := it.(type) {
			case *Element:
				if len(it.Annotations) > 0 {
					f.Annotated = append(f.Annotated, AnnotatedElement{it.Pos, it.Annotations})
				}
				if it.Children != nil {
					annotated(it.Children.Items)
				}
			case *IfView:
				for _, b := range it.Branches {
					annotated(b.Items)
				}
			}
		}
	}
	for _, d := range f.Decls {
		o, ok := d.(*OwnerDecl)
		if !ok {
			continue
		}
		for _, m := range o.Members {
			switch m := m.(type) {
			case *ViewDecl:
				annotated(m.Items)
				m.Items = nil
			case *ActionDecl:
				if m.Body != nil {
					// An empty block of the file's own, so that the body's
					// nodes go.
					m.Body = &Block{Span: m.Body.Span}
				}
			}
		}
	}
	f.Comments, f.Tokens, f.Headers = nil, nil, true
}

// Error is a syntax error.
type Error struct {
	Span
	Code string
	Msg  string
}

// Text returns the source text of n.
func (f *File) Text(n Node) string {
	s := n.Bounds()
	return string(f.Src[s.Pos:s.End])
}

// Decl is a top-level declaration: *AppDecl, *OwnerDecl, *ModelDecl,
// *ExternDecl, *ContractDecl or *BadDecl.
type Decl interface {
	Node
	decl()
}

// Member is a member of a page or component: *StateDecl, *LetDecl,
// *DataDecl, *ActionDecl, *ViewDecl or *BadDecl.
type Member interface {
	Node
	member()
}

// ViewItem is an entry of a view children list: *Element, *IfView or
// *BadDecl.
type ViewItem interface {
	Node
	viewItem()
}

// Stmt is an action statement: *AssignStmt, *ExprStmt, *IfStmt, *ForStmt,
// *Block or *BadDecl.
type Stmt interface {
	Node
	stmt()
}

// Expr is an expression.
type Expr interface {
	Node
	expr()
}

// Annotation is @name(args) written before a declaration, member or
// element; AXAG metadata uses @axag(...).
type Annotation struct {
	Span
	Name *Ident
	Args []*Arg
}

// ModuleDecl is `module a.b.c`.
type ModuleDecl struct {
	Span
	Name *QualName
}

// QualName is a dotted name such as tasks.app.ui.
type QualName struct {
	Span
	Parts []*Ident
}

// UseKind says what a use line imports.
type UseKind uint8

// Use kinds.
const (
	UseContract UseKind = iota
	UseComponent
	UseModel
)

func (k UseKind) String() string {
	return [...]string{"contract", "component", "model"}[k]
}

// UseDecl is `use contract X from "id" [audience "a"]`,
// `use component X from "path"` or `use model X from "path"`.
type UseDecl struct {
	Span
	Kind     UseKind
	Name     *Ident
	From     *StringLit
	Audience *StringLit // contracts only; nil when absent
}

// AppDecl is `app Name [(routing: "hash")] { route "/" => Page ... }`.
type AppDecl struct {
	Span
	Annotations []*Annotation
	Name        *Ident
	Args        []*Arg // nil when the app has no argument list (Acore 1.1)
	Routes      []*RouteDecl
}

// RouteDecl is `route "/path" => Page`, or `route "/path" =>
// Page(name: literal, ...)` giving page parameters (Acore 1.1).
type RouteDecl struct {
	Span
	Path   *StringLit
	Target *Ident
	Args   []*Arg // nil when the route has no argument list
}

// OwnerKind is page or component.
type OwnerKind uint8

// Owner kinds.
const (
	Page OwnerKind = iota
	Component
)

func (k OwnerKind) String() string {
	if k == Page {
		return "page"
	}
	return "component"
}

// OwnerDecl is a page or a component: the declarations that own state,
// queries, mutations, actions and a view.
type OwnerDecl struct {
	Span
	Annotations []*Annotation
	Kind        OwnerKind
	Name        *Ident
	Params      []*Param // component props or page parameters
	Members     []Member
	LBrace      int32 // offset of the opening brace; the header is Pos..LBrace+1
	RBrace      int32 // offset of the closing brace, or -1 when missing
}

// Param is `name: Type [= default]` in a component header, an action or
// an extern action, a contract operation or a model field.
type Param struct {
	Span
	Name    *Ident
	Type    *TypeExpr
	Default Expr // nil when absent
}

// ModelDecl is `model Name { field: Type ... }`.
type ModelDecl struct {
	Span
	Annotations []*Annotation
	Name        *Ident
	Fields      []*Param
}

// ExternDecl is `extern action name(params) from "origin"`: a foreign
// extension action whose implementation the compiler cannot see.
type ExternDecl struct {
	Span
	Annotations []*Annotation
	Name        *Ident
	Params      []*Param
	From        *StringLit // nil when absent
}

// ContractDecl is a backend contract (in .axiom files):
// `contract Name audience "a", "b" { model ... query ... mutation ... }`.
type ContractDecl struct {
	Span
	Name      *Ident
	Audiences []*StringLit
	Models    []*ModelDecl
	Ops       []*OpDecl
}

// DataKind is query or mutation.
type DataKind uint8

// Data kinds.
const (
	Query DataKind = iota
	Mutation
)

func (k DataKind) String() string {
	if k == Query {
		return "query"
	}
	return "mutation"
}

// OpDecl is a contract operation: `query name(params): Type`.
type OpDecl struct {
	Span
	Annotations []*Annotation
	Kind        DataKind
	Name        *Ident
	Params      []*Param
	Result      *TypeExpr // nil when absent
}

// StateDecl is `state name: Type = expr`.
type StateDecl struct {
	Span
	Annotations []*Annotation
	Name        *Ident
	Type        *TypeExpr
	Init        Expr // nil when absent
}

// LetDecl is `let name = expr`: a derived value, typed by inference and
// recomputed when what it reads changes (Acore 1.1).
type LetDecl struct {
	Span
	Annotations []*Annotation
	Name        *Ident
	Value       Expr
}

// DataDecl is `query name = Contract.op(args)` or
// `mutation name = Contract.op(args)`.
type DataDecl struct {
	Span
	Annotations []*Annotation
	Kind        DataKind
	Name        *Ident
	Value       Expr // normally a *CallExpr of a *MemberExpr
}

// ActionDecl is `action name(params) { statements }`.
type ActionDecl struct {
	Span
	Annotations []*Annotation
	Name        *Ident
	Params      []*Param
	Body        *Block
}

// ViewDecl is `view { items }`.
type ViewDecl struct {
	Span
	Items []ViewItem
}

// Block is `{ statements }`.
type Block struct {
	Span
	Stmts []Stmt
}

// Element is `Name(args) { children }`; both parts are optional.
type Element struct {
	Span
	Annotations []*Annotation
	Name        *Ident
	Args        []*Arg
	Parens      bool
	Children    *Children // nil when there is no block
}

// Arg is `name: value` or a positional value.
type Arg struct {
	Span
	Name  *Ident // nil for a positional argument
	Value Expr
}

// Children is an element's `{ ... }` block, optionally an item template
// `{ item => ... }`.
type Children struct {
	Span
	Param *Ident // item template parameter; nil for a plain block
	Items []ViewItem
}

// IfView is a view conditional: `if c { } else if d { } else { }`.
type IfView struct {
	Span
	Branches []*Branch
}

// Branch is one arm of an IfView; Cond is nil for else.
type Branch struct {
	Span
	Cond  Expr
	Items []ViewItem
}

// AssignStmt is `target = value`.
type AssignStmt struct {
	Span
	Target Expr
	Value  Expr
}

// ExprStmt is an expression used as a statement, normally a call.
type ExprStmt struct {
	Span
	X Expr
}

// IfStmt is `if cond { } else { }` in an action.
type IfStmt struct {
	Span
	Cond Expr
	Then *Block
	Else Stmt // *Block, *IfStmt or nil
}

// BadDecl covers source the parser skipped after a syntax error.
type BadDecl struct {
	Span
}

// TypeExpr is `Name`, `[Elem]` or either followed by `?`.
type TypeExpr struct {
	Span
	Name     *Ident    // nil for a list type
	Elem     *TypeExpr // list element type
	Optional bool
}

// Ident is a name.
type Ident struct {
	Span
	Name string
}

// StringLit is a string literal; Value is unquoted.
type StringLit struct {
	Span
	Value string
}

// NumberLit is an integer or float literal.
type NumberLit struct {
	Span
	Raw   string
	Float bool
}

// BoolLit is true or false.
type BoolLit struct {
	Span
	Value bool
}

// NullLit is null.
type NullLit struct {
	Span
}

// ListLit is `[a, b]`.
type ListLit struct {
	Span
	Elems []Expr
}

// MemberExpr is `x.sel`.
type MemberExpr struct {
	Span
	X   Expr
	Sel *Ident
}

// CallExpr is `fun(args)`.
type CallExpr struct {
	Span
	Fun  Expr
	Args []*Arg
}

// LambdaExpr is `|a, b| body`; a handler's body may be a block,
// `|| { a; b }` (a *BlockExpr, Acore 1.1).
type LambdaExpr struct {
	Span
	Params []*Ident
	Body   Expr
}

// UnaryExpr is `!x` or `-x`.
type UnaryExpr struct {
	Span
	Op Kind
	X  Expr
}

// CondExpr is `if c then a else b` (Acore 1.1).
type CondExpr struct {
	Span
	Cond, Then, Else Expr
}

// IndexExpr is `x[i]` (Acore 1.1).
type IndexExpr struct {
	Span
	X, Index Expr
}

// BinaryExpr is `x op y`; `a ?? b` is one with Op Coalesce.
type BinaryExpr struct {
	Span
	Op   Kind
	X, Y Expr
}

// ParenExpr is `(x)`.
type ParenExpr struct {
	Span
	X Expr
}

// BadExpr stands where an expression could not be parsed.
type BadExpr struct {
	Span
}

func (*AppDecl) decl()      {}
func (*OwnerDecl) decl()    {}
func (*ModelDecl) decl()    {}
func (*ExternDecl) decl()   {}
func (*ContractDecl) decl() {}
func (*BadDecl) decl()      {}

func (*StateDecl) member()  {}
func (*LetDecl) member()    {}
func (*DataDecl) member()   {}
func (*ActionDecl) member() {}
func (*ViewDecl) member()   {}
func (*BadDecl) member()    {}

func (*Element) viewItem() {}
func (*IfView) viewItem()  {}
func (*BadDecl) viewItem() {}

func (*AssignStmt) stmt() {}
func (*ExprStmt) stmt()   {}
func (*IfStmt) stmt()     {}
func (*Block) stmt()      {}
func (*BadDecl) stmt()    {}

func (*Ident) expr()      {}
func (*StringLit) expr()  {}
func (*NumberLit) expr()  {}
func (*BoolLit) expr()    {}
func (*NullLit) expr()    {}
func (*ListLit) expr()    {}
func (*MemberExpr) expr() {}
func (*CallExpr) expr()   {}
func (*LambdaExpr) expr() {}
func (*UnaryExpr) expr()  {}
func (*BinaryExpr) expr() {}
func (*CondExpr) expr()   {}
func (*IndexExpr) expr()  {}
func (*ParenExpr) expr()  {}
func (*BadExpr) expr()    {}
