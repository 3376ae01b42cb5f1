package check

import (
	"regexp"
	"strings"

	"github.com/axiomcore/acore/internal/diag"
	"github.com/axiomcore/acore/internal/syntax"
)

// AxagAnnotation is the name of the annotation that carries AXAG metadata.
const AxagAnnotation = "axag"

// Kinds of @axag argument values.
const (
	AxagString  = "string"
	AxagBool    = "bool"
	AxagStrings = "strings" // a list of strings
)

// AxagKey is one argument @axag accepts: its value kind and, for enums,
// the allowed values.
type AxagKey struct {
	Name   string
	Kind   string
	Values []string
	// Pattern, when set, is what a string value must match.
	Pattern *regexp.Regexp
}

// AxagKeys are the arguments of @axag, named after the fields of an AXAG
// manifest action (docs/language.md, section 11).
var AxagKeys = []AxagKey{
	{Name: "intent", Kind: AxagString, Pattern: regexp.MustCompile(`^[a-z_]+\.[a-z_]+$`)},
	{Name: "entity", Kind: AxagString, Pattern: regexp.MustCompile(`^[a-z_]+$`)},
	{Name: "action_type", Kind: AxagString, Values: []string{"read", "write", "delete", "navigate"}},
	{Name: "description", Kind: AxagString},
	{Name: "operation_id", Kind: AxagString},
	{Name: "risk_level", Kind: AxagString, Values: []string{"none", "low", "medium", "high", "critical"}},
	{Name: "confirmation_required", Kind: AxagBool},
	{Name: "approval_required", Kind: AxagBool},
	{Name: "approval_roles", Kind: AxagStrings},
	{Name: "required_roles", Kind: AxagStrings},
	{Name: "idempotent", Kind: AxagBool},
	{Name: "async", Kind: AxagBool},
	{Name: "scope", Kind: AxagString, Values: []string{"public", "user", "tenant", "global"}},
	{Name: "tenant_boundary", Kind: AxagString, Values: []string{"strict", "relaxed"}},
	{Name: "preconditions", Kind: AxagStrings},
	{Name: "postconditions", Kind: AxagStrings},
	{Name: "side_effects", Kind: AxagStrings},
	{Name: "errors", Kind: AxagStrings},
	{Name: "skip", Kind: AxagBool},
}

func axagKey(name string) *AxagKey {
	for i := range AxagKeys {
		if AxagKeys[i].Name == name {
			return &AxagKeys[i]
		}
	}
	return nil
}

func axagKeyNames() string {
	names := make([]string, len(AxagKeys))
	for i, k := range AxagKeys {
		names[i] = k.Name
	}
	return strings.Join(names, ", ")
}

