package check

import (
	"regexp"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// AxagAnnotation is the name of the annotation that carries AXAG metadata.
const AxagAnnotation = "axag"

// Kinds of @axag argument values.
const (
	AxagString  = "string"
	AxagBool    = "bool"
	AxagStrings = "strings" // a list of strings
	AxagNumber  = "number"  // an integer or float literal, maybe negative: float64
	AxagCount   = "count"   // a non-negative integer literal: int
	AxagValues  = "values"  // a list of string, number or bool literals: []any
)

// AxagKey is one argument @axag accepts: its value kind and, for enums,
// the allowed values.
type AxagKey struct {
	Name   string
	Kind   string
	Values []string
	// Valid, when set, says whether a string value has the key's form.
	Valid func(string) bool
	// Doc is what the fact tells a runtime agent, for editors.
	Doc string
}

// ValidIntent reports whether s matches ^[a-z_]+\.[a-z_]+$, the form of
// an AXAG intent (entity.verb).
func ValidIntent(s string) bool {
	dot := strings.IndexByte(s, '.')
	return dot >= 0 && ValidEntity(s[:dot]) && ValidEntity(s[dot+1:])
}

// ValidEntity reports whether s matches ^[a-z_]+$, the form of an AXAG
// entity.
func ValidEntity(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return s != ""
}

// AxagPropPrefix starts the names of the properties that hold a node's
// @axag facts: axag.risk_level is the risk_level its @axag writes.
const AxagPropPrefix = "axag."

// axagProps appends to props one axag.<key> property for each argument
// of the action's @axag in as that the checker accepts (a parameter's
// @axag describes a parameter, not the action, and is left out), with the
// span of its value, editable when editable and a literal: what node.get
// shows of the facts and set_property changes.
func (c *checker) axagProps(f *syntax.File, as []*syntax.Annotation, props []graph.Property, editable bool) []graph.Property {
	for _, a := range as {
		if a.Name == nil || a.Name.Name != AxagAnnotation || IsParamAnnotation(a) {
			continue
		}
		for _, arg := range a.Args {
			if arg.Name == nil {
				continue
			}
			k := axagKey(arg.Name.Name)
			if k == nil || slices.ContainsFunc(props, func(p graph.Property) bool { return p.Name == AxagPropPrefix+k.Name }) {
				continue
			}
			if _, ok := axagValue(k, arg.Value); !ok {
				continue
			}
			p := c.literalProp(f, AxagPropPrefix+k.Name, AxagPropType(k.Kind), arg.Value)
			p.Editable = p.Editable && editable
			props = append(props, p)
		}
	}
	return props
}

// AxagPropType is the property type of an @axag argument of kind k.
func AxagPropType(k string) string {
	switch k {
	case AxagBool:
		return "Bool"
	case AxagStrings:
		return "[String]"
	}
	return "String"
}

// AxagKeys are the arguments of @axag, named after the fields of an AXAG
// manifest action (docs/language.md, section 11).
var AxagKeys = []AxagKey{
	{Name: "intent", Kind: AxagString, Valid: ValidIntent, Doc: "The action's name, entity.verb in lowercase and _, as task.create."},
	{Name: "entity", Kind: AxagString, Valid: ValidEntity, Doc: "What the action acts on, in lowercase and _; the part of the intent before the dot when left out."},
	{Name: "action_type", Kind: AxagString, Values: []string{"read", "write", "delete", "navigate"}, Doc: "What the action does; inferred from the contract, which a mutation may refine to write or delete."},
	{Name: "description", Kind: AxagString, Doc: "What the action does, for an agent choosing it."},
	{Name: "operation_id", Kind: AxagString, Doc: "The backend operation's id; the contract operation's name when left out."},
	{Name: "risk_level", Kind: AxagString, Values: []string{"none", "low", "medium", "high", "critical"}, Doc: "How much harm a mistaken run does: a delete is high or critical, and a high or critical action asks for confirmation."},
	{Name: "confirmation_required", Kind: AxagBool, Doc: "An agent asks the user before running the action."},
	{Name: "approval_required", Kind: AxagBool, Doc: "Someone in approval_roles approves the action before it runs."},
	{Name: "approval_roles", Kind: AxagStrings, Doc: "The roles that may approve the action."},
	{Name: "required_roles", Kind: AxagStrings, Doc: "The roles a user needs to run the action."},
	{Name: "idempotent", Kind: AxagBool, Doc: "Running the action twice has the effect of running it once, so an agent may retry it."},
	{Name: "async", Kind: AxagBool, Doc: "The action completes after it answers."},
	{Name: "scope", Kind: AxagString, Values: []string{"public", "user", "tenant", "global"}, Doc: "Whose data the action reaches."},
	{Name: "tenant_boundary", Kind: AxagString, Values: []string{"strict", "relaxed"}, Doc: "Whether the action may cross tenants."},
	{Name: "preconditions", Kind: AxagStrings, Doc: "What must hold before the action runs."},
	{Name: "postconditions", Kind: AxagStrings, Doc: "What holds after it ran."},
	{Name: "side_effects", Kind: AxagStrings, Doc: "What else it changes: emails sent, charges made."},
	{Name: "errors", Kind: AxagStrings, Doc: "The errors it may answer, by name."},
	{Name: "skip", Kind: AxagBool, Doc: "Leave the action out of the manifest."},
}

// AxagParameter is the argument that makes an @axag describe one
// parameter of the operation instead of the action:
// @axag(parameter: "title", minLength: 1, maxLength: 200).
const AxagParameter = "parameter"

// AxagParamKeys are the arguments of a parameter's @axag, named after the
// fields of a parameter of an AXAG 1.1.0 manifest.
var AxagParamKeys = []AxagKey{
	{Name: AxagParameter, Kind: AxagString, Doc: "The operation parameter this @axag describes."},
	{Name: "description", Kind: AxagString, Doc: "What the parameter is, for an agent filling it."},
	{Name: "enum", Kind: AxagValues, Doc: "The values it may take."},
	{Name: "min", Kind: AxagNumber, Doc: "Its least value."},
	{Name: "max", Kind: AxagNumber, Doc: "Its greatest value."},
	{Name: "minLength", Kind: AxagCount, Doc: "Its least length."},
	{Name: "maxLength", Kind: AxagCount, Doc: "Its greatest length."},
	{Name: "pattern", Kind: AxagString, Doc: "A regular expression it matches."},
	{Name: "format", Kind: AxagString, Values: []string{"email", "url", "date", "datetime", "uuid"}, Doc: "Its format."},
}

func axagKey(name string) *AxagKey { return findKey(AxagKeys, name) }

func findKey(keys []AxagKey, name string) *AxagKey {
	for i := range keys {
		if keys[i].Name == name {
			return &keys[i]
		}
	}
	return nil
}

// IsParamAnnotation reports whether a describes a parameter: it has a
// parameter argument.
func IsParamAnnotation(a *syntax.Annotation) bool {
	for _, arg := range a.Args {
		if arg.Name != nil && arg.Name.Name == AxagParameter {
			return true
		}
	}
	return false
}

// ReadAxagParams returns the valid arguments of the parameter @axag
// annotations among as, by parameter name (see AxagParamKeys; values as
// ReadAxag, numbers as float64, counts as int, enums as []any). Of a
// parameter or key given twice the first counts.
func ReadAxagParams(as []*syntax.Annotation) map[string]map[string]any {
	var out map[string]map[string]any
	for _, a := range as {
		if a.Name == nil || a.Name.Name != AxagAnnotation || !IsParamAnnotation(a) {
			continue
		}
		v := map[string]any{}
		readAxag(a, AxagParamKeys, v)
		name, _ := v[AxagParameter].(string)
		if name == "" {
			continue
		}
		if out == nil {
			out = map[string]map[string]any{}
		}
		if _, dup := out[name]; !dup {
			delete(v, AxagParameter)
			out[name] = v
		}
	}
	return out
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
		if !IsParamAnnotation(a) {
			readAxag(a, AxagKeys, out)
		}
	}
	return out
}

