package edit

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/catalog"
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
// write.
func unwritten(p *project.Project, n *graph.Node) []accepted {
	if n.Kind != graph.KindElement {
		return nil
	}
	all, _ := acceptedProps(p, n)
	var out []accepted
	for _, p := range all {
		if literalType(p.typ) && !hasProp(n, p.name) {
			out = append(out, p)
		}
	}
	return out
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

// addProperty is set_property of a property n does not write yet.
func (a *applier) addProperty(o *SetProperty, n *graph.Node, i int32) (*change, *Error) {
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
	opts, _ := a.options(n, i, "set_property")
	opt := findOption(opts, func(x *EditOption) bool { return x.Property == o.Property && x.Unwritten })
	if opt == nil {
		return nil, notOffered("set_property", n.ID, o.Property+" is not offered as a property to add").withProperty(o.Property)
	}
	if e := a.preconditions(&o.Common, n, opt); e != nil {
		return nil, e
	}
	if !o.OldAbsent && o.OldValue.Kind != ValueNull {
		return nil, errorf(reason.OldValueMismatch, "%s of %s is not written, expected %s; send old_value null or leave it out", o.Property, n.ID, o.OldValue.show()).
			withNode(n.ID).withProperty(o.Property).next(Reread, n.ID)
	}
	text, _, ok := literal(o.NewValue, acc.typ)
	if !ok || o.NewValue.Kind == ValueNull {
		return nil, errorf(reason.IncompatibleValue, "new_value %s does not fit %s of %s, of type %s", o.NewValue.show(), o.Property, n.ID, acc.typ).
			withNode(n.ID).withProperty(o.Property)
	}
	sp, e := a.argInsertion(n, o.Property+": "+text)
	if e != nil {
		return nil, e
	}
	return &change{path: n.Path, sp: sp, createdAt: -1, node: n.ID, owner: ownerOf(n), property: o.Property}, nil
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
