package web

import (
	"bytes"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/webapp/outdir"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtures are the projects built by the tests: the task-app, a richer
// one locked to Acore 1.0 (two pages, a component with an Action prop and
// a delete mutation, externs, a form, every kind of element of 1.0, @axag
// at the full level) and the view of 1.1 (its elements, events, class
// names, a stylesheet and a component with children), and an app with
// theme "none" and its own stylesheet.
var fixtures = []struct{ name, dir string }{
	{"task-app", "../../../examples/task-app"},
	{"rich", "testdata/rich"},
	{"view11", "testdata/view11"},
	{"bare", "testdata/bare"},
}

// goldenFiles are compared byte for byte, app.js after the embedded
// runtime (app.css is the theme's rules that the app can match, see
// assets.Theme); .well-known/axag-manifest.json must be the same as
// axag-manifest.json.
var goldenFiles = []string{"index.html", "app.js", "app.css", "axag-manifest.json", "externs.js", "styles.css"}

func build(t *testing.T, dir string) *Output {
	t.Helper()
	out, err := Build(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Failed {
		t.Fatalf("build failed: %v", out.Diagnostics)
	}
	return out
}

func TestGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			out := build(t, fx.dir)
			if !bytes.Equal(out.Files["axag-manifest.json"], out.Files[".well-known/axag-manifest.json"]) {
				t.Error(".well-known/axag-manifest.json differs from axag-manifest.json")
			}
			if r, err := axag.Validate(out.Files["axag-manifest.json"], axag.Version110); err != nil || !r.Valid {
				t.Errorf("the manifest is not valid against the 1.1.0 schema: %v %+v", err, r)
			}
			var want []string
			for _, n := range goldenFiles {
				data, ok := out.Files[n]
				if !ok {
					continue
				}
				if n == "app.js" {
					head, app, ok := cutRuntime(data)
					if !ok {
						t.Fatal("app.js does not hold the runtime")
					}
					data = slices.Concat(head, []byte("/* the runtime, internal/webapp/web/assets/runtime.js */\n"), app)
				}
				want = append(want, n)
				golden := filepath.Join("testdata", "golden", fx.name, n)
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, data, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				g, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(g, data) {
					t.Errorf("%s differs from %s (go test -update rewrites it)", n, golden)
				}
			}
			got := slices.Sorted(maps.Keys(out.Files))
			want = append(want, ".well-known/axag-manifest.json")
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("files %v, want %v", got, want)
			}
		})
	}
}

// TestSize keeps the task-app's page (HTML, JS and CSS, runtime included)
// under 25 KiB.
func TestSize(t *testing.T) {
	out := build(t, "../../../examples/task-app")
	n := len(out.Files["index.html"]) + len(out.Files["app.js"]) + len(out.Files["app.css"])
	if n >= 25<<10 {
		t.Errorf("the task-app's page is %d bytes, want under %d", n, 25<<10)
	}
	t.Logf("task-app: %d bytes (index.html %d, app.js %d, app.css %d)", n, len(out.Files["index.html"]), len(out.Files["app.js"]), len(out.Files["app.css"]))
}

func TestDeterministic(t *testing.T) {
	for _, fx := range fixtures {
		a, b := build(t, fx.dir), build(t, fx.dir)
		if !reflect.DeepEqual(a.Files, b.Files) {
			t.Errorf("%s: two builds differ", fx.name)
		}
	}
}

