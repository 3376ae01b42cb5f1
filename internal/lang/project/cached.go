package project

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Cached returns the project of inputs in whose compile res was, as the
// compile cache read it back: its graph, diagnostics and summaries, but
// not the checker's state. The first project compiled from it
// (CompileFrom) compiles its inputs whole once, for that state, and
// rechecks over it; later ones reuse it. The contracts are parsed now
// (they are few and small); each source's headers are parsed when first
// asked for (Headers, SourceHeaders), as most reads need none.
func (o Options) Cached(in *load.Inputs, res *check.Result) *Project {
	p := &Project{Inputs: in, Result: res, opts: o}
	p.Contracts = parseAll(in.Contracts, o.Trees.get, o.Trees)
	p.lazy = &lazyHeaders{files: in.Sources, trees: make([]lazyTree, len(in.Sources)), at: make(map[string]int, len(in.Sources))}
	for i, f := range in.Sources {
		p.lazy.at[f.Path] = i
	}
	return p
}

// FromCache reports whether p was read from the compile cache (Cached)
// rather than compiled.
func (p *Project) FromCache() bool { return p.lazy != nil }

// GraphFiles returns what the graph of a cached project reads its
// versions and signatures from: each source's text alone (Graph.Version
// and Graph.Signature read nothing else of a source's tree) and the
// contracts' trees.
func (p *Project) GraphFiles() []*syntax.File {
	out := make([]*syntax.File, 0, len(p.Inputs.Sources)+len(p.Contracts))
	for _, f := range p.Inputs.Sources {
		out = append(out, &syntax.File{Path: f.Path, Src: f.Data, Headers: true})
	}
	return append(out, p.Contracts...)
}

// lazyHeaders parses the headers of a cached project's sources on demand,
// each once.
type lazyHeaders struct {
	files []load.File
	trees []lazyTree
	at    map[string]int
	// whole is the project's inputs compiled, for edits (compiled).
	wholeOnce sync.Once
	whole     *Project
}

// compiled returns the compile of the cached project p's inputs, made on
// first use; its graph takes p's search index, which holds for it, so
// that the graphs of edits derive theirs instead of building one.
func (l *lazyHeaders) compiled(p *Project) *Project {
	l.wholeOnce.Do(func() {
		l.whole = p.opts.Compile(p.Inputs)
		if g := l.whole.Result.Graph; g != nil && p.Result.Graph != nil {
			g.ShareSearch(p.Result.Graph)
		}
	})
	return l.whole
}

type lazyTree struct {
	once sync.Once
	f    *syntax.File
}

func (l *lazyHeaders) get(path string) *syntax.File {
	i, ok := l.at[path]
	if !ok {
		return nil
	}
	t := &l.trees[i]
	t.once.Do(func() {
		f := syntax.ParseTree(l.files[i].Path, l.files[i].Data)
		f.DropBodies()
		t.f = f
	})
	return t.f
}

// all returns every source's headers in input order, parsing those not
// parsed yet on every core.
func (l *lazyHeaders) all() []*syntax.File {
	out := make([]*syntax.File, len(l.files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(l.files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(out); i = int(next.Add(1)) - 1 {
				out[i] = l.get(l.files[i].Path)
			}
		}()
	}
	wg.Wait()
	return out
}
