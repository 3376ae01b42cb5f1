// Package project compiles a project root: it loads the files within the
// service bounds, parses them, reads the UI lock and runs the checker.
package project

import (
	"errors"
	"path"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/check"
	"github.com/axiomcore/acore/internal/diag"
	"github.com/axiomcore/acore/internal/load"
	"github.com/axiomcore/acore/internal/lock"
	"github.com/axiomcore/acore/internal/syntax"
)

// Project is one compiled capture of a project root.
type Project struct {
	Inputs    *load.Inputs
	Sources   []*syntax.File
	Contracts []*syntax.File
	Result    *check.Result
}

// Open loads and compiles the project at root. Bounds hit while loading
// are diagnostics of an unavailable project, not errors; the error is for
// a root that cannot be read at all.
func Open(root string) (*Project, error) {
	in, err := load.Load(root)
	var lim *load.LimitError
	if errors.As(err, &lim) {
		// A bound of the whole project is reported on its entry file.
		at := lim.Path
		if at == "" {
			at = check.Entry
		}
		d := diag.Diagnostic{Code: limitCode(lim.Reason), Severity: diag.Error, Path: at, Line: 1, Column: 1, Message: lim.Error()}
		res := check.Check(&check.Input{Root: root, Limit: lim.Reason, Pre: []diag.Diagnostic{d}})
		res.Status = check.StatusReady
		return &Project{Inputs: &load.Inputs{Root: root}, Result: res}, nil
	}
	if err != nil {
		return nil, err
	}
	return Compile(in), nil
}

func limitCode(reason string) string {
	for _, i := range diag.All() {
		if i.Reason == reason {
			return i.Code
		}
	}
	return diag.SourcesTooLarge
}

// Compile parses and checks loaded inputs.
func Compile(in *load.Inputs) *Project {
	p := &Project{Inputs: in}
	ci := &check.Input{Root: in.Root, ContractSHA: map[string]string{}}
	p.Sources = parseAll(in.Sources)
	p.Contracts = parseAll(in.Contracts)
	for _, f := range in.Contracts {
		ci.ContractSHA[f.Path] = f.SHA256
	}
	ci.Sources, ci.Contracts = p.Sources, p.Contracts
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
	p.Result = check.Check(ci)
	return p
}

// File returns the parsed source or contract file at path.
func (p *Project) File(path string) *syntax.File {
	for _, f := range p.Sources {
		if f.Path == path {
			return f
		}
	}
	for _, f := range p.Contracts {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// parseAll parses files on every core: files are independent until the
// checker reads them together. A file whose path and content were parsed
// before reuses that tree (trees are never changed after parsing), so a
// candidate that edits one file re-parses one file, and snapshots that
// share files share their trees.
func parseAll(files []load.File) []*syntax.File {
	out := make([]*syntax.File, len(files))
	var todo []int
	for i, f := range files {
		if t := parsed.get(f.Path, f.SHA256); t != nil {
			out[i] = t
		} else {
			todo = append(todo, i)
		}
	}
	parse := func(i int) {
		out[i] = syntax.Parse(files[i].Path, files[i].Data)
		parsed.put(files[i].Path, files[i].SHA256, out[i], len(files[i].Data))
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	if workers <= 1 {
		for _, i := range todo {
			parse(i)
		}
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(todo) {
					return
				}
				parse(todo[k])
			}
		}()
	}
	wg.Wait()
	return out
}

// parseCacheBytes bounds the source bytes whose trees the cache keeps:
// 16 MiB of sources, four projects at sources_bytes_max.
const parseCacheBytes = 16 << 20

// parsed is the process's cache of syntax trees by path and content.
var parsed = &treeCache{m: map[treeKey]*treeEntry{}}

type treeKey struct{ path, sha string }

type treeEntry struct {
	file *syntax.File
	size int
	used int64
}

type treeCache struct {
	mu    sync.Mutex
	m     map[treeKey]*treeEntry
	total int
	tick  int64
}

func (c *treeCache) get(path, sha string) *syntax.File {
	if sha == "" {
		return nil
	}
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

func (c *treeCache) put(path, sha string, f *syntax.File, size int) {
	if sha == "" || size > parseCacheBytes/4 {
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
	for c.total > parseCacheBytes {
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
