package check

import (
	"github.com/axiomcore/acore/internal/lang/catalog"
	"maps"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Recheck compiles in, which differs from the input of base only in the
// content of the .acore sources at changed, by checking just those
// modules over base's state, when nothing outside them can see the
// change: the modules declare the same names, props, models and imports,
// and keep the same node ids and edges. The new graph then shares every
// other node, the edges and the indexes with base's. Recheck returns nil
// when that does not hold, and the caller compiles in whole.
//
// A recheck records nothing: for an input with an Info it returns nil.
//
// base must be a compile without errors; contracts and the lock must be
// unchanged (the caller compares their hashes).
func Recheck(base *Result, in *Input, changed []string) *Result {
	c, res := recheck(base, in, changed)
	if c == nil {
		return nil
	}
	if c.g.Finish(append(append([]*syntax.File{}, in.Sources...), in.Contracts...)) != "" {
		return nil
	}
	return c.finishRecheck(base, res, changed)
}

// RecheckDiagnostics returns the diagnostics of the whole project for in,
// which differs from the input of base as for Recheck, by checking the
// changed modules over base's state; ok is false when what other modules
// see of them changed and in must be compiled whole. Unlike Recheck it
// holds when the changed modules' edges differ (a name that became
// unknown reads nothing): it builds no graph, so an editor can show the
// diagnostics of what is being typed without a whole compile.
func RecheckDiagnostics(base *Result, in *Input, changed []string) (diags []diag.Diagnostic, ok bool) {
	c, _ := recheck(base, in, changed)
	if c == nil {
		return nil, false
	}
	// Other modules' navigate and Link targets are checked against the
	// routes: a changed route set is visible outside the entry module.
	if slices.Contains(changed, Entry) && routeKey(base.st.modules[Entry]) != routeKey(c.modules[Entry]) {
		return nil, false
	}
	return c.mergeDiagnostics(base, changed), true
}

// routeKey is what other modules' diagnostics read of the entry module's
// app: its name and its route paths, in order.
func routeKey(m *module) string {
	if m == nil || m.app == nil {
		return ""
	}
	var b strings.Builder
	if m.app.Name != nil {
		b.WriteString(m.app.Name.Name)
	}
	for _, r := range m.app.Routes {
		b.WriteString("\x00")
		if r.Path != nil {
			b.WriteString(r.Path.Value)
		}
	}
	return b.String()
}

// recheck checks the changed modules of in over base's state, up to their
// graph; a nil checker means the change is visible outside them.
func recheck(base *Result, in *Input, changed []string) (*checker, *Result) {
	old := base.st
	// Rechecking more than a quarter of the modules costs about what a
	// whole compile does, once the graph's edges are compared; one module
	// is always rechecked, so that its graph shares the rest.
	if old == nil || base.Graph == nil || in.Limit != "" || in.Info != nil || len(changed) == 0 || len(changed) > 1 && 4*len(changed) > len(old.order) {
		return nil, nil
	}
	for _, d := range base.Diagnostics {
		if d.Severity == diag.Error {
			return nil, nil
		}
	}
	files := make(map[string]*syntax.File, len(in.Sources))
	for _, f := range in.Sources {
		files[f.Path] = f
	}
	if len(files) != len(old.order) {
		return nil, nil
	}
	c := &checker{
		in:             in,
		g:              graph.Derive(base.Graph, changed),
		files:          maps.Clone(old.files),
		modules:        maps.Clone(old.modules),
		order:          slices.Clone(old.order),
		owners:         old.owners,
		shadow:         map[string]*owner{},
		stale:          maps.Clone(old.stale),
		contracts:      old.contracts,
		contractByName: maps.Clone(old.contractByName),
		lockBroken:     old.lockBroken,
		v10:            in.Lock != nil && in.Lock.CatalogVersion == catalog.Version10,
		derived:        true,
	}
	isChanged := map[string]bool{}
	for _, p := range changed {
		f, om := files[p], old.modules[p]
		if f == nil || om == nil || f.Limit != "" || isChanged[p] {
			return nil, nil
		}
		isChanged[p] = true
		m := newModule(f)
		c.files[p], c.modules[p] = f, m
		c.order[slices.Index(c.order, om)] = m
		c.work = append(c.work, m)
	}
	// The rechecked modules declare their owners again, into shadow.
	if c.stale == nil {
		c.stale = map[string]bool{}
	}
	maps.Copy(c.stale, isChanged)
	for name, o := range old.shadow {
		if !isChanged[o.mod.file.Path] {
			c.shadow[name] = o
		}
	}
	for _, m := range c.work {
		c.syntaxErrors(m.file)
	}
	c.declareModules()
	for _, m := range c.work {
		if !c.keepModels(old.modules[m.file.Path], m) {
			return nil, nil
		}
	}
	c.resolveImports()
	c.checkBodies()
	res := &Result{Status: base.Status, EntryPoints: base.EntryPoints, Preparation: base.Preparation}
	if isChanged[Entry] {
		// The app and its routes are re-created with the entry module.
		c.entryPoints(res, base.Graph)
	} else if main := c.modules[Entry]; main != nil && main.app != nil {
		c.resolveNav(main.app)
	}
	c.unusedImports()
	if c.failed != "" {
		return nil, nil
	}
	for _, m := range c.work {
		if !sameInterface(old.modules[m.file.Path], m) {
			return nil, nil
		}
	}
	for _, d := range c.diags {
		switch d.Code {
		case diag.DuplicateOwner, diag.DuplicateModule:
			// Which of two declarations is reported depends on the order
			// of the whole project.
			return nil, nil
		}
	}
	return c, res
}

// mergeDiagnostics is base's diagnostics of the unchanged files with the
// rechecked ones, in order.
func (c *checker) mergeDiagnostics(base *Result, changed []string) []diag.Diagnostic {
	isChanged := map[string]bool{}
	for _, p := range changed {
		isChanged[p] = true
	}
	diags := make([]diag.Diagnostic, 0, len(base.Diagnostics)+len(c.diags))
	for _, d := range base.Diagnostics {
		if !isChanged[d.Path] {
			diags = append(diags, d)
		}
	}
	diags = append(diags, c.diags...)
	if len(diags) == 0 {
		// As a whole compile of a project without diagnostics has.
		return nil
	}
	diag.Sort(diags)
	return diags
}

// finishRecheck completes the result of a recheck whose graph holds.
func (c *checker) finishRecheck(base, res *Result, changed []string) *Result {
	isChanged := map[string]bool{}
	for _, p := range changed {
		isChanged[p] = true
	}
	c.diags = c.mergeDiagnostics(base, changed)
	res.Diagnostics, res.Graph = c.diags, c.g
	res.State = c.state()
	// Only the changed modules' summaries can differ; contracts are shared.
	res.Modules = slices.Clone(base.Modules)
	res.Contracts = base.Contracts
	for i, m := range c.order {
		if isChanged[m.file.Path] {
			var counts [2]int
			for _, d := range c.diags {
				if d.Path == m.file.Path {
					if d.Severity == diag.Error {
						counts[0]++
					} else {
						counts[1]++
					}
				}
			}
			res.Modules[i] = c.moduleInfo(m, counts)
		}
	}
	c.keepState(res)
	return res
}

// keepModels makes m use old's models when they declare the same fields:
// types compare models by identity, and the other modules' types hold
// old's.
func (c *checker) keepModels(old, m *module) bool {
	if len(old.models) != len(m.models) {
		return false
	}
	for name, nm := range m.models {
		om := old.models[name]
		if om == nil || len(om.Fields) != len(nm.Fields) {
			return false
		}
		for i := range om.Fields {
			if om.Fields[i].Name != nm.Fields[i].Name || om.Fields[i].Type.String() != nm.Fields[i].Type.String() {
				return false
			}
		}
	}
	maps.Copy(m.models, old.models)
	return true
}

// sameInterface reports whether what other modules see of a module is
// the same in old and m: its name, owners and their props, externs and
// what its use lines import.
func sameInterface(old, m *module) bool {
	if moduleName(old) != moduleName(m) || m.node != old.node || len(old.owners) != len(m.owners) ||
		len(old.externs) != len(m.externs) || len(old.uses) != len(m.uses) || len(old.imports) != len(m.imports) {
		return false
	}
	for name, o := range m.owners {
		p := old.owners[name]
		if p == nil || p.node != o.node || p.decl.Kind != o.decl.Kind || len(p.specs) != len(o.specs) || childrenID(p.decl) != childrenID(o.decl) {
			return false
		}
		for i := range p.specs {
			if p.specs[i].name != o.specs[i].name || p.specs[i].required != o.specs[i].required || p.specs[i].typ.String() != o.specs[i].typ.String() {
				return false
			}
		}
	}
	for name, ex := range m.externs {
		if p := old.externs[name]; p == nil || p.node != ex.node {
			return false
		}
	}
	for name, u := range m.uses {
		p := old.uses[name]
		if p == nil || p.owner != u.owner || p.model != u.model || p.contract != u.contract {
			return false
		}
	}
	for i := range m.imports {
		if m.imports[i].file.Path != old.imports[i].file.Path {
			return false
		}
	}
	return true
}

func moduleName(m *module) string {
	if m.file.Module == nil {
		return ""
	}
	return m.file.Text(m.file.Module.Name)
}