// readAxag adds the valid arguments of a among keys to out, keeping a
// key out already has.
func readAxag(a *syntax.Annotation, keys []AxagKey, out map[string]any) {
	for _, arg := range a.Args {
		if arg.Name == nil {
			continue
		}
		k := findKey(keys, arg.Name.Name)
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
	case AxagNumber:
		return axagNumber(e)
	case AxagCount:
		// A count is written as a whole number: 2.0 and -1 are not counts.
		if n, ok := e.(*syntax.NumberLit); !ok || n.Float {
			return nil, false
		}
		v, ok := LiteralValue(e)
		if !ok {
			return nil, false
		}
		i := v.(int64)
		return int(i), int64(int(i)) == i
	case AxagValues:
		l, ok := e.(*syntax.ListLit)
		if !ok {
			return nil, false
		}
		out := make([]any, 0, len(l.Elems))
		for _, el := range l.Elems {
			switch el := el.(type) {
			case *syntax.StringLit:
				out = append(out, el.Value)
			case *syntax.BoolLit:
				out = append(out, el.Value)
			default:
				f, ok := axagNumber(el)
				if !ok {
					return nil, false
				}
				out = append(out, f)
			}
		}
		return out, true
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

// axagNumber reads a number literal, maybe negated, as a float64.
func axagNumber(e syntax.Expr) (any, bool) {
	switch v, _ := LiteralValue(e); v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return nil, false
}

// allowed returns why v is not an allowed value of k, or "".
func (k *AxagKey) allowed(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	if k.Name == "pattern" {
		if _, err := regexp.Compile(s); err != nil {
			return "not a regular expression: " + err.Error()
		}
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
	if k.Valid != nil && !k.Valid(s) {
		if k.Name == "intent" {
			return `an intent is entity.verb in lowercase letters and _, as "task.create"`
		}
		return "an entity is lowercase letters and _, as \"task\""
	}
	return ""
}

// AxagKindWords describe the values of each kind of @axag argument.
var AxagKindWords = map[string]string{AxagString: "a string", AxagBool: "true or false", AxagStrings: `a list of strings, as ["a", "b"]`,
	AxagNumber: "a number", AxagCount: "a whole number, 0 or more", AxagValues: `a list of strings, numbers or booleans, as ["low", "high"]`}

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
			c.misplacedPersist(f, d.Annotations, "an", "app")
		case *syntax.ModelDecl:
			c.axagNoEffect(f, d.Annotations, "a model")
			c.misplacedPersist(f, d.Annotations, "a", "model")
		case *syntax.ExternDecl:
			c.axagNoEffect(f, d.Annotations, "an extern action")
			c.misplacedPersist(f, d.Annotations, "an", "extern action")
		case *syntax.OwnerDecl:
			c.axagContext(f, d.Annotations, d.Kind.String())
			c.misplacedPersist(f, d.Annotations, "a", d.Kind.String())
			for _, m := range d.Members {
				switch m := m.(type) {
				case *syntax.StateDecl:
					c.axagNoEffect(f, m.Annotations, "a state")
				case *syntax.LetDecl:
					c.misplacedPersist(f, m.Annotations, "a", "derived value, recomputed from what it reads,")
					c.axagNoEffect(f, m.Annotations, "a derived value (let)")
				case *syntax.DataDecl:
					c.axagArgs(f, m.Annotations)
					c.misplacedPersist(f, m.Annotations, "a", m.Kind.String())
				case *syntax.ActionDecl:
					c.axagArgs(f, m.Annotations)
					c.misplacedPersist(f, m.Annotations, "an", "action")
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
			c.misplacedPersist(f, it.Annotations, "an", "element")
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

// AxagContextKeys are the @axag arguments a page or component gives to
// the actions of its members, as an ancestor element's attributes do on
// the web.
var AxagContextKeys = []string{"scope", "tenant_boundary", "required_roles"}

// axagContext checks the @axag of a page or component: its arguments, of
// which only AxagContextKeys mean something there.
func (c *checker) axagContext(f *syntax.File, as []*syntax.Annotation, kind string) {
	c.axagArgs(f, as)
	for _, a := range as {
		if a.Name == nil || a.Name.Name != AxagAnnotation {
			continue
		}
		for _, arg := range a.Args {
			if arg.Name != nil && axagKey(arg.Name.Name) != nil && !slices.Contains(AxagContextKeys, arg.Name.Name) {
				c.errorf(f, arg.Name, diag.AxagPlacement, "%s of @axag has no effect on a %s; a %s's @axag gives %s to the actions of its members", arg.Name.Name, kind, kind, strings.Join(AxagContextKeys, ", "))
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
	params := map[string]bool{}
	for _, a := range as {
		if a.Name == nil || a.Name.Name != AxagAnnotation {
			continue
		}
		keys := AxagKeys
		if IsParamAnnotation(a) {
			keys = AxagParamKeys
			for _, arg := range a.Args {
				if arg.Name != nil && arg.Name.Name == AxagParameter {
					if s, ok := arg.Value.(*syntax.StringLit); ok {
						if params[s.Value] {
							c.errorf(f, arg.Value, diag.AxagUnknownArg, "parameter %s is described by two @axag annotations", s.Value)
						}
						params[s.Value] = true
					}
				}
			}
		}
		c.axagAnnotation(f, a, keys, seen)
	}
}

// axagAnnotation checks the arguments of one @axag against keys; seen
// holds the action's arguments given so far (a parameter's @axag has its
// own).
func (c *checker) axagAnnotation(f *syntax.File, a *syntax.Annotation, keys []AxagKey, seen map[string]bool) {
	param := len(keys) > 0 && keys[0].Name == AxagParameter
	if param {
		seen = map[string]bool{}
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	for _, arg := range a.Args {
		if arg.Name == nil {
			c.errorf(f, arg, diag.AxagUnknownArg, "the arguments of @axag are named, as intent: \"task.create\"; known names: %s", axagKeyNames())
			continue
		}
		k := findKey(keys, arg.Name.Name)
		if k == nil {
			msg := suggest(arg.Name.Name, names).String()
			if msg == "" {
				msg = "; known names: " + strings.Join(names, ", ")
			}
			if !param && (arg.Name.Name == "parameters" || arg.Name.Name == "required_parameters" || arg.Name.Name == "optional_parameters") {
				// Parameters come from the operation; their constraints
				// have an @axag of their own.
				msg = `; the parameters are the operation's, and each one's constraints are an @axag of its own, as @axag(parameter: "title", maxLength: 200)`
			}
			what := "@axag"
			if param {
				what = "the @axag of a parameter"
			}
			c.errorf(f, arg.Name, diag.AxagUnknownArg, "%s has no argument %s%s", what, arg.Name.Name, msg)
			continue
		}
		if seen[k.Name] {
			c.errorf(f, arg.Name, diag.AxagUnknownArg, "%s is given twice to @axag", k.Name)
			continue
		}
		seen[k.Name] = true
		v, ok := axagValue(k, arg.Value)
		if !ok {
			c.errorf(f, arg.Value, diag.AxagBadType, "%s of @axag takes %s, written as a literal", k.Name, AxagKindWords[k.Kind])
			continue
		}
		if why := k.allowed(v); why != "" {
			c.errorf(f, arg.Value, diag.AxagBadValue, "%s of @axag is %s; %s", k.Name, syntax.Quote(v.(string)), why)
		}
	}
}
