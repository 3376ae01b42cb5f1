package schema

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeDoc decodes a JSON document as jsonschema.UnmarshalJSON does
// (objects as map[string]any, arrays as []any, numbers as json.Number),
// for the schema files this package embeds: a one-shot process decodes
// the envelope, common.json and its operation's file for its request, and
// encoding/json took most of that request's validation. A document
// it cannot decode is left to the library, which says why.
func decodeDoc(data []byte) (any, error) {
	d := docDecoder{data: data}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i != len(d.data) {
		return nil, errDoc
	}
	return v, nil
}

var errDoc = errors.New("schema: not a JSON document")

type docDecoder struct {
	data []byte
	i    int
}

func (d *docDecoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value decodes the value at d.i, at most depth 10000 deep as
// encoding/json allows.
func (d *docDecoder) value(depth int) (any, error) {
	if depth > 10000 {
		return nil, errDoc
	}
	d.space()
	if d.i >= len(d.data) {
		return nil, errDoc
	}
	switch c := d.data[d.i]; {
	case c == '{':
		m := map[string]any{}
		err := d.object(func(k string) error {
			v, err := d.value(depth + 1)
			m[k] = v
			return err
		})
		return m, err
	case c == '[':
		a := []any{}
		err := d.seq('[', ']', func() error {
			v, err := d.value(depth + 1)
			a = append(a, v)
			return err
		})
		return a, err
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.word("true")
	case c == 'f':
		return false, d.word("false")
	case c == 'n':
		return nil, d.word("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, errDoc
}

// object reads the object at d.i, calling member for each key in order
// with d at its value, which member reads.
func (d *docDecoder) object(member func(key string) error) error {
	return d.seq('{', '}', func() error {
		d.space()
		k, err := d.str()
		if err != nil {
			return err
		}
		d.space()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return errDoc
		}
		d.i++
		return member(k)
	})
}

// seq reads open, items apart by commas, and close, calling item with d
// at each item, which item reads.
func (d *docDecoder) seq(open, close byte, item func() error) error {
	d.space()
	if d.i >= len(d.data) || d.data[d.i] != open {
		return errDoc
	}
	d.i++
	d.space()
	if d.i < len(d.data) && d.data[d.i] == close {
		d.i++
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		d.space()
		if d.i >= len(d.data) {
			return errDoc
		}
		if d.data[d.i] == close {
			d.i++
			return nil
		}
		if d.data[d.i] != ',' {
			return errDoc
		}
		d.i++
	}
}

func (d *docDecoder) word(w string) error {
	if len(d.data)-d.i < len(w) || string(d.data[d.i:d.i+len(w)]) != w {
		return errDoc
	}
	d.i += len(w)
	return nil
}

// number reads a number by JSON's grammar and keeps its text.
func (d *docDecoder) number() (any, error) {
	start := d.i
	digits := func() int {
		n := 0
		for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.data[d.i] == '-' {
		d.i++
	}
	if d.i < len(d.data) && d.data[d.i] == '0' {
		d.i++
	} else if digits() == 0 {
		return nil, errDoc
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return nil, errDoc
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return nil, errDoc
		}
	}
	return json.Number(d.data[start:d.i]), nil
}

// str reads a string, with JSON's escapes; invalid UTF-8 becomes U+FFFD
// as encoding/json makes it.
func (d *docDecoder) str() (string, error) {
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return "", errDoc
	}
	d.i++
	start := d.i
	for d.i < len(d.data) {
		c := d.data[d.i]
		if c == '"' {
			s := string(d.data[start:d.i])
			d.i++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		d.i++
	}
	// The slow way, from the start, for escapes and other than ASCII.
	var b []byte
	d.i = start
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			return string(b), nil
		case c < 0x20:
			return "", errDoc
		case c == '\\':
			if d.i+1 >= len(d.data) {
				return "", errDoc
			}
			e := d.data[d.i+1]
			d.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", errDoc
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if d.i+1 < len(d.data) && d.data[d.i] == '\\' && d.data[d.i+1] == 'u' {
						save := d.i
						d.i += 2
						if x, ok := d.hex4(); ok {
							r2 = x
						} else {
							return "", errDoc
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b = utf8.AppendRune(b, dec)
							continue
						}
						d.i = save
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", errDoc
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			d.i++
		default:
			r, size := utf8.DecodeRune(d.data[d.i:])
			d.i += size
			b = utf8.AppendRune(b, r)
		}
	}
	return "", errDoc
}

func (d *docDecoder) hex4() (rune, bool) {
	if len(d.data)-d.i < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.data[d.i:d.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(n), true
}