// ReadAxag returns the valid arguments of the @axag annotations among as:
// a string, a bool or a []string per key. Invalid arguments (which the
// checker reports) are left out; of a key given twice the first counts.
// It returns nil when there is no @axag annotation.
func ReadAxag(as []*syntax.Annotation) map[string]any {
	var out map[string]any
	for _, a := range as {
		if a.Name == nil || a.Name.Name != AxagAnnotation {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		readAxag(a, out)
	}
	return out
}

func readAxag(a *syntax.Annotation, out map[string]any) {
	for _, arg := range a.Args {
		if arg.Name == nil {
			continue
		}
		k := axagKey(arg.Name.Name)
		if k == nil {
			continue
		}
		if _, dup := out[k.Name]; dup {
			continue
		}
		if v, ok := axagValue(k, arg.Value); ok && k.allowed(v) == "" {
			out[k.Name] = v
		}
	}
}

func axagValue(k *AxagKey, e syntax.Expr) (any, bool) {
	switch k.Kind {
	case AxagBool:
		b, ok := e.(*syntax.BoolLit)
		if !ok {
			return nil, false
		}
		return b.Value, true
	case AxagString:
		s, ok := e.(*syntax.StringLit)
		if !ok {
			return nil, false
		}
		return s.Value, true
	default:
		l, ok := e.(*syntax.ListLit)
		if !ok {
			return nil, false
		}
		out := make([]string, 0, len(l.Elems))
		for _, el := range l.Elems {
			s, ok := el.(*syntax.StringLit)
			if !ok {
				return nil, false
			}
			out = append(out, s.Value)
		}
		return out, true
	}
}

// allowed returns why v is not an allowed value of k, or "".
func (k *AxagKey) allowed(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	if len(k.Values) > 0 {
		for _, a := range k.Values {
			if a == s {
				return ""
			}
		}
		q := make([]string, len(k.Values))
		for i, a := range k.Values {
			q[i] = syntax.Quote(a)
		}
		return "allowed values: " + strings.Join(q, ", ")
	}
	if k.Pattern != nil && !k.Pattern.MatchString(s) {
		if k.Name == "intent" {
			return `an intent is entity.verb in lowercase letters and _, as "task.create"`
		}
		return "an entity is lowercase letters and _, as \"task\""
	}
	return ""
}

var axagKindWords = map[string]string{AxagString: "a string", AxagBool: "true or false", AxagStrings: `a list of strings, as ["a", "b"]`}

// checkAnnotations validates the @axag annotations of module m: their
// arguments, and that they stand where they mean something (a query,
// mutation or action member, or an element). Other annotations have no
// meaning to the checker. It runs with the module's bodies.
func (c *checker) checkAnnotations(m *module) {
	f := m.file
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *syntax.AppDecl:
			c.axagNoEffect(f, d.Annotations, "an app")
		case *syntax.ModelDecl:
			c.axagNoEffect(f, d.Annotations, "a model")
		case *syntax.ExternDecl:
			c.axagNoEffect(f, d.Annotations, "an extern action")
		case *syntax.OwnerDecl:
			c.axagNoEffect(f, d.Annotations, "a "+d.Kind.String())
			for _, m := range d.Members {
				switch m := m.(type) {
				case *syntax.StateDecl:
					c.axagNoEffect(f, m.Annotations, "a state")
				case *syntax.DataDecl:
					c.axagArgs(f, m.Annotations)
				case *syntax.ActionDecl:
					c.axagArgs(f, m.Annotations)
				case *syntax.ViewDecl:
					c.axagView(f, m.Items)
				}
			}
		}
	}
}

func (c *checker) axagView(f *syntax.File, items []syntax.ViewItem) {
	for _, it := range items {
		switch it := it.(type) {
		case *syntax.Element:
			c.axagArgs(f, it.Annotations)
			if it.Children != nil {
				c.axagView(f, it.Children.Items)
			}
		case *syntax.IfView:
			for _, b := range it.Branches {
				c.axagView(f, b.Items)
			}
		}
	}
}

func (c *checker) axagNoEffect(f *syntax.File, as []*syntax.Annotation, what string) {
	for _, a := range as {
		if a.Name != nil && a.Name.Name == AxagAnnotation {
			c.errorf(f, a.Name, diag.AxagPlacement, "@axag on %s has no effect; it describes a contract operation, a query or mutation member, an action member or an element", what)
			c.axagArgs(f, []*syntax.Annotation{a})
		}
	}
}

func (c *checker) axagArgs(f *syntax.File, as []*syntax.Annotation) {
	// The @axag annotations of one declaration add up; each argument is
	// given once among them.
	seen := map[string]bool{}
	for _, a := range as {
		if a.Name == nil || a.Name.Name != AxagAnnotation {
			continue
		}
		for _, arg := range a.Args {
			if arg.Name == nil {
				c.errorf(f, arg, diag.AxagUnknownArg, "the arguments of @axag are named, as intent: \"task.create\"; known names: %s", axagKeyNames())
				continue
			}
			k := axagKey(arg.Name.Name)
			if k == nil {
				msg := suggest(arg.Name.Name, axagKeyList())
				if msg == "" {
					msg = "; known names: " + axagKeyNames()
				}
				c.errorf(f, arg.Name, diag.AxagUnknownArg, "@axag has no argument %s%s", arg.Name.Name, msg)
				continue
			}
			if seen[k.Name] {
				c.errorf(f, arg.Name, diag.AxagUnknownArg, "%s is given twice to @axag", k.Name)
				continue
			}
			seen[k.Name] = true
			v, ok := axagValue(k, arg.Value)
			if !ok {
				c.errorf(f, arg.Value, diag.AxagBadType, "%s of @axag takes %s, written as a literal", k.Name, axagKindWords[k.Kind])
				continue
			}
			if why := k.allowed(v); why != "" {
				c.errorf(f, arg.Value, diag.AxagBadValue, "%s of @axag is %s; %s", k.Name, syntax.Quote(v.(string)), why)
			}
		}
	}
}

func axagKeyList() []string {
	out := make([]string, len(AxagKeys))
	for i, k := range AxagKeys {
		out[i] = k.Name
	}
	return out
}
