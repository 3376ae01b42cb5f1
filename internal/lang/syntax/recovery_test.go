package syntax

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRecovery states what each broken file must keep, beyond its golden:
// an error in one place must not take its neighbours with it.
func TestRecovery(t *testing.T) {
	owners := func(f *File) (out []*OwnerDecl) {
		for _, d := range f.Decls {
			if o, ok := d.(*OwnerDecl); ok {
				out = append(out, o)
			}
		}
		return out
	}
	elementNames := func(f *File, items []ViewItem) string {
		var names []string
		for _, it := range items {
			switch it := it.(type) {
			case *Element:
				names = append(names, it.Name.Name)
			case *BadDecl:
				names = append(names, "bad")
			}
		}
		return strings.Join(names, " ")
	}
	broken := func(name string) *File { return parseFile(t, filepath.Join("testdata", "broken", name)) }

	t.Run("page keeps the members around a bad one", func(t *testing.T) {
		o := owners(broken("bad_member.acore"))
		if len(o) != 1 || len(o[0].Members) != 6 {
			t.Fatalf("members: %v", o)
		}
		if _, ok := o[0].Members[5].(*ViewDecl); !ok {
			t.Errorf("last member is %T, want the view", o[0].Members[5])
		}
	})
	t.Run("view keeps the siblings of a bad element", func(t *testing.T) {
		f := broken("bad_element.acore")
		v := owners(f)[0].Members[0].(*ViewDecl)
		col := v.Items[0].(*Element)
		if got, want := elementNames(f, col.Children.Items), "Text bad Text Button bad Text Text"; got != want {
			t.Errorf("children %q, want %q", got, want)
		}
		if got := elementNames(f, v.Items); got != "Column Text" {
			t.Errorf("view items %q", got)
		}
	})
	t.Run("unterminated string ends at its line", func(t *testing.T) {
		f := broken("strings.acore")
		o := owners(f)
		if len(o) != 1 || len(o[0].Members) != 5 {
			t.Fatalf("members: %d", len(o[0].Members))
		}
		if got := elementNames(f, o[0].Members[4].(*ViewDecl).Items); got != "Text Text" {
			t.Errorf("view items %q", got)
		}
	})
	t.Run("missing closing brace keeps the next page", func(t *testing.T) {
		o := owners(broken("missing_brace.acore"))
		if len(o) != 2 || o[0].Name.Name != "First" || o[1].Name.Name != "Second" || o[0].RBrace != -1 {
			t.Errorf("owners: %v", o)
		}
	})
	t.Run("top-level garbage between declarations", func(t *testing.T) {
		f := broken("top_garbage.acore")
		var names []string
		for _, o := range owners(f) {
			names = append(names, o.Name.Name)
		}
		if strings.Join(names, " ") != "A B C" {
			t.Errorf("owners %v", names)
		}
	})
}
