package project_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
)

// TestLimits builds projects over each service bound: each is reported as
// an unavailable project with the bound's code and reason, never a crash
// or a hang. The rendered diagnostics are kept in testdata/limits.golden.
func TestLimits(t *testing.T) {
	page := func(name string) string {
		return "module " + strings.ToLower(name) + "\npage " + name + " {\n  view { Text(\"x\") }\n}\n"
	}
	entry := "module m\napp A { route \"/\" => Home }\n" + page("Home")[9:]
	cases := []struct {
		name  string
		files func(dir string) map[string]string
	}{
		{"too_many_modules", func(string) map[string]string {
			fs := map[string]string{"main.acore": entry}
			for i := range 64 {
				fs[fmt.Sprintf("p%02d.acore", i)] = page(fmt.Sprintf("P%d", i))
			}
			return fs
		}},
		{"file_too_large", func(string) map[string]string {
			return map[string]string{"main.acore": entry, "big.acore": page("Big") + "// " + strings.Repeat("x", 2<<20) + "\n"}
		}},
		{"sources_too_large", func(string) map[string]string {
			fs := map[string]string{"main.acore": entry}
			for i := range 3 {
				fs[fmt.Sprintf("p%d.acore", i)] = page(fmt.Sprintf("P%d", i)) + "// " + strings.Repeat("x", 1500<<10) + "\n"
			}
			return fs
		}},
		{"snapshot_too_large", func(string) map[string]string {
			fs := map[string]string{"main.acore": entry}
			for i := range 33 {
				fs[fmt.Sprintf("contracts/c%02d.axiom", i)] = "// " + strings.Repeat("x", 2<<20-16) + "\n"
			}
			return fs
		}},
		{"nesting_limit", func(string) map[string]string {
			return map[string]string{"main.acore": entry + "page Deep {\n  state n: Int = " + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300) + "\n}\n"}
		}},
		{"bracket_limit", func(string) map[string]string {
			return map[string]string{"main.acore": entry + "page Many {\n  view {\n" + strings.Repeat("    View { }\n", 8200) + "  }\n}\n"}
		}},
		{"brackets_total_limit", func(string) map[string]string {
			return map[string]string{"main.acore": entry + strings.Repeat(")", 17000) + "\n"}
		}},
	}
	var out strings.Builder
	for _, tc := range cases {
		dir := t.TempDir()
		for p, data := range tc.files(dir) {
			abs := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		p, err := project.Open(dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if p.Result.State != "unavailable" || p.Result.Graph != nil {
			t.Errorf("%s: state %s", tc.name, p.Result.State)
		}
		fmt.Fprintf(&out, "== %s\n%s", tc.name, strings.ReplaceAll(render(p), dir, "$ROOT"))
		if !strings.Contains(out.String(), tc.name) {
			t.Errorf("%s: the diagnostics do not name the bound", tc.name)
		}
	}
	golden := "testdata/limits.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := os.ReadFile(golden)
	if out.String() != string(want) {
		t.Errorf("limits differ from %s:\n%s", golden, out.String())
	}
}
