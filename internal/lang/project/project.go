// Package project compiles a project root: it loads the files within the
// service bounds, parses them, reads the UI lock and runs the checker.
package project

import (
	"errors"
	"path"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Project is one compiled capture of a project root.
type Project struct {
	Inputs    *load.Inputs
	Contracts []*syntax.File
	Result    *check.Result
	// Changed lists the sources that were rechecked over the project this
	// one was compiled from (see CompileFrom), which it shares the rest
	// with; it is nil for a whole compile.
	Changed []string
	// headers are the checked sources without their bodies (see
	// syntax.File.DropBodies): what the checker's state keeps of them
	// for Recheck. File parses a source again for its whole tree.
	headers []*syntax.File
	// lazy, set instead of headers on a project read from the compile
	// cache (see Cached), parses each source's headers when first asked.
	lazy *lazyHeaders
	// opts are those the project was compiled with, which the projects
	// compiled from it keep.
	opts Options
	// Info is what the compile proves (see check.Info), for a project
	// compiled by Recorded; nil for any other: a compile for agents
	// records nothing.
	Info *check.Info
	// recorded is the compile of the same inputs with a record, made by
	// Recorded on first use.
	recordedOnce sync.Once
	recorded     *Project
}

// Recorded returns the compile of p's inputs with a record in Info, every
// map filled, and the whole trees of its sources, which the record refers
// to: p itself when it has one, else a compile made on first use (its
// graph and diagnostics are p's), or p when it has no graph. Consumers that read what the checker
// proved (AXAG manifests, the web target) call it; a compile for agents
// records nothing and pays nothing.
func (p *Project) Recorded() *Project {
	// A project without a graph (refused for a bound, or unprepared) has
	// nothing for them to read.
	if p.Info != nil || p.Inputs == nil || p.Result == nil || p.Result.Graph == nil {
		return p
	}
	p.recordedOnce.Do(func() {
		p.recorded = Options{Trees: p.opts.Trees, Record: true}.compile(p.Inputs, nil)
	})
	return p.recorded
}

// newInfo is a record with every map.
func newInfo() *check.Info {
	return &check.Info{Types: map[syntax.Expr]*check.Type{}, Defs: map[*syntax.Ident]*check.Object{}, Uses: map[*syntax.Ident]*check.Object{},
		Segments: map[*syntax.Ident]check.Segment{}, Values: map[syntax.Expr]any{}, Nodes: map[syntax.Node]int32{}, Syntax: map[int32]syntax.Node{}, Contracts: map[string]*check.Contract{}}
}

// Options are the choices of the process that compiles: its main makes
// them, and the projects compiled from one keep them (CompileFrom).
// The zero value, which the package functions Open and Compile use, keeps
// no trees; ServiceOptions are a service process's. The process's GC and
// memory limit are its main's to set, once, as it starts.
type Options struct {
	// Trees, when set, keeps the whole trees that File parses and the
	// contracts' trees, for the next reads and edits of the same files.
	Trees *TreeCache
	// Before, when set, is called as each whole compile starts (not a
	// recheck): a one-shot process prepares its heap then, and not when
	// it reads a compile from the cache.
	Before func()
	// Record, when set, makes every compile a recorded one (see
	// Recorded): its check fills Info and it keeps its sources' whole
	// trees, so a consumer that reads the record (the web compiler)
	// compiles once. A record is never rechecked: CompileFrom compiles
	// whole.
	Record bool
}

// ServiceOptions are the choices for compiles of a process that serves
// agents (acore-semantic's main, and acore-bench, which measures it in
// process): whole trees are kept for the few files an agent reads and
// edits again.
func ServiceOptions() Options {
	return Options{Trees: NewTreeCache()}
}

// Open loads and compiles the project at root with the zero Options (see
// Options.Open).
func Open(root string) (*Project, error) { return Options{}.Open(root) }

// Compile parses and checks loaded inputs with the zero Options.
func Compile(in *load.Inputs) *Project { return Options{}.Compile(in) }

// Open loads and compiles the project at root. Bounds hit while loading
// are diagnostics of an unavailable project, not errors; the error is for
// a root that cannot be read at all.
func (o Options) Open(root string) (*Project, error) {
	in, err := load.Load(root)
	var lim *load.LimitError
	if errors.As(err, &lim) {
		// A bound of the whole project is reported on its entry file.
		at := lim.Path
		if at == "" {
			at = check.Entry
		}
		d := diag.Diagnostic{Code: limitCode(lim.Reason), Severity: diag.Error, Path: at, Line: 1, Column: 1, Message: lim.Error()}
		res := check.Check(&check.Input{Root: root, Limit: lim.Reason.String(), Pre: []diag.Diagnostic{d}})
		res.Status = check.StatusReady
		return &Project{Inputs: &load.Inputs{Root: root}, Result: res, opts: o}, nil
	}
	if err != nil {
		return nil, err
	}
	return o.Compile(in), nil
}

func limitCode(r reason.Reason) string {
	for _, i := range diag.All() {
		if i.Reason == r {
			return i.Code
		}
	}
	return diag.SourcesTooLarge
}

// Compile parses and checks loaded inputs.
func (o Options) Compile(in *load.Inputs) *Project {
	return o.compile(in, nil)
}

// compile parses in, taking the trees in fresh by path instead where it
// has them, and checks it.
func (o Options) compile(in *load.Inputs, fresh map[string]*syntax.File) *Project {
	if o.Before != nil {
		o.Before()
	}
	p, ci := o.parse(in, fresh, nil)
	if o.Record {
		// The record refers to the whole trees, which are kept.
		p.Info = newInfo()
		ci.Info = p.Info
		p.Result = check.Check(ci)
		return p
	}
	p.Result = check.Check(ci)
	// Dropping walks every view to keep its annotations: files are
	// dropped on every core.
	parallel(len(p.headers), func(k int) { p.headers[k].DropBodies() })
	return p
}

// CompileFrom compiles in from base with the zero Options when base is
// nil (see Options.CompileFrom).
func CompileFrom(base *Project, in *load.Inputs) *Project { return Options{}.CompileFrom(base, in) }

// CompileFrom compiles in as Compile does, reusing the compile of base
// when in differs from base's inputs only in the content of a few .acore
// sources that the rest of the project cannot see change (check.Recheck):
// then only those modules are checked, and the graph shares base's other
// nodes. The compile has base's Options, or o when base is nil.
func (o Options) CompileFrom(base *Project, in *load.Inputs) *Project {
	if base != nil {
		o = base.opts
	}
	changed, ok := changedSources(base, in)
	if !ok || o.Record {
		return o.Compile(in)
	}
	if len(changed) == 0 {
		// The same inputs: the same compile.
		return &Project{Inputs: in, Contracts: base.Contracts, Result: base.Result, Changed: []string{}, headers: base.headers, lazy: base.lazy, opts: o}
	}
	if base.lazy != nil {
		// A project read from the compile cache has no checker state to
		// recheck over: its inputs are compiled once for it.
		base = base.lazy.compiled(base)
	}
	// The unchanged sources' trees are base's: the checker's state that
	// Recheck starts from refers to them.
	same := make(map[string]*syntax.File, len(base.headers))
	for _, f := range base.headers {
		same[f.Path] = f
	}
	for _, path := range changed {
		delete(same, path)
	}
	p, ci := o.parse(in, nil, same)
	if p.Result = check.Recheck(base.Result, ci, changed); p.Result == nil {
		// A whole compile needs every body: only the changed sources'
		// trees are whole.
		fresh := map[string]*syntax.File{}
		for _, f := range p.headers {
			if _, kept := same[f.Path]; !kept {
				fresh[f.Path] = f
			}
		}
		return o.compile(in, fresh)
	}
	p.Changed = changed
	for _, f := range p.headers {
		if _, kept := same[f.Path]; !kept {
			f.DropBodies()
		}
	}
	return p
}

// changedSources lists the sources whose content differs between base's
// inputs and in, when nothing else differs; ok is false otherwise.
func changedSources(base *Project, in *load.Inputs) ([]string, bool) {
	if base == nil || base.Result == nil || base.Inputs == nil {
		return nil, false
	}
	b := base.Inputs
	if b.Root != in.Root || len(b.Sources) != len(in.Sources) || !sameFiles(b.Contracts, in.Contracts) ||
		!sameFiles(b.ContractSources, in.ContractSources) || (b.Lock == nil) != (in.Lock == nil) ||
		b.Lock != nil && (b.Lock.SHA256 != in.Lock.SHA256 || b.Lock.SHA256 == "") {
		return nil, false
	}
	var changed []string
	for i, f := range in.Sources {
		if b.Sources[i].Path != f.Path || f.SHA256 == "" {
			return nil, false
		}
		if b.Sources[i].SHA256 != f.SHA256 {
			changed = append(changed, f.Path)
		}
	}
	return changed, true
}

func sameFiles(a, b []load.File) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || a[i].SHA256 != b[i].SHA256 || a[i].SHA256 == "" {
			return false
		}
	}
	return true
}

