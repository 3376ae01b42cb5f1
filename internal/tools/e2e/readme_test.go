package e2e

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeRunYourApp runs the commands of README's "Run your app"
// section, with its /tmp/my-app in a temporary directory: `axiom dev`
// serves the app (its page and manifest answer), `axiom build` writes the
// site pointed at the backend given. The images and files the section
// links to exist.
func TestReadmeRunYourApp(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Run your app\n")
	if !ok {
		t.Fatal(`README.md has no "## Run your app" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")

	app := filepath.Join(t.TempDir(), "my-app")
	var ran []string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1) {
		for _, line := range strings.Split(strings.TrimSpace(block[1]), "\n") {
			rest, ok := strings.CutPrefix(line, "go run ./cmd/axiom ")
			if !ok {
				t.Fatalf("README: %q is not an axiom command", line)
			}
			args := strings.Fields(strings.ReplaceAll(rest, "/tmp/my-app", app))
			ran = append(ran, args[0])
			if args[0] != "dev" {
				axiom(t, 0, args...)
				continue
			}
			d := startAxiom(t, args...)
			if page := get(t, d.URL+"/"); !strings.Contains(page, "/app.js") {
				t.Errorf("axiom dev's page does not load /app.js:\n%s", page)
			}
			get(t, d.URL+"/.well-known/axag-manifest.json")
			d.stop(t)
		}
	}
	if strings.Join(ran, " ") != "new dev build" {
		t.Fatalf("README's commands are %q, want new, dev and build", ran)
	}
	js, err := os.ReadFile(filepath.Join(app, "dist", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), "https://api.example.com") {
		t.Error("the built app.js does not call the backend given with --backend")
	}
	for _, f := range []string{"index.html", "app.css", "axag-manifest.json", ".well-known/axag-manifest.json"} {
		if _, err := os.Stat(filepath.Join(app, "dist", f)); err != nil {
			t.Errorf("README says axiom build writes %s: %v", f, err)
		}
	}
	for _, link := range regexp.MustCompile(`\]\(((?:docs|examples)/[^)]+)\)`).FindAllStringSubmatch(section, -1) {
		if _, err := os.Stat(filepath.Join("..", "..", "..", filepath.FromSlash(link[1]))); err != nil {
			t.Errorf("README links to %s: %v", link[1], err)
		}
	}
}

// get GETs url and returns its body, failing the test unless it is 200.
func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, body)
	}
	return string(body)
}
