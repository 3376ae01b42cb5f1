// Package check resolves names across modules and contracts, checks types
// and the element catalog, verifies the UI lock, and builds the node graph.
// It reports diagnostics with stable codes and the project's semantic state.
package check

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/axiomcore/acore/internal/lang/arena"
	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// Semantic states, as the protocol defines them.
const (
	StateSyntax      = "syntax"
	StateResolved    = "resolved"
	StateValidated   = "validated"
	StateUnavailable = "unavailable"
)

// Project statuses.
const (
	StatusReady            = "ready"
	StatusNeedsPreparation = "needs_preparation"
)

// Entry is the one file a project starts from.
const Entry = "main.acore"

// ImportDepthMax bounds chains of use lines (import_depth_max).
const ImportDepthMax = 16

// Input is what one compile reads: parsed sources, parsed contract
// artifacts and the UI lock.
type Input struct {
	// Root is shown in the preparation command of lock diagnostics.
	Root      string
	Sources   []*syntax.File // .acore files
	Contracts []*syntax.File // .axiom artifacts under lock.ContractDir
	// ContractSHA maps an artifact path to the SHA-256 of its bytes.
	ContractSHA map[string]string
	// SourceSHA maps the path of each published contract source
	// (contracts/<id>.axiom) to the SHA-256 of its bytes; an artifact that
	// differs from its source needs preparation.
	SourceSHA map[string]string
	Lock      *lock.Lock // nil when the project has no lock
	// LockErr is why the lock could not be used (unreadable, malformed).
	LockErr string
	// Limit is set when the loader refused the inputs for a bound; its
	// diagnostic is in Pre.
	Limit string
	// Pre holds diagnostics found before checking (load bounds).
	Pre []diag.Diagnostic
	// Info, when set, is filled with what the compile proves (see Info).
	Info *Info
	// NotRead lists the files with a source's or contract's name that the
	// loader did not read (a symlink leading outside the root, a FIFO, a
	// name the protocol cannot address), each with why.
	NotRead []NotRead
}

// addressable is p with U+FFFD for each control character, backslash and
// invalid UTF-8 sequence, so it can be a diagnostic's path; a name that is
// still no valid path (too long) is reported on the entry module.
func addressable(p string) string {
	q := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(p, string(utf8.RuneError)))
	if fsutil.ValidRelPath(q) != nil {
		return Entry
	}
	return q
}

// NotRead is a file the loader found and did not read.
type NotRead struct {
	Path   string // as found; it may not be a valid relative path
	Detail string // why, for people
}

// Result is the outcome of one compile.
type Result struct {
	State       string
	Status      string
	Diagnostics []diag.Diagnostic
	// Graph is nil when State is unavailable.
	Graph       *graph.Graph
	EntryPoints []string // page node ids, in route order
	Modules     []ModuleInfo
	Contracts   []ContractInfo
	// Preparation lists the commands that make the project compilable.
	Preparation []string
	// st is the checker's state, kept for Recheck.
	st *checker
}

// ModuleInfo summarizes one source file.
type ModuleInfo struct {
	Path     string
	Name     string // module line, or ""
	Owners   []string
	Imports  []string // project-relative paths of imported modules, and contract ids
	Errors   int
	Warnings int
}

// ContractInfo is one imported backend contract.
type ContractInfo struct {
	ID     string
	Name   string
	Node   string
	Path   string
	SHA256 string
	Signed bool
}

// Prepare returns the command that prepares the project at root.
func Prepare(root string) string {
	if root == "" {
		root = "."
	}
	if strings.ContainsAny(root, " \t'\"$`\\") {
		root = "'" + strings.ReplaceAll(root, "'", `'\''`) + "'"
	}
	return "axiom prepare " + root
}

