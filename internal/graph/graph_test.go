package graph

import (
	"fmt"
	"testing"
)

func TestFreezeKeepsOrderAndDropsRepeats(t *testing.T) {
	g := New(4)
	for _, id := range []string{"a", "b", "c"} {
		g.Add(Node{ID: id})
	}
	if _, fresh := g.Add(Node{ID: "a"}); fresh {
		t.Error("a node added twice")
	}
	g.AddEdge(Edge{From: 0, To: 1, Kind: EdgeReads, Line: 1})
	g.AddEdge(Edge{From: 2, To: 1, Kind: EdgeWrites, Line: 2})
	g.AddEdge(Edge{From: 0, To: 2, Kind: EdgeCalls, Line: 3})
	g.AddEdge(Edge{From: 0, To: 1, Kind: EdgeReads, Line: 4}) // repeat: dropped, first site kept
	g.AddEdge(Edge{From: 0, To: 1, Kind: EdgeWrites, Line: 5})
	g.Freeze()
	row := func(list []int32) string {
		s := ""
		for _, ei := range list {
			e := g.Edges[ei]
			s += fmt.Sprintf("%s>%s:%s@%d ", g.Nodes[e.From].ID, g.Nodes[e.To].ID, e.Kind, e.Line)
		}
		return s
	}
	if got := row(g.Out(0)); got != "a>b:reads@1 a>c:calls@3 a>b:writes@5 " {
		t.Errorf("out(a) = %s", got)
	}
	if got := row(g.In(1)); got != "a>b:reads@1 c>b:writes@2 a>b:writes@5 " {
		t.Errorf("in(b) = %s", got)
	}
	if len(g.Edges) != 4 || len(g.Out(1)) != 0 {
		t.Errorf("%d edges", len(g.Edges))
	}
}
