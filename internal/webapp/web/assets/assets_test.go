package assets

import (
	"os"
	"strings"
	"testing"
)

// TestMinifiedIsUpToDate: the committed runtime.min.js is what `go
// generate` makes of runtime.js.
func TestMinifiedIsUpToDate(t *testing.T) {
	src, err := os.ReadFile("runtime.js")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Minify(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if RuntimeJS != want {
		t.Errorf("runtime.min.js is not runtime.js minified (%d bytes, want %d): run go generate ./internal/webapp/web/assets", len(RuntimeJS), len(want))
	}
}

// TestMinifyRefuses: a source that does not parse is an error.
func TestMinifyRefuses(t *testing.T) {
	if _, err := Minify("const = ;"); err == nil {
		t.Error("a broken source minified")
	}
}

// TestFeatures: the code of each feature ships exactly when the app has
// it, in the pruned runtime and in a bundle. Each case names a string
// only that feature's code has.
func TestFeatures(t *testing.T) {
	// Every API name but those that navigate, which the code calls.
	var names []string
	for _, e := range strings.Split(exportList.FindStringSubmatch(runtimeSrc)[1], ",") {
		if f := strings.Fields(e); len(f) > 0 && f[len(f)-1] != "nav" && f[len(f)-1] != "lk" {
			names = append(names, f[len(f)-1])
		}
	}
	all := func(n string) bool { return n != "nav" && n != "lk" }
	code := "const B=\"\",AX=[],R=[];\nconsole.log(" + strings.Join(names, ",") + ");\n"
	cases := []struct {
		name   string
		set    func(*Features)
		marker string
	}{
		{"hash routing", func(f *Features) { f.Hash = true }, `"hashchange"`},
		{"route parameters", func(f *Features) { f.Params = true }, "decodeURIComponent"},
		{"navigation", func(f *Features) { f.Nav = true }, "pushState"},
		{"list end", func(f *Features) { f.ListEnd = true }, "IntersectionObserver"},
		{"empty text", func(f *Features) { f.ListEmpty = true }, `"ac-empty"`},
		{"rows with effects", func(f *Features) { f.RowFX = true }, ".bs"},
		{"confirmation", func(f *Features) { f.Confirm = true }, "confirm("},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var on Features
			c.set(&on)
			for _, f := range []Features{{}, on} {
				want := f == on
				rt, err := Runtime(all, f)
				if err != nil {
					t.Fatal(err)
				}
				b, err := Bundle("const XS={};\n", code, all, f)
				if err != nil {
					t.Fatal(err)
				}
				for what, code := range map[string]string{"runtime": rt, "bundle": b} {
					if got := strings.Contains(code, c.marker); got != want {
						t.Errorf("%s with %+v: has %s = %v, want %v", what, f, c.marker, got, want)
					}
				}
			}
		})
	}
}

// TestBundle: a bundle is one module that runs the code after the
// runtime, defines no global and exports nothing, and keeps the
// project's extern actions a module of their own.
func TestBundle(t *testing.T) {
	uses := func(n string) bool { return n == "show" || n == "S" }
	b, err := Bundle(`import * as XS from "/externs.js";`+"\n", "const B=\"\",AX=[],R=[];\nconst $n=S(1);\nshow(0);\n", uses, Features{})
	if err != nil {
		t.Fatal(err)
	}
	// An app that calls no extern action imports the module for its
	// effects alone (import"/externs.js").
	for _, want := range []string{`import`, `"/externs.js"`, "getElementById(\"app\")"} {
		if !strings.Contains(b, want) {
			t.Errorf("the bundle lacks %s:\n%s", want, b)
		}
	}
	for _, bad := range []string{"export", "globalThis", "acore:", "IntersectionObserver", "querySelector"} {
		if strings.Contains(b, bad) {
			t.Errorf("the bundle has %s", bad)
		}
	}
	if _, err := Bundle("", "const B=;", uses, Features{}); err == nil {
		t.Error("code that does not parse bundled")
	}
}