// parse parses in and makes the checker's input. Sources are parsed
// afresh, as the compile drops their bodies, except those given in fresh
// (whole trees parsed for this compile) or in headers (trees already
// checked, for Recheck).
func (o Options) parse(in *load.Inputs, fresh, headers map[string]*syntax.File) (*Project, *check.Input) {
	p := &Project{Inputs: in, opts: o}
	ci := &check.Input{Root: in.Root, ContractSHA: map[string]string{}}
	for _, s := range in.Skipped {
		ci.NotRead = append(ci.NotRead, check.NotRead{Path: s.Path, Detail: s.Detail})
	}
	p.headers = parseAll(in.Sources, func(f load.File) *syntax.File {
		if t := fresh[f.Path]; t != nil {
			return t
		}
		return headers[f.Path]
	}, nil)
	p.Contracts = parseAll(in.Contracts, o.Trees.get, o.Trees)
	for _, f := range in.Contracts {
		ci.ContractSHA[f.Path] = f.SHA256
	}
	ci.Sources, ci.Contracts = p.headers, p.Contracts
	ci.SourceSHA = map[string]string{}
	for _, f := range in.ContractSources {
		if path.Dir(f.Path) == load.ContractSourceDir {
			ci.SourceSHA[f.Path] = f.SHA256
		}
	}
	if in.Lock != nil {
		l, err := lock.Parse(in.Lock.Data)
		if err != nil {
			ci.LockErr = err.Error()
		} else {
			ci.Lock = l
		}
	}
	return p, ci
}