type checker struct {
	in      *Input
	g       *graph.Graph
	diags   []diag.Diagnostic
	files   map[string]*syntax.File
	modules map[string]*module
	order   []*module
	// owners by name, project-wide: node ids use bare owner names. A
	// recheck shares its base's map and keeps the owners of the modules
	// it rechecked in shadow, where stale names the modules whose entries
	// in owners are outdated (see ownerNamed).
	owners    map[string]*owner
	shadow    map[string]*owner
	stale     map[string]bool
	contracts map[string]*contract // by id
	// contractByName is the project-wide contract name → contract.
	contractByName map[string]*contract
	lockBroken     bool
	pendingNav     []pendingNav
	pendingFills   []pendingFill
	// members lists the members this checker declared: for a checker of
	// one module's bodies (checked in parallel), those whose nodes get the
	// graph's indexes once its fragment is appended.
	members []*symbol
	// work lists the modules whose declarations and bodies this compile
	// checks: all of them, or for Recheck the changed ones.
	work []*module
	// values interns the property values of the modules being checked
	// (see box); typeOnly holds the property lists their props and states
	// share (see typeProps).
	values   map[string]any
	typeOnly map[string][]graph.Property
	// derived is set for Recheck; failed then says why it cannot be used.
	derived bool
	failed  string
	// props makes the elements' property lists; given is the stack of
	// the elements' given properties. Each checker of a module checked in
	// parallel has its own.
	props arena.Slices[graph.Property]
	given []bool
	// syms makes the members and the scopes of locals (see with).
	syms arena.Slices[symbol]
	// runs makes the mutations' run parameters (see runParams).
	runs arena.Slices[namedParam]
	// lastKey is the type keyType made last.
	lastKey *Type
	// ownerBlocks makes the pages and components declared.
	ownerBlocks arena.Slices[owner]
	// strs makes the node ids, in blocks (see arena); sigBuf is where a
	// conditional's signature is put together.
	strs   arena.Strings
	sigBuf []byte
	// pos converts the offsets of the nodes, which a walk adds in source
	// order, to lines and columns.
	pos syntax.Cursor
	// info is the caller's record, or nil; objects then holds the objects
	// of the declarations by what the checker knows them as (see object).
	info    *Info
	objects map[any]*Object
	// arg, while the argument of a component instance is checked, marks
	// the edges recorded from the instance, argFrom (see argument).
	arg     uint16
	argFrom int32
	// letStack holds the derived values being typed, innermost last, to
	// name a cycle among them.
	letStack []*symbol
	// v10 is set when the lock pins Acore 1.0 (see needs11).
	v10 bool
	// reading is the state, derived value or query whose value (initial
	// value, expression, arguments) is being typed; valueReads holds what
	// each such member reads of the others, for valueCycles.
	reading    *symbol
	valueReads map[*symbol][]*symbol
}

type module struct {
	file   *syntax.File
	node   int32
	owners map[string]*owner
	// declared lists the owners in declaration order: those of owners
	// whose declaration is theirs (a repeated name is not declared).
	declared   []*owner
	models     map[string]*Model
	externs    map[string]*extern
	uses       map[string]*useSym // local names of use lines
	imports    []*module
	importUse  []*syntax.UseDecl
	app        *syntax.AppDecl
	modelDecls []*syntax.ModelDecl
	// fieldNodes are the graph nodes of the fields of the models this
	// module declares, made with the model's node.
	fieldNodes map[*syntax.Param]int32
}

type useSym struct {
	decl     *syntax.UseDecl
	node     int32
	used     bool
	owner    *owner    // component imports
	model    *Model    // model imports
	contract *contract // contract imports
}

type extern struct {
	decl   *syntax.ExternDecl
	node   int32
	params []*Type
	names  []string
}

type owner struct {
	decl    *syntax.OwnerDecl
	mod     *module
	node    int32
	id      string
	members map[string]*symbol
	specs   []propSpec // components: props as element property specs, in header order
	// lets is set when the owner declares a derived value: only then are
	// the reads among its values recorded (valueCycles).
	lets bool
}

type symKind uint8

const (
	symState symKind = iota
	symQuery
	symMutation
	symAction
	symProp
	symParam
	symLocal
	symExtern
	symLet
)

// symbol is a member of a page or component, or a local. It is kept
// small (72 bytes): a large project checks tens of thousands.
type symbol struct {
	name string
	typ  *Type
	decl syntax.Node
	// params are an action's parameters.
	params []namedParam
	node   int32 // graph node, or -1
	kind   symKind
}

