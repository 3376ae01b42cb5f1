package devbackend

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// callError is a failed call: the HTTP status and the message of the
// {"error": {"message": ...}} body.
type callError struct {
	status int
	msg    string
}

func (e *callError) Error() string { return e.msg }

func fail(status int, format string, a ...any) *callError {
	return &callError{status: status, msg: fmt.Sprintf(format, a...)}
}

// decodeArgs checks a request body against an operation's parameters and
// returns every parameter's value: the argument given, else the
// parameter's default, else null for an optional parameter. An empty body
// counts as {}.
func decodeArgs(c *contract, o *op, body []byte) (map[string]any, *callError) {
	q := c.qual(o)
	obj := &jsonObject{vals: map[string]any{}}
	if len(bytes.TrimSpace(body)) > 0 {
		v, err := readJSON(body)
		if err != nil {
			return nil, fail(http.StatusBadRequest, "%s: the request body is not valid JSON: %v", q, err)
		}
		o, ok := v.(*jsonObject)
		if !ok {
			return nil, fail(http.StatusBadRequest, "%s: the request body must be a JSON object of the arguments by parameter name, got %s", q, describe(v))
		}
		obj = o
	}
	for _, k := range obj.keys {
		if _, ok := o.byName[k]; !ok {
			return nil, fail(http.StatusBadRequest, "%s has no parameter %q (%s)", q, k, paramList(o))
		}
	}
	args := make(map[string]any, len(o.params))
	for _, p := range o.params {
		v, given := obj.vals[p.name]
		if !given || v == nil {
			switch {
			case p.hasDef:
				args[p.name] = p.def
				continue
			case p.typ.Optional:
				args[p.name] = nil
				continue
			case !given:
				return nil, fail(http.StatusBadRequest, "%s: the argument %s (%s) is missing", q, p.name, p.typ)
			}
		}
		c, err := conform(v, p.typ, p.name, true)
		if err != nil {
			return nil, fail(http.StatusBadRequest, "%s: argument %v", q, err)
		}
		args[p.name] = c
	}
	return args, nil
}

func paramList(o *op) string {
	if len(o.params) == 0 {
		return "it takes none"
	}
	parts := make([]string, len(o.params))
	for i, p := range o.params {
		parts[i] = p.name + ": " + p.typ.String()
	}
	return "parameters: " + strings.Join(parts, ", ")
}

// call runs an implemented operation on the store.
func (s *store) call(ctx context.Context, c *contract, o *op, args map[string]any) (any, error) {
	p := &o.plan
	table := tableName(c, p.model)
	switch p.verb {
	case vList:
		rs, err := rows(ctx, s.db, table, p.model)
		if err != nil {
			return nil, err
		}
		rs = filter(rs, p.fields, args)
		if p.sort {
			if err := sortRows(c, o, rs, args[sortParam]); err != nil {
				return nil, err
			}
		}
		out := make([]any, len(rs))
		for i, r := range rs {
			out[i] = r.rec
		}
		return out, nil
	case vGet:
		rs, err := rows(ctx, s.db, table, p.model)
		if err != nil {
			return nil, err
		}
		rs = filter(rs, p.fields, args)
		if len(rs) == 0 {
			return missing(c, o, p.fields, args)
		}
		return rs[0].rec, nil
	}
	var out any
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if p.verb == vCreate {
			out, err = create(ctx, tx, c, o, table, args)
			return err
		}
		r, found, err := findByID(ctx, tx, table, p.model, args[keyField])
		if err != nil {
			return err
		}
		if !found {
			out, err = missing(c, o, []string{keyField}, args)
			return err
		}
		if p.verb == vDelete {
			out = result(p.shape, r.rec)
			return deleteRow(ctx, tx, table, r.seq)
		}
		for _, f := range p.fields {
			if v := args[f]; v != nil {
				r.rec.vals[p.model.Index(f)] = v
			}
		}
		out = result(p.shape, r.rec)
		return updateRow(ctx, tx, table, r.seq, r.rec)
	})
	return out, err
}

