package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkPropose proposes on the generated project at the bounds (64
// files, about 4 MiB): one set_property, and a batch of 50, one in each of
// 50 files. Each iteration is a new request_id, so a new candidate stored
// under .axiom/state.
func BenchmarkPropose(b *testing.B) {
	s, snap := boundsService(b)
	setLabel := func(page string) string {
		return `{"kind": "set_property", "node": "element:` + page + `/view/0/1/1", "property": "label", "old_value": "Add", "new_value": "Add task"}`
	}
	var fifty []string
	for i := 1; i <= 50; i++ {
		fifty = append(fifty, setLabel(fmt.Sprintf("P%d_0", i)))
	}
	for _, tc := range []struct {
		name string
		ops  []string
	}{
		{"set_property", []string{setLabel("P7_3")}},
		{"set_property_main", []string{setLabel("P0_0")}},
		{"batch50", fifty},
	} {
		b.Run(tc.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				n++
				req := `{"protocol": "axiom-agent-semantic/v1", "operation": "change.propose", "base_snapshot": "` + snap +
					`", "request_id": "bench-` + tc.name + fmt.Sprint(n) + `", "params": {"operations": [` + strings.Join(tc.ops, ",") + `]}}`
				out := s.Handle(context.Background(), []byte(req))
				var o struct {
					Error json.RawMessage `json:"error"`
				}
				if json.Unmarshal(out, &o) != nil || o.Error != nil {
					b.Fatalf("%.3000s", out[len(out)-min(len(out), 1500):])
				}
			}
		})
	}
}