// Check compiles the input. It never fails; problems are diagnostics.
func Check(in *Input) *Result {
	size, decls := 0, 0
	for _, f := range in.Sources {
		size += len(f.Src)
		decls += len(f.Decls)
	}
	c := &checker{
		in: in,
		// About one node per 40 source bytes in generated views; the
		// slices grow if a project is denser.
		g:       graph.New(size/40 + 64),
		files:   map[string]*syntax.File{},
		modules: map[string]*module{},
		// Most declarations are pages and components.
		owners:         make(map[string]*owner, decls),
		contracts:      map[string]*contract{},
		contractByName: map[string]*contract{},
	}
	if in.Info != nil {
		c.info, c.objects = in.Info, map[any]*Object{}
	}
	res := &Result{Status: StatusReady}
	c.diags = append(c.diags, in.Pre...)
	if in.Limit != "" {
		res.State = StateUnavailable
		res.Diagnostics = c.diags
		return res
	}
	for _, f := range in.Sources {
		c.files[f.Path] = f
		c.syntaxErrors(f)
	}
	for _, f := range in.Contracts {
		c.files[f.Path] = f
		c.syntaxErrors(f)
	}
	if limit := c.fileLimit(); limit {
		res.State = StateUnavailable
		diag.Sort(c.diags)
		res.Diagnostics = c.diags
		return res
	}
	c.loadContracts()
	c.verifyLock(res)
	c.v10 = in.Lock != nil && in.Lock.CatalogVersion == catalog.Version10
	entryNote := ""
	for _, n := range in.NotRead {
		// A name that is not a valid path is quoted in the message; the
		// diagnostic's path has U+FFFD for each character a path cannot
		// hold.
		d := diag.Diagnostic{Code: diag.FileNotRead, Severity: diag.Warning, Path: addressable(n.Path), Line: 1, Column: 1,
			Message: fmt.Sprintf("%s was not read: %s", strconv.Quote(n.Path), n.Detail)}
		c.diags = append(c.diags, d)
		if n.Path == Entry {
			entryNote = " (" + Entry + " was found but not read: " + n.Detail + ")"
		}
	}
	if _, ok := c.files[Entry]; !ok {
		c.diags = append(c.diags, diag.Diagnostic{Code: diag.NoEntry, Severity: diag.Error, Path: Entry, Line: 1, Column: 1,
			Message: "the project has no main.acore" + entryNote + "; the entry module of a project is main.acore at its root"})
	}
	c.declare()
	c.resolveImports()
	c.checkImportGraph()
	c.checkBodies()
	c.entryPoints(res, nil)
	c.unusedImports()

	diag.Sort(c.diags)
	res.Diagnostics = c.diags
	res.State = c.state()
	if res.Status == StatusNeedsPreparation || c.in.Entry() == nil {
		res.State = StateUnavailable
	}
	if res.State != StateUnavailable {
		// The summaries read the modules and diagnostics, not the graph:
		// they are made while the graph is frozen.
		done := make(chan struct{})
		go func() {
			c.summaries(res)
			close(done)
		}()
		c.g.Freeze()
		c.g.SetFiles(append(append([]*syntax.File{}, c.in.Sources...), c.in.Contracts...))
		res.Graph = c.g
		<-done
	} else {
		c.summaries(res)
	}
	if c.info != nil {
		c.finishInfo()
	}
	c.keepState(res)
	return res
}

// keepState keeps the checker's state in res for Recheck, which starts
// only from a compile with a graph and without errors: another compile
// keeps none, so that a snapshot of a broken project holds only its graph.
func (c *checker) keepState(res *Result) {
	c.release()
	if res.Graph == nil {
		return
	}
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			return
		}
	}
	res.st = c
}

// release drops what only checking the work modules needs, before the
// state is kept: a recheck sees the owners of other modules through their
// specs, nodes and kinds, never their members, and resolves only its own
// modules' navigations.
func (c *checker) release() {
	for _, m := range c.work {
		for _, o := range m.owners {
			o.members = nil
		}
	}
	c.pendingNav, c.pendingFills, c.values, c.typeOnly, c.members, c.syms = nil, nil, nil, nil, nil, arena.Slices[symbol]{}
}

// Entry returns the entry file, or nil.
func (in *Input) Entry() *syntax.File {
	for _, f := range in.Sources {
		if f.Path == Entry {
			return f
		}
	}
	return nil
}

func (c *checker) state() string {
	st := StateValidated
	for _, d := range c.diags {
		if d.Severity != diag.Error {
			continue
		}
		info, _ := diag.Lookup(d.Code)
		switch {
		case info.Reason != reason.None || d.Code == diag.NoEntry:
			return StateUnavailable
		case d.Code < "AC300":
			st = StateSyntax
		case st == StateValidated:
			st = StateResolved
		}
	}
	return st
}

func (c *checker) fileLimit() bool {
	for _, f := range c.files {
		if f.Limit != "" {
			return true
		}
	}
	return false
}

func (c *checker) syntaxErrors(f *syntax.File) {
	for _, e := range f.Errors {
		c.diags = append(c.diags, c.diagAt(f, int(e.Pos), int(e.End), e.Code, e.Msg))
	}
}

