package check

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// contract is a backend contract read from its development artifact.
type contract struct {
	id        string
	name      string
	file      *syntax.File
	decl      *syntax.ContractDecl
	audiences []string
	models    map[string]*Model
	ops       map[string]*operation
	node      int32 // contract_import node once imported, else -1
	imported  bool
	// signed is never set for artifacts under .axiom/dev: a development
	// artifact is unsigned whatever the lock says, since only Axiom Cloud
	// signs and its artifacts live elsewhere.
	signed bool
}

type operation struct {
	decl   *syntax.OpDecl
	kind   syntax.DataKind
	params []opParam
	result *Type
	// dataType is the type of the queries or mutations that call it, made
	// once (it is the same for each).
	dataType *Type
	node     int32
	// ref is Contract.op, the operation property of the queries and
	// mutations that call it.
	ref string
}

type opParam struct {
	name     string
	typ      *Type
	required bool
	// prop and typName name the property of a query's or mutation's
	// argument and its type, made once rather than per call.
	prop, typName string
	decl          *syntax.Param
}

// loadContracts reads every contract artifact: one contract per file, its
// id the file's base name.
func (c *checker) loadContracts() {
	for _, f := range c.in.Contracts {
		id := strings.TrimSuffix(path.Base(f.Path), ".axiom")
		var decl *syntax.ContractDecl
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *syntax.ContractDecl:
				if decl != nil {
					c.errorf(f, d, diag.Misplaced, "a contract file holds exactly one contract declaration; %s is a second one", d.Name.Name)
					continue
				}
				decl = d
			case *syntax.BadDecl:
			default:
				c.errorf(f, d, diag.Misplaced, "a contract file holds only a contract declaration")
			}
		}
		if f.Module != nil {
			c.errorf(f, f.Module, diag.Misplaced, "a contract file holds only a contract declaration, and no module line")
		}
		for _, u := range f.Uses {
			c.errorf(f, u, diag.Misplaced, "a contract file holds only a contract declaration, and no use lines")
		}
		if decl == nil {
			if len(f.Errors) == 0 {
				c.diags = append(c.diags, c.diagAt(f, 0, 0, diag.BadContract, "the artifact declares no contract; a contract artifact holds one contract declaration"))
			}
			continue
		}
		k := &contract{id: id, name: decl.Name.Name, file: f, decl: decl, models: map[string]*Model{}, ops: map[string]*operation{}, node: -1}
		for _, a := range decl.Audiences {
			k.audiences = append(k.audiences, a.Value)
		}
		// A repeated model is reported and left out, fields and all.
		var first []*syntax.ModelDecl
		for _, md := range decl.Models {
			if _, dup := k.models[md.Name.Name]; dup {
				c.errorf(f, md.Name, diag.Duplicate, "model %s is declared twice in contract %s", md.Name.Name, k.name)
				continue
			}
			k.models[md.Name.Name] = &Model{Name: md.Name.Name, NodeID: "model:" + k.name + "." + md.Name.Name}
			first = append(first, md)
		}
		for _, md := range first {
			mod := k.models[md.Name.Name]
			for _, fd := range md.Fields {
				t := c.contractType(k, fd.Type)
				if mod.Index(fd.Name.Name) >= 0 {
					c.errorf(f, fd.Name, diag.Duplicate, "field %s of %s is declared twice in contract %s", fd.Name.Name, md.Name.Name, k.name)
					continue
				}
				mod.Fields = append(mod.Fields, Field{Name: fd.Name.Name, Type: t, node: -1})
			}
		}
		for _, md := range decl.Models {
			c.axagNoEffect(f, md.Annotations, "a contract model")
		}
		for _, od := range decl.Ops {
			// The backend team's @axag facts on an operation: every
			// binding inherits them (docs/language.md, section 11).
			c.axagArgs(f, od.Annotations)
			if _, dup := k.ops[od.Name.Name]; dup {
				c.errorf(f, od.Name, diag.Duplicate, "operation %s is declared twice in contract %s", od.Name.Name, k.name)
				continue
			}
			op := &operation{decl: od, kind: od.Kind, node: -1, ref: k.name + "." + od.Name.Name}
			for _, p := range od.Params {
				t := c.contractType(k, p.Type)
				if slices.ContainsFunc(op.params, func(q opParam) bool { return q.name == p.Name.Name }) {
					c.errorf(f, p.Name, diag.Duplicate, "parameter %s of %s is declared twice in contract %s", p.Name.Name, od.Name.Name, k.name)
					continue
				}
				if p.Default != nil {
					c.contractDefault(k, od, p, t)
				}
				op.params = append(op.params, opParam{name: p.Name.Name, typ: t, required: p.Default == nil && (p.Type == nil || !p.Type.Optional),
					prop: "arg." + p.Name.Name, typName: t.String(), decl: p})
			}
			if od.Result != nil {
				op.result = c.contractType(k, od.Result)
			} else {
				op.result = voidType
			}
			op.dataType = &Type{Kind: TMutation, Elem: op.result}
			if od.Kind == syntax.Query {
				op.dataType.Kind = TQuery
			}
			k.ops[od.Name.Name] = op
		}
		c.contracts[id] = k
		if c.info != nil {
			c.publish(k)
		}
	}
}

