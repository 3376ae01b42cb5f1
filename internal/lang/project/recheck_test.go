package project_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// genInputs writes a small generated project and loads it.
func genInputs(t testing.TB, files, size int) *load.Inputs {
	t.Helper()
	dir := t.TempDir()
	if err := projgen.Write(dir, projgen.Project(files, size)); err != nil {
		t.Fatal(err)
	}
	in, err := load.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// withSources returns in with the sources at the given paths replaced.
func withSources(in *load.Inputs, repl map[string][]byte) *load.Inputs {
	out := *in
	out.Sources = append([]load.File(nil), in.Sources...)
	for i, f := range out.Sources {
		if d, ok := repl[f.Path]; ok {
			sum := sha256.Sum256(d)
			out.Sources[i].Data, out.Sources[i].SHA256 = d, hex.EncodeToString(sum[:])
		}
	}
	return &out
}

func source(in *load.Inputs, path string) []byte {
	for _, f := range in.Sources {
		if f.Path == path {
			return f.Data
		}
	}
	return nil
}

// sameCompile fails unless a and b are the same compile as a user sees
// it: state, diagnostics, summaries and every node and edge.
func sameCompile(t *testing.T, what string, got, want *project.Project) {
	t.Helper()
	g, w := got.Result, want.Result
	if g.State != w.State || g.Status != w.Status || !reflect.DeepEqual(g.EntryPoints, w.EntryPoints) ||
		!reflect.DeepEqual(g.Modules, w.Modules) || !reflect.DeepEqual(g.Contracts, w.Contracts) || !reflect.DeepEqual(g.Preparation, w.Preparation) {
		t.Fatalf("%s: results differ:\ngot  %s %s %v %+v %+v\nwant %s %s %v %+v %+v", what, g.State, g.Status, g.EntryPoints, g.Modules, g.Contracts,
			w.State, w.Status, w.EntryPoints, w.Modules, w.Contracts)
	}
	if !reflect.DeepEqual(g.Diagnostics, w.Diagnostics) {
		t.Fatalf("%s: diagnostics differ:\ngot  %+v\nwant %+v", what, g.Diagnostics, w.Diagnostics)
	}
	if (g.Graph == nil) != (w.Graph == nil) {
		t.Fatalf("%s: graph %v, want %v", what, g.Graph != nil, w.Graph != nil)
	}
	if g.Graph != nil {
		if gd, wd := dumpGraph(g.Graph), dumpGraph(w.Graph); gd != wd {
			gl, wl := strings.Split(gd, "\n"), strings.Split(wd, "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Fatalf("%s: graphs differ at line %d:\ngot  %s\nwant %s", what, i+1, gl[i], wl[i])
				}
			}
			t.Fatalf("%s: graphs differ in length: %d lines, want %d", what, len(gl), len(wl))
		}
		// node.find's index: a recheck's is derived from its base's when
		// the base has one (the chained tests build each one here).
		for _, q := range []string{"", "a", "add", "label", "p1_0/", "state", "open", "it", "zzz"} {
			for _, f := range []graph.Filter{{}, {Kind: graph.KindElement}, {Path: "main.acore"}, {Owner: "page:P1_0"}} {
				if gf, wf := findAll(g.Graph, q, f), findAll(w.Graph, q, f); gf != wf {
					t.Fatalf("%s: node.find %q %+v differs:\ngot  %.300s\nwant %.300s", what, q, f, gf, wf)
				}
			}
		}
	}
}

// findAll lists what g's search index finds for q and f.
func findAll(g *graph.Graph, q string, f graph.Filter) string {
	var b strings.Builder
	g.Search().Query([]byte(q), f, func(i int32, name, id, value bool) {
		fmt.Fprintln(&b, g.At(i).ID, name, id, value)
	})
	return b.String()
}

