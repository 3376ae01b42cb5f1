package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/axiomcore/acore/third_party/jsonschema"
	"github.com/axiomcore/acore/third_party/jsonschema/kind"
)

const (
	msgRequired   = "is required"
	msgNotAllowed = "is not allowed"
	msgUnknown    = "unknown field"
)

var printer = message.NewPrinter(language.English)

// leaf is one elementary failure: the instance location of the value that
// is wrong (for a missing or unknown field, the field's own location) and
// what is wrong with it.
type leaf struct {
	loc  []string
	msg  string
	kind jsonschema.ErrorKind
	// at is the location of the error itself (the object, for a missing
	// or unknown field).
	at []string
}

// first turns a validation error tree into the failure to report: the
// deepest leaf, and among equally deep leaves the first in a
// deterministic order (sibling errors sorted by location, the missing
// fields of one object in the schema's order).
func (c *compiled) first(e *jsonschema.ValidationError, inst any, prefix string) *FieldError {
	leaves := c.leaves(e, inst)
	if len(leaves) == 0 {
		return &FieldError{Field: prefix, Message: e.Error()}
	}
	best := leaves[0]
	for _, l := range leaves[1:] {
		if len(l.loc) > len(best.loc) {
			best = l
		}
	}
	return &FieldError{Field: fieldName(prefix, best.loc, inst), Message: best.msg}
}

// leaves flattens e into elementary failures. Alternatives (anyOf, oneOf)
// contribute the failures of the alternative that came closest to
// matching, so that the report names a field of the shape the value was
// evidently meant to have.
func (c *compiled) leaves(e *jsonschema.ValidationError, inst any) []leaf {
	at := e.InstanceLocation
	switch k := e.ErrorKind.(type) {
	case *kind.Group, *kind.AllOf, *kind.Reference, *kind.Schema:
		var out []leaf
		for _, cause := range sortedCauses(e.Causes) {
			out = append(out, c.leaves(cause, inst)...)
		}
		return out
	case *kind.AnyOf:
		return c.alternatives(e, inst)
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return c.alternatives(e, inst)
		}
		return []leaf{{loc: at, at: at, kind: k, msg: "must match exactly one alternative, but matches more than one"}}
	case *kind.Required:
		var out []leaf
		for _, m := range k.Missing {
			out = append(out, leaf{loc: with(at, m), at: at, kind: k, msg: msgRequired})
		}
		return out
	case *kind.DependentRequired:
		var out []leaf
		for _, m := range k.Missing {
			out = append(out, leaf{loc: with(at, m), at: at, kind: k, msg: "is required with " + k.Prop})
		}
		return out
	case *kind.Dependency:
		var out []leaf
		for _, m := range k.Missing {
			out = append(out, leaf{loc: with(at, m), at: at, kind: k, msg: "is required with " + k.Prop})
		}
		return out
	case *kind.AdditionalProperties:
		props := slices.Clone(k.Properties)
		slices.Sort(props)
		var out []leaf
		for _, p := range props {
			out = append(out, leaf{loc: with(at, p), at: at, kind: k, msg: msgUnknown})
		}
		return out
	}
	out := []leaf{{loc: at, at: at, kind: e.ErrorKind, msg: c.message(e, inst)}}
	for _, cause := range sortedCauses(e.Causes) {
		out = append(out, c.leaves(cause, inst)...)
	}
	return out
}

// alternatives picks the failed alternative that came closest: one that
// is not of the wrong JSON type and has no const mismatch, with the fewest
// failures. When every alternative has the wrong type, the value's type
// is reported with all the types that would do.
func (c *compiled) alternatives(e *jsonschema.ValidationError, inst any) []leaf {
	at := e.InstanceLocation
	var best []leaf
	bestRank := -1
	var wantTypes []string
	gotType := ""
	for _, cause := range e.Causes {
		ls := c.leaves(cause, inst)
		rank := 0
		for _, l := range ls {
			switch k := l.kind.(type) {
			case *kind.Type:
				if slices.Equal(l.loc, at) {
					rank = max(rank, 2)
					gotType = k.Got
					for _, w := range k.Want {
						if !slices.Contains(wantTypes, w) {
							wantTypes = append(wantTypes, w)
						}
					}
				}
			case *kind.Const:
				if len(l.loc) <= len(at)+1 {
					rank = max(rank, 1)
				}
			}
		}
		if bestRank < 0 || rank < bestRank || (rank == bestRank && len(ls) < len(best)) {
			best, bestRank = ls, rank
		}
	}
	if bestRank == 2 {
		return []leaf{{loc: at, at: at, kind: &kind.Type{Got: gotType, Want: wantTypes},
			msg: fmt.Sprintf("must be %s (got %s)", strings.Join(wantTypes, " or "), gotType)}}
	}
	if len(best) == 0 {
		return []leaf{{loc: at, at: at, kind: e.ErrorKind, msg: "matches none of the alternatives"}}
	}
	return best
}

