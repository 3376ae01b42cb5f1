package axag

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAjv validates the generated manifests of both versions (the web
// corpus, the Acore UI goldens, and broken ones) with ajv and ajv-formats, a second validator independent of the Go
// library. It needs node and a directory holding node_modules/ajv and
// node_modules/ajv-formats, named by AXAG_AJV_DIR (.ci/run installs them
// with npm when the registry is reachable); otherwise it skips.
func TestAjv(t *testing.T) {
	dir := os.Getenv("AXAG_AJV_DIR")
	if dir == "" {
		t.Skip("AXAG_AJV_DIR not set (a directory with node_modules/ajv and ajv-formats)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	for _, pkg := range []string{"ajv", "ajv-formats"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			t.Skipf("%s not installed in %s", pkg, dir)
		}
	}
	script, _ := filepath.Abs("testdata/ajv-validate.js")
	tmp := t.TempDir()
	m, _ := scanCorpus(t)
	m.GeneratedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m.SourceURL = "https://example.com/app"
	without := *m
	without.Actions = nil
	for _, a := range m.Actions {
		if a.ActionType != "navigate" {
			without.Actions = append(without.Actions, a)
		}
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, v := range []string{Version100, Version110} {
		src := m
		if v == Version100 {
			src = &without
		}
		data, err := src.JSON(v)
		if err != nil {
			t.Fatal(err)
		}
		schema, _ := SchemaFor(v)
		schemaFile := write("schema-"+v+".json", schema)
		good := write("good-"+v+".json", data)
		golden, _ := filepath.Abs("testdata/web/manifest-" + v + ".golden.json")
		var bad string
		if v == Version110 {
			bad = write("bad-"+v+".json", []byte(strings.Replace(string(data), `"action_type": "write"`, `"action_type": "update"`, 1)))
		} else {
			bad = write("bad-"+v+".json", []byte(strings.Replace(string(data), `"generated_at": "2026-01-02T03:04:05Z"`, `"generated_at": "yesterday"`, 1)))
		}
		// The Acore UI goldens of that version too.
		acore, _ := filepath.Glob("testdata/acore/*/manifest-" + v + ".json")
		args := append([]string{script, dir, schemaFile, good, golden}, acore...)
		args = append(args, bad)
		out, err := exec.Command(node, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", v, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 3+len(acore) || !strings.HasPrefix(lines[len(lines)-1], "invalid ") {
			t.Fatalf("%s: ajv says:\n%s", v, out)
		}
		for _, l := range lines[:len(lines)-1] {
			if !strings.HasPrefix(l, "valid ") {
				t.Errorf("%s: ajv says: %s", v, l)
			}
		}
		// The Go validator agrees.
		badData, _ := os.ReadFile(bad)
		if r, _ := Validate(badData, ""); r == nil || r.Valid {
			t.Errorf("%s: Go validator accepts the broken manifest", v)
		}
	}
}
