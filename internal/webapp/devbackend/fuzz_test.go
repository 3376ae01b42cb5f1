package devbackend

import (
	"os"
	"slices"
	"testing"

	"github.com/axiomcore/acore/internal/lang/check"
)

// FuzzDecodeArgs feeds request bodies to the argument decoder of every
// operation of the shop contract. It must never panic; an accepted body
// gives a value for every parameter, each fitting its type, and encoding
// those arguments and decoding them again gives the same arguments.
func FuzzDecodeArgs(f *testing.F) {
	src, err := os.ReadFile("testdata/shop/contracts/shop.axiom")
	if err != nil {
		f.Fatal(err)
	}
	c := checked("shop", src)
	if c.broken != "" {
		f.Fatal(c.broken)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range c.ops {
			if !yield(n) {
				return
			}
		}
	})
	for i, body := range []string{
		``, `{}`, `[]`, `null`, `{"name": "Pen", "price": 1.5}`,
		`{"name": "X", "price": 1, "tags": ["a", 2]}`, `{"id": 1.5}`, `{"id": 99999999999999999999}`,
		`{"product": 1, "stars": 1, "text": "t", "author": {"name": "A", "email": null}}`,
		`{"featured": true, "featured": false}`, `{"sort": "-price"}`, `{"a":[[[[[[[[[[1]]]]]]]]]]}`,
		`{"price": 1e400, "name": "\u00e9\ud800"}`, `{"id": -0}`, `{"price": -0.0, "name": ""}`,
	} {
		f.Add(uint8(i), []byte(body))
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		o := c.ops[names[int(which)%len(names)]]
		args, cerr := decodeArgs(c, o, body)
		if cerr != nil {
			if cerr.status != 400 || cerr.msg == "" {
				t.Fatalf("status %d, message %q", cerr.status, cerr.msg)
			}
			return
		}
		if len(args) != len(o.params) {
			t.Fatalf("%d arguments for %d parameters", len(args), len(o.params))
		}
		for _, p := range o.params {
			v, ok := args[p.name]
			if !ok {
				t.Fatalf("no value for %s", p.name)
			}
			if !fits(v, p.typ) {
				t.Fatalf("%s = %#v does not fit %s", p.name, v, p.typ)
			}
		}
		data, err := marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		again, cerr := decodeArgs(c, o, data)
		if cerr != nil {
			t.Fatalf("encoded arguments %s are refused: %s", data, cerr.msg)
		}
		for _, p := range o.params {
			if !equal(args[p.name], again[p.name]) {
				t.Fatalf("%s: %#v, then %#v after encoding as %s", p.name, args[p.name], again[p.name], data)
			}
		}
	})
}

// fits reports whether a normalized value has the Go type its contract
// type calls for.
func fits(v any, t *check.Type) bool {
	if v == nil {
		return t.Optional
	}
	switch t.Kind {
	case check.TString:
		_, ok := v.(string)
		return ok
	case check.TInt:
		_, ok := v.(int64)
		return ok
	case check.TFloat:
		_, ok := v.(float64)
		return ok
	case check.TBool:
		_, ok := v.(bool)
		return ok
	case check.TList:
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range list {
			if !fits(e, t.Elem) {
				return false
			}
		}
		return true
	case check.TModel:
		r, ok := v.(*record)
		if !ok || r.model != t.Model || len(r.vals) != len(t.Model.Fields) {
			return false
		}
		for i, f := range t.Model.Fields {
			if !fits(r.vals[i], f.Type) {
				return false
			}
		}
		return true
	}
	return false
}
