package compilecache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// newProject writes a generated project of three modules and returns its
// root.
func newProject(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "p")
	if err := projgen.Write(dir, projgen.Project(3, 24<<10)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// inputs loads root afresh, as a new process does (no stat cache).
func inputs(t *testing.T, root string) *load.Inputs {
	t.Helper()
	in, err := load.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// digest sums everything a read can see of a compiled project: the check
// result, every node with its version and signature, every edge both
// ways, lookups by id, node.find over every kind and a few queries, and
// each source's headers.
func digest(p *project.Project) string {
	h := sha256.New()
	r := p.Result
	fmt.Fprintf(h, "%s|%s|%+v|%q|%+v|%+v|%q\n", r.State, r.Status, r.Diagnostics, r.EntryPoints, r.Modules, r.Contracts, r.Preparation)
	g := r.Graph
	if g == nil {
		return fmt.Sprintf("%x", h.Sum(nil))
	}
	for i := range int32(g.Len()) {
		n := g.At(i)
		fmt.Fprintf(h, "%+v|%s|%s|%v|%v\n", *n, g.Version(n), g.Signature(n), g.Out(i), g.In(i))
		if j, ok := g.Lookup(n.ID); !ok || j != i {
			fmt.Fprintf(h, "lookup %s: %d %v\n", n.ID, j, ok)
		}
	}
	for _, e := range g.Edges {
		fmt.Fprintf(h, "%d>%d %s %s\n", e.From, e.To, e.Kind(), e.Layer())
	}
	s := g.Search()
	for _, q := range []string{"", "a", "add", "p1", "draft", "zz"} {
		for _, k := range append([]string{""}, graph.Kinds...) {
			s.Query([]byte(q), graph.Filter{Kind: k}, func(node int32, name, id, value bool) {
				fmt.Fprintf(h, "%s/%s:%d%v%v%v ", q, k, node, name, id, value)
			})
		}
	}
	fmt.Fprintf(h, "missing %v\n", func() bool { _, ok := g.Lookup("page:Nowhere"); return ok }())
	for _, f := range p.SourceHeaders() {
		fmt.Fprintf(h, "%s %d %d %d %v\n", f.Path, len(f.Decls), len(f.Uses), len(f.Annotated), f.Lines)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestMutations edits a project at random, including rewrites of the
// same size with the old modification time, and reverts to earlier
// contents: an entry answers only for inputs it was written for, and
// what it answers is the compile's.
func TestMutations(t *testing.T) {
	root := newProject(t)
	c := New(root, "test")
	rng := rand.New(rand.NewPCG(1, 2))
	saved := map[[sha256.Size]byte]string{}
	var history []map[string][]byte
	sources := func() map[string][]byte {
		in := inputs(t, root)
		out := map[string][]byte{}
		for _, f := range in.Sources {
			out[f.Path] = f.Data
		}
		return out
	}
	for round := range 40 {
		in := inputs(t, root)
		k := c.Key(in)
		p := c.Load(in)
		want, ok := saved[k]
		switch {
		case p != nil && !ok:
			t.Fatalf("round %d: an entry answered for inputs no entry was written for", round)
		case p == nil && ok:
			t.Fatalf("round %d: the entry written for these inputs was not read", round)
		case p != nil && digest(p) != want:
			t.Fatalf("round %d: the entry answers differently from the compile", round)
		case p == nil:
			compiled := project.Compile(in)
			if err := c.Save(in, compiled); err != nil {
				t.Fatal(err)
			}
			saved[k] = digest(compiled)
		}
		history = append(history, sources())
		mutate(t, root, rng, history)
	}
	if len(saved) < 10 {
		t.Fatalf("only %d distinct inputs in 40 rounds", len(saved))
	}
}

// mutate changes the project at root one way, chosen at random.
func mutate(t *testing.T, root string, rng *rand.Rand, history []map[string][]byte) {
	t.Helper()
	in := inputs(t, root)
	f := in.Sources[rng.IntN(len(in.Sources))]
	path := filepath.Join(root, filepath.FromSlash(f.Path))
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data := slices.Clone(f.Data)
	switch rng.IntN(5) {
	case 0, 1:
		// The same size and modification time: only the content tells.
		for {
			i := rng.IntN(len(data))
			if c := data[i]; c >= 'a' && c <= 'z' {
				data[i] = 'a' + (c-'a'+1)%26
				break
			}
		}
	case 2:
		data = append(data, "\n// edited\n"...)
	case 3:
		// Back to an earlier content of the whole project.
		old := history[rng.IntN(len(history))]
		for p, d := range old {
			if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(p)), d, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	case 4:
		// The same content written again.
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// TestCorruption flips bytes of an entry across its header and body and
// truncates it: each time the entry is not used, it is removed, and the
// next save writes it again.
func TestCorruption(t *testing.T) {
	root := newProject(t)
	c := New(root, "test")
	in := inputs(t, root)
	compiled := project.Compile(in)
	want := digest(compiled)
	if err := c.Save(in, compiled); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(root, filepath.FromSlash(entryName(c.Key(in))))
	good, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var cases []func([]byte) []byte
	for _, at := range []int{0, len(magic), len(magic) + sha256.Size, headerSize - 1, headerSize, headerSize + 1, len(good) / 2, len(good) - 1} {
		cases = append(cases, func(b []byte) []byte { b[at] ^= 0x20; return b })
	}
	for range 24 {
		at, bit := rng.IntN(len(good)), byte(1)<<rng.IntN(8)
		cases = append(cases, func(b []byte) []byte { b[at] ^= bit; return b })
	}
	for _, n := range []int{0, 1, headerSize - 1, headerSize, len(good) / 3, len(good) - 1} {
		cases = append(cases, func(b []byte) []byte { return b[:n] })
	}
	cases = append(cases, func(b []byte) []byte { return append(b, 0) })
	for i, corrupt := range cases {
		if err := os.WriteFile(name, corrupt(slices.Clone(good)), 0o644); err != nil {
			t.Fatal(err)
		}
		if p := c.Load(in); p != nil {
			t.Fatalf("case %d: a corrupt entry was used", i)
		}
		if _, err := os.Stat(name); !os.IsNotExist(err) {
			t.Fatalf("case %d: the corrupt entry is still there (%v)", i, err)
		}
		if err := c.Save(in, compiled); err != nil {
			t.Fatal(err)
		}
		p := c.Load(in)
		if p == nil || digest(p) != want {
			t.Fatalf("case %d: the entry written again does not answer as the compile", i)
		}
	}
}

// TestConcurrent has writers and readers of several projects' entries
// run at once, each with its own Cache as separate processes would: a
// reader finds no entry or a whole one that answers as the compile.
func TestConcurrent(t *testing.T) {
	root := newProject(t)
	type version struct {
		in   *load.Inputs
		p    *project.Project
		want string
	}
	var versions []version
	for i := range 4 {
		if i > 0 {
			path := filepath.Join(root, "main.acore")
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "\n// version %d\n", i)
			f.Close()
		}
		in := inputs(t, root)
		p := project.Compile(in)
		versions = append(versions, version{in, p, digest(p)})
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 8 {
		wg.Go(func() {
			c := New(root, "test")
			for round := range 12 {
				v := versions[(w+round)%len(versions)]
				if w%2 == 0 {
					if err := c.Save(v.in, v.p); err != nil {
						errs <- err
					}
					// Another writer's entry of the same inputs is
					// replaced whole.
					_ = os.Remove(filepath.Join(root, filepath.FromSlash(entryName(c.Key(v.in)))))
					if err := c.Save(v.in, v.p); err != nil {
						errs <- err
					}
					continue
				}
				if p := c.Load(v.in); p != nil && digest(p) != v.want {
					errs <- fmt.Errorf("reader %d: an entry answers differently from the compile", w)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	c := New(root, "test")
	for _, v := range versions {
		if p := c.Load(v.in); p == nil || digest(p) != v.want {
			t.Fatal("after the writers, an entry is missing or wrong")
		}
	}
}

// TestEviction keeps the folder under its bound: the entries used
// longest ago go first, a read renews an entry, and temporary files left
// by killed processes are removed once stale.
func TestEviction(t *testing.T) {
	root := newProject(t)
	c := New(root, "test")
	var ins []*load.Inputs
	var size int64
	for i := range 5 {
		path := filepath.Join(root, "main.acore")
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "\n// version %d\n", i)
		f.Close()
		in := inputs(t, root)
		ins = append(ins, in)
		if err := c.Save(in, project.Compile(in)); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(entryName(c.Key(in)))))
		if err != nil {
			t.Fatal(err)
		}
		size = max(size, fi.Size())
		// Distinct times of use, oldest first.
		old := time.Now().Add(time.Duration(i-10) * time.Minute)
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(entryName(c.Key(in)))), old, old); err != nil {
			t.Fatal(err)
		}
	}
	stale := filepath.Join(root, filepath.FromSlash(Dir), ".x.bin.tmp-1")
	if err := os.WriteFile(stale, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	// Entry 0 is read, so it is used last.
	if c.Load(ins[0]) == nil {
		t.Fatal("entry 0 is not read")
	}
	// A bound of three entries: the next save leaves three.
	small := c.WithMax(3*size + size/2)
	if err := os.WriteFile(filepath.Join(root, "main.acore"), append(ins[4].Sources[0].Data, "\n// last\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	last := inputs(t, root)
	if err := small.Save(last, project.Compile(last)); err != nil {
		t.Fatal(err)
	}
	kept := []bool{}
	for _, in := range append(ins, last) {
		_, err := os.Stat(filepath.Join(root, filepath.FromSlash(entryName(c.Key(in)))))
		kept = append(kept, err == nil)
	}
	if want := []bool{true, false, false, false, true, true}; !slices.Equal(kept, want) {
		t.Fatalf("entries kept %v, want %v (the read one, the newest and the new one)", kept, want)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("a stale temporary file is still there (%v)", err)
	}
	var total int64
	list, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(Dir)))
	for _, de := range list {
		fi, _ := de.Info()
		total += fi.Size()
	}
	if total > 3*size+size/2 {
		t.Fatalf("the folder holds %d bytes, over its bound of %d", total, 3*size+size/2)
	}
	// An entry larger than the bound is not written.
	if err := c.WithMax(size/2).Save(ins[1], project.Compile(ins[1])); err == nil {
		t.Fatal("an entry over the bound was written")
	}
}

// TestIdentity: another compiler's entries are never read.
func TestIdentity(t *testing.T) {
	root := newProject(t)
	in := inputs(t, root)
	if err := New(root, "one").Save(in, project.Compile(in)); err != nil {
		t.Fatal(err)
	}
	if New(root, "two").Load(in) != nil {
		t.Fatal("an entry of another compiler identity was read")
	}
	if New(root, "one").Load(in) == nil {
		t.Fatal("the entry of the same identity was not read")
	}
}

// TestEditOnCached: an edit on a project read from the cache rechecks
// the changed module over one whole compile of the cached inputs, made
// for the first edit and shared by the next, and gives what a whole
// compile of the edited inputs gives.
func TestEditOnCached(t *testing.T) {
	root := newProject(t)
	c := New(root, "test")
	in := inputs(t, root)
	if err := c.Save(in, project.Compile(in)); err != nil {
		t.Fatal(err)
	}
	cached := c.Load(in)
	if cached == nil || !cached.FromCache() {
		t.Fatal("no entry read")
	}
	for round, text := range []string{"Edited once", "Edited twice"} {
		edited := *in
		edited.Sources = slices.Clone(in.Sources)
		f := &edited.Sources[len(edited.Sources)-1]
		f.Data = []byte(strings.Replace(string(f.Data), "New item", text, 1))
		sum := sha256.Sum256(f.Data)
		f.SHA256 = hex.EncodeToString(sum[:])
		p := project.CompileFrom(cached, &edited)
		if !slices.Equal(p.Changed, []string{f.Path}) {
			t.Fatalf("round %d: changed %v, want a recheck of %s", round, p.Changed, f.Path)
		}
		if digest(p) != digest(project.Compile(&edited)) {
			t.Fatalf("round %d: the recheck over the cached project differs from a whole compile", round)
		}
	}
}