// diagAt builds a diagnostic of code's severity at [pos,end) of f.
func (c *checker) diagAt(f *syntax.File, pos, end int, code, msg string) diag.Diagnostic {
	info, _ := diag.Lookup(code)
	p := f.Position(pos)
	length := 0
	if end > pos {
		length = f.Position(end).Column - p.Column
		if f.Position(end).Line != p.Line || length < 0 {
			length = 0
		}
	}
	return diag.Diagnostic{Code: code, Severity: info.Severity, Path: f.Path, Line: p.Line, Column: p.Column,
		Length: length, Message: msg, Pos: pos, End: end, Decl: declAt(f, pos)}
}

func (c *checker) errorf(f *syntax.File, n syntax.Node, code, format string, args ...any) {
	s := n.Bounds()
	d := c.diagAt(f, int(s.Pos), int(s.End), code, fmt.Sprintf(format, args...))
	for _, a := range args {
		if h, ok := a.(hint); ok && h.name != "" && int(s.End) <= len(f.Src) && string(f.Src[s.Pos:s.End]) == h.typo {
			d.Suggestion = h.name
		}
	}
	c.diags = append(c.diags, d)
}

// related adds to the last diagnostic the place n of f, which msg says
// what it is.
func (c *checker) related(f *syntax.File, n syntax.Node, msg string) {
	if len(c.diags) == 0 || f == nil {
		return
	}
	s := n.Bounds()
	d := &c.diags[len(c.diags)-1]
	d.Related = append(d.Related, diag.Related{Path: f.Path, Pos: int(s.Pos), End: int(s.End), Message: msg})
}

// declAt names the top-level declaration of f that contains pos, as
// "<kind> <name>"; bounded repair compares the declarations with errors.
func declAt(f *syntax.File, pos int) string {
	for _, d := range f.Decls {
		if s := d.Bounds(); pos >= int(s.Pos) && pos < int(s.End) {
			return DeclName(d)
		}
	}
	for _, u := range f.Uses {
		if pos >= int(u.Pos) && pos < int(u.End) {
			return "use " + u.Name.Name
		}
	}
	return ""
}

// DeclName names a top-level declaration as diagnostics' Decl does:
// "<kind> <name>", or "" for a skipped (bad) declaration.
func DeclName(d syntax.Decl) string {
	switch d := d.(type) {
	case *syntax.OwnerDecl:
		return d.Kind.String() + " " + d.Name.Name
	case *syntax.AppDecl:
		return "app " + d.Name.Name
	case *syntax.ModelDecl:
		return "model " + d.Name.Name
	case *syntax.ExternDecl:
		return "extern " + d.Name.Name
	case *syntax.ContractDecl:
		return "contract " + d.Name.Name
	}
	return ""
}

// node adds a graph node for the declaration n of f.
func (c *checker) node(f *syntax.File, kind, id, name string, n syntax.Node, nameAt syntax.Node, ownerID string) int32 {
	i, added := c.g.Add(c.nodeOf(f, kind, id, name, n, nameAt, ownerID))
	if added && c.info != nil {
		c.recordNode(n, i)
	}
	return i
}

// recordNode notes that n has graph node i.
func (c *checker) recordNode(n syntax.Node, i int32) {
	if _, span := n.(syntax.Span); span {
		return
	}
	if c.info.Nodes != nil {
		c.info.Nodes[n] = i
	}
	if c.info.Syntax != nil {
		c.info.Syntax[i] = n
	}
}

// nodeOf is the graph node of the declaration n of f.
func (c *checker) nodeOf(f *syntax.File, kind, id, name string, n syntax.Node, nameAt syntax.Node, ownerID string) graph.Node {
	s := n.Bounds()
	at := s.Pos
	if nameAt != nil {
		at = nameAt.Bounds().Pos
	}
	p := c.pos.Position(f, int(at))
	return graph.Node{ID: id, Kind: kind, Name: name, Path: f.Path, Pos: s.Pos, End: s.End, Line: int32(p.Line),
		Column: int32(p.Column), Owner: ownerID}
}

// edge records an edge whose site is the source node's identifying token.
func (c *checker) edge(from, to int32, kind, layer string) {
	if from < 0 || to < 0 {
		return
	}
	if c.arg != 0 && from == c.argFrom {
		c.g.AddArgEdge(from, to, kind, layer, c.arg)
		return
	}
	c.g.AddEdge(from, to, kind, layer)
}

// declare creates module-level symbols and the nodes of declarations.
func (c *checker) declare() {
	paths := make([]string, 0, len(c.in.Sources))
	for _, f := range c.in.Sources {
		paths = append(paths, f.Path)
	}
	sort.Strings(paths)
	for _, p := range paths {
		m := newModule(c.files[p])
		c.modules[p] = m
		c.order = append(c.order, m)
	}
	c.work = c.order
	c.declareModules()
}

