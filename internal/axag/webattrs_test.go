package axag

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebAttributesRoundTrip writes the actions of the Acore manifests
// under testdata as axag-* attributes on a page and scans the page back:
// the actions are the same but for the source location and the element
// selector, which come from the page.
func TestWebAttributesRoundTrip(t *testing.T) {
	paths, err := filepath.Glob("testdata/acore/*/manifest-1.1.0.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := ParseManifest(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var page strings.Builder
		page.WriteString("<main>\n")
		for _, a := range m.Actions {
			attrs := WebAttributes(a)
			page.WriteString("<button")
			for i := 0; i < len(attrs); i += 2 {
				q := `"`
				if strings.Contains(attrs[i+1], `"`) {
					q = "'"
				}
				page.WriteString(" " + attrs[i] + "=" + q + strings.ReplaceAll(attrs[i+1], "&", "&amp;") + q)
			}
			page.WriteString(">x</button>\n")
		}
		page.WriteString("</main>\n")
		scan := ScanWebSource("index.html", []byte(page.String()))
		got, _ := Build(scan.Actions, Options{})
		strip := func(as []Action) []Action {
			out := make([]Action, len(as))
			for i, a := range as {
				a.SourceFile, a.SourceLine, a.SourceColumn, a.ElementSelector = "", 0, 0, ""
				out[i] = a
			}
			return out
		}
		gj, _ := (&Manifest{Actions: strip(got.Actions)}).JSON(Version110)
		wj, _ := (&Manifest{Actions: strip(m.Actions)}).JSON(Version110)
		if string(gj) != string(wj) {
			t.Errorf("%s: scanned back\n%s\nwant\n%s", p, gj, wj)
		}
		if len(scan.Findings) > 0 {
			t.Errorf("%s: scan findings %v", p, scan.Findings)
		}
	}
}
