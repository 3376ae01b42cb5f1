package project_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
)

// A compile for agents (ServiceOptions), whole or rechecked, records
// nothing; Recorded compiles the same inputs once with a record over
// whole trees, with the same graph and diagnostics, and a project with a
// record is its own.
func TestRecorded(t *testing.T) {
	in := genInputs(t, 3, 24<<10)
	opts := project.ServiceOptions()
	base := opts.Compile(in)
	const path = "pages/p1.acore"
	relabel := project.CompileFrom(base, withSources(in, map[string][]byte{path: bytes.Replace(source(in, path), []byte(`label: "Add"`), []byte(`label: "Plus"`), 1)}))
	if len(relabel.Changed) != 1 {
		t.Fatalf("not rechecked: Changed %v", relabel.Changed)
	}
	for _, p := range []*project.Project{base, relabel} {
		if p.Info != nil {
			t.Fatal("a compile for agents has a record")
		}
		r := p.Recorded()
		if r == p || r.Info == nil || len(r.Info.Types) == 0 || len(r.Info.Syntax) != r.Result.Graph.Len() {
			t.Fatalf("Recorded: %+v", r.Info)
		}
		if r2 := p.Recorded(); r2 != r || r.Recorded() != r {
			t.Error("Recorded compiled twice")
		}
		if !reflect.DeepEqual(r.Result.Diagnostics, p.Result.Diagnostics) || r.Result.Graph.Len() != p.Result.Graph.Len() {
			t.Error("the recorded compile differs")
		}
		for i := range int32(p.Result.Graph.Len()) {
			if a, b := p.Result.Graph.At(i), r.Result.Graph.At(i); a.ID != b.ID || a.Pos != b.Pos {
				t.Fatalf("node %d: %s, recorded %s", i, a.ID, b.ID)
			}
		}
		for _, f := range r.SourceHeaders() {
			if f.Headers || viewItems(f) == 0 {
				t.Errorf("%s: the recorded compile dropped its bodies", f.Path)
			}
		}
	}
}
