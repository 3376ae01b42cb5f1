package devbackend

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// kind is the shape of a contract type.
type kind uint8

const (
	kString kind = iota
	kInt
	kFloat
	kBool
	kModel
	kList
)

// typ is a contract type: a scalar, a model of the contract or a list,
// each possibly optional.
type typ struct {
	kind     kind
	optional bool
	elem     *typ   // kList
	model    *model // kModel
}

func (t *typ) String() string {
	var s string
	switch t.kind {
	case kString:
		s = "String"
	case kInt:
		s = "Int"
	case kFloat:
		s = "Float"
	case kBool:
		s = "Bool"
	case kModel:
		s = t.model.name
	case kList:
		s = "[" + t.elem.String() + "]"
	}
	if t.optional {
		s += "?"
	}
	return s
}

// required returns t without its optional mark.
func (t *typ) required() *typ {
	if !t.optional {
		return t
	}
	c := *t
	c.optional = false
	return &c
}

// same reports whether two types are identical.
func same(a, b *typ) bool {
	if a.kind != b.kind || a.optional != b.optional || a.model != b.model {
		return false
	}
	if a.kind == kList {
		return same(a.elem, b.elem)
	}
	return true
}

// scalar reports whether values of t can be ordered for sorting.
func (t *typ) scalar() bool { return t.kind <= kBool }

// model is a model of a contract.
type model struct {
	name   string
	fields []field
	byName map[string]int
}

type field struct {
	name string
	typ  *typ
}

// fieldList names the fields for messages: "id, title, done".
func (m *model) fieldList() string {
	names := make([]string, len(m.fields))
	for i, f := range m.fields {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// field returns the named field, or nil.
func (m *model) field(name string) *field {
	if i, ok := m.byName[name]; ok {
		return &m.fields[i]
	}
	return nil
}

// param is a parameter of an operation.
type param struct {
	name string
	typ  *typ
	// def is the default written in the contract, normalized; hasDef tells
	// a default null from no default.
	def    any
	hasDef bool
}

// op is an operation of a contract and what the backend does for it.
type op struct {
	name   string
	kind   syntax.DataKind
	params []param
	byName map[string]int
	result *typ // nil: the operation has no result type
	plan   plan
}

// contract is one contract artifact.
type contract struct {
	id   string // the artifact's file name without .axiom
	name string
	path string // project-relative artifact path
	// models in declaration order; their tables are made when loaded.
	models []*model
	byName map[string]*model
	ops    map[string]*op
	// broken, when set, says why the artifact cannot be used; every call
	// of the contract answers 500 with it.
	broken string
}

// qual names an operation for messages: "Tasks.create_task".
func (c *contract) qual(o *op) string { return c.name + "." + o.name }

// loadContracts reads every artifact in .axiom/dev/contracts of root. A
// missing directory means no contracts. An artifact that cannot be used is
// returned with broken set rather than failing the others.
func loadContracts(root string) (map[string]*contract, error) {
	r, err := fsutil.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("read contract artifacts: %w", err)
	}
	defer r.Close()
	// Listed through the root too: a FIFO in the directory's place is
	// refused instead of waited on.
	d, err := r.OpenDir(lock.ContractDir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]*contract{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read contract artifacts: %w", err)
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("read contract artifacts: %w", err)
	}
	out := map[string]*contract{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".axiom") {
			continue
		}
		id := strings.TrimSuffix(e.Name(), ".axiom")
		rel := path.Join(lock.ContractDir, e.Name())
		c := &contract{id: id, name: id, path: rel}
		out[id] = c
		data, err := readArtifact(r, rel)
		if err != nil {
			c.broken = err.Error()
			continue
		}
		parseContract(c, data)
	}
	return out, nil
}