// contractDefault checks the default of the parameter p of operation od,
// of type t: a constant that fits t, which is what a backend passes for
// the missing argument.
func (c *checker) contractDefault(k *contract, od *syntax.OpDecl, p *syntax.Param, t *Type) {
	v, ok := Constant(p.Default)
	if !ok {
		c.errorf(k.file, p.Default, diag.BadValue, "the default of parameter %s of %s cannot be used: only literals (strings, numbers in range, true, false, null and lists of them) can be defaults", p.Name.Name, od.Name.Name)
		return
	}
	if !constantFits(v, t) {
		c.errorf(k.file, p.Default, diag.TypeMismatch, "the default of parameter %s of %s must be %s, got %s", p.Name.Name, od.Name.Name, t, describeConstant(v))
	}
}

// constantFits reports whether a value of Constant may stand where t is
// expected: an Int fits a Float, null an optional.
func constantFits(v any, t *Type) bool {
	if t.Kind == Invalid {
		return true
	}
	switch v := v.(type) {
	case nil:
		return t.Optional
	case string:
		return t.Kind == TString
	case bool:
		return t.Kind == TBool
	case int64:
		return t.Kind == TInt || t.Kind == TFloat
	case float64:
		return t.Kind == TFloat
	case []any:
		if t.Kind != TList {
			return false
		}
		for _, e := range v {
			if !constantFits(e, t.Elem) {
				return false
			}
		}
		return true
	}
	return false
}

// describeConstant names a value of Constant for messages.
func describeConstant(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return fmt.Sprint(v)
	case int64, float64:
		return fmt.Sprint("the number ", v)
	}
	return "a list"
}

// contractType resolves a type written in a contract: scalars, the
// contract's own models, lists and optionals.
func (c *checker) contractType(k *contract, t *syntax.TypeExpr) *Type {
	if t == nil {
		return invalidType
	}
	var out *Type
	switch {
	case t.Elem != nil:
		out = listOf(c.contractType(k, t.Elem))
	case t.Name != nil && t.Name.Name == "":
		// The parser reported the missing type.
		return invalidType
	case t.Name != nil:
		if s, ok := scalarTypes[t.Name.Name]; ok && t.Name.Name != "Action" {
			out = s
		} else if m, ok := k.models[t.Name.Name]; ok {
			out = &Type{Kind: TModel, Model: m}
			if c.info != nil {
				c.use(t.Name, c.modelObject(m))
			}
		} else {
			c.errorf(k.file, t.Name, diag.UnknownType, "unknown type %s in contract %s; use String, Int, Float, Bool, a model of the contract or a list [T]", t.Name.Name, k.name)
			return invalidType
		}
	default:
		return invalidType
	}
	if t.Optional {
		out = optional(out)
	}
	return out
}