func TestCompileFromMatchesCompile(t *testing.T) {
	in := genInputs(t, 8, 120000)
	base := project.Compile(in)
	if base.Result.State != "validated" {
		t.Fatalf("base state %s", base.Result.State)
	}
	p1, p2 := string(source(in, "pages/p1.acore")), string(source(in, "pages/p2.acore"))
	main := string(source(in, "main.acore"))
	for _, tc := range []struct {
		name    string
		files   map[string]string
		derived bool // whether only the changed modules are checked
	}{
		{"literal", map[string]string{"pages/p1.acore": strings.Replace(p1, `label: "Add"`, `label: "Add item"`, 1)}, true},
		{"lines shift", map[string]string{"pages/p1.acore": strings.Replace(p1, "  state draft", "\n\n  state draft", 1)}, true},
		{"comment", map[string]string{"pages/p1.acore": strings.Replace(p1, "page P1_0 {", "// the first page\npage P1_0 {", 1)}, true},
		{"type error", map[string]string{"pages/p1.acore": strings.Replace(p1, "state count: Int = 0", `state count: Int = "none"`, 1)}, true},
		{"two files", map[string]string{
			"pages/p1.acore": strings.Replace(p1, `label: "Add"`, `label: "Add one"`, 1),
			"pages/p2.acore": strings.Replace(p2, `label: "Add"`, `label: "Add two"`, 1)}, true},
		{"new element", map[string]string{"pages/p1.acore": strings.Replace(p1, `Text("Added "`, `Text("new") Text("Added "`, 1)}, false},
		{"renamed state", map[string]string{"pages/p1.acore": strings.ReplaceAll(p1, "count", "total")}, false},
		{"prop type", map[string]string{"pages/p1.acore": strings.Replace(p1, "(item: Item, on_open: Action)", "(item: Item?, on_open: Action)", 1)}, false},
		{"syntax error", map[string]string{"pages/p1.acore": strings.Replace(p1, "page P1_0 {", "page P1_0 {{", 1)}, true},
		{"main", map[string]string{"main.acore": strings.Replace(main, `label: "Add"`, `label: "Add it"`, 1)}, true},
		{"main and a page", map[string]string{"main.acore": main + "\n// end\n", "pages/p2.acore": p2 + "\n"}, true},
		{"new route", map[string]string{"main.acore": strings.Replace(main, "app Generated {", "app Generated {\n  route \"/again\" => P0_0", 1)}, false},
		{"route path", map[string]string{"main.acore": strings.Replace(main, `route "/p0_0"`, `route "/first"`, 1)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repl := map[string][]byte{}
			for p, s := range tc.files {
				if s == string(source(in, p)) {
					t.Fatalf("the edit of %s changes nothing", p)
				}
				repl[p] = []byte(s)
			}
			next := withSources(in, repl)
			got, want := project.CompileFrom(base, next), project.Compile(next)
			if derived := got.Result.Graph != nil && got.Result.Graph.Changed != nil; derived != tc.derived {
				t.Errorf("derived from the base: %v, want %v", derived, tc.derived)
			}
			sameCompile(t, tc.name, got, want)
			// And once more from the derived compile, back to the base.
			again := project.CompileFrom(got, in)
			sameCompile(t, tc.name+", back", again, project.Compile(in))
		})
	}
}

