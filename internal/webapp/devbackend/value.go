package devbackend

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/axiomcore/acore/internal/lang/check"
)

// Values inside the backend are normalized to: nil, string, int64,
// float64, bool, []any (lists) and *record (model values). Every value has
// been conformed to a contract type, so its Go type follows from that type.

// record is a value of a contract model: one value per field, in the
// model's field order, which is also the order it is written in JSON.
type record struct {
	model *check.Model
	vals  []any
}

// get returns the value of the named field; ok is false when the model has
// no such field.
func (r *record) get(name string) (any, bool) {
	i := r.model.Index(name)
	if i < 0 {
		return nil, false
	}
	return r.vals[i], true
}

// MarshalJSON writes the fields in declaration order.
func (r *record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range r.model.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(r.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes a normalized value as JSON without escaping HTML
// characters: the page treats every string as text.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// maxDepth bounds how deeply JSON arrays and objects may nest in a request
// or a stored row. Contract types are finite, but a recursive model
// (model Node { children: [Node] }) admits any depth.
const maxDepth = 64

// errDepth is the error for JSON nested deeper than maxDepth.
var errDepth = fmt.Errorf("JSON nested deeper than %d levels", maxDepth)

// readJSON reads exactly one JSON value from data: nil, bool, string,
// json.Number, []any or *jsonObject. A key given twice in an object, data
// after the value, or nesting deeper than maxDepth is an error.
func readJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec, 0)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, errors.New("the JSON ends too early")
	}
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

// readStored reads a row as the backend stored it: a JSON object whose
// objects come back as map[string]any, for conform's lenient mode. It is
// several times faster than readJSON, which checks what only requests get
// wrong.
func readStored(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// jsonObject is a JSON object with its keys in the order they were given,
// so that messages about them are deterministic.
type jsonObject struct {
	keys []string
	vals map[string]any
}

func readValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, errDepth
		}
		switch t {
		case '[':
			list := []any{}
			for dec.More() {
				v, err := readValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		case '{':
			obj := &jsonObject{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				if _, dup := obj.vals[k]; dup {
					return nil, fmt.Errorf("key %q is given twice", k)
				}
				v, err := readValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj.keys = append(obj.keys, k)
				obj.vals[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil // nil, bool, string or json.Number
	}
}

// describe names the JSON kind of a value read by readJSON, for messages.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case string:
		return "a string"
	case json.Number:
		return "the number " + string(v)
	case []any:
		return "an array"
	case *jsonObject:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// typeError is a value that does not fit its type. path names where the
// value is: an argument, then [i] and .field steps.
type typeError struct {
	path string
	msg  string
}

func (e *typeError) Error() string { return e.path + " " + e.msg }

// conform checks a value read by readJSON against t and returns it
// normalized. Strictly (arguments), a value that does not fit is a
// *typeError; leniently (stored rows read by readStored under a possibly
// changed model), it becomes the zero value of its type, missing fields get
// zero values and unknown fields are dropped.
func conform(v any, t *check.Type, path string, strict bool) (any, error) {
	bad := func(format string, a ...any) (any, error) {
		if !strict {
			return zero(t, nil), nil
		}
		return nil, &typeError{path: path, msg: fmt.Sprintf(format, a...)}
	}
	if v == nil {
		if t.Optional {
			return nil, nil
		}
		return bad("must be %s, got null", t)
	}
	switch t.Kind {
	case check.TString:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case check.TBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case check.TInt:
		if n, ok := v.(json.Number); ok {
			i, err := strconv.ParseInt(string(n), 10, 64)
			if err == nil {
				return i, nil
			}
			if errors.Is(err, strconv.ErrRange) {
				return bad("must be %s, a 64-bit integer; %s is out of range", t, n)
			}
			return bad("must be %s, an integer; got %s", t, n)
		}
	case check.TFloat:
		if n, ok := v.(json.Number); ok {
			f, err := strconv.ParseFloat(string(n), 64)
			if err != nil || math.IsInf(f, 0) {
				return bad("must be %s; %s is out of the range of a 64-bit float", t, n)
			}
			return f, nil
		}
	case check.TList:
		if list, ok := v.([]any); ok {
			out := make([]any, len(list))
			for i, e := range list {
				c, err := conform(e, t.Elem, path+"["+strconv.Itoa(i)+"]", strict)
				if err != nil {
					return nil, err
				}
				out[i] = c
			}
			return out, nil
		}
	case check.TModel:
		if stored, ok := v.(map[string]any); ok && !strict {
			v = &jsonObject{vals: stored}
		}
		if obj, ok := v.(*jsonObject); ok {
			m := t.Model
			if strict {
				for _, k := range obj.keys {
					if m.Index(k) < 0 {
						return nil, &typeError{path: path, msg: fmt.Sprintf("has the field %q, which %s does not declare (fields: %s)", k, m.Name, fieldList(m))}
					}
				}
			}
			r := &record{model: m, vals: make([]any, len(m.Fields))}
			for i, f := range m.Fields {
				fv, given := obj.vals[f.Name]
				if !given && !f.Type.Optional {
					if strict {
						return nil, &typeError{path: path, msg: fmt.Sprintf("misses the field %q (%s)", f.Name, f.Type)}
					}
					r.vals[i] = zero(f.Type, nil)
					continue
				}
				c, err := conform(fv, f.Type, path+"."+f.Name, strict)
				if err != nil {
					return nil, err
				}
				r.vals[i] = c
			}
			return r, nil
		}
	}
	return bad("must be %s, got %s", t, describe(v))
}

// zero is the value a field gets when nothing gives it one: "" for
// String, 0 for Int and Float, false for Bool, [] for a list, null for an
// optional, and a record of zero values for a model. inside holds the
// models being built, so that a model that contains itself without an
// optional or a list in between ends the recursion with null.
func zero(t *check.Type, inside map[*check.Model]bool) any {
	if t.Optional {
		return nil
	}
	switch t.Kind {
	case check.TString:
		return ""
	case check.TInt:
		return int64(0)
	case check.TFloat:
		return float64(0)
	case check.TBool:
		return false
	case check.TList:
		return []any{}
	case check.TModel:
		if inside[t.Model] {
			return nil
		}
		if inside == nil {
			inside = map[*check.Model]bool{}
		}
		inside[t.Model] = true
		defer delete(inside, t.Model)
		r := &record{model: t.Model, vals: make([]any, len(t.Model.Fields))}
		for i, f := range t.Model.Fields {
			r.vals[i] = zero(f.Type, inside)
		}
		return r
	}
	return nil
}

// equal reports whether two normalized values of the same type are equal.
func equal(a, b any) bool {
	switch a := a.(type) {
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equal(a[i], bl[i]) {
				return false
			}
		}
		return true
	case *record:
		br, ok := b.(*record)
		if !ok || len(a.vals) != len(br.vals) {
			return false
		}
		for i := range a.vals {
			if !equal(a.vals[i], br.vals[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// compare orders two normalized scalar values of the same type: null
// first, false before true, numbers by value, strings by bytes.
func compare(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	switch a := a.(type) {
	case string:
		return cmp.Compare(a, b.(string))
	case int64:
		return cmp.Compare(a, b.(int64))
	case float64:
		return cmp.Compare(a, b.(float64))
	case bool:
		switch bb := b.(bool); {
		case a == bb:
			return 0
		case !a:
			return -1
		}
		return 1
	}
	return 0
}
