package change

import (
	"encoding/json"
	"testing"

	"github.com/axiomcore/acore/internal/agent/edit"
)

// ComposeIDMaps follows an id through two versions: moved twice is one
// move, created then removed is nothing, created then moved is still a
// creation.
func TestComposeIDMaps(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		name string
		a, b []edit.IDMapEntry
		want string
	}{
		{"moved twice", []edit.IDMapEntry{{OldID: s("x"), NewID: s("y"), Change: "moved"}}, []edit.IDMapEntry{{OldID: s("y"), NewID: s("z"), Change: "renamed"}},
			`[{"old_id":"x","new_id":"z","change":"renamed"}]`},
		{"created then removed", []edit.IDMapEntry{{NewID: s("n"), Change: "created"}}, []edit.IDMapEntry{{OldID: s("n"), Change: "removed"}}, `[]`},
		{"created then moved", []edit.IDMapEntry{{NewID: s("n"), Change: "created"}}, []edit.IDMapEntry{{OldID: s("n"), NewID: s("m"), Change: "moved"}},
			`[{"old_id":null,"new_id":"m","change":"created"}]`},
		{"independent", []edit.IDMapEntry{{OldID: s("a"), NewID: s("b"), Change: "moved"}}, []edit.IDMapEntry{{OldID: s("c"), Change: "removed"}},
			`[{"old_id":"a","new_id":"b","change":"moved"},{"old_id":"c","new_id":null,"change":"removed"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := json.Marshal(ComposeIDMaps(tt.a, tt.b))
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	if got := edit.MergeSorted([]string{"b", "a"}, []string{"c", "a"}); len(got) != 3 || got[0] != "a" || got[2] != "c" {
		t.Errorf("MergeSorted = %v", got)
	}
}