// copyDir copies a fixture into a temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "fixture")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFailureKeepsDist: a build of a broken project fails with its
// diagnostics, has no files, and the previous output stays as it was.
func TestFailureKeepsDist(t *testing.T) {
	dir := copyDir(t, "../../../examples/task-app")
	dist := filepath.Join(dir, "dist")
	if err := outdir.Write(dist, dir, build(t, dir).Files); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, dist)
	if len(before) != 6 {
		t.Fatalf("dist holds %d files: %v", len(before), slices.Sorted(maps.Keys(before)))
	}
	main := filepath.Join(dir, "main.acore")
	src, _ := os.ReadFile(main)
	if err := os.WriteFile(main, bytes.Replace(src, []byte("on_press: submit"), []byte("on_press: sumbit"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := Build(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Failed || out.Files != nil {
		t.Fatalf("failed %v with %d files", out.Failed, len(out.Files))
	}
	if n, _ := diag.Count(out.Diagnostics); n == 0 {
		t.Fatalf("no error diagnostic: %v", out.Diagnostics)
	}
	if after := readTree(t, dist); !reflect.DeepEqual(before, after) {
		t.Error("the previous build changed")
	}
	// A second good build replaces the first and leaves no temporary
	// directory beside it.
	if err := os.WriteFile(main, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := outdir.Write(dist, dir, build(t, dir).Files); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".dist") {
			t.Errorf("left behind %s", e.Name())
		}
	}
}

func TestExterns(t *testing.T) {
	tests := []struct {
		name    string
		externs string // "" removes web/externs.js
		want    []string
	}{
		{"all exported", "export function share() {}\nexport const track = () => {}\n", nil},
		{"one missing", "export async function share({ text }) {}\n// export function track() {}\n",
			[]string{"main.acore:7:15: error: extern action track is not exported by web/externs.js; add export function track({...}) { ... } [AC601]"}},
		{"renamed export", "function a() {}\nfunction b() {}\nexport { a as share, b as track }\n", nil},
		{"no module", "", []string{
			"main.acore:6:15: error: extern action share has no implementation: web/externs.js does not exist; export a function share from it [AC601]",
			"main.acore:7:15: error: extern action track has no implementation: web/externs.js does not exist; export a function track from it [AC601]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyDir(t, "testdata/rich")
			p := filepath.Join(dir, "web", "externs.js")
			var err error
			if tt.externs == "" {
				err = os.Remove(p)
			} else {
				err = os.WriteFile(p, []byte(tt.externs), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := Build(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range out.Diagnostics {
				if d.Severity == diag.Error {
					got = append(got, d.Path+":"+itoa(d.Line)+":"+itoa(d.Column)+": "+string(d.Severity)+": "+d.Message+" ["+d.Code+"]")
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if out.Failed != (tt.want != nil) {
				t.Errorf("failed %v", out.Failed)
			}
			if !out.Failed && string(out.Files["externs.js"]) != tt.externs {
				t.Error("externs.js is not a copy of web/externs.js")
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestExports(t *testing.T) {
	tests := []struct{ src, want string }{
		{"export function a() {}", "a"},
		{"export async function a() {}\nexport function* g() {}", "a g"},
		{"export const a = 1, b = 2\nexport let c\nexport var d\nexport class E {}", "E a c d"},
		{"export { a, b as c }", "a c"},
		{"// export function a() {}\n/* export function b() {} */\nconst s = \"export function c() {}\"", ""},
		{"export default function main() {}", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(Exports([]byte(tt.src)), " "); got != tt.want {
			t.Errorf("Exports(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestTextIsText: markup in a string literal stays text: a JSON string
// in app.js, escaped text in index.html, and the runtime never parses
// HTML.
func TestTextIsText(t *testing.T) {
	dir := copyDir(t, "../../../examples/task-app")
	main := filepath.Join(dir, "main.acore")
	src, _ := os.ReadFile(main)
	evil := `<img src=x onerror=alert(1)></script><!-- \" & ${x}`
	src = bytes.Replace(src, []byte(`Text("Loading...")`), []byte(`Text("`+evil+`")`), 1)
	if err := os.WriteFile(main, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out := build(t, dir)
	js, html := string(out.Files["app.js"]), string(out.Files["index.html"])
	// The text is h's last argument, which h sets as textContent.
	if want := `,"<img src=x onerror=alert(1)></script><!-- \" & ${x}")`; !strings.Contains(js, want) {
		t.Errorf("app.js does not pass the text as a string: want %s", want)
	}
	if want := `&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;!-- " &amp; ${x}`; !strings.Contains(html, want) {
		t.Errorf("index.html does not escape the text: want %s", want)
	}
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("} {
		if strings.Contains(js, bad) {
			t.Errorf("app.js uses %s", bad)
		}
	}
}

// TestAxagParity: the web scan of the built app gives the actions of the
// sources' manifest, field for field; only the source location and the
// element selector (the scanner writes [axag-intent="..."]) may differ.
func TestAxagParity(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			dist := filepath.Join(t.TempDir(), "dist")
			if err := outdir.Write(dist, fx.dir, build(t, fx.dir).Files); err != nil {
				t.Fatal(err)
			}
			p, err := project.Open(fx.dir)
			if err != nil {
				t.Fatal(err)
			}
			want, wantFindings := axag.ManifestFor(p, axag.Options{})
			scan, err := axag.ScanWeb(dist)
			if err != nil {
				t.Fatal(err)
			}
			got, findings := axag.Build(scan.Actions, axag.Options{})
			// The web scan finds what the sources' manifest finds (the
			// task-app lacks a risk level on its write), nothing more.
			rules := func(fs []axag.Finding) []string {
				var out []string
				for _, f := range fs {
					out = append(out, f.Rule+" "+f.Message)
				}
				slices.Sort(out)
				return slices.Compact(out)
			}
			if g, w := rules(append(findings, scan.Findings...)), rules(wantFindings); !slices.Equal(g, w) {
				t.Errorf("findings of the web scan:\n%s\nof the sources:\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
			}
			// The manifests' JSON, without source locations and element
			// selectors.
			strip := func(m *axag.Manifest) string {
				m.Paths, m.SourceURL = nil, ""
				for i := range m.Actions {
					a := &m.Actions[i]
					a.SourceFile, a.SourceLine, a.SourceColumn, a.ElementSelector = "", 0, 0, ""
				}
				data, err := m.JSON(axag.Version110)
				if err != nil {
					t.Fatal(err)
				}
				return string(data)
			}
			// Every fixture has actions, so a scan that finds none fails.
			if len(got.Actions) == 0 || strip(got) != strip(want) {
				t.Errorf("web scan:\n%s\nsources:\n%s", strip(got), strip(want))
			}
			if got.Conformance != want.Conformance {
				t.Errorf("conformance %s, want %s", got.Conformance, want.Conformance)
			}
		})
	}
}

// cutRuntime splits app.js around its runtime, the line after the head
// that starts with the runtime's table and ends its closure.
func cutRuntime(data []byte) (head, app []byte, ok bool) {
	i := bytes.Index(data, []byte("\nconst{"))
	if i < 0 {
		return nil, nil, false
	}
	j := bytes.Index(data[i+1:], []byte("})();\n"))
	if j < 0 {
		return nil, nil, false
	}
	return data[:i+1], data[i+1+j+len("})();\n"):], true
}
