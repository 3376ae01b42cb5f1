package edit

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/annotate"
	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// A property an element's kind accepts but the source does not write can
// be added by set_property: its old_value is absent or null, and the
// argument is appended to the element's argument list. The properties an
// element accepts are the catalog's for a built-in element and the props
// of the component for an instance; only the literal scalar types
// (String, Int, Float, Bool, and a component prop's optional forms) are
// offered, as set_property writes only literals.

// accepted is one property an element accepts.
type accepted struct {
	name, typ string
}

// acceptedProps lists the properties n's kind accepts in project p, in
// catalog or declaration order, and whether n's kind is known at all. A
// project locked to the catalog of Acore 1.0 accepts none of the
// properties 1.1 added, as the checker does.
func acceptedProps(p *project.Project, n *graph.Node) ([]accepted, bool) {
	g := p.Result.Graph
	if el, ok := catalog.Lookup(n.Name); ok {
		v10 := locked10(p)
		var out []accepted
		for _, pr := range el.Props {
			if !v10 || !catalog.Since11(n.Name, pr.Name) {
				out = append(out, accepted{pr.Name, string(pr.Type)})
			}
		}
		return out, true
	}
	ci, ok := g.Lookup("component:" + n.Name)
	if !ok {
		return nil, false
	}
	var props []*graph.Node
	for _, ei := range g.In(ci) {
		e := &g.Edges[ei]
		if e.Kind() == graph.EdgeDeclaredIn && g.At(e.From).Kind == graph.KindProp {
			props = append(props, g.At(e.From))
		}
	}
	sort.SliceStable(props, func(a, b int) bool { return props[a].Pos < props[b].Pos })
	var out []accepted
	for _, p := range props {
		typ := ""
		for _, pr := range p.Props {
			if pr.Name == "type" {
				typ, _ = pr.Value.(string)
			}
		}
		out = append(out, accepted{p.Name, typ})
	}
	return out, true
}

func literalType(typ string) bool {
	switch strings.TrimSuffix(typ, "?") {
	case "String", "Int", "Float", "Bool":
		return true
	}
	return false
}

// unwritten lists the literal scalar properties n accepts and does not
// write: an element's, then the @axag facts of a node that describes an
// action (axagAccepted).
func unwritten(p *project.Project, n *graph.Node) []accepted {
	var out []accepted
	if n.Kind == graph.KindElement {
		all, _ := acceptedProps(p, n)
		for _, p := range all {
			if literalType(p.typ) && !hasProp(n, p.name) {
				out = append(out, p)
			}
		}
	}
	for _, p := range axagAccepted(n) {
		if !hasProp(n, p.name) {
			out = append(out, p)
		}
	}
	return out
}

// axagOffered are the @axag facts set_property adds: the scalar ones an
// action is described by (operation_id follows from the operation, and
// skip, which leaves the action out, is written by hand); axagProps are
// them as properties, made once.
var (
	axagOffered = []string{"intent", "entity", "action_type", "description", "risk_level", "confirmation_required",
		"approval_required", "idempotent", "async", "scope", "tenant_boundary"}
	axagProps = func() []accepted {
		out := make([]accepted, len(axagOffered))
		for i, name := range axagOffered {
			k := slices.IndexFunc(check.AxagKeys, func(k check.AxagKey) bool { return k.Name == name })
			out[i] = accepted{check.AxagPropPrefix + name, check.AxagPropType(check.AxagKeys[k].Kind)}
		}
		return out
	}()
)

// axagAccepted are the axag.<key> properties n accepts: a query or
// mutation member's, each an action of the manifest, and an action
// member's or element's that has an @axag already (either may carry one,
// but offering the facts on every action and element would bury their
// other edits; declaration and replace_region write a first @axag there).
func axagAccepted(n *graph.Node) []accepted {
	switch n.Kind {
	case graph.KindQuery, graph.KindMutation:
	case graph.KindAction, graph.KindElement:
		if !slices.ContainsFunc(n.Props, func(p graph.Property) bool { return strings.HasPrefix(p.Name, check.AxagPropPrefix) }) {
			return nil
		}
	default:
		return nil
	}
	return axagProps
}

func hasProp(n *graph.Node, name string) bool {
	for k := range n.Props {
		if n.Props[k].Name == name {
			return true
		}
	}
	return false
}

// unwrittenOptions are the set_property options of the properties n
// accepts and does not write: current_value null, unwritten true.
func (r *editRules) unwrittenOptions() []EditOption {
	var out []EditOption
	for _, p := range unwritten(r.p, r.n) {
		out = append(out, EditOption{Kind: "set_property", Property: p.name, Accepts: p.typ, CurrentValue: json.RawMessage("null"), Unwritten: true})
	}
	return out
}

