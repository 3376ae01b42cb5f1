package check

// Member is a member of a value that the checker types (docs/language.md
// §4.11): a model's field, a query's or mutation's state, a list's or
// string's property.
type Member struct {
	Name string
	Type *Type
	// Call is set for a member called with parentheses: a statement (run,
	// refresh) or a method giving a value (Acore 1.1: filter, trim, with,
	// ...). Type is a method's result; nil for map, whose result is its
	// lambda's.
	Call bool
}

// Members lists the members of a value of type t, as member (expr.go)
// types them, for editors that offer them.
func Members(t *Type) []Member {
	if t == nil {
		return nil
	}
	switch t.Kind {
	case TModel:
		var out []Member
		for _, f := range t.Model.Fields {
			out = append(out, Member{Name: f.Name, Type: f.Type})
		}
		return append(out, Member{Name: "with", Type: nonOptional(t), Call: true})
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
		l, elem := nonOptional(t), optional(t.Elem)
		return []Member{{Name: "count", Type: intType}, {Name: "is_empty", Type: boolType},
			{Name: "first", Type: elem}, {Name: "last", Type: elem},
			{Name: "filter", Type: l, Call: true}, {Name: "map", Call: true}, {Name: "any", Type: boolType, Call: true},
			{Name: "all", Type: boolType, Call: true}, {Name: "find", Type: elem, Call: true}, {Name: "sort_by", Type: l, Call: true},
			{Name: "reverse", Type: l, Call: true}, {Name: "contains", Type: boolType, Call: true}, {Name: "take", Type: l, Call: true}}
	case TString:
		return []Member{{Name: "length", Type: intType}, {Name: "is_empty", Type: boolType},
			{Name: "trim", Type: stringType, Call: true}, {Name: "lower", Type: stringType, Call: true}, {Name: "upper", Type: stringType, Call: true},
			{Name: "contains", Type: boolType, Call: true}, {Name: "starts_with", Type: boolType, Call: true},
			{Name: "ends_with", Type: boolType, Call: true}, {Name: "replace", Type: stringType, Call: true},
			{Name: "split", Type: listOf(stringType), Call: true}}
	case TInt, TFloat:
		return []Member{{Name: "fixed", Type: stringType, Call: true}}
	}
	return nil
}