// TestCompileFromRandomEdits makes random small edits to one or two
// modules, chained, and compares each compile with a whole compile.
func TestCompileFromRandomEdits(t *testing.T) {
	in := genInputs(t, 8, 40000)
	prev := project.Compile(in)
	rng := rand.New(rand.NewPCG(1, 2))
	edits := []func(src []byte) []byte{
		// A string literal's content.
		func(src []byte) []byte {
			q := bytes.Count(src, []byte(`"`)) / 2
			if q == 0 {
				return src
			}
			k := rng.IntN(q)
			at := 0
			for range 2*k + 1 {
				at += bytes.IndexByte(src[at:], '"') + 1
			}
			return append(append(append([]byte{}, src[:at]...), fmt.Sprintf("x%d ", rng.IntN(100))...), src[at:]...)
		},
		// A line break where a space was.
		func(src []byte) []byte {
			at := bytes.IndexByte(src[rng.IntN(len(src)):], ' ')
			if at < 0 {
				return src
			}
			at += len(src) - len(src[at:]) // keep at as an index into src
			out := append([]byte{}, src...)
			out[at] = '\n'
			return out
		},
		// A number changed.
		func(src []byte) []byte {
			for range 20 {
				at := rng.IntN(len(src))
				if src[at] >= '0' && src[at] <= '9' {
					out := append([]byte{}, src...)
					out[at] = byte('0' + rng.IntN(10))
					return out
				}
			}
			return src
		},
		// One byte deleted, which usually breaks the file.
		func(src []byte) []byte {
			at := rng.IntN(len(src))
			return append(append([]byte{}, src[:at]...), src[at+1:]...)
		},
	}
	cur := in
	derived := 0
	for i := range 80 {
		repl := map[string][]byte{}
		for range 1 + rng.IntN(2) {
			f := cur.Sources[rng.IntN(len(cur.Sources))]
			src := f.Data
			if d, ok := repl[f.Path]; ok {
				src = d
			}
			repl[f.Path] = edits[rng.IntN(len(edits))](src)
		}
		next := withSources(cur, repl)
		got := project.CompileFrom(prev, next)
		sameCompile(t, fmt.Sprintf("edit %d", i), got, project.Compile(next))
		if got.Result.Graph != nil && got.Result.Graph.Changed != nil {
			derived++
		}
		// Broken edits are undone, so the walk stays near a valid project.
		if got.Result.State == "validated" {
			prev, cur = got, next
		}
	}
	if derived < 20 {
		t.Errorf("only %d of 80 edits were compiled by rechecking their modules", derived)
	}
	t.Logf("%d of 80 edits rechecked their modules only", derived)
}

// TestCompileFromTaskApp rechecks the scaffolded app, whose one module
// imports a contract and has a warning.
func TestCompileFromTaskApp(t *testing.T) {
	base := taskApp(t)
	in := base.Inputs
	src := string(source(in, "main.acore"))
	for _, edit := range []string{
		strings.Replace(src, `label: "Add"`, `label: "Add a task"`, 1),
		strings.Replace(src, `placeholder: "Add a task"`, "placeholder:\n  \"Add\"", 1),
		strings.Replace(src, `draft = ""`, `draft = 1`, 1),
	} {
		next := withSources(in, map[string][]byte{"main.acore": []byte(edit)})
		got := project.CompileFrom(base, next)
		if got.Result.Graph == nil || got.Result.Graph.Changed == nil {
			t.Errorf("not rechecked: %d", len(edit))
		}
		sameCompile(t, "task-app", got, project.Compile(next))
	}
}

// TestParallelCheckMatchesSequential compiles projects with modules
// checked on two cores and on one, with errors in several modules.
func TestParallelCheckMatchesSequential(t *testing.T) {
	in := genInputs(t, 8, 80000)
	broken := withSources(in, map[string][]byte{
		"pages/p1.acore": bytes.Replace(source(in, "pages/p1.acore"), []byte("state count: Int = 0"), []byte(`state count: Int = "x"`), 1),
		"pages/p3.acore": bytes.Replace(source(in, "pages/p3.acore"), []byte(`label: "Add"`), []byte(`label: 1, nothing: 2`), 1),
		"pages/p5.acore": bytes.Replace(source(in, "pages/p5.acore"), []byte(`navigate("/`), []byte(`navigate("/nowhere`), 1),
		// Annotations are checked with each module's bodies.
		"pages/p2.acore": bytes.Replace(source(in, "pages/p2.acore"), []byte("  state count: Int = 0"), []byte("  @axag(risk: \"low\")\n  state count: Int = 0"), 1),
		"pages/p4.acore": bytes.Replace(source(in, "pages/p4.acore"), []byte("  state count: Int = 0"), []byte("  @axag(risk: \"low\")\n  state count: Int = 0"), 1),
	})
	for _, next := range []*load.Inputs{in, broken} {
		prev := runtime.GOMAXPROCS(2)
		two := project.Compile(next)
		runtime.GOMAXPROCS(1)
		one := project.Compile(next)
		runtime.GOMAXPROCS(prev)
		sameCompile(t, "two cores against one", two, one)
	}
	errFiles, noEffect := map[string]bool{}, map[string]bool{}
	for _, d := range project.Compile(broken).Result.Diagnostics {
		if d.Severity == "error" {
			errFiles[d.Path] = true
		}
		if d.Code == "AC404" {
			noEffect[d.Path] = true
		}
	}
	if len(errFiles) < 2 || len(noEffect) != 2 {
		t.Errorf("errors in %v and annotations without effect in %v, want errors in two modules at least and annotations in two", errFiles, noEffect)
	}
}

