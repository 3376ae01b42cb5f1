// Package refs indexes the identifiers of a recorded compile: for each
// file its identifiers with what they declare or use, and for each
// declaration every identifier that names it. The editor's features and
// the rename engine read it.
package refs

import (
	"reflect"
	"sort"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Index holds a compile with the checker's record (project.Recorded) and
// every identifier of every file with the declaration the checker
// resolved it to.
type Index struct {
	Recorded *project.Project
	// Idents are each file's identifiers, sorted by position.
	Idents map[string][]Ref
	// Refs lists, for each declaration, the identifiers that declare or
	// use it, in file and position order.
	Refs map[*check.Object][]Ref
	// Trees are the whole trees of the recorded compile, by path.
	Trees map[string]*syntax.File
}

// Ref is one identifier in a file.
type Ref struct {
	Path  string
	Ident *syntax.Ident
	// Obj is what the identifier declares or uses; nil when the checker
	// resolved it to nothing (a property name, a keyword-like name, an
	// unknown name).
	Obj *check.Object
	Def bool
	// Segment is set for the :name segment of a route path that names a
	// page's parameter (check.Info.Segments): its Ident is inside a string
	// literal, and its Stack is empty.
	Segment bool
	// Stack holds the nodes that enclose the identifier, outermost first.
	Stack []syntax.Node
}

// Build indexes the recorded compile of p (nil: an empty index).
func Build(p *project.Project) *Index {
	ix := &Index{Idents: map[string][]Ref{}, Refs: map[*check.Object][]Ref{}, Trees: map[string]*syntax.File{}}
	if p == nil {
		return ix
	}
	rp := p.Recorded()
	ix.Recorded = rp
	info := rp.Info
	files := append(append([]*syntax.File(nil), rp.SourceHeaders()...), rp.Contracts...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		ix.Trees[f.Path] = f
		var list []Ref
		walk(reflect.ValueOf(f), nil, func(id *syntax.Ident, stack []syntax.Node) {
			it := Ref{Path: f.Path, Ident: id, Stack: append([]syntax.Node(nil), stack...)}
			if info != nil {
				if o := info.Defs[id]; o != nil {
					it.Obj, it.Def = o, true
				} else if o := info.Uses[id]; o != nil {
					it.Obj = o
				}
			}
			list = append(list, it)
		})
		list = append(list, segments(info, f)...)
		sort.SliceStable(list, func(i, j int) bool { return list[i].Ident.Pos < list[j].Ident.Pos })
		ix.Idents[f.Path] = list
		for _, it := range list {
			if it.Obj != nil {
				ix.Refs[it.Obj] = append(ix.Refs[it.Obj], it)
			}
		}
	}
	return ix
}

// segments are the route path segments of f that name a page's
// parameter.
func segments(info *check.Info, f *syntax.File) []Ref {
	if info == nil {
		return nil
	}
	var out []Ref
	for id, s := range info.Segments {
		if s.Path == f.Path {
			out = append(out, Ref{Path: f.Path, Ident: id, Obj: s.Obj, Segment: true})
		}
	}
	return out
}

// At returns the identifier of path whose span holds the byte offset off
// (its end included, where an editor's cursor stands after typing it).
func (ix *Index) At(path string, off int) (Ref, bool) {
	list := ix.Idents[path]
	i := sort.Search(len(list), func(i int) bool { return int(list[i].Ident.End) >= off })
	for ; i < len(list) && int(list[i].Ident.Pos) <= off; i++ {
		if int(list[i].Ident.End) >= off {
			return list[i], true
		}
	}
	return Ref{}, false
}

var (
	identType = reflect.TypeFor[*syntax.Ident]()
	nodeType  = reflect.TypeFor[syntax.Node]()
)

// walk visits every identifier under v, in any node type of the syntax
// tree, with the nodes that enclose it; it follows pointers, slices,
// structs and interfaces, so new node kinds need no case here.
func walk(v reflect.Value, stack []syntax.Node, visit func(*syntax.Ident, []syntax.Node)) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), stack, visit)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == identType {
			visit(v.Interface().(*syntax.Ident), stack)
			return
		}
		if v.Elem().Kind() != reflect.Struct {
			return
		}
		if v.Type().Implements(nodeType) {
			stack = append(stack, v.Interface().(syntax.Node))
		}
		walk(v.Elem(), stack, visit)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[syntax.File]() {
			// Only the declarations: tokens, text and line tables hold no
			// identifiers of the tree.
			for i := 0; i < v.NumField(); i++ {
				if f := v.Type().Field(i); f.IsExported() && f.Name != "Tokens" && f.Name != "Src" {
					walk(v.Field(i), stack, visit)
				}
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), stack, visit)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 || v.Type().Elem().Kind() == reflect.Int32 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), stack, visit)
		}
	}
}
