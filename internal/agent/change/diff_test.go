package change

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
)

// readingList compiles a copy of examples/reading-list whose PageTitle
// component has header instead of its own.
func readingList(t *testing.T, header string) *project.Project {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "reading-list")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "examples", "reading-list"))); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "components", "page_title.acore")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const own = `component PageTitle(title: String, subtitle: String = "") {`
	if !strings.Contains(string(b), own) {
		t.Fatalf("page_title.acore has no %s", own)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), own, header, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Result.Graph == nil {
		t.Fatalf("no graph: %s", p.Result.State)
	}
	return p
}

// A component's signature holds its props: it changed as asked when only
// props an operation names changed in it, and unexpectedly otherwise.
func TestSemanticDiffPropInSignature(t *testing.T) {
	base := readingList(t, `component PageTitle(title: String, subtitle: String = "") {`)
	cases := []struct {
		name, header string
		expected     []string
		component    bool // component:PageTitle's expected
	}{
		{"the default an operation changed", `component PageTitle(title: String, subtitle: String = "More") {`, []string{"prop:PageTitle.subtitle"}, true},
		{"a default no operation named", `component PageTitle(title: String, subtitle: String = "More") {`, nil, false},
		{"a new prop beside the changed default", `component PageTitle(title: String, subtitle: String = "More", note: String = "") {`, []string{"prop:PageTitle.subtitle"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cand := readingList(t, c.header)
			diff := SemanticDiff(base.Result.Graph, cand.Result.Graph, []string{"components/page_title.acore"}, &Data{Expected: c.expected})
			found := false
			for _, e := range diff {
				if e.Node == "component:PageTitle" {
					found = true
					if e.Change != "modified" || e.Expected != c.component {
						t.Errorf("component:PageTitle is %s with expected %v, want modified with %v", e.Change, e.Expected, c.component)
					}
				}
			}
			if !found {
				t.Errorf("component:PageTitle is not in the diff %+v", diff)
			}
		})
	}
}
