package check

import (
	"fmt"
	suggestpkg "github.com/axiomcore/acore/internal/lang/suggest"
	"strings"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// resolveImports binds every use line to the contract, component or model
// it names.
func (c *checker) resolveImports() {
	for _, m := range c.work {
		f := m.file
		for _, u := range m.file.Uses {
			if u.Name.Name == "" {
				continue
			}
			if c.reserved(f, u.Name) {
				continue
			}
			name := u.Name.Name
			if prev := m.uses[name]; prev != nil || m.owners[name] != nil || m.models[name] != nil {
				c.errorf(f, u.Name, diag.Duplicate, "%s is already declared or imported in %s", name, f.Path)
				continue
			}
			sym := &useSym{decl: u, node: -1}
			switch u.Kind {
			case syntax.UseContract:
				c.useContract(m, u, sym)
			case syntax.UseComponent, syntax.UseModel:
				c.useModule(m, u, sym)
			}
			m.uses[name] = sym
		}
	}
}

func (c *checker) useContract(m *module, u *syntax.UseDecl, sym *useSym) {
	f := m.file
	k := c.contracts[u.From.Value]
	if k == nil {
		if c.lockBroken {
			// The lock diagnostic already says how to fix it.
			return
		}
		c.errorf(f, u.From, diag.UnknownContract, "no contract %s: the project has no artifact %s; add contracts/%s.axiom and run `%s`", syntax.Quote(u.From.Value), ".axiom/dev/contracts/"+u.From.Value+".axiom", u.From.Value, Prepare(c.in.Root))
		return
	}
	if k.name != u.Name.Name {
		c.errorf(f, u.Name, diag.UnknownContract, "contract %s declares %s, not %s", syntax.Quote(k.id), k.name, u.Name.Name)
		return
	}
	if prev := c.contractByName[k.name]; prev != nil && prev != k {
		c.errorf(f, u.Name, diag.DuplicateOwner, "contract name %s already names contract %s in this project", k.name, syntax.Quote(prev.id))
		return
	}
	c.contractByName[k.name] = k
	if u.Audience != nil && len(k.audiences) > 0 && !contains(k.audiences, u.Audience.Value) {
		c.errorf(f, u.Audience, diag.BadAudience, "contract %s does not serve audience %s; it serves %s", k.name, syntax.Quote(u.Audience.Value), quoteList(k.audiences))
	}
	sym.contract = k
	if c.info != nil {
		c.use(u.Name, c.objects[k])
	}
	c.importContract(k)
	sym.node = k.node
	c.edge(m.node, k.node, graph.EdgeImports, graph.Declared)
	if !k.signed && !c.lockBroken {
		// Point at the id inside the quotes, where the artifact is named.
		d := c.diagAt(f, int(u.From.Pos)+1, int(u.From.End)-1, diag.UnsignedContract,
			fmt.Sprintf("development contract `%s` uses an unsigned local artifact; a production release requires Axiom Cloud signing", k.id))
		c.diags = append(c.diags, d)
	}
}

func (c *checker) useModule(m *module, u *syntax.UseDecl, sym *useSym) {
	f := m.file
	if u.Audience != nil {
		return // reported by the parser
	}
	target, ok := ResolveImportPath(f.Path, u.From.Value)
	if !ok {
		c.errorf(f, u.From, diag.ImportNotFound, "import path %s must be relative to this file and stay inside the project, as \"./components/row.acore\"", syntax.Quote(u.From.Value))
		return
	}
	tm := c.modules[target]
	if tm == nil {
		c.errorf(f, u.From, diag.ImportNotFound, "no module %s (resolved to %s)", syntax.Quote(u.From.Value), target)
		return
	}
	if tm == m {
		c.errorf(f, u.From, diag.ImportCycle, "%s imports itself", f.Path)
		return
	}
	name := u.Name.Name
	id := graph.KindImport + ":" + f.Path + "#" + name
	sym.node = c.node(f, graph.KindImport, id, name, u, u.Name, "")
	c.sig(sym.node, u.Pos, u.End)
	c.edge(sym.node, m.node, graph.EdgeDeclaredIn, graph.Declared)
	m.imports = append(m.imports, tm)
	m.importUse = append(m.importUse, u)
	c.edge(m.node, tm.node, graph.EdgeImports, graph.Declared)
	switch u.Kind {
	case syntax.UseComponent:
		o := tm.owners[name]
		if o == nil || o.decl.Kind != syntax.Component {
			c.errorf(f, u.Name, diag.ImportNotFound, "%s declares no component %s%s", target, name, suggest(name, ownerNames(tm, syntax.Component)))
			return
		}
		sym.owner = o
		if c.info != nil {
			c.use(u.Name, c.ownerObject(o))
		}
		c.edge(sym.node, o.node, graph.EdgeImports, graph.Resolved)
	case syntax.UseModel:
		mod := tm.models[name]
		if mod == nil {
			c.errorf(f, u.Name, diag.ImportNotFound, "%s declares no model %s%s", target, name, suggest(name, keys(tm.models)))
			return
		}
		sym.model = mod
		if c.info != nil {
			c.use(u.Name, c.modelObject(mod))
		}
		if mi, ok := c.g.Lookup(mod.NodeID); ok {
			c.edge(sym.node, mi, graph.EdgeImports, graph.Resolved)
		}
	}
}

// checkImportGraph reports import cycles, each once at the use line that
// closes one, and chains of use lines longer than import_depth_max, at the
// use line that goes one step too deep along the longest chain.
func (c *checker) checkImportGraph() {
	const (
		white = iota
		grey
		black
	)
	color := map[*module]int{}
	// height is the longest chain of use lines below a module, with the
	// edges that close cycles left out so that it is finite.
	height := map[*module]int{}
	cyclic := map[*syntax.UseDecl]bool{}
	imported := map[*module]bool{}
	var visit func(m *module)
	visit = func(m *module) {
		color[m] = grey
		for i, t := range m.imports {
			imported[t] = true
			u := m.importUse[i]
			switch color[t] {
			case grey:
				cyclic[u] = true
				c.errorf(m.file, u.From, diag.ImportCycle, "import cycle: %s imports %s, which imports %s again", m.file.Path, t.file.Path, m.file.Path)
				continue
			case white:
				visit(t)
			}
			if h := height[t] + 1; h > height[m] {
				height[m] = h
			}
		}
		color[m] = black
	}
	for _, m := range c.order {
		if color[m] == white {
			visit(m)
		}
	}
	reported := map[*syntax.UseDecl]bool{}
	for _, m := range c.order {
		if imported[m] && m.file.Path != Entry || height[m] <= ImportDepthMax {
			continue
		}
		// Follow the longest chain down to the use line at depth 17.
		cur := m
		for level := 1; ; level++ {
			next, at := (*module)(nil), (*syntax.UseDecl)(nil)
			for i, t := range cur.imports {
				if u := cur.importUse[i]; !cyclic[u] && height[t]+1 == height[cur] {
					next, at = t, u
					break
				}
			}
			if next == nil {
				break
			}
			if level > ImportDepthMax {
				if !reported[at] {
					reported[at] = true
					c.errorf(cur.file, at.From, diag.ImportDepthLimit, "imports are nested more than %d deep (import_depth_max): %s is import number %d of the chain from %s", ImportDepthMax, next.file.Path, level, m.file.Path)
				}
				break
			}
			cur = next
		}
	}
}

// unusedImports warns about use lines nothing refers to.
func (c *checker) unusedImports() {
	for _, m := range c.work {
		for _, u := range m.file.Uses {
			s := m.uses[u.Name.Name]
			if s == nil || s.decl != u || s.used {
				continue
			}
			if s.owner == nil && s.model == nil && s.contract == nil {
				continue
			}
			c.errorf(m.file, u.Name, diag.UnusedImport, "%s is imported but not used; remove the use line", u.Name.Name)
		}
	}
}

func ownerNames(m *module, kind syntax.OwnerKind) []string {
	var out []string
	for n, o := range m.owners {
		if o.decl.Kind == kind {
			out = append(out, n)
		}
	}
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = syntax.Quote(s)
	}
	return strings.Join(q, ", ")
}

// hint is the closest candidate for a misspelled name, if any is close
// enough to be a likely typo. Formatted, it is "; did you mean X?" (or
// nothing); errorf also records it as the diagnostic's Suggestion when
// the span it reports holds the misspelled name.
type hint struct{ typo, name string }

func (h hint) String() string {
	if h.name == "" {
		return ""
	}
	return "; did you mean " + h.name + "?"
}

func suggest(name string, candidates []string) hint {
	return hint{typo: name, name: suggestpkg.Closest(name, candidates)}
}
