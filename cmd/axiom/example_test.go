package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// exampleDir is the committed sample project; it must be exactly what
// "axiom new" writes, so that the README's example and the scaffold
// cannot drift apart.
const exampleDir = "../../examples/task-app"

func TestExampleMatchesScaffold(t *testing.T) {
	dir := t.TempDir()
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	want, got := readTree(t, dir), readTree(t, exampleDir)
	const regen = "regenerate it: rm -rf examples/task-app && go run ./cmd/axiom new examples/task-app"
	for _, p := range sortedKeys(want) {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("examples/task-app lacks %s; %s", p, regen)
		case !bytes.Equal(g, want[p]):
			t.Errorf("examples/task-app/%s differs from what axiom new writes; %s", p, regen)
		}
	}
	for _, p := range sortedKeys(got) {
		if _, ok := want[p]; !ok {
			t.Errorf("examples/task-app has %s, which axiom new does not write; %s", p, regen)
		}
	}
}

// readTree returns every regular file under root by slash-separated
// relative path. Anything else (a symlink, a socket) is a test failure:
// the example must be plain files.
func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			t.Errorf("%s: not a regular file", p)
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
