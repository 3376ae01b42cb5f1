package load

import (
	"errors"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/reason"
)

// With replaces, adds and removes inputs by path, refuses a path that is
// no input, and applies the bounds Load applies.
func TestWith(t *testing.T) {
	base := &Inputs{Root: "/p", Sources: []File{{Path: "a.acore", Data: []byte("a")}, {Path: "c.acore", Data: []byte("c")}}}
	many := map[string][]byte{}
	for i := range SourceFilesMax {
		many["m"+strings.Repeat("x", i)+".acore"] = []byte("m")
	}
	tests := []struct {
		name    string
		files   map[string][]byte
		sources string        // the paths of the result's sources
		reason  reason.Reason // a LimitError's reason
		notIn   string        // a NotInputError's path
	}{
		{"replace, add and remove", map[string][]byte{"a.acore": []byte("A"), "b.acore": []byte("b"), "c.acore": nil}, "a.acore b.acore", reason.None, ""},
		{"a contract artifact", map[string][]byte{".axiom/dev/contracts/x.axiom": []byte("c")}, "a.acore c.acore", reason.None, ""},
		{"not an input", map[string][]byte{"notes.txt": []byte("n")}, "", reason.None, "notes.txt"},
		{"a file too large", map[string][]byte{"b.acore": make([]byte, SourceFileBytesMax+1)}, "", reason.FileTooLarge, ""},
		{"too many modules", many, "", reason.TooManyModules, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := base.With(tt.files)
			var lim *LimitError
			var ni *NotInputError
			switch {
			case tt.reason != reason.None:
				if !errors.As(err, &lim) || lim.Reason != tt.reason {
					t.Fatalf("err %v, want %s", err, tt.reason)
				}
			case tt.notIn != "":
				if !errors.As(err, &ni) || ni.Path != tt.notIn {
					t.Fatalf("err %v, want not an input %s", err, tt.notIn)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, f := range in.Sources {
					got = append(got, f.Path)
				}
				if strings.Join(got, " ") != tt.sources {
					t.Errorf("sources %v, want %s", got, tt.sources)
				}
				if len(base.Sources) != 2 || string(base.Sources[0].Data) != "a" {
					t.Errorf("the base changed: %+v", base.Sources)
				}
			}
		})
	}
}

// Digests and Data read every kind of input by path.
func TestDigestsAndData(t *testing.T) {
	in := &Inputs{Sources: []File{{Path: "a.acore", Data: []byte("a"), SHA256: "da"}},
		Contracts: []File{{Path: ".axiom/dev/contracts/c.axiom", Data: []byte("c"), SHA256: "dc"}},
		Lock:      &File{Path: ".axiom/ui.lock", Data: []byte("l"), SHA256: "dl"}}
	d := in.Digests()
	if len(d) != 3 || d["a.acore"] != "da" || d[".axiom/ui.lock"] != "dl" {
		t.Errorf("Digests = %v", d)
	}
	for path, want := range map[string]string{"a.acore": "a", ".axiom/dev/contracts/c.axiom": "c", ".axiom/ui.lock": "l", "x.acore": ""} {
		if got := string(in.Data(path)); got != want {
			t.Errorf("Data(%s) = %q, want %q", path, got, want)
		}
	}
}