// readArtifact reads the artifact rel as the compiler reads it
// (internal/lang/load): through the project's confined root, so a symlink
// leads nowhere outside the project; opened without blocking, so a FIFO
// is refused instead of waited on; and never more than the compiler's
// source_file_bytes_max, even from a file that grows meanwhile. What it
// refuses it reports with the compiler's diagnostic for the file.
func readArtifact(r *fsutil.Root, rel string) ([]byte, error) {
	f, fi, err := r.OpenRegular(rel)
	switch {
	case errors.Is(err, fsutil.ErrEscape):
		return nil, notRead(rel, rel+" is a symlink that points outside the project root")
	case errors.Is(err, fsutil.ErrNotRegular):
		what := rel + " is not a regular file"
		if fi, err := r.Stat(rel); err == nil {
			what += " (" + fsutil.FileType(fi.Mode()) + ")"
		}
		return nil, notRead(rel, what)
	case err != nil:
		return nil, notRead(rel, fmt.Sprintf("%s cannot be read: %v", rel, err))
	}
	defer f.Close()
	const limit = load.SourceFileBytesMax
	if fi.Size() > limit {
		return nil, tooLarge(rel, fi.Size())
	}
	data, err := fsutil.ReadAllTo(io.LimitReader(f, limit+1), make([]byte, 0, fi.Size()+512))
	if err != nil {
		return nil, notRead(rel, fmt.Sprintf("%s cannot be read: %v", rel, err))
	}
	if len(data) > limit {
		return nil, tooLarge(rel, int64(len(data)))
	}
	return data, nil
}

// notRead is the compiler's AC506 for an artifact it does not read.
func notRead(rel, detail string) error {
	return fmt.Errorf("%s:1:1: %q was not read: %s [%s]; replace it with the artifact `axiom prepare` writes", rel, rel, detail, diag.FileNotRead)
}

// tooLarge is the compiler's AC153 for an artifact over
// source_file_bytes_max; got is at least its size.
func tooLarge(rel string, got int64) error {
	lim := &load.LimitError{Reason: reason.FileTooLarge, Path: rel, Limit: load.SourceFileBytesMax, Got: got}
	return fmt.Errorf("%s:1:1: %s [%s]; replace it with the artifact `axiom prepare` writes", rel, lim, diag.FileTooLarge)
}

// parseContract fills c from the artifact's text with the project's
// parser, or sets c.broken to the first problem, written as a diagnostic
// (path:line:col: message) and followed by the command that fixes it.
func parseContract(c *contract, data []byte) {
	f := syntax.Parse(c.path, data)
	fail := func(n syntax.Node, format string, a ...any) {
		p := f.Position(int(n.Bounds().Pos))
		c.broken = fmt.Sprintf("%s:%d:%d: %s; fix the contract source and run `axiom prepare`", c.path, p.Line, p.Column, fmt.Sprintf(format, a...))
	}
	// resolve is c.resolve that reports a type naming nothing.
	resolve := func(te *syntax.TypeExpr) (*typ, bool) {
		t, bad := c.resolve(te)
		if bad != nil {
			fail(bad, "unknown type %s; use String, Int, Float, Bool, a model of the contract or a list [T]", typeName(bad))
		}
		return t, bad == nil
	}
	if len(f.Errors) > 0 {
		e := f.Errors[0]
		fail(syntax.Span{Pos: e.Pos}, "%s", e.Msg)
		return
	}
	if f.Module != nil || len(f.Uses) > 0 {
		fail(syntax.Span{}, "a contract file holds only a contract declaration")
		return
	}
	var decl *syntax.ContractDecl
	for _, d := range f.Decls {
		k, ok := d.(*syntax.ContractDecl)
		if !ok || decl != nil {
			fail(d, "a contract file holds exactly one contract declaration")
			return
		}
		decl = k
	}
	if decl == nil {
		fail(syntax.Span{}, "the artifact declares no contract")
		return
	}
	c.name = decl.Name.Name
	c.byName = map[string]*model{}
	for _, md := range decl.Models {
		if c.byName[md.Name.Name] != nil {
			fail(md.Name, "model %s is declared twice", md.Name.Name)
			return
		}
		m := &model{name: md.Name.Name, byName: map[string]int{}}
		c.models = append(c.models, m)
		c.byName[m.name] = m
	}
	for i, md := range decl.Models {
		m := c.models[i]
		for _, fd := range md.Fields {
			if _, dup := m.byName[fd.Name.Name]; dup {
				fail(fd.Name, "field %s of %s is declared twice", fd.Name.Name, m.name)
				return
			}
			t, ok := resolve(fd.Type)
			if !ok {
				return
			}
			m.byName[fd.Name.Name] = len(m.fields)
			m.fields = append(m.fields, field{name: fd.Name.Name, typ: t})
		}
	}
	c.ops = map[string]*op{}
	for _, od := range decl.Ops {
		if c.ops[od.Name.Name] != nil {
			fail(od.Name, "operation %s is declared twice", od.Name.Name)
			return
		}
		o := &op{name: od.Name.Name, kind: od.Kind, byName: map[string]int{}}
		for _, pd := range od.Params {
			if _, dup := o.byName[pd.Name.Name]; dup {
				fail(pd.Name, "parameter %s of %s is declared twice", pd.Name.Name, o.name)
				return
			}
			t, ok := resolve(pd.Type)
			if !ok {
				return
			}
			p := param{name: pd.Name.Name, typ: t}
			if pd.Default != nil {
				v, err := literal(pd.Default)
				if err == nil {
					p.def, err = conform(v, t, "the default of "+p.name, true)
				}
				if err != nil {
					fail(pd.Default, "the default of parameter %s cannot be used: %v", p.name, err)
					return
				}
				p.hasDef = true
			}
			o.byName[p.name] = len(o.params)
			o.params = append(o.params, p)
		}
		if od.Result != nil {
			t, ok := resolve(od.Result)
			if !ok {
				return
			}
			o.result = t
		}
		c.ops[o.name] = o
	}
	for _, o := range c.ops {
		o.plan = infer(c, o)
	}
}