// currentValue is the JSON of an authored property's value, as node.get
// shows it.
func currentValue(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// addProperty is set_property of a property n does not write yet. It
// inserts text, so the literal changes pending before it are compiled
// first: its splice is in the coordinates of the current bytes.
func (a *applier) addProperty(o *SetProperty, n *graph.Node, i int32) (*change, *Error) {
	if len(a.pending) > 0 {
		if e := a.compile(); e != nil {
			return nil, e
		}
		var e *Error
		if n, i, e = a.node(o.Node, "node"); e != nil {
			return nil, e
		}
	}
	if key, ok := strings.CutPrefix(o.Property, check.AxagPropPrefix); ok {
		return a.addAxag(o, n, i, key)
	}
	all, known := acceptedProps(a.proj, n)
	var acc *accepted
	var names []string
	for k := range all {
		names = append(names, all[k].name)
		if all[k].name == o.Property {
			acc = &all[k]
		}
	}
	if acc == nil {
		list := strings.Join(names, ", ")
		if !known {
			list = "none known: " + n.Name + " is neither a catalog element nor a component of the project"
		}
		return nil, errorf(reason.IncompatibleTarget, "%s (%s) does not accept a property %s (it accepts: %s)", n.ID, n.Name, o.Property, list).
			withNode(n.ID).withProperty(o.Property)
	}
	if !literalType(acc.typ) {
		return nil, notOffered("set_property", n.ID,
			fmt.Sprintf("%s is of type %s; set_property adds only literal String, Int, Float or Bool properties", o.Property, acc.typ)).withProperty(o.Property)
	}
	text, e := a.unwrittenValue(o, n, i, acc)
	if e != nil {
		return nil, e
	}
	sp, e := a.argInsertion(n, o.Property+": "+text)
	if e != nil {
		return nil, e
	}
	return &change{path: n.Path, sp: sp, createdAt: -1, node: n.ID, owner: ownerOf(n), property: o.Property}, nil
}

// addAxag is set_property of an @axag fact n does not write yet: the
// argument added to its @axag, or a new @axag before it (annotate.SetAxag).
// The compile of the candidate then checks the value (AC403 for one not
// allowed).
func (a *applier) addAxag(o *SetProperty, n *graph.Node, i int32, key string) (*change, *Error) {
	var acc *accepted
	all := axagAccepted(n)
	for k := range all {
		if all[k].name == o.Property {
			acc = &all[k]
		}
	}
	if acc == nil {
		why := n.ID + " describes no action that @axag could describe"
		if len(all) > 0 {
			why = fmt.Sprintf("%s is not an @axag fact set_property adds; it adds %s", key, strings.Join(axagOffered, ", "))
		}
		return nil, notOffered("set_property", n.ID, why).withProperty(o.Property)
	}
	text, e := a.unwrittenValue(o, n, i, acc)
	if e != nil {
		return nil, e
	}
	at, found := annotate.At(a.proj.File(n.Path), n.Pos)
	if !found {
		return nil, notOffered("set_property", n.ID, "its declaration is not in the source").withProperty(o.Property)
	}
	sp := annotate.SetAxag(a.data(n.Path), at, key, text)
	return &change{path: n.Path, sp: splice{pos: sp.Pos, end: sp.End, text: sp.Text}, createdAt: -1, node: n.ID, owner: ownerOf(n), property: o.Property}, nil
}

// unwrittenValue checks set_property o of the unwritten property acc of n
// against its option and preconditions, and returns the literal to write.
func (a *applier) unwrittenValue(o *SetProperty, n *graph.Node, i int32, acc *accepted) (string, *Error) {
	opts, _ := a.options(n, i, "set_property")
	opt := findOption(opts, func(x *EditOption) bool { return x.Property == o.Property && x.Unwritten })
	if opt == nil {
		return "", notOffered("set_property", n.ID, o.Property+" is not offered as a property to add").withProperty(o.Property)
	}
	if e := a.preconditions(&o.Common, n, opt); e != nil {
		return "", e
	}
	if !o.OldAbsent && o.OldValue.Kind != ValueNull {
		return "", errorf(reason.OldValueMismatch, "%s of %s is not written, expected %s; send old_value null or leave it out", o.Property, n.ID, o.OldValue.show()).
			withNode(n.ID).withProperty(o.Property).next(Reread, n.ID)
	}
	text, _, ok := literal(o.NewValue, acc.typ)
	if !ok || o.NewValue.Kind == ValueNull {
		return "", errorf(reason.IncompatibleValue, "new_value %s does not fit %s of %s, of type %s", o.NewValue.show(), o.Property, n.ID, acc.typ).
			withNode(n.ID).withProperty(o.Property)
	}
	return text, nil
}

// argInsertion appends argument arg to the argument list of element n:
// after its last argument (on a line of its own when the last argument
// is on one), or as a new list after the element's name.
func (a *applier) argInsertion(n *graph.Node, arg string) (splice, *Error) {
	d := a.data(n.Path)
	el := findElement(a.proj.File(n.Path), n.Pos)
	if el == nil || el.Name == nil {
		return splice{}, notOffered("set_property", n.ID, "its element is not in the source")
	}
	if len(el.Args) == 0 {
		at := int(el.Name.End)
		if el.Parens {
			j := at
			for j < len(d) && d[j] != '(' {
				j++
			}
			return splice{pos: j + 1, end: j + 1, text: arg}, nil
		}
		return splice{pos: at, end: at, text: "(" + arg + ")"}, nil
	}
	last := el.Args[len(el.Args)-1]
	end := int(last.End)
	j := end
	for j < len(d) && (isBlank(d[j]) || d[j] == '\n') {
		j++
	}
	comma := j < len(d) && d[j] == ','
	if lastLine := lineStartAt(d, int(last.Pos)); lastLine != lineStartAt(d, int(el.Name.Pos)) && blankRun(d[lastLine:int(last.Pos)]) {
		indent := indentAt(d, int(last.Pos))
		if comma {
			return splice{pos: j + 1, end: j + 1, text: "\n" + indent + arg + ","}, nil
		}
		return splice{pos: end, end: end, text: ",\n" + indent + arg}, nil
	}
	if comma {
		return splice{pos: j + 1, end: j + 1, text: " " + arg + ","}, nil
	}
	return splice{pos: end, end: end, text: ", " + arg}, nil
}

// locked10 reports whether p's UI lock pins the catalog of Acore 1.0.
func locked10(p *project.Project) bool {
	if p.Inputs == nil || p.Inputs.Lock == nil {
		return false
	}
	l, err := lock.Parse(p.Inputs.Lock.Data)
	return err == nil && l.CatalogVersion == catalog.Version10
}
