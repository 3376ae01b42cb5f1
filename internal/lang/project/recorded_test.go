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

// A compile with Options.Record is recorded in its one compile: it has
// the record and whole trees, is its own Recorded, gives the graph and
// diagnostics of a compile without a record, and is never rechecked.
func TestRecordOption(t *testing.T) {
	in := genInputs(t, 3, 24<<10)
	compiles := 0
	opts := project.Options{Record: true, Before: func() { compiles++ }}
	p := opts.Compile(in)
	if p.Info == nil || len(p.Info.Types) == 0 || len(p.Info.Syntax) != p.Result.Graph.Len() || p.Recorded() != p {
		t.Fatalf("record %+v", p.Info)
	}
	if compiles != 1 {
		t.Errorf("%d compiles, want 1", compiles)
	}
	for _, f := range p.SourceHeaders() {
		if f.Headers || viewItems(f) == 0 {
			t.Errorf("%s: the recorded compile dropped its bodies", f.Path)
		}
	}
	plain := project.Compile(in)
	if !reflect.DeepEqual(plain.Result.Diagnostics, p.Result.Diagnostics) || plain.Result.Graph.Len() != p.Result.Graph.Len() {
		t.Error("the recorded compile differs from a plain one")
	}
	const path = "pages/p1.acore"
	next := project.CompileFrom(p, withSources(in, map[string][]byte{path: bytes.Replace(source(in, path), []byte(`label: "Add"`), []byte(`label: "Plus"`), 1)}))
	if next.Changed != nil || next.Info == nil || compiles != 2 {
		t.Errorf("CompileFrom a recorded compile: Changed %v, record %v, %d compiles", next.Changed, next.Info != nil, compiles)
	}
}
