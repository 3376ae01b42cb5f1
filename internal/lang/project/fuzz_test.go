package project_test

import (
	"bytes"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
)

// FuzzRecheck replaces one module of a small generated project with the
// fuzzer's bytes and requires the compile from the unchanged project
// (which rechecks the module when it can) to equal a whole compile.
func FuzzRecheck(f *testing.F) {
	in := genInputs(f, 4, 12000)
	base := project.Compile(in)
	src := source(in, "pages/p1.acore")
	f.Add(src)
	f.Add(bytes.Replace(src, []byte(`label: "Add"`), []byte(`label: "Add it"`), 1))
	f.Add(bytes.Replace(src, []byte("state count: Int = 0"), []byte(`state count: Int = "x"`), 1))
	f.Add(bytes.Replace(src, []byte("page P1_0 {"), []byte("page P1_0 {{"), 1))
	f.Add(bytes.Replace(src, []byte("  state draft"), []byte("\n  state draft"), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		next := withSources(in, map[string][]byte{"pages/p1.acore": data})
		sameCompile(t, "fuzzed module", project.CompileFrom(base, next), project.Compile(next))
	})
}
