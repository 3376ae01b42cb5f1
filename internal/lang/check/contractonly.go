package check

import (
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// CheckContracts checks contract artifacts on their own, with the rules
// Check applies to them, for a consumer that serves the contracts even
// while the UI sources do not compile (the development backend of `axiom
// dev`). It reads no source and no lock and builds no graph. It returns
// the checked contracts by id, as Info.Contracts holds them, and the
// diagnostics of the artifacts, their syntax errors included, sorted: a
// contract whose file has an error diagnostic is checked only in part.
func CheckContracts(files []*syntax.File) (map[string]*Contract, []diag.Diagnostic) {
	info := &Info{Contracts: map[string]*Contract{}}
	c := &checker{
		in:             &Input{Contracts: files},
		g:              graph.New(0),
		files:          map[string]*syntax.File{},
		contracts:      map[string]*contract{},
		contractByName: map[string]*contract{},
		info:           info,
		objects:        map[any]*Object{},
	}
	for _, f := range files {
		c.files[f.Path] = f
		c.syntaxErrors(f)
	}
	c.loadContracts()
	diag.Sort(c.diags)
	return info.Contracts, c.diags
}
