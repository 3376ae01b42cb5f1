package devbackend

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// verb is what an operation does to its model's rows.
type verb uint8

const (
	vNone verb = iota // not implemented: plan.why says why
	vList
	vGet
	vCreate
	vUpdate
	vDelete
)

// shape is how an operation's result is made from the rows it touched.
type shape uint8

const (
	sList     shape = iota // [M] or [M]?: the rows
	sModel                 // M: the row, 404 when there is none
	sOptModel              // M?: the row or null
	sBool                  // Bool or Bool?: true, or false when there is no row
	sNone                  // no result type: null
)

// keyField is the field that identifies a row for update_* and delete_*,
// and that create_* fills when it is not given.
const keyField = "id"

// sortParam is the list_* parameter that orders the rows, unless the model
// has a field of that name (then it filters, like any field).
const sortParam = "sort"

// plan is what the backend does for one operation: what its name says it
// does (check.OperationKind, which AXAG manifests read too), checked
// against its kind, parameters and result type.
type plan struct {
	verb  verb
	model *check.Model
	shape shape
	// fields lists the parameters named like fields of the model: equality
	// filters for list_* and get_*, the values to write for create_* and
	// update_* (update_*'s id excluded).
	fields []string
	// sort is set when list_* has the sort parameter.
	sort bool
	// key is set when the model has a field id of type String or Int.
	key bool
	// why says why the operation is not implemented (verb vNone).
	why string
}

// infer applies the naming conventions of docs/web.md to an
// operation.
func infer(c *contract, o *op) plan {
	no := func(format string, a ...any) plan {
		return plan{why: fmt.Sprintf(format, a...)}
	}
	prefix := check.OperationVerb(o.name)
	_, rest, _ := strings.Cut(o.name, "_")
	var p plan
	switch o.does {
	case check.OpRead:
		p.verb = vGet
		if prefix == "list" {
			p.verb = vList
		}
	case check.OpCreate:
		p.verb = vCreate
	case check.OpUpdate:
		p.verb = vUpdate
	case check.OpDelete:
		p.verb = vDelete
	}
	if p.verb == vNone {
		return no("its name does not start with list_, get_, create_, update_, delete_ or remove_ followed by a name")
	}
	query := p.verb == vList || p.verb == vGet
	if query && o.kind != syntax.Query {
		return no("%s_* operations are queries, and %s is a mutation", prefix, o.name)
	}
	if !query && o.kind != syntax.Mutation {
		return no("%s_* operations are mutations, and %s is a query", prefix, o.name)
	}

	p.model = resultModel(o.result)
	if p.model == nil {
		p.model = namedModel(c, rest)
	}
	if p.model == nil {
		return no("its result names no model, and %q names no model of %s (models: %s)", rest, c.name, modelList(c))
	}
	m := p.model
	p.key = keyed(m)

	r := o.result
	switch {
	case p.verb == vList:
		if r == nil || r.Kind != check.TList || r.Elem.Optional || r.Elem.Kind != check.TModel || r.Elem.Model != m {
			return no("list_* returns a list of a model, like [%s]; %s returns %s", m.Name, o.name, resultName(r))
		}
		p.shape = sList
	case p.verb == vGet:
		if r == nil || r.Kind != check.TModel || r.Model != m {
			return no("get_* returns a model, like %s or %s?; %s returns %s", m.Name, m.Name, o.name, resultName(r))
		}
		p.shape = sModel
		if r.Optional {
			p.shape = sOptModel
		}
	case r == nil:
		p.shape = sNone
	case r.Kind == check.TModel && r.Model == m:
		p.shape = sModel
		if r.Optional {
			p.shape = sOptModel
		}
	case r.Kind == check.TBool:
		p.shape = sBool
	default:
		return no("%s_* returns %s, %s?, Bool or nothing; %s returns %s", prefix, m.Name, m.Name, o.name, resultName(r))
	}

	if (p.verb == vUpdate || p.verb == vDelete) && !p.key {
		return no("%s_* finds the row by its %s, and %s has no field %s: String or %s: Int", prefix, keyField, m.Name, keyField, keyField)
	}
	for _, pr := range o.params {
		switch {
		case p.verb == vList && pr.name == sortParam && m.Index(sortParam) < 0:
			if pr.typ.Kind != check.TString {
				return no("its parameter sort orders the rows by a field name and must be String or String?, not %s", pr.typ)
			}
			p.sort = true
		case (p.verb == vUpdate || p.verb == vDelete) && pr.name == keyField:
			// checked below, with the model's key
		case p.verb == vDelete:
			return no("%s_* takes only the parameter %s; %s has %s", prefix, keyField, o.name, pr.name)
		default:
			f, ok := m.Field(pr.name)
			if !ok {
				return no("its parameter %s names no field of %s (fields: %s)", pr.name, m.Name, fieldList(m))
			}
			if !check.Identical(required(pr.typ), required(f.Type)) {
				return no("its parameter %s is %s, but %s.%s is %s", pr.name, pr.typ, m.Name, f.Name, f.Type)
			}
			p.fields = append(p.fields, pr.name)
		}
	}
	switch p.verb {
	case vGet:
		if len(p.fields) == 0 {
			return no("get_* needs a parameter named like a field of %s, such as %s, to find the row", m.Name, keyField)
		}
	case vUpdate, vDelete:
		i, ok := o.byName[keyField]
		if !ok {
			return no("%s_* finds the row by its %s, and %s has no parameter %s", prefix, keyField, o.name, keyField)
		}
		want := keyType(m)
		if got := o.params[i].typ; !check.Identical(got, want) {
			return no("its parameter %s is %s, but %s.%s is %s", keyField, got, m.Name, keyField, want)
		}
	}
	return p
}

// keyed reports whether a model has an id: a field id of type String or
// Int, not optional.
func keyed(m *check.Model) bool {
	t := keyType(m)
	return t != nil && !t.Optional && (t.Kind == check.TString || t.Kind == check.TInt)
}

// keyType is the type of m's field id, or nil.
func keyType(m *check.Model) *check.Type {
	if f, ok := m.Field(keyField); ok {
		return f.Type
	}
	return nil
}

// resultModel is the model a result type mentions, inside lists and
// optionals, or nil.
func resultModel(t *check.Type) *check.Model {
	for t != nil && t.Kind == check.TList {
		t = t.Elem
	}
	if t != nil && t.Kind == check.TModel {
		return t.Model
	}
	return nil
}

// namedModel is the model that the rest of an operation's name names: its
// name in snake case (TodoItem → todo_item) or that name's plural (+s,
// +es, y → ies), compared without regard to case.
func namedModel(c *contract, rest string) *check.Model {
	rest = strings.ToLower(rest)
	for _, m := range c.models {
		s := snake(m.Name)
		forms := []string{s, s + "s", s + "es"}
		if strings.HasSuffix(s, "y") {
			forms = append(forms, strings.TrimSuffix(s, "y")+"ies")
		}
		for _, f := range forms {
			if rest == f {
				return m
			}
		}
	}
	return nil
}

// snake writes a model name in lower snake case: TodoItem → todo_item,
// HTTPLog → http_log.
func snake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func modelList(c *contract) string {
	if len(c.models) == 0 {
		return "none"
	}
	names := make([]string, len(c.models))
	for i, m := range c.models {
		names[i] = m.Name
	}
	return strings.Join(names, ", ")
}

func resultName(t *check.Type) string {
	if t == nil {
		return "nothing"
	}
	return t.String()
}