// resolve turns a written type into a typ; bad is the type expression
// that names no type, if any.
func (c *contract) resolve(t *syntax.TypeExpr) (*typ, *syntax.TypeExpr) {
	if t == nil {
		return nil, &syntax.TypeExpr{}
	}
	var out *typ
	switch {
	case t.Elem != nil:
		e, bad := c.resolve(t.Elem)
		if bad != nil {
			return nil, bad
		}
		out = &typ{kind: kList, elem: e}
	case t.Name != nil:
		switch t.Name.Name {
		case "String":
			out = &typ{kind: kString}
		case "Int":
			out = &typ{kind: kInt}
		case "Float":
			out = &typ{kind: kFloat}
		case "Bool":
			out = &typ{kind: kBool}
		default:
			m := c.byName[t.Name.Name]
			if m == nil {
				return nil, t
			}
			out = &typ{kind: kModel, model: m}
		}
	default:
		return nil, t
	}
	out.optional = t.Optional
	return out, nil
}

func typeName(t *syntax.TypeExpr) string {
	if t.Name != nil {
		return t.Name.Name
	}
	return "(missing)"
}

// literal turns a parameter default into a JSON-like value for conform:
// string, bool, null, numbers (a leading minus allowed) and lists of them.
func literal(e syntax.Expr) (any, error) {
	switch e := e.(type) {
	case *syntax.StringLit:
		return e.Value, nil
	case *syntax.BoolLit:
		return e.Value, nil
	case *syntax.NullLit:
		return nil, nil
	case *syntax.NumberLit:
		return json.Number(strings.ReplaceAll(e.Raw, "_", "")), nil
	case *syntax.ParenExpr:
		return literal(e.X)
	case *syntax.UnaryExpr:
		if n, ok := e.X.(*syntax.NumberLit); ok && e.Op == syntax.Minus {
			return json.Number("-" + strings.ReplaceAll(n.Raw, "_", "")), nil
		}
	case *syntax.ListLit:
		out := make([]any, len(e.Elems))
		for i, x := range e.Elems {
			v, err := literal(x)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return nil, errors.New("only literals (strings, numbers, true, false, null and lists of them) can be defaults")
}

// ids returns the contract ids in order, for messages.
func ids(cs map[string]*contract) []string {
	out := make([]string, 0, len(cs))
	for id := range cs {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