// verifyLock compares the UI lock with the project's contracts. Any
// difference means the project needs preparation.
func (c *checker) verifyLock(res *Result) {
	fix := Prepare(c.in.Root)
	need := func(msg string) {
		c.lockBroken = true
		res.Status = StatusNeedsPreparation
		c.diags = append(c.diags, diag.Diagnostic{Code: diag.LockOutdated, Severity: diag.Error, Path: lock.Path, Line: 1, Column: 1,
			Message: msg + "; run `" + fix + "`"})
	}
	if c.in.Lock == nil {
		res.Status = StatusNeedsPreparation
		c.lockBroken = true
		msg := "the project has no UI lock (" + lock.Path + "), so it cannot be compiled; run `" + fix + "` to write the development contracts and the lock"
		code := diag.LockMissing
		if c.in.LockErr != "" {
			msg = "the UI lock cannot be used: " + c.in.LockErr + "; run `" + fix + "` to write it again"
			code = diag.LockOutdated
		}
		c.diags = append(c.diags, diag.Diagnostic{Code: code, Severity: diag.Error, Path: lock.Path, Line: 1, Column: 1, Message: msg})
		res.Preparation = []string{fix}
		return
	}
	l := c.in.Lock
	if l.LanguageProfile != "acore-ui" || l.Target != "web" {
		need(fmt.Sprintf("the UI lock pins language profile %q and target %q; this compiler serves acore-ui for web", l.LanguageProfile, l.Target))
	}
	if l.CatalogVersion != catalog.Version && l.CatalogVersion != catalog.Version10 {
		need(fmt.Sprintf("the UI lock pins element catalog %s; this compiler has catalog %s", l.CatalogVersion, catalog.Version))
	}
	locked := map[string]bool{}
	for _, lc := range l.Contracts {
		locked[lc.Path] = true
		sha, ok := c.in.ContractSHA[lc.Path]
		k := c.contracts[lc.ID]
		switch {
		case !ok:
			need(fmt.Sprintf("the UI lock pins contract %s at %s, which does not exist", lc.Name, lc.Path))
		case sha != lc.SHA256:
			need(fmt.Sprintf("contract artifact %s has changed since the UI lock was written (SHA-256 %s…, locked %s…)", lc.Path, short(sha), short(lc.SHA256)))
		case k != nil && k.name != lc.Name:
			need(fmt.Sprintf("the UI lock names contract %s at %s, but the artifact declares %s", lc.Name, lc.Path, k.name))
		}
	}
	srcs := make([]string, 0, len(c.in.SourceSHA))
	for p := range c.in.SourceSHA {
		srcs = append(srcs, p)
	}
	sort.Strings(srcs)
	for _, p := range srcs {
		id := strings.TrimSuffix(path.Base(p), ".axiom")
		art := lock.ArtifactPath(id)
		if sha, ok := c.in.ContractSHA[art]; !ok {
			need(fmt.Sprintf("contract source %s has no development artifact %s", p, art))
		} else if sha != c.in.SourceSHA[p] {
			need(fmt.Sprintf("contract source %s and its development artifact %s differ", p, art))
		}
	}
	var extra []string
	for _, f := range c.in.Contracts {
		if !locked[f.Path] {
			extra = append(extra, f.Path)
		}
	}
	sort.Strings(extra)
	for _, p := range extra {
		need(fmt.Sprintf("contract artifact %s is not in the UI lock", p))
	}
	if res.Status == StatusNeedsPreparation {
		res.Preparation = []string{fix}
	}
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// importContract makes the contract_import node of k and its operation
// nodes, once per contract.
func (c *checker) importContract(k *contract) {
	if k.imported {
		return
	}
	if c.derived {
		// Contracts are shared with the base compile, which never imported
		// this one: only a whole compile may.
		c.failed = "a contract imported for the first time"
		return
	}
	k.imported = true
	f := k.file
	k.node = c.node(f, graph.KindContractImport, "contract_import:"+k.name, k.name, k.decl, k.decl.Name, "")
	n := c.g.At(k.node)
	n.Foreign = false
	n.Signature = "contract " + k.name
	n.Props = []graph.Property{{Name: "id", Type: "String", Value: k.id, ValuePos: -1, ValueEnd: -1},
		{Name: "sha256", Type: "String", Value: c.in.ContractSHA[f.Path], ValuePos: -1, ValueEnd: -1},
		{Name: "signed", Type: "Bool", Value: k.signed, ValuePos: -1, ValueEnd: -1}}
	for _, md := range k.decl.Models {
		mod := k.models[md.Name.Name]
		if mod == nil {
			continue
		}
		mi := c.node(f, graph.KindModel, mod.NodeID, md.Name.Name, md, md.Name, "")
		c.g.At(mi).Props = modelProps(mod)
		c.g.At(mi).Signature = "model " + mod.Name
		c.edge(mi, k.node, graph.EdgeDeclaredIn, graph.Declared)
		for _, fd := range md.Fields {
			// A field declared twice is left out of mod.Fields.
			if i := mod.Index(fd.Name.Name); i >= 0 && mod.Fields[i].node < 0 {
				mod.Fields[i].node = c.node(f, graph.KindField, FieldID(mod.NodeID, fd.Name.Name), fd.Name.Name, fd, fd.Name, "")
				c.edge(mod.Fields[i].node, mi, graph.EdgeDeclaredIn, graph.Declared)
			}
		}
	}
	for _, od := range k.decl.Ops {
		op := k.ops[od.Name.Name]
		if op == nil || op.decl != od {
			continue
		}
		op.node = c.node(f, graph.KindOperation, graph.KindOperation+":"+k.name+"."+od.Name.Name, od.Name.Name, od, od.Name, "")
		on := c.g.At(op.node)
		on.Signature = f.Compact(int(od.Pos), int(od.End))
		on.Props = []graph.Property{{Name: "kind", Type: "String", Value: od.Kind.String(), ValuePos: -1, ValueEnd: -1},
			{Name: "result", Type: "Type", Value: op.result.String(), ValuePos: -1, ValueEnd: -1}}
		for _, p := range op.params {
			on.Props = append(on.Props, graph.Property{Name: "param." + p.name, Type: "Type", Value: p.typ.String(), ValuePos: -1, ValueEnd: -1})
		}
		// The backend team's facts: shown, not edited through the UI's
		// graph.
		on.Props = c.axagProps(f, od.Annotations, on.Props, false)
		c.edge(op.node, k.node, graph.EdgeDeclaredIn, graph.Declared)
		c.modelEdges(op.node, op.result)
	}
}

// modelEdges links a node to the models its type mentions.
func (c *checker) modelEdges(from int32, t *Type) {
	for t != nil {
		if t.Kind == TModel {
			if mi, ok := c.g.Lookup(t.Model.NodeID); ok {
				c.edge(from, mi, graph.EdgeUsesType, graph.Resolved)
			}
			return
		}
		t = t.Elem
	}
}
