package graph

// Summary is a node as answers list it: the protocol's nodeSummary.
type Summary struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Path    string `json:"path"`
	Version string `json:"version"`
}

// Summary is node n's summary.
func (g *Graph) Summary(n *Node) Summary {
	return Summary{ID: n.ID, Kind: n.Kind, Name: n.Name, Path: n.Path, Version: g.Version(n)}
}

// Location is a place in a source file, as answers give it: where an
// edge is written.
type Location struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// StateType is the declared type of state node s (its type property), or
// "".
func StateType(s *Node) string {
	for _, pr := range s.Props {
		if pr.Name == "type" {
			if v, ok := pr.Value.(string); ok {
				return v
			}
		}
	}
	return ""
}