// create inserts a row from the arguments named like fields; the others get
// zero values, and a missing id a generated one.
func create(ctx context.Context, tx *sql.Tx, c *contract, o *op, table string, args map[string]any) (any, error) {
	p := &o.plan
	m := p.model
	rec := zero(modelType(m), nil).(*record)
	for _, f := range p.fields {
		if v := args[f]; v != nil {
			rec.vals[m.Index(f)] = v
		}
	}
	if p.key {
		if id := args[keyField]; id != nil {
			_, taken, err := findByID(ctx, tx, table, m, id)
			if err != nil {
				return nil, err
			}
			if taken {
				return nil, fail(http.StatusConflict, "%s: a %s with %s %s already exists", c.qual(o), m.Name, keyField, show(id))
			}
			if n, ok := numericID(id); ok {
				if err := countID(ctx, tx, table, n); err != nil {
					return nil, err
				}
			}
		} else {
			n, err := nextID(ctx, tx, table, m)
			if err != nil {
				return nil, err
			}
			rec.vals[m.Index(keyField)] = keyValue(m, n)
		}
	}
	if _, err := insertRow(ctx, tx, table, rec); err != nil {
		return nil, err
	}
	return result(p.shape, rec), nil
}

// result is what an operation that found or wrote rec answers.
func result(s shape, rec *record) any {
	switch s {
	case sBool:
		return true
	case sNone:
		return nil
	}
	return rec
}

// missing is the answer when no row matches: null for M?, false for Bool,
// else 404.
func missing(c *contract, o *op, fields []string, args map[string]any) (any, error) {
	switch o.plan.shape {
	case sOptModel:
		return nil, nil
	case sBool:
		return false, nil
	}
	var conds []string
	for _, f := range fields {
		if v := args[f]; v != nil {
			conds = append(conds, f+" "+show(v))
		}
	}
	what := ""
	if len(conds) > 0 {
		what = " with " + strings.Join(conds, " and ")
	}
	return nil, fail(http.StatusNotFound, "%s: there is no %s%s", c.qual(o), o.plan.model.Name, what)
}

// show writes a value as JSON for messages.
func show(v any) string {
	b, err := marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// filter keeps the rows whose fields equal the non-null arguments of the
// same names.
func filter(rs []row, fields []string, args map[string]any) []row {
	out := rs[:0:0]
	for _, r := range rs {
		keep := true
		for _, f := range fields {
			want := args[f]
			if want == nil {
				continue
			}
			if v, _ := r.rec.get(f); !equal(v, want) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, r)
		}
	}
	return out
}

// sortRows orders rows by the field that the sort argument names, "-field"
// for descending; equal values keep insertion order. An empty or null sort
// keeps insertion order.
func sortRows(c *contract, o *op, rs []row, arg any) error {
	by, _ := arg.(string)
	if by == "" {
		return nil
	}
	name, desc := strings.CutPrefix(by, "-")
	m := o.plan.model
	i := m.Index(name)
	if i < 0 {
		return fail(http.StatusBadRequest, "%s: sort %q names no field of %s (fields: %s; put - before a field for descending order)", c.qual(o), by, m.Name, fieldList(m))
	}
	if t := m.Fields[i].Type; !scalar(t) {
		return fail(http.StatusBadRequest, "%s: sort %q names %s.%s, which is %s; only String, Int, Float and Bool fields sort", c.qual(o), by, m.Name, name, t)
	}
	slices.SortStableFunc(rs, func(a, b row) int {
		n := compare(a.rec.vals[i], b.rec.vals[i])
		if desc {
			return -n
		}
		return n
	})
	return nil
}

// numericID is an id as a number, when it is an Int or a String of
// decimal digits; generated ids stay above it.
func numericID(id any) (int64, bool) {
	switch v := id.(type) {
	case int64:
		return v, true
	case string:
		if v == "" || strings.TrimLeft(v, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}
