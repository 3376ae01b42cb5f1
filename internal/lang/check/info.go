package check

import (
	"strings"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Info records what a compile proves, for a caller that asks for it
// (Input.Info), as go/types.Info does: the type of each expression, the
// declaration each name declares or uses, the value of each constant,
// the graph node of each declaration and element, and the checked
// contracts. Only the maps the caller makes are filled; a compile without
// an Info records nothing and pays nothing. A compile with an Info checks
// its modules one after another, and Recheck refuses one.
//
// The record refers to the trees of the compiled files: a caller that
// keeps it keeps their whole trees (see syntax.File.DropBodies).
type Info struct {
	// Types maps each expression the checker typed to its type: values,
	// handlers (Action, or a lambda whose result is nothing), calls
	// (nothing, or for a query or mutation declaration its Query or
	// Mutation type) and the names they call. An expression the checker
	// refused has the invalid type.
	Types map[syntax.Expr]*Type
	// Defs maps each identifier that declares a name to what it declares.
	Defs map[*syntax.Ident]*Object
	// Uses maps each identifier that names a declaration to it: the names
	// read, assigned and called in bodies and views, the components that
	// elements render, the pages of routes, the models of types, the
	// fields of member accesses (t.title) and of the labels of record
	// values and with (Todo(title: …), t.with(title: …)), the contracts
	// and operations of query and mutation declarations, and what each use
	// line imports.
	Uses map[*syntax.Ident]*Object
	// Segments maps the :name segments of route path literals that name
	// a page's parameter to it: those of the app's routes and of the
	// navigate and Link paths that name them. Each Ident is made by the
	// checker and spans the name inside the literal (after the colon) of
	// the file at Segment.Path; the trees do not hold it. A route's and a
	// navigation's named arguments are Uses of the parameter.
	Segments map[*syntax.Ident]Segment
	// Values maps each constant expression to its value (see Constant).
	Values map[syntax.Expr]any
	// Nodes maps each declaration, use line, route, element and
	// conditional that has a graph node to its index in Result.Graph; the
	// module line stands for its module.
	Nodes map[syntax.Node]int32
	// Syntax maps graph node indexes back to the same syntax nodes.
	Syntax map[int32]syntax.Node
	// Contracts holds the contracts of the contract artifacts, by id,
	// whether or not a module imports them.
	Contracts map[string]*Contract
}

// Segment is a :name segment of a route path that names a page's
// parameter.
type Segment struct {
	Path string
	Obj  *Object
}

// TypeOf returns the type recorded for e, or nil.
func (info *Info) TypeOf(e syntax.Expr) *Type { return info.Types[e] }

// ObjectOf returns what id declares or uses, or nil.
func (info *Info) ObjectOf(id *syntax.Ident) *Object {
	if o := info.Defs[id]; o != nil {
		return o
	}
	return info.Uses[id]
}

// ObjKind classifies an Object.
type ObjKind uint8

// Object kinds.
const (
	ObjState     ObjKind = iota + 1
	ObjQuery             // a query member
	ObjMutation          // a mutation member
	ObjAction            // an action member
	ObjProp              // a component's prop
	ObjParam             // a parameter of an action
	ObjLocal             // a lambda's parameter or a list's item
	ObjExtern            // an extern action
	ObjPage              // a page
	ObjComponent         // a component
	ObjModel             // a model of a module or a contract
	ObjContract          // a contract
	ObjOperation         // an operation of a contract
	ObjLet               // a derived value (let member)
	ObjField             // a field of a model of a module or a contract
)

var objKindNames = [...]string{"", "state", "query", "mutation", "action", "prop", "param", "local", "extern", "page", "component", "model", "contract", "operation", "let", "field"}

func (k ObjKind) String() string {
	if int(k) < len(objKindNames) {
		return objKindNames[k]
	}
	return "invalid"
}

// Object is a declared name.
type Object struct {
	Kind ObjKind
	Name string
	// Type is the type of the name's value: a member's, a parameter's, a
	// local's; Action for actions and extern actions; the model for a
	// model; an operation's Query or Mutation type. Pages, components and
	// contracts have none (nil).
	Type *Type
	// Decl is the declaration: a *syntax.StateDecl, LetDecl, DataDecl,
	// ActionDecl, OwnerDecl, ModelDecl, ExternDecl, ContractDecl or OpDecl,
	// a *syntax.Param for props, parameters and fields, the *syntax.Ident
	// of a local.
	Decl syntax.Node
	// Node is the index of the declaration's graph node, or -1.
	Node int32
	// Model is the model of an ObjModel, and the one an ObjField is a
	// field of.
	Model *Model
	// Contract is the contract of an ObjContract or ObjOperation.
	Contract *Contract
	// Op is the operation of an ObjOperation, and the one an ObjQuery or
	// ObjMutation calls (nil when it calls none).
	Op *Operation
}

// Contract is a checked contract artifact.
type Contract struct {
	ID   string // the artifact's base name without .axiom
	Name string
	Path string // the artifact's project-relative path
	// Models and Ops are in declaration order, without repeated names.
	Models []*Model
	Ops    []*Operation
	Decl   *syntax.ContractDecl
}

// Op returns the operation called name, or nil.
func (k *Contract) Op(name string) *Operation {
	for _, op := range k.Ops {
		if op.Name == name {
			return op
		}
	}
	return nil
}

// Operation is a checked operation of a contract.
type Operation struct {
	Name   string
	Kind   syntax.DataKind
	Params []OpParam
	// Result is the result type; its kind is TVoid when none is written.
	Result *Type
	Decl   *syntax.OpDecl
}

// Does says what the operation does (see OperationKind).
func (op *Operation) Does() OpKind { return OperationKind(op.Name) }

// OpParam is a parameter of an operation.
type OpParam struct {
	Name string
	Type *Type
	// Default is the default value's expression, or nil; Info.Values has
	// its value when it is a constant.
	Default syntax.Expr
	// Required is set when the parameter has no default and a type that
	// is not optional.
	Required bool
}

// Constant returns the value of a constant expression: a string, an
// int64 or float64 for a number (maybe negated), a bool, nil for null,
// the value inside parentheses, or a []any for a list of constants.
func Constant(e syntax.Expr) (any, bool) {
	switch e := e.(type) {
	case *syntax.ParenExpr:
		return Constant(e.X)
	case *syntax.ListLit:
		out := make([]any, len(e.Elems))
		for i, el := range e.Elems {
			v, ok := Constant(el)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	return LiteralValue(e)
}

// record notes that expression e has type t, and its value when it is a
// constant.
func (c *checker) record(e syntax.Expr, t *Type) {
	if c.info.Types != nil {
		c.info.Types[e] = t
	}
	if c.info.Values != nil {
		switch e.(type) {
		case *syntax.StringLit, *syntax.NumberLit, *syntax.BoolLit, *syntax.NullLit, *syntax.ParenExpr, *syntax.ListLit, *syntax.UnaryExpr:
			if v, ok := Constant(e); ok {
				c.info.Values[e] = v
			}
		}
	}
}

// def records that id declares o.
func (c *checker) def(id *syntax.Ident, o *Object) {
	if c.info.Defs != nil && id != nil {
		c.info.Defs[id] = o
	}
}

// use records that id names o.
func (c *checker) use(id *syntax.Ident, o *Object) {
	if c.info.Uses != nil && id != nil && o != nil {
		c.info.Uses[id] = o
	}
}

// useParams records the names of a call's named arguments as uses of the
// parameters of the action s, whose objects are keyed by the parameters'
// names (see with) whether the action's body was checked yet or not.
func (c *checker) useParams(call *syntax.CallExpr, s *symbol) {
	ad, ok := s.decl.(*syntax.ActionDecl)
	if !ok {
		return
	}
	for _, a := range call.Args {
		if a.Name == nil {
			continue
		}
		for _, pd := range ad.Params {
			if pd.Name != nil && pd.Name.Name == a.Name.Name {
				c.use(a.Name, c.object(pd.Name, func() *Object { return &Object{Kind: ObjParam, Name: pd.Name.Name, Decl: pd, Node: -1} }))
			}
		}
	}
}

// object returns the object of key (an *owner, *Model, *contract,
// *operation, *extern or member *symbol), made by mk the first time.
func (c *checker) object(key any, mk func() *Object) *Object {
	if o := c.objects[key]; o != nil {
		return o
	}
	o := mk()
	c.objects[key] = o
	return o
}

// symObject returns the object of a member or local.
func (c *checker) symObject(s *symbol) *Object {
	if s.kind == symLocal || s.kind == symParam {
		if id, ok := s.decl.(*syntax.Ident); ok {
			return c.info.Defs[id]
		}
		return c.objects[s.decl]
	}
	return c.objects[s]
}

// ownerObject returns the object of a page or component.
func (c *checker) ownerObject(o *owner) *Object {
	return c.object(o, func() *Object {
		k := ObjPage
		if o.decl.Kind == syntax.Component {
			k = ObjComponent
		}
		return &Object{Kind: k, Name: o.decl.Name.Name, Decl: o.decl, Node: o.node}
	})
}

// modelObject returns the object of a model.
func (c *checker) modelObject(m *Model) *Object {
	return c.object(m, func() *Object {
		return &Object{Kind: ObjModel, Name: m.Name, Type: &Type{Kind: TModel, Model: m}, Node: -1, Model: m}
	})
}

// finishInfo completes the record once every body is checked: the types
// and nodes of members, and the nodes of models, which are known last.
func (c *checker) finishInfo() {
	for _, s := range c.members {
		if o := c.objects[s]; o != nil {
			o.Type, o.Node = s.typ, s.node
		}
	}
	for key, o := range c.objects {
		switch key := key.(type) {
		case *Model:
			if i, ok := c.g.Lookup(key.NodeID); ok {
				o.Node = i
			}
		case *contract:
			o.Node = key.node
		case *operation:
			o.Node = key.node
		case fieldKey:
			// A contract's field has its node once a module imports it.
			if i := key.m.Index(key.name); i >= 0 {
				o.Node = key.m.Fields[i].node
			}
		}
	}
}

// recordSegments records the :name segments of the path literal lit of f
// whose names objOf resolves (see Info.Segments).
func (c *checker) recordSegments(f *syntax.File, lit *syntax.StringLit, objOf func(name string) *Object) {
	if c.info == nil || c.info.Segments == nil || lit == nil {
		return
	}
	path := NavPath(lit.Value)
	off := 0
	for _, seg := range strings.Split(path, "/") {
		if name, ok := strings.CutPrefix(seg, ":"); ok && name != "" {
			// The literal's text holds the value after its opening quote;
			// a segment the text does not hold as written (an escape) is
			// left out.
			pos := int(lit.Pos) + 1 + off + 1
			if o := objOf(name); o != nil && pos+len(name) <= len(f.Src) && string(f.Src[pos:pos+len(name)]) == name {
				id := &syntax.Ident{Span: syntax.Span{Pos: int32(pos), End: int32(pos + len(name))}, Name: name}
				c.info.Segments[id] = Segment{Path: f.Path, Obj: o}
			}
		}
		off += len(seg) + 1
	}
}

// paramObject returns the object of page o's parameter called name, or
// nil.
func (c *checker) paramObject(o *owner, name string) *Object {
	if o == nil {
		return nil
	}
	if s := o.members[name]; s != nil && s.kind == symProp {
		return c.objects[s]
	}
	return nil
}

// fieldKey keys the object of a field: a model's fields are values, so
// the field is named by its model and name.
type fieldKey struct {
	m    *Model
	name string
}

// fieldObject returns the object of field i of m; decl is its
// declaration, or nil at a use.
func (c *checker) fieldObject(m *Model, i int, decl *syntax.Param) *Object {
	fd := m.Fields[i]
	o := c.object(fieldKey{m, fd.Name}, func() *Object {
		return &Object{Kind: ObjField, Name: fd.Name, Type: fd.Type, Node: fd.node, Model: m}
	})
	if decl != nil {
		o.Decl = decl
	}
	return o
}

// useField records id as a use of field i of m.
func (c *checker) useField(id *syntax.Ident, m *Model, i int) {
	if c.info != nil && c.info.Uses != nil {
		c.use(id, c.fieldObject(m, i, nil))
	}
}

// externObject returns the object of an extern action.
func (c *checker) externObject(ex *extern) *Object {
	return c.object(ex, func() *Object {
		return &Object{Kind: ObjExtern, Name: ex.decl.Name.Name, Type: actionType, Decl: ex.decl, Node: ex.node}
	})
}

// recordName records the name id, which is s (or names nothing when s is
// nil), and its type.
func (c *checker) recordName(id *syntax.Ident, s *symbol) {
	if s == nil {
		c.record(id, invalidType)
		return
	}
	c.record(id, s.typ)
	c.use(id, c.symObject(s))
}

// recordCallee records a called name or a handler's name: s, else an
// extern action of x's module.
func (c *checker) recordCallee(x ctx, id *syntax.Ident, s *symbol) {
	if s != nil {
		c.recordName(id, s)
		return
	}
	if ex := x.o.mod.externs[id.Name]; ex != nil {
		c.record(id, actionType)
		c.use(id, c.externObject(ex))
		return
	}
	c.record(id, invalidType)
}

// publish records contract k: its Contract, and the objects of it, its
// models, operations and their parameters.
func (c *checker) publish(k *contract) {
	pub := &Contract{ID: k.id, Name: k.name, Path: k.file.Path, Decl: k.decl}
	ko := &Object{Kind: ObjContract, Name: k.name, Decl: k.decl, Node: -1, Contract: pub}
	c.objects[k] = ko
	c.def(k.decl.Name, ko)
	for _, md := range k.decl.Models {
		mod := k.models[md.Name.Name]
		if o := c.modelObject(mod); o.Decl == nil {
			o.Decl = md
			c.def(md.Name, o)
			pub.Models = append(pub.Models, mod)
			for _, fd := range md.Fields {
				// A field declared twice names the first.
				if i := mod.Index(fd.Name.Name); i >= 0 && c.objects[fieldKey{mod, fd.Name.Name}] == nil {
					c.def(fd.Name, c.fieldObject(mod, i, fd))
				}
			}
		}
	}
	for _, od := range k.decl.Ops {
		op := k.ops[od.Name.Name]
		if op == nil || op.decl != od {
			continue
		}
		po := &Operation{Name: od.Name.Name, Kind: od.Kind, Result: op.result, Decl: od}
		for _, p := range op.params {
			pd := p.decl
			po.Params = append(po.Params, OpParam{Name: p.name, Type: p.typ, Default: pd.Default, Required: p.required})
			c.def(pd.Name, &Object{Kind: ObjParam, Name: p.name, Type: p.typ, Decl: pd, Node: -1})
			if pd.Default != nil && c.info.Values != nil {
				if v, ok := Constant(pd.Default); ok {
					c.info.Values[pd.Default] = v
				}
			}
		}
		pub.Ops = append(pub.Ops, po)
		oo := &Object{Kind: ObjOperation, Name: po.Name, Type: op.dataType, Decl: od, Node: -1, Contract: pub, Op: po}
		c.objects[op] = oo
		c.def(od.Name, oo)
	}
	if c.info.Contracts != nil {
		c.info.Contracts[k.id] = pub
	}
}
