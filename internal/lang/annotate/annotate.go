// Package annotate writes the arguments of @axag annotations: the one
// text splice that sets a fact on a member or element, as the editor's
// quick fixes and the semantic service's set_property make it.
package annotate

import (
	"bytes"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Target is a member or element that @axag describes: its annotations,
// and where the declaration starts after them.
type Target struct {
	Annotations []*syntax.Annotation
	Start       int32
}

// At finds the query, mutation or action member, or the element, whose
// span or name starts at pos.
func At(f *syntax.File, pos int32) (Target, bool) {
	for _, d := range f.Decls {
		o, ok := d.(*syntax.OwnerDecl)
		if !ok {
			continue
		}
		for _, mem := range o.Members {
			var name *syntax.Ident
			var anns []*syntax.Annotation
			var span syntax.Span
			switch mem := mem.(type) {
			case *syntax.DataDecl:
				name, anns, span = mem.Name, mem.Annotations, mem.Span
			case *syntax.ActionDecl:
				name, anns, span = mem.Name, mem.Annotations, mem.Span
			case *syntax.ViewDecl:
				if t, ok := inView(f.Src, mem.Items, pos); ok {
					return t, true
				}
				continue
			default:
				continue
			}
			if name != nil && (name.Pos == pos || span.Pos == pos) {
				return target(f.Src, anns, span.Pos, name.Pos), true
			}
		}
	}
	return Target{}, false
}

func inView(src []byte, items []syntax.ViewItem, pos int32) (Target, bool) {
	for _, it := range items {
		switch it := it.(type) {
		case *syntax.Element:
			if it.Name != nil && (it.Name.Pos == pos || it.Pos == pos) {
				return target(src, it.Annotations, it.Pos, it.Name.Pos), true
			}
			if it.Children != nil {
				if t, ok := inView(src, it.Children.Items, pos); ok {
					return t, true
				}
			}
		case *syntax.IfView:
			for _, b := range it.Branches {
				if t, ok := inView(src, b.Items, pos); ok {
					return t, true
				}
			}
		}
	}
	return Target{}, false
}

// target is the declaration spanning from pos, named at name: it starts
// after its annotations and the blanks that follow them.
func target(src []byte, anns []*syntax.Annotation, pos, name int32) Target {
	start := pos
	for _, a := range anns {
		start = max(start, a.End)
	}
	for start < name && (src[start] == ' ' || src[start] == '\t' || src[start] == '\n' || src[start] == '\r') {
		start++
	}
	return Target{Annotations: anns, Start: start}
}

// Splice replaces the bytes [Pos, End) of a file by Text.
type Splice struct {
	Pos, End int
	Text     string
}

// SetAxag is the splice that sets key to value, written as Acore writes
// it ("high" quoted, true bare), in t's @axag: the value of its argument
// replaced, or the argument added before the closing parenthesis of the
// first @axag that describes the action (not a parameter); without one, a
// new @axag on its own line before the declaration, or before it on its
// line when something precedes it there.
func SetAxag(src []byte, t Target, key, value string) Splice {
	arg := key + ": " + value
	for _, a := range t.Annotations {
		if a.Name == nil || a.Name.Name != check.AxagAnnotation || a.End < 1 || src[a.End-1] != ')' || check.IsParamAnnotation(a) {
			continue
		}
		for _, x := range a.Args {
			if x.Name != nil && x.Name.Name == key && x.Value != nil {
				v := x.Value.Bounds()
				return Splice{int(v.Pos), int(v.End), value}
			}
		}
		at := int(a.End - 1)
		if len(a.Args) == 0 {
			return Splice{at, at, arg}
		}
		return Splice{at, at, ", " + arg}
	}
	lineStart := bytes.LastIndexByte(src[:t.Start], '\n') + 1
	indent := src[lineStart:t.Start]
	if len(bytes.Trim(indent, " \t")) > 0 {
		return Splice{int(t.Start), int(t.Start), "@axag(" + arg + ") "}
	}
	return Splice{int(t.Start), int(t.Start), "@axag(" + arg + ")\n" + string(indent)}
}

// RemoveAxag is the splice that leaves key out of t's @axag: the
// argument and its comma, or the whole annotation and the blanks after it
// when key was its only argument. ok is false when no @axag of t that
// describes the action gives key.
func RemoveAxag(src []byte, t Target, key string) (Splice, bool) {
	for _, a := range t.Annotations {
		if a.Name == nil || a.Name.Name != check.AxagAnnotation || check.IsParamAnnotation(a) {
			continue
		}
		for i, x := range a.Args {
			if x.Name == nil || x.Name.Name != key {
				continue
			}
			switch {
			case len(a.Args) == 1:
				end := int(a.End)
				for end < len(src) && (src[end] == ' ' || src[end] == '\t' || src[end] == '\n' || src[end] == '\r') && end < int(t.Start) {
					end++
				}
				return Splice{int(a.Pos), end, ""}, true
			case i == 0:
				return Splice{int(x.Pos), int(a.Args[1].Pos), ""}, true
			default:
				return Splice{int(a.Args[i-1].End), int(x.End), ""}, true
			}
		}
	}
	return Splice{}, false
}