// Headers returns the kept tree of the source or contract file at path,
// or nil: its text, lines, uses and declarations with their members and
// spans, but no view items or action statements (see
// syntax.File.DropBodies). It costs no parse; File gives the whole tree.
func (p *Project) Headers(path string) *syntax.File {
	if p.lazy != nil {
		if f := p.lazy.get(path); f != nil {
			return f
		}
	}
	for _, group := range [][]*syntax.File{p.headers, p.Contracts} {
		for _, f := range group {
			if f.Path == path {
				return f
			}
		}
	}
	return nil
}

// File returns the whole tree of the source or contract file at path, or
// nil. A source is parsed again, as the compile kept only its headers;
// Options.Trees keeps the trees parsed last.
func (p *Project) File(path string) *syntax.File {
	for _, f := range p.Contracts {
		if f.Path == path {
			return f
		}
	}
	if p.Inputs == nil {
		return nil
	}
	for _, f := range p.Inputs.Sources {
		if f.Path == path {
			return parseAll([]load.File{f}, p.opts.Trees.get, p.opts.Trees)[0]
		}
	}
	return nil
}

// SourceHeaders returns the kept trees of the project's sources, in the
// order of its inputs (see Headers).
func (p *Project) SourceHeaders() []*syntax.File {
	if p.lazy != nil {
		return p.lazy.all()
	}
	return p.headers
}

