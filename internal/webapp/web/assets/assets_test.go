package assets

import (
	"os"
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