func newModule(f *syntax.File) *module {
	return &module{file: f, owners: make(map[string]*owner, len(f.Decls)), models: map[string]*Model{}, externs: map[string]*extern{}, uses: map[string]*useSym{}}
}

// declareModules declares the modules of c.work: their nodes, then their
// top-level declarations, then the fields of their models.
func (c *checker) declareModules() {
	moduleNames := map[string]string{}
	if c.derived {
		for _, m := range c.order {
			if m.file.Module != nil && !slices.Contains(c.work, m) {
				moduleNames[m.file.Text(m.file.Module.Name)] = m.file.Path
			}
		}
	}
	for _, m := range c.work {
		f := m.file
		var at syntax.Node // a nil *ModuleDecl must not become a non-nil Node
		if f.Module != nil {
			at = f.Module
		}
		m.node = c.node(f, graph.KindModule, "module:"+f.Path, f.Path, syntax.Span{Pos: 0, End: int32(len(f.Src))}, at, "")
		if f.Module != nil {
			if c.info != nil {
				c.recordNode(f.Module, m.node)
			}
			name := f.Text(f.Module.Name)
			c.g.At(m.node).Name = name
			if other, dup := moduleNames[name]; dup {
				c.errorf(f, f.Module.Name, diag.DuplicateModule, "module %s is also declared by %s; module names are unique in a project", name, other)
			} else {
				moduleNames[name] = f.Path
			}
		}
	}
	for _, m := range c.work {
		f := m.file
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *syntax.ContractDecl:
				c.errorf(f, d.Name, diag.Misplaced, "a contract is declared in a .axiom contract file, not in a module")
			case *syntax.AppDecl:
				if f.Path != Entry {
					c.errorf(f, d.Name, diag.Misplaced, "the app is declared in main.acore, not in %s", f.Path)
					continue
				}
				if m.app != nil {
					c.errorf(f, d.Name, diag.Duplicate, "app %s is declared twice; a project has one app", d.Name.Name)
					continue
				}
				m.app = d
			case *syntax.OwnerDecl:
				c.declareOwner(m, d)
			case *syntax.ModelDecl:
				if c.reserved(f, d.Name) {
					continue
				}
				if _, dup := m.models[d.Name.Name]; dup || m.owners[d.Name.Name] != nil {
					c.errorf(f, d.Name, diag.Duplicate, "%s is declared twice in %s", d.Name.Name, f.Path)
					continue
				}
				mod := &Model{Name: d.Name.Name, NodeID: "model:" + d.Name.Name}
				m.models[d.Name.Name] = mod
				if c.info != nil {
					c.def(d.Name, c.modelObject(mod))
					c.modelObject(mod).Decl = d
				}
				m.modelDecls = append(m.modelDecls, d)
				if _, taken := c.g.Lookup(mod.NodeID); !taken {
					mi := c.node(f, graph.KindModel, mod.NodeID, d.Name.Name, d, d.Name, "")
					c.edge(mi, m.node, graph.EdgeDeclaredIn, graph.Declared)
					for _, fd := range d.Fields {
						if fd.Name == nil || fd.Name.Name == "" {
							continue
						}
						fi, added := c.g.Add(c.nodeOf(f, graph.KindField, FieldID(mod.NodeID, fd.Name.Name), fd.Name.Name, fd, fd.Name, ""))
						if !added {
							continue // a field declared twice, reported with the fields
						}
						if c.info != nil {
							c.recordNode(fd, fi)
						}
						c.edge(fi, mi, graph.EdgeDeclaredIn, graph.Declared)
						if m.fieldNodes == nil {
							m.fieldNodes = map[*syntax.Param]int32{}
						}
						m.fieldNodes[fd] = fi
					}
				} else {
					c.errorf(f, d.Name, diag.DuplicateOwner, "model %s is also declared in another module; model names are unique in a project", d.Name.Name)
				}
			case *syntax.ExternDecl:
				if c.reserved(f, d.Name) {
					continue
				}
				if _, dup := m.externs[d.Name.Name]; dup {
					c.errorf(f, d.Name, diag.Duplicate, "extern action %s is declared twice in %s", d.Name.Name, f.Path)
					continue
				}
				id := "extension:" + d.Name.Name
				if _, taken := c.g.Lookup(id); taken {
					c.errorf(f, d.Name, diag.DuplicateOwner, "extern action %s is also declared in another module; names of extern actions are unique in a project", d.Name.Name)
					continue
				}
				ex := &extern{decl: d, node: c.node(f, graph.KindExtension, id, d.Name.Name, d, d.Name, "")}
				c.g.At(ex.node).Foreign = true
				c.g.At(ex.node).Signature = "extern action " + d.Name.Name + paramText(f, d.Params)
				if d.From != nil {
					c.g.At(ex.node).Props = append(c.g.At(ex.node).Props, graph.Property{Name: "from", Type: "String", Value: d.From.Value, ValuePos: -1, ValueEnd: -1})
				}
				c.edge(ex.node, m.node, graph.EdgeDeclaredIn, graph.Declared)
				m.externs[d.Name.Name] = ex
				if c.info != nil {
					c.def(d.Name, c.externObject(ex))
				}
			}
		}
	}
	// Model fields resolve after every model is known, so models may refer
	// to each other in any order.
	for _, m := range c.work {
		for _, d := range m.modelDecls {
			mod := m.models[d.Name.Name]
			seen := map[string]bool{}
			for _, fd := range d.Fields {
				if seen[fd.Name.Name] {
					c.errorf(m.file, fd.Name, diag.Duplicate, "field %s is declared twice in model %s", fd.Name.Name, d.Name.Name)
					continue
				}
				seen[fd.Name.Name] = true
				fi, ok := m.fieldNodes[fd]
				if !ok {
					fi = -1
				}
				mod.Fields = append(mod.Fields, Field{Name: fd.Name.Name, Type: c.typeOf(m, fd.Type), node: fi})
				if c.info != nil {
					c.def(fd.Name, c.fieldObject(mod, len(mod.Fields)-1, fd))
				}
			}
			if i, ok := c.g.Lookup(mod.NodeID); ok {
				c.g.At(i).Props = modelProps(mod)
				c.g.At(i).Signature = "model " + mod.Name
			}
		}
	}
}

