package check

import (
	"strings"

	"github.com/axiomcore/acore/internal/lang/graph"
)

// TypeKind classifies a Type.
type TypeKind uint8

// Type kinds. Invalid stands after an error and is assignable both ways,
// so that one mistake produces one diagnostic.
const (
	Invalid TypeKind = iota
	TString
	TInt
	TFloat
	TBool
	TAction
	TList
	TModel
	TQuery
	TMutation
	TLambda
	TNull
	TVoid
)

// Type is a checked type.
type Type struct {
	Kind     TypeKind
	Elem     *Type  // list element; query/mutation data; lambda result
	Model    *Model // TModel
	Optional bool
	Params   int // lambda parameter count
}

// Model is a model declared in a module or a contract.
type Model struct {
	Name   string // as written in types: Task
	NodeID string
	Fields []Field
}

// Field is one field of a model.
type Field struct {
	Name string
	Type *Type
	// node is the index of the field's graph node, or -1 (a contract no
	// module imports).
	node int32
}

// FieldID is the graph id of the field called name of the model whose
// node id is modelID: field:Todo.title, field:Books.Book.title.
func FieldID(modelID, name string) string {
	return graph.KindField + ":" + strings.TrimPrefix(modelID, graph.KindModel+":") + "." + name
}

// Index returns the index of the field called name in Fields, or -1.
func (m *Model) Index(name string) int {
	for i := range m.Fields {
		if m.Fields[i].Name == name {
			return i
		}
	}
	return -1
}

// Field returns the field called name.
func (m *Model) Field(name string) (*Field, bool) {
	for i := range m.Fields {
		if m.Fields[i].Name == name {
			return &m.Fields[i], true
		}
	}
	return nil, false
}

var (
	invalidType = &Type{Kind: Invalid}
	stringType  = &Type{Kind: TString}
	intType     = &Type{Kind: TInt}
	floatType   = &Type{Kind: TFloat}
	boolType    = &Type{Kind: TBool}
	actionType  = &Type{Kind: TAction}
	nullType    = &Type{Kind: TNull}
	voidType    = &Type{Kind: TVoid}
)

var scalarTypes = map[string]*Type{"String": stringType, "Int": intType, "Float": floatType, "Bool": boolType, "Action": actionType}

func listOf(t *Type) *Type { return &Type{Kind: TList, Elem: t} }

func optional(t *Type) *Type {
	if t.Optional || t.Kind == Invalid || t.Kind == TNull {
		return t
	}
	c := *t
	c.Optional = true
	return &c
}

func (t *Type) String() string {
	var s string
	switch t.Kind {
	case Invalid:
		return "invalid"
	case TString:
		s = "String"
	case TInt:
		s = "Int"
	case TFloat:
		s = "Float"
	case TBool:
		s = "Bool"
	case TAction:
		s = "Action"
	case TList:
		s = "[" + t.Elem.String() + "]"
	case TModel:
		s = t.Model.Name
	case TQuery:
		s = "Query<" + t.Elem.String() + ">"
	case TMutation:
		s = "Mutation<" + t.Elem.String() + ">"
	case TLambda:
		s = "|" + strings.Repeat("_", t.Params) + "| " + t.Elem.String()
	case TNull:
		return "null"
	case TVoid:
		return "nothing"
	}
	if t.Optional {
		s += "?"
	}
	return s
}

// assignable reports whether a value of type v may stand where t is
// expected.
func assignable(t, v *Type) bool {
	if t.Kind == Invalid || v.Kind == Invalid {
		return true
	}
	if v.Kind == TNull {
		return t.Optional
	}
	if v.Optional && !t.Optional {
		return false
	}
	if t.Kind == TFloat && v.Kind == TInt {
		return true
	}
	if t.Kind != v.Kind {
		return false
	}
	switch t.Kind {
	case TList:
		// An empty list literal has an invalid element and fits any list.
		return assignable(t.Elem, v.Elem)
	case TModel:
		return t.Model == v.Model
	case TQuery, TMutation:
		return assignable(t.Elem, v.Elem)
	}
	return true
}

func isNumeric(t *Type) bool { return !t.Optional && (t.Kind == TInt || t.Kind == TFloat) }

// Identical reports whether a and b are the same type: the same kind,
// optionality and model, and for lists, queries, mutations and lambdas
// identical elements.
func Identical(a, b *Type) bool {
	if a.Kind != b.Kind || a.Optional != b.Optional || a.Model != b.Model || a.Params != b.Params {
		return false
	}
	if a.Elem == nil || b.Elem == nil {
		return a.Elem == b.Elem
	}
	return Identical(a.Elem, b.Elem)
}
