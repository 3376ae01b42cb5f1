package service

import (
	"fmt"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/graph"
)

// exhaustive: true promises that nothing the walk could reach is missing:
// an agent that reads an empty answer stops looking. A walk that a bound
// cut, or that met code the compiler cannot see, says so here, with the
// gap named and the nodes where it stopped.

// gap records a coverage gap: the answer is partial and not exhaustive.
func (c *call) gap(reason, detail string, nodes []string) {
	if len(nodes) > 50 {
		nodes = nodes[:50]
	}
	if c.coverage.Completeness == "complete" {
		c.coverage.Completeness = "partial"
	}
	c.coverage.Exhaustive = false
	c.coverage.Gaps = append(c.coverage.Gaps, protocol.Gap{Reason: reason, Detail: detail, Nodes: nodes})
}

// depthGap records a walk that limits.max_depth stopped at nodes with
// relations beyond it.
func (c *call) depthGap(g *graph.Graph, cut []int32) {
	if len(cut) == 0 {
		return
	}
	ids := make([]string, 0, min(len(cut), 50))
	for _, i := range cut[:min(len(cut), 50)] {
		ids = append(ids, g.At(i).ID)
	}
	c.gap("max_depth", fmt.Sprintf("the walk stopped at limits.max_depth (%d); %d nodes have relations it did not follow: raise max_depth (up to %d) or walk on from them",
		c.limits.MaxDepth, len(cut), protocol.MaxLimits.MaxDepth), ids)
}

// foreignGap records the foreign nodes a walk reached: what they read,
// write or call is outside the compiler's view.
func (c *call) foreignGap(ids []string) {
	if len(ids) == 0 {
		return
	}
	c.gap("foreign_implementation", fmt.Sprintf("the walk reached %d nodes implemented outside the project; the compiler cannot see what they read, write or call", len(ids)), ids)
}
