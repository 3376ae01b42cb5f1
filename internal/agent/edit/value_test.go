package edit

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestShowValue: a node's value and a request's value appear in messages
// as the protocol's JSON spells them (as encoding/json writes them without
// HTML escaping), so messages read as the request and node.get do.
func TestShowValue(t *testing.T) {
	want := func(v any) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return "?"
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	values := []any{nil, true, false, "", "Add", `say "hi"\`, "a\nb\rc\td", "\b\f\x00\x01\x1f\x7f", "<a href=x>&amp;</a>",
		"\u2028\u2029", "ÄNDERN ✓ 😀", "bad \xff utf-8 \xc3", int64(0), int64(-42), int64(math.MaxInt64),
		0.1, -2.5, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, math.Copysign(0, -1), math.Inf(1), math.NaN()}
	for _, v := range values {
		if got, w := showValue(v), want(v); got != w {
			t.Errorf("showValue(%#v) = %s, want %s", v, got, w)
		}
		if s, ok := v.(string); ok {
			if got, w := (Value{Kind: ValueString, Text: s}).show(), want(s); got != w {
				t.Errorf("show of %q = %s, want %s", s, got, w)
			}
		}
	}
}

// TestSameValue: a node's value equals a request's value when they are
// the same JSON value; numbers compare by value, as decimals.
func TestSameValue(t *testing.T) {
	num := func(s string) Value { return Value{Kind: ValueNumber, Text: s} }
	str := func(s string) Value { return Value{Kind: ValueString, Text: s} }
	tests := []struct {
		cur  any
		v    Value
		want bool
	}{
		{nil, Value{}, true},
		{nil, str(""), false},
		{"", str(""), true},
		{"Add", str("Add"), true},
		{"Add", str("add"), false},
		{"1", num("1"), false},
		{true, Value{Kind: ValueBool, Bool: true}, true},
		{false, Value{Kind: ValueBool, Bool: true}, false},
		{int64(2), num("2"), true},
		{int64(2), num("2.0"), true},
		{int64(2), num("2e0"), true},
		{int64(2), num("2.5"), false},
		{float64(0.1), num("0.1"), true},
		{float64(0.1), num("0.10000000000000001"), false},
		{float64(2), num("2"), true},
		{math.NaN(), num("0"), false},
		{int64(1), Value{Kind: ValueBool, Bool: true}, false},
		{int64(1), Value{Kind: ValueOther, Text: "[1]"}, false},
	}
	for _, tt := range tests {
		if got := sameValue(tt.cur, tt.v); got != tt.want {
			t.Errorf("sameValue(%#v, %+v) = %v, want %v", tt.cur, tt.v, got, tt.want)
		}
	}
}