func modelProps(m *Model) []graph.Property {
	out := make([]graph.Property, 0, len(m.Fields))
	for _, f := range m.Fields {
		out = append(out, graph.Property{Name: f.Name, Type: "Type", Value: f.Type.String(), ValuePos: -1, ValueEnd: -1})
	}
	return out
}

var reservedNames = map[string]bool{"true": true, "false": true, "null": true, "navigate": true, "if": true, "else": true}

func (c *checker) reserved(f *syntax.File, id *syntax.Ident) bool {
	if reservedNames[id.Name] {
		c.errorf(f, id, diag.ReservedName, "%s is a reserved word and cannot be declared", id.Name)
		return true
	}
	return id.Name == ""
}

func (c *checker) declareOwner(m *module, d *syntax.OwnerDecl) {
	f := m.file
	if c.reserved(f, d.Name) {
		return
	}
	name := d.Name.Name
	if m.models[name] != nil {
		c.errorf(f, d.Name, diag.Duplicate, "%s is declared twice in %s", name, f.Path)
		return
	}
	if prev := c.ownerNamed(name); prev != nil {
		where := "in " + prev.mod.file.Path
		if prev.mod == m {
			where = "earlier in this file"
		}
		c.errorf(f, d.Name, diag.DuplicateOwner, "%s %s is already declared %s; page and component names are unique in a project, because node ids use them", d.Kind, name, where)
		c.related(prev.mod.file, prev.decl.Name, "the first declaration of "+name)
		return
	}
	kind := graph.KindPage
	if d.Kind == syntax.Component {
		kind = graph.KindComponent
	}
	o := c.newOwner(owner{decl: d, mod: m, id: c.strs.Concat(kind, ":", name), members: map[string]*symbol{}})
	o.node = c.node(f, kind, o.id, name, d, d.Name, "")
	c.sig(o.node, d.Pos, min(d.LBrace, d.End))
	c.edge(o.node, m.node, graph.EdgeDeclaredIn, graph.Declared)
	if c.info != nil {
		c.def(d.Name, c.ownerObject(o))
	}
	if c.derived {
		c.shadow[name] = o
	} else {
		c.owners[name] = o
	}
	m.owners[name] = o
	m.declared = append(m.declared, o)
}

// newOwner returns o in the checker's blocks of owners, or on its own for
// a recheck, as newSymbol does.
func (c *checker) newOwner(o owner) *owner {
	if c.derived {
		return &o
	}
	return c.ownerBlocks.New(o)
}

// ownerNamed returns the page or component name, or nil.
func (c *checker) ownerNamed(name string) *owner {
	if o, ok := c.shadow[name]; ok {
		return o
	}
	if o := c.owners[name]; o != nil && !c.stale[o.mod.file.Path] {
		return o
	}
	return nil
}

