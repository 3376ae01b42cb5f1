package project_test

import (
	"bytes"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// viewItems counts the items of every view in f.
func viewItems(f *syntax.File) int {
	n := 0
	for _, d := range f.Decls {
		if o, ok := d.(*syntax.OwnerDecl); ok {
			for _, m := range o.Members {
				if v, ok := m.(*syntax.ViewDecl); ok {
					n += len(v.Items)
				}
			}
		}
	}
	return n
}

// A compile keeps only its sources' headers (Headers, SourceHeaders), but
// File answers whole trees, for a whole compile, for a recheck, and for a
// recheck's fallback to a whole compile.
func TestFileAnswersWholeTrees(t *testing.T) {
	in := genInputs(t, 3, 24<<10)
	base := project.Compile(in)
	const path = "pages/p1.acore"
	src := source(in, path)
	relabel := project.CompileFrom(base, withSources(in, map[string][]byte{path: bytes.Replace(src, []byte(`label: "Add"`), []byte(`label: "Plus"`), 1)}))
	if len(relabel.Changed) != 1 {
		t.Fatalf("relabelling one button was not rechecked: Changed %v", relabel.Changed)
	}
	// A new element changes node ids: the recheck falls back.
	grown := project.CompileFrom(base, withSources(in, map[string][]byte{path: bytes.Replace(src, []byte(`Text("In stock: "`), []byte(`Text("new")
        Text("In stock: "`), 1)}))
	if grown.Changed != nil {
		t.Fatalf("adding an element was rechecked: Changed %v", grown.Changed)
	}
	for _, c := range []struct {
		name string
		p    *project.Project
	}{{"compile", base}, {"recheck", relabel}, {"fallback", grown}} {
		kept := c.p.SourceHeaders()
		if len(kept) != len(in.Sources) {
			t.Fatalf("%s: %d source headers, want %d", c.name, len(kept), len(in.Sources))
		}
		for i, src := range c.p.Inputs.Sources {
			whole := syntax.Parse(src.Path, src.Data)
			f := c.p.File(src.Path)
			if f == nil || f.Headers || viewItems(f) == 0 || viewItems(f) != viewItems(whole) {
				t.Errorf("%s: File(%s) is not the whole tree", c.name, src.Path)
				continue
			}
			// Headers answer the declarations with their spans, unparsed.
			h := c.p.Headers(f.Path)
			if kept[i] != h {
				t.Errorf("%s: SourceHeaders()[%d] is not Headers(%s)", c.name, i, f.Path)
			}
			if h == nil || !h.Headers || len(h.Decls) != len(whole.Decls) || len(h.Uses) != len(whole.Uses) || !bytes.Equal(h.Src, whole.Src) {
				t.Errorf("%s: Headers(%s) is not the kept tree of the source", c.name, f.Path)
			} else {
				for k, d := range h.Decls {
					if d.Bounds() != whole.Decls[k].Bounds() {
						t.Errorf("%s: Headers(%s) declaration %d at %v, want %v", c.name, f.Path, k, d.Bounds(), whole.Decls[k].Bounds())
					}
				}
			}
			// The graph reads the kept file's text and lines.
			if kept := c.p.Result.Graph.File(f.Path); kept == nil || !bytes.Equal(kept.Src, whole.Src) || len(kept.Lines) != len(whole.Lines) {
				t.Errorf("%s: the graph's %s is not the source", c.name, f.Path)
			}
		}
	}
	if len(in.Contracts) == 0 || grown.File(in.Contracts[0].Path) == nil {
		t.Error("File of a contract is nil")
	}
	if base.File("nowhere.acore") != nil {
		t.Error("File of a path outside the project is not nil")
	}
}

// The trees File parses are kept in the Options' TreeCache, which the
// projects compiled from one share; the zero Options keep none, and two
// caches share nothing.
func TestTreeCacheIsTheOptions(t *testing.T) {
	in := genInputs(t, 2, 8<<10)
	const path = "pages/p1.acore"
	zero := project.Compile(in)
	if first := zero.File(path); first == zero.File(path) {
		t.Errorf("the zero Options kept a tree")
	}
	o := project.Options{Trees: project.NewTreeCache()}
	p := o.Compile(in)
	f := p.File(path)
	if f == nil || p.File(path) != f {
		t.Fatalf("File(%s) was parsed again with a TreeCache", path)
	}
	next := project.CompileFrom(p, withSources(in, map[string][]byte{"main.acore": append(source(in, "main.acore"), '\n')}))
	if next.File(path) != f {
		t.Errorf("a project compiled from one with a TreeCache does not share it")
	}
	other := project.Options{Trees: project.NewTreeCache()}.Compile(in)
	if other.File(path) == f {
		t.Errorf("two TreeCaches share a tree")
	}
}
