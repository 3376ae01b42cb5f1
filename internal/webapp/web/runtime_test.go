package web

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestRuntimeAPI: the runtime's table (the names it defines for the app,
// at the head of the minified runtime) is the one the backend calls
// (runtimeAPI), name for name.
func TestRuntimeAPI(t *testing.T) {
	m := regexp.MustCompile(`^const\{([^}]*)\}=`).FindStringSubmatch(runtimeJS)
	if m == nil {
		t.Fatalf("the runtime does not start with its table: %.80s", runtimeJS)
	}
	have := strings.Split(m[1], ",")
	var want []string
	for _, id := range runtimeAPI {
		want = append(want, id.Name)
	}
	slices.Sort(have)
	slices.Sort(want)
	if !slices.Equal(have, want) {
		t.Errorf("the runtime's table is %v, the backend's %v", have, want)
	}
}
