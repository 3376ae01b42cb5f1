package check

import (
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// argument checks one argument of element e, whose node is x.from. For
// an instance of component inst, the edges the argument records are
// marked with it, and a binds edge leads from the instance to the prop it
// sets: the graph gives the prop the argument's relations (see
// graph.Graph.bind), so that walks follow values and handlers across the
// component boundary.
func (c *checker) argument(x ctx, e *syntax.Element, a *syntax.Arg, spec *propSpec, inst *owner) (string, *Type) {
	n := x.from
	// The argument's property is the next one of the node's (element
	// appends it once checked); its index must fit an edge's mark.
	k := len(c.g.At(n).Props) + 1
	if inst == nil || n < 0 || k > 1<<16-1 {
		return c.property(x, e, a, spec)
	}
	c.arg, c.argFrom = uint16(k), n
	typ, t := c.property(x, e, a, spec)
	c.arg = 0
	// The prop's node by id: the component's members may be declared
	// meanwhile by a checker of another module; its props were made
	// before any body was checked.
	if p, ok := c.g.Lookup(graph.KindProp + ":" + inst.decl.Name.Name + "." + spec.name); ok {
		c.g.AddArgEdge(n, p, graph.EdgeBinds, graph.Resolved, uint16(k))
	}
	return typ, t
}
