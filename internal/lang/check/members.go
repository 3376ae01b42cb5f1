package check

// Member is a member of a value that the checker types (docs/language.md
// §4.11): a model's field, a query's or mutation's state, a list's or
// string's property.
type Member struct {
	Name string
	Type *Type
	// Call is set for a member called with parentheses: run and refresh
	// as statements, the methods of Acore 1.1 as values.
	Call bool
}

// Members lists the members of a value of type t, as member (expr.go)
// types them, then its methods (methodsOf), for editors that offer them.
// A method's Type is nil: what it gives depends on its arguments.
func Members(t *Type) []Member {
	if t == nil {
		return nil
	}
	out := members(t)
	for _, m := range methodsOf(t) {
		out = append(out, Member{Name: m, Call: true})
	}
	return out
}

func members(t *Type) []Member {
	switch t.Kind {
	case TModel:
		var out []Member
		for _, f := range t.Model.Fields {
			out = append(out, Member{Name: f.Name, Type: f.Type})
		}
		return out
	case TQuery, TMutation:
		data := t.Elem
		if data != nil && (t.Kind == TMutation || data.Kind != TList) {
			data = optional(data)
		}
		out := []Member{{Name: "pending", Type: boolType}, {Name: "error", Type: boolType},
			{Name: "error_message", Type: stringType}, {Name: "data", Type: data}}
		if t.Kind == TMutation {
			return append(out, Member{Name: "run", Type: actionType, Call: true})
		}
		return append(out, Member{Name: "refresh", Type: actionType, Call: true})
	case TList:
		return []Member{{Name: "count", Type: intType}, {Name: "is_empty", Type: boolType},
			{Name: "first", Type: optional(t.Elem)}, {Name: "last", Type: optional(t.Elem)}}
	case TString:
		return []Member{{Name: "length", Type: intType}, {Name: "is_empty", Type: boolType}}
	}
	return nil
}
