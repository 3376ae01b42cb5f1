package ctxbuild

import (
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// Build on the task app: the focus is required and first, the recipe adds
// optional items, a tight max_nodes omits them with expansion refs, and
// required items over max_bytes are insufficient_context, never cut.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	g := p.Result.Graph
	focus, ok := g.Lookup("element:Home/view/0/1")
	if !ok {
		t.Fatal("no focus node in the task app")
	}
	req := func(lim protocol.Applied) Request {
		return Request{Purpose: "change_input", Focus: []int32{focus}, FocusIDs: []string{"element:Home/view/0/1"}, Limits: lim}
	}
	tests := []struct {
		name      string
		lim       protocol.Applied
		items     int // at least
		omitted   bool
		wantError bool
	}{
		{"defaults", protocol.DefaultLimits, 2, false, false},
		{"one node", protocol.Applied{MaxBytes: 65536, MaxDepth: 2, MaxItems: 50, MaxNodes: 1}, 1, true, false},
		{"too few bytes", protocol.Applied{MaxBytes: 10, MaxDepth: 2, MaxItems: 50, MaxNodes: 100}, 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, omitted, e := Build(p, "snap-0123456789abcdef0123", req(tt.lim))
			if tt.wantError {
				if e == nil || e.RequiredItems != 1 || len(e.Expand) != 1 {
					t.Fatalf("got %v, want insufficient context", e)
				}
				return
			}
			if e != nil {
				t.Fatal(e)
			}
			if len(res.Items) < tt.items || res.Items[0].Node.ID != "element:Home/view/0/1" || !res.Items[0].Required {
				t.Fatalf("items %+v", res.Items)
			}
			if (len(omitted) > 0) != tt.omitted {
				t.Fatalf("omitted %+v", omitted)
			}
			for _, o := range omitted {
				if o.Reason != "max_nodes" || len(o.Expand) == 0 || !strings.HasPrefix(o.Expand[0].Ref, "ctx1:0123456789abcdef:node:") {
					t.Errorf("omission %+v", o)
				}
			}
		})
	}
}