func paramText(f *syntax.File, ps []*syntax.Param) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = f.Compact(int(p.Pos), int(p.End))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// entryPoints lists the pages the app's routes name and creates route
// nodes. A recheck of the entry module passes the graph it derives from:
// the routes, re-created, take their ids and properties from its nodes
// when these are the same, and res.EntryPoints, which holds the base's, is
// kept while it is a prefix of the new list, so that an unchanged app
// allocates little.
func (c *checker) entryPoints(res *Result, base *graph.Graph) {
	prev := res.EntryPoints
	res.EntryPoints = nil
	m := c.modules[Entry]
	if m == nil {
		return
	}
	if m.app == nil {
		c.diags = append(c.diags, c.diagAt(m.file, 0, 0, diag.NoApp, "main.acore declares no app; its routes name the project's entry pages, as app Name { route \"/\" => Home }"))
		return
	}
	f := m.file
	a := m.app
	appNode := c.node(f, graph.KindApp, "app:"+a.Name.Name, a.Name.Name, a, a.Name, "")
	if c.info != nil {
		for _, r := range a.Routes {
			c.record(r.Path, stringType)
		}
	}
	c.g.At(appNode).Signature = "app " + a.Name.Name
	c.edge(appNode, m.node, graph.EdgeDeclaredIn, graph.Declared)
	c.checkApp(f, a, appNode)
	// seen marks the pages listed so far by their node index.
	seen := make([]uint64, (c.g.Len()+63)/64)
	kept := 0 // entries of prev the list begins with, while res.EntryPoints is nil
	var buf []byte
	// The routes' property lists are cut from one block: a large app has
	// thousands of routes.
	block := make([]graph.Property, len(a.Routes))
	for k, r := range a.Routes {
		id, props := "", []graph.Property(nil)
		if base != nil {
			buf = append(append(buf[:0], "route:"...), r.Path.Value...)
			if i, ok := base.Lookup(string(buf)); ok {
				old := base.At(i)
				id = old.ID
				if len(old.Props) == 1 && old.Props[0] == routeProp(r) {
					props = old.Props
				}
			}
		}
		if id == "" {
			id = c.strs.Concat("route:", r.Path.Value)
		}
		// The graph refuses a second node of the same id: a repeated path.
		rn, added := c.g.Add(c.nodeOf(f, graph.KindRoute, id, r.Path.Value, r, r.Path, ""))
		if !added {
			c.errorf(f, r.Path, diag.Duplicate, "route %s is declared twice", syntax.Quote(r.Path.Value))
			continue
		}
		if c.info != nil {
			c.recordNode(r, rn)
		}
		pathOK := false
		switch {
		case !strings.HasPrefix(r.Path.Value, "/"):
			c.errorf(f, r.Path, diag.BadRoute, "a route path starts with /, as \"/%s\"", r.Path.Value)
		case !catalog.RoutePath(r.Path.Value):
			// A Link to it would carry no href (docs/web.md, URLs).
			c.errorf(f, r.Path, diag.BadRoute, "a route path starts with one / and holds no space, control character or backslash; %s would name another host or change in the browser", syntax.Quote(r.Path.Value))
		default:
			pathOK = c.checkRoutePath(f, r)
		}
		c.sig(rn, r.Pos, r.End)
		if props == nil {
			block[k] = routeProp(r)
			props = block[k : k+1 : k+1]
		}
		c.g.At(rn).Props = props
		c.edge(rn, appNode, graph.EdgeChildOf, graph.Declared)
		if r.Target.Name == "" {
			// The parser reported the missing target (AC101).
			continue
		}
		// Pages cannot be imported: a route names any page of the project.
		o := c.ownerNamed(r.Target.Name)
		if o == nil || o.decl.Kind != syntax.Page {
			what := "no page"
			if o != nil {
				what = "a component, not a page"
			}
			c.errorf(f, r.Target, diag.UnknownName, "route %s names %s: %s is %s", syntax.Quote(r.Path.Value), r.Target.Name, r.Target.Name, what)
			continue
		}
		c.edge(rn, o.node, graph.EdgeRenders, graph.Resolved)
		if c.info != nil {
			c.use(r.Target, c.ownerObject(o))
		}
		if more := c.checkRoute(f, r, o, pathOK); len(more) > 0 {
			c.g.At(rn).Props = append(props[:1:1], more...)
		}
		if w, bit := o.node/64, uint64(1)<<(o.node%64); seen[w]&bit == 0 {
			seen[w] |= bit
			switch {
			case res.EntryPoints == nil && kept < len(prev) && prev[kept] == o.id:
				kept++
			case res.EntryPoints == nil:
				// At most one page per route.
				res.EntryPoints = append(make([]string, 0, len(a.Routes)), prev[:kept]...)
				fallthrough
			default:
				res.EntryPoints = append(res.EntryPoints, o.id)
			}
		}
	}
	if res.EntryPoints == nil && kept > 0 {
		res.EntryPoints = prev[:kept:kept]
	}
	c.resolveNav(a)
}