// TestCompileFromConcurrent rechecks several edits of one base at once, as
// concurrent proposals on one snapshot do: the base's state is shared and
// must only be read (the race detector watches it in CI).
func TestCompileFromConcurrent(t *testing.T) {
	in := genInputs(t, 8, 80000)
	base := project.Compile(in)
	var edits []*load.Inputs
	for i, path := range []string{"pages/p1.acore", "pages/p2.acore", "pages/p3.acore", "main.acore", "pages/p1.acore", "pages/p4.acore"} {
		src := source(in, path)
		edited := bytes.Replace(src, []byte(`label: "Add"`), []byte(fmt.Sprintf(`label: "Add %d"`, i)), 1)
		if i == 4 {
			edited = bytes.Replace(src, []byte("state count: Int = 0"), []byte(`state count: Int = "x"`), 1)
		}
		edits = append(edits, withSources(in, map[string][]byte{path: edited}))
	}
	got := make([]*project.Project, len(edits))
	var wg sync.WaitGroup
	for i, next := range edits {
		wg.Go(func() { got[i] = project.CompileFrom(base, next) })
	}
	wg.Wait()
	for i, next := range edits {
		if got[i].Result.Graph == nil || got[i].Result.Graph.Changed == nil {
			t.Errorf("edit %d was not rechecked", i)
		}
		sameCompile(t, fmt.Sprintf("edit %d", i), got[i], project.Compile(next))
	}
	sameCompile(t, "the base after", project.CompileFrom(got[0], in), project.Compile(in))
}

// Options.Before runs as each whole compile starts, and not for a
// recheck or the same inputs again.
func TestBeforeWholeCompiles(t *testing.T) {
	in := taskApp(t).Inputs
	calls := 0
	o := project.Options{Before: func() { calls++ }}
	base := o.Compile(in)
	if calls != 1 {
		t.Fatalf("%d calls for a compile, want 1", calls)
	}
	edited := withSources(in, map[string][]byte{"main.acore": bytes.Replace(source(in, "main.acore"), []byte(`label: "Add"`), []byte(`label: "Add a task"`), 1)})
	if p := o.CompileFrom(base, edited); p.Changed == nil {
		t.Fatal("the edit was not rechecked")
	}
	if o.CompileFrom(base, in); calls != 1 {
		t.Errorf("%d calls after a recheck and the same inputs again, want 1", calls)
	}
	if o.CompileFrom(nil, edited); calls != 2 {
		t.Errorf("%d calls after a second whole compile, want 2", calls)
	}
}

// TestCompileFromTodoMVC rechecks TodoMVC, whose module declares a model:
// the field nodes the module makes, and the reads and writes of them,
// must be those of a whole compile.
func TestCompileFromTodoMVC(t *testing.T) {
	base, err := project.Open(filepath.Join("..", "..", "..", "examples", "todomvc"))
	if err != nil {
		t.Fatal(err)
	}
	in := base.Inputs
	src := string(source(in, "main.acore"))
	for _, edit := range []string{
		strings.Replace(src, `placeholder: "What needs to be done?"`, `placeholder: "What next?"`, 1),
		strings.Replace(src, "model Todo {", "\n\nmodel Todo {", 1),
		strings.Replace(src, "Label(t.title,", "Label(t.title + \"!\",", 1),
	} {
		next := withSources(in, map[string][]byte{"main.acore": []byte(edit)})
		got := project.CompileFrom(base, next)
		if got.Result.Graph == nil || got.Result.Graph.Changed == nil {
			t.Errorf("not rechecked: %d", len(edit))
		}
		sameCompile(t, "todomvc", got, project.Compile(next))
	}
}