// message words one failure of the value at e.InstanceLocation.
func (c *compiled) message(e *jsonschema.ValidationError, inst any) string {
	switch k := e.ErrorKind.(type) {
	case *kind.FalseSchema:
		return msgNotAllowed
	case *kind.Type:
		return fmt.Sprintf("must be %s (got %s)", strings.Join(k.Want, " or "), k.Got)
	case *kind.Const:
		return "must be " + display(k.Want)
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = display(w)
		}
		if len(want) == 1 {
			return "must be " + want[0]
		}
		return "must be one of " + strings.Join(want, ", ")
	case *kind.Minimum:
		return "must be >= " + ratString(k.Want)
	case *kind.Maximum:
		return "must be <= " + ratString(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be > " + ratString(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be < " + ratString(k.Want)
	case *kind.MultipleOf:
		return "must be a multiple of " + ratString(k.Want)
	case *kind.MinLength:
		return fmt.Sprintf("must be at least %d characters (got %d)", k.Want, k.Got)
	case *kind.MaxLength:
		return fmt.Sprintf("must be at most %d characters (got %d)", k.Want, k.Got)
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %d items (got %d)", k.Want, k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("must have at most %d items (got %d)", k.Want, k.Got)
	case *kind.MinProperties:
		return fmt.Sprintf("must have at least %d fields (got %d)", k.Want, k.Got)
	case *kind.MaxProperties:
		return fmt.Sprintf("must have at most %d fields (got %d)", k.Want, k.Got)
	case *kind.UniqueItems:
		return fmt.Sprintf("items %d and %d are equal; items must be unique", k.Duplicates[0], k.Duplicates[1])
	case *kind.Pattern:
		if m, ok := c.patternMessages()[k.Want]; ok {
			return m
		}
		return "must match the pattern " + k.Want
	case *kind.Format:
		return "must be a valid " + k.Want
	case *kind.Not:
		if v, ok := lookup(inst, e.InstanceLocation); ok {
			return "must not be " + display(v)
		}
		return "is not allowed"
	}
	return e.ErrorKind.LocalizedString(printer)
}

// sortedCauses orders sibling errors by instance location, so that the
// report does not depend on map iteration order.
func sortedCauses(causes []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	s := slices.Clone(causes)
	slices.SortStableFunc(s, func(a, b *jsonschema.ValidationError) int {
		return slices.Compare(a.InstanceLocation, b.InstanceLocation)
	})
	return s
}

func with(loc []string, tok string) []string {
	return append(slices.Clone(loc), tok)
}

// fieldName renders a location as prefix.name[index].name, using the
// instance to tell array indexes from object keys.
func fieldName(prefix string, loc []string, inst any) string {
	var b strings.Builder
	b.WriteString(prefix)
	cur := inst
	for _, tok := range loc {
		switch x := cur.(type) {
		case []any:
			b.WriteString("[" + tok + "]")
			i, err := strconv.Atoi(tok)
			if err == nil && i >= 0 && i < len(x) {
				cur = x[i]
			} else {
				cur = nil
			}
			continue
		case map[string]any:
			cur = x[tok]
		default:
			cur = nil
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func lookup(inst any, loc []string) (any, bool) {
	cur := inst
	for _, tok := range loc {
		switch x := cur.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		case map[string]any:
			v, ok := x[tok]
			if !ok {
				return nil, false
			}
			cur = v
		default:
			return nil, false
		}
	}
	return cur, true
}

func display(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(6)
}

// ValueAt finds the value a schema error names, as params.scope.paths[0].
func ValueAt(v any, field string) any {
	for field != "" {
		var key string
		key, field, _ = strings.Cut(field, ".")
		for key != "" {
			name, rest, idx := key, "", -1
			if i := strings.IndexByte(key, '['); i >= 0 {
				name, rest = key[:i], key[i:]
			}
			if name != "" {
				m, _ := v.(map[string]any)
				v = m[name]
			}
			if rest == "" {
				break
			}
			j := strings.IndexByte(rest, ']')
			if j < 0 {
				return nil
			}
			idx, _ = strconv.Atoi(rest[1:j])
			l, _ := v.([]any)
			if idx < 0 || idx >= len(l) {
				return nil
			}
			v = l[idx]
			key = rest[j+1:]
		}
	}
	return v
}