// routeProp is the property of r's node.
func routeProp(r *syntax.RouteDecl) graph.Property {
	return graph.Property{Name: "path", Type: "String", Value: r.Path.Value, Editable: true, Literal: true, ValuePos: r.Path.Pos, ValueEnd: r.Path.End}
}

// resolveNav adds the edges of navigate() and Link(to:) calls, which were
// checked before the routes had nodes.
func (c *checker) resolveNav(a *syntax.AppDecl) {
	var params map[string][]namedParam
	for _, nav := range c.pendingNav {
		nav.path = NavPath(nav.path)
		if ri, ok := c.g.Lookup("route:" + nav.path); ok {
			c.edge(nav.from, ri, graph.EdgeNavigatesTo, graph.Resolved)
			if params == nil {
				params = c.routeParamTypes(a)
			}
			c.checkNavArgs(nav, params[nav.path])
		} else {
			c.errorf(nav.file, nav.at, diag.UnknownRoute, "no route %s in app %s; routes: %s", syntax.Quote(nav.path), a.Name.Name, routeList(a))
		}
	}
}

func routeList(a *syntax.AppDecl) string {
	var out []string
	for _, r := range a.Routes {
		out = append(out, syntax.Quote(r.Path.Value))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// lookupOwner finds a page or component visible from m: its own, or one
// imported by a use component line.
func (c *checker) lookupOwner(m *module, name string) *owner {
	if o := m.owners[name]; o != nil {
		return o
	}
	if u := m.uses[name]; u != nil && u.owner != nil {
		u.used = true
		return u.owner
	}
	return nil
}

func (c *checker) summaries(res *Result) {
	counts := map[string][2]int{}
	for _, d := range c.diags {
		k := counts[d.Path]
		if d.Severity == diag.Error {
			k[0]++
		} else {
			k[1]++
		}
		counts[d.Path] = k
	}
	for _, m := range c.order {
		res.Modules = append(res.Modules, c.moduleInfo(m, counts[m.file.Path]))
	}
	res.Contracts = c.contractInfos()
}

// moduleInfo summarizes m, which has counts[0] errors and counts[1]
// warnings.
func (c *checker) moduleInfo(m *module, counts [2]int) ModuleInfo {
	mi := ModuleInfo{Path: m.file.Path, Errors: counts[0], Warnings: counts[1]}
	if m.file.Module != nil {
		mi.Name = m.file.Text(m.file.Module.Name)
	}
	for _, o := range m.declared {
		mi.Owners = append(mi.Owners, o.id)
	}
	for _, u := range m.file.Uses {
		if s := m.uses[u.Name.Name]; s != nil && s.decl == u {
			switch {
			case s.contract != nil:
				mi.Imports = append(mi.Imports, "contract_import:"+s.contract.name)
			case s.owner != nil:
				mi.Imports = append(mi.Imports, s.owner.mod.file.Path)
			case s.model != nil:
				mi.Imports = append(mi.Imports, c.modelModule(s.model))
			}
		}
	}
	return mi
}

// contractInfos lists the imported contracts by id.
func (c *checker) contractInfos() []ContractInfo {
	var out []ContractInfo
	ids := make([]string, 0, len(c.contracts))
	for id := range c.contracts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		k := c.contracts[id]
		if !k.imported {
			continue
		}
		out = append(out, ContractInfo{ID: id, Name: k.name, Node: "contract_import:" + k.name, Path: k.file.Path, SHA256: c.in.ContractSHA[k.file.Path], Signed: k.signed})
	}
	return out
}

func (c *checker) modelModule(mod *Model) string {
	for _, m := range c.order {
		if m.models[mod.Name] == mod {
			return m.file.Path
		}
	}
	return ""
}

// ResolveImportPath resolves a use line's path, relative to the importing
// file's directory; ".acore" is implied.
func ResolveImportPath(from, rel string) (string, bool) {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") {
		return "", false
	}
	if !strings.HasSuffix(rel, ".acore") {
		rel += ".acore"
	}
	p := path.Clean(path.Join(path.Dir(from), rel))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// sig makes node i's signature the one-line form of [pos, end) of its
// file, computed when asked for.
func (c *checker) sig(i int32, pos, end int32) {
	c.g.At(i).SigPos, c.g.At(i).SigEnd = pos, end
}
