package web

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/webapp/outdir"
)

// TestThemeArgument: app Name(theme: "none") builds no app.css and
// index.html links no theme, with or without the project's stylesheet;
// "default" is the same build as no argument; and a build over a
// previous one with the theme leaves no app.css in the output directory.
func TestThemeArgument(t *testing.T) {
	const (
		themeLink  = `<link rel="stylesheet" href="/app.css">`
		stylesLink = `<link rel="stylesheet" href="/styles.css">`
	)
	tests := []struct {
		name      string
		app       string // the app's header in place of testdata/bare's
		styles    bool   // keep web/styles.css
		wantTheme bool
	}{
		{"none with a stylesheet", `app Bare(theme: "none")`, true, false},
		{"none without a stylesheet", `app Bare(theme: "none")`, false, false},
		{"none after routing", `app Bare(routing: "hash", theme: "none")`, true, false},
		{"default", `app Bare(theme: "default")`, true, true},
		{"no argument", `app Bare`, true, true},
	}
	var defaultCSS []byte
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyDir(t, "testdata/bare")
			main := filepath.Join(dir, "main.acore")
			src, err := os.ReadFile(main)
			if err != nil {
				t.Fatal(err)
			}
			src = bytes.Replace(src, []byte(`app Bare(theme: "none")`), []byte(tt.app), 1)
			if err := os.WriteFile(main, src, 0o644); err != nil {
				t.Fatal(err)
			}
			if !tt.styles {
				if err := os.Remove(filepath.Join(dir, "web", "styles.css")); err != nil {
					t.Fatal(err)
				}
			}
			out := build(t, dir)
			html := string(out.Files["index.html"])
			css, ok := out.Files["app.css"]
			if ok != tt.wantTheme || strings.Contains(html, themeLink) != tt.wantTheme {
				t.Errorf("app.css built %v, linked %v; want %v", ok, strings.Contains(html, themeLink), tt.wantTheme)
			}
			if strings.Contains(html, "app.css") != tt.wantTheme {
				t.Errorf("index.html names app.css: %v, want %v", strings.Contains(html, "app.css"), tt.wantTheme)
			}
			if got := strings.Contains(html, stylesLink); got != tt.styles {
				t.Errorf("index.html links styles.css: %v, want %v", got, tt.styles)
			}
			if ok {
				if defaultCSS == nil {
					defaultCSS = css
				} else if !bytes.Equal(css, defaultCSS) {
					t.Errorf("app.css differs between the builds with the theme")
				}
			}
		})
	}
}

// TestThemeNoneReplacesTheme: axiom build's output directory, built with
// the theme and then with theme "none", holds no app.css.
func TestThemeNoneReplacesTheme(t *testing.T) {
	dir := copyDir(t, "testdata/bare")
	main := filepath.Join(dir, "main.acore")
	src, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "site")
	for _, step := range []struct {
		app       string
		wantTheme bool
	}{{`app Bare`, true}, {`app Bare(theme: "none")`, false}} {
		if err := os.WriteFile(main, bytes.Replace(src, []byte(`app Bare(theme: "none")`), []byte(step.app), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := outdir.Write(dest, dir, build(t, dir).Files); err != nil {
			t.Fatal(err)
		}
		_, err := os.Stat(filepath.Join(dest, "app.css"))
		if got := !errors.Is(err, fs.ErrNotExist); got != step.wantTheme {
			t.Errorf("%s: app.css on disk %v (%v), want %v", step.app, got, err, step.wantTheme)
		}
		marker, err := os.ReadFile(filepath.Join(dest, outdir.MarkerName))
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(marker, []byte(`"app.css"`)); got != step.wantTheme {
			t.Errorf("%s: the marker lists app.css %v, want %v", step.app, got, step.wantTheme)
		}
	}
}