// parseAll parses files on every core: files are independent until the
// checker reads them together. have returns a file's tree when there is
// one already (or nil); trees parsed here are kept in keep when it is not
// nil, and must then never be changed.
func parseAll(files []load.File, have func(load.File) *syntax.File, keep *TreeCache) []*syntax.File {
	out := make([]*syntax.File, len(files))
	var todo []int
	for i, f := range files {
		if t := have(f); t != nil {
			out[i] = t
		} else {
			todo = append(todo, i)
		}
	}
	parse := func(i int) {
		// Whole trees are kept in the cache, and headers with their
		// compile; neither needs tokens after parsing.
		out[i] = syntax.ParseTree(files[i].Path, files[i].Data)
		keep.put(files[i].Path, files[i].SHA256, out[i], len(files[i].Data))
	}
	parallel(len(todo), func(k int) { parse(todo[k]) })
	return out
}

// parallel calls do(k) for every k below n, on every core.
func parallel(n int, do func(k int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for k := range n {
			do(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				do(k)
			}
		})
	}
	wg.Wait()
}

// A TreeCache keeps at most parseCacheTrees trees of at most
// parseCacheBytes of sources (a tree is about ten times its source): the
// trees that reads and edits ask for again are those of the few files an
// agent works in, and one file at source_file_bytes_max fits.
const (
	parseCacheTrees = 8
	parseCacheBytes = load.SourceFileBytesMax
)

// TreeCache keeps whole syntax trees by path and content, the least
// recently used evicted first. It is safe for concurrent use; a nil
// *TreeCache keeps nothing.
type TreeCache struct {
	mu    sync.Mutex
	m     map[treeKey]*treeEntry
	total int
	tick  int64
}

// NewTreeCache returns an empty cache of trees.
func NewTreeCache() *TreeCache { return &TreeCache{m: map[treeKey]*treeEntry{}} }

type treeKey struct{ path, sha string }

type treeEntry struct {
	file *syntax.File
	size int
	used int64
}

// get returns the kept tree of f, or nil.
func (c *TreeCache) get(f load.File) *syntax.File {
	if c == nil || f.SHA256 == "" {
		return nil
	}
	path, sha := f.Path, f.SHA256
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[treeKey{path, sha}]
	if e == nil {
		return nil
	}
	c.tick++
	e.used = c.tick
	return e.file
}

func (c *TreeCache) put(path, sha string, f *syntax.File, size int) {
	if c == nil || sha == "" || size > parseCacheBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := treeKey{path, sha}
	if _, ok := c.m[k]; ok {
		return
	}
	c.tick++
	c.m[k] = &treeEntry{file: f, size: size, used: c.tick}
	c.total += size
	for c.total > parseCacheBytes || len(c.m) > parseCacheTrees {
		var oldest treeKey
		var oe *treeEntry
		for k, e := range c.m {
			if oe == nil || e.used < oe.used {
				oldest, oe = k, e
			}
		}
		c.total -= oe.size
		delete(c.m, oldest)
	}
}

// DiagnosticsFrom returns the diagnostics of a compile of in, found by
// rechecking over base (as CompileFrom does) the few sources that differ,
// even where the graph of that recheck could not be shared with base's
// (see check.RecheckDiagnostics); ok is false when in must be compiled
// whole to know them. base must be a compile without errors.
func DiagnosticsFrom(base *Project, in *load.Inputs) (diags []diag.Diagnostic, ok bool) {
	changed, same := changedSources(base, in)
	if !same || base.lazy != nil {
		return nil, false
	}
	if len(changed) == 0 {
		return base.Result.Diagnostics, true
	}
	kept := make(map[string]*syntax.File, len(base.headers))
	for _, f := range base.headers {
		kept[f.Path] = f
	}
	for _, path := range changed {
		delete(kept, path)
	}
	_, ci := base.opts.parse(in, nil, kept)
	return check.RecheckDiagnostics(base.Result, ci, changed)
}
