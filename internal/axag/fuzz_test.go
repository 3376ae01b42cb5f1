package axag

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzScanWebSource: the tag scanner never panics or hangs, positions stay
// inside the source, and what it builds can always be written and validated.
func FuzzScanWebSource(f *testing.F) {
	for _, name := range []string{"index.html", "legacy.htm", "components/Board.jsx", "components/Search.tsx", "components/Comments.vue", "app/team.component.html"} {
		data, err := os.ReadFile(filepath.Join("testdata/web/src", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(filepath.Ext(name), data)
	}
	f.Add(".jsx", []byte("x = <a b={<c d={`${<e/>}`}/>} {...f}>{/* <g axag-intent='h.i'/> */}</a>"))
	f.Add(".html", []byte("<a axag-intent='t.a' axag-action-type=read axag-side-effects='[\"x\",'><!--"))
	f.Add(".jsx", []byte("(<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a b={<a, ,"))
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		switch ext {
		case ".html", ".jsx", ".tsx", ".vue":
		default:
			ext = ".html"
		}
		res := ScanWebSource("f"+ext, data)
		lines := 1
		for _, c := range data {
			if c == '\n' {
				lines++
			}
		}
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Line > lines || fd.Column < 1 {
				t.Fatalf("finding outside the source: %+v", fd)
			}
		}
		m, _ := Build(res.Actions, Options{DynamicActions: res.Dynamic})
		out, err := m.JSON(Version110)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Validate(out, "")
		if err != nil || !r.Valid {
			t.Fatalf("%v %+v\n%s", err, r, out)
		}
	})
}
