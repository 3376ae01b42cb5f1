package outdir

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// tree returns every regular file under root by slash path, and "/" after
// each directory.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Name())
	}
	return out
}

// setup makes a project and the directory its builds go to, beside it.
func setup(t *testing.T) (project, parent, out string) {
	t.Helper()
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project = filepath.Join(work, "P")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	parent = filepath.Join(work, "site")
	return project, parent, filepath.Join(parent, "out")
}

var first = map[string][]byte{"index.html": []byte("<p>1"), "sub/a.js": []byte("a"), "sub/deep/b.js": []byte("b")}

// TestWriteReplaces: a build over a previous one holds exactly the new
// files and its marker, removes the files and directories only the old
// one had, leaves nothing beside the directory, and a previous build with
// a listed file deleted is still a previous build.
func TestWriteReplaces(t *testing.T) {
	project, parent, out := setup(t)
	if err := Write(out, project, first); err != nil {
		t.Fatal(err)
	}
	var m marker
	data, err := os.ReadFile(filepath.Join(out, MarkerName))
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, e := range m.Files {
		listed = append(listed, e.Path)
	}
	if m.Format != markerFormat || !slices.Equal(listed, []string{"index.html", "sub/a.js", "sub/deep/b.js"}) ||
		m.Files[0].Size != 4 || m.Files[0].SHA256 != fmt.Sprintf("%x", sha256.Sum256([]byte("<p>1"))) {
		t.Fatalf("marker %s", data)
	}
	if err := os.Remove(filepath.Join(out, "sub/a.js")); err != nil {
		t.Fatal(err)
	}
	second := map[string][]byte{"index.html": []byte("<p>2"), "app.js": []byte("x")}
	if err := Write(out, project, second); err != nil {
		t.Fatal(err)
	}
	got := tree(t, out)
	delete(got, MarkerName)
	if want := map[string]string{"index.html": "<p>2", "app.js": "x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after the second build %v, want %v", got, want)
	}
	if n := names(t, parent); !slices.Equal(n, []string{"out"}) {
		t.Errorf("beside the build: %v", n)
	}
}

// TestWriteFailureKeepsPrevious: a write that fails before the swap
// leaves the previous build as it was and no temporary directory.
func TestWriteFailureKeepsPrevious(t *testing.T) {
	project, parent, out := setup(t)
	if err := Write(out, project, first); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	// "a" is written as a file, so "a/b" cannot be.
	err := Write(out, project, map[string][]byte{"a": nil, "a/b": nil})
	if err == nil {
		t.Fatal("a write of a and a/b succeeded")
	}
	if after := tree(t, out); !reflect.DeepEqual(before, after) {
		t.Errorf("the previous build changed: %v", after)
	}
	if n := names(t, parent); !slices.Equal(n, []string{"out"}) {
		t.Errorf("beside the build: %v", n)
	}
	for _, bad := range []string{MarkerName, "../../x", "/abs", ""} {
		if err := Write(out, project, map[string][]byte{bad: nil}); err == nil || !strings.Contains(err.Error(), "not a file name a build can write") {
			t.Errorf("output file %q: %v", bad, err)
		}
	}
}

// TestSwapChecksAgain: a file added to the previous build after the check
// and before the swap (here: between writing the new build and swapping
// it in) is found once the old directory is out of the way, which is put
// back with the file; the new build is discarded. Both ways of swapping.
func TestSwapChecksAgain(t *testing.T) {
	for _, tc := range []struct {
		name string
		swap func(tg *target, pr *fsutil.Root, tmp string) error
	}{
		{"exchange", (*target).swap},
		{"rename", (*target).swapByRename},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project, parent, out := setup(t)
			if err := Write(out, project, first); err != nil {
				t.Fatal(err)
			}
			tg, err := locate(out, project)
			if err != nil {
				t.Fatal(err)
			}
			pr, err := fsutil.OpenRoot(parent)
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Close()
			tmp, err := tg.writeNew(pr, []string{"new.js"}, map[string][]byte{"new.js": []byte("new")})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, "sub/notes.txt"), []byte("keep"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := tree(t, out)
			err = tc.swap(tg, pr, tmp)
			var refused *RefusedError
			if !errors.As(err, &refused) || refused.Why != "it holds sub/notes.txt, which axiom build did not write" {
				t.Fatalf("swap: %v", err)
			}
			if after := tree(t, out); !reflect.DeepEqual(before, after) {
				t.Errorf("the previous build changed: %v", after)
			}
			if n := names(t, parent); !slices.Equal(n, []string{"out"}) {
				t.Errorf("beside the build: %v", n)
			}
		})
	}
}

// TestRemoveOldKeepsForeign: removing a replaced build removes only what
// its marker lists; a file added after the last check stays, with the
// directory that holds it, which the error names.
func TestRemoveOldKeepsForeign(t *testing.T) {
	project, parent, out := setup(t)
	if err := Write(out, project, first); err != nil {
		t.Fatal(err)
	}
	tg, err := locate(out, project)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := fsutil.OpenRoot(parent)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	m, err := tg.verify(pr, "out")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "sub/deep/notes.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = tg.removeOld(pr, "out", m)
	var kept *KeptError
	if !errors.As(err, &kept) || kept.Path != out {
		t.Fatalf("removeOld: %v", err)
	}
	if got, want := tree(t, out), map[string]string{"sub/": "", "sub/deep/": "", "sub/deep/notes.txt": "keep"}; !reflect.DeepEqual(got, want) {
		t.Errorf("left %v, want %v", got, want)
	}
}

// TestLocate: where a build may go, by place alone.
func TestLocate(t *testing.T) {
	project, parent, _ := setup(t)
	for _, tc := range []struct {
		out, why string
	}{
		{project, "it is the project itself; write the build to its dist/ (the default) or outside it"},
		{filepath.Dir(project), "it contains the project " + project},
		{"/", "it contains the project " + project},
		{filepath.Join(project, "src"), "it is inside the project " + project + ", outside its dist/ and build/, where a build could replace sources"},
		{filepath.Join(project, ".axiom/out"), "it is inside the project " + project + ", outside its dist/ and build/, where a build could replace sources"},
		{filepath.Join(project, "distro"), "it is inside the project " + project + ", outside its dist/ and build/, where a build could replace sources"},
		{filepath.Join(project, "dist/../src"), "it is inside the project " + project + ", outside its dist/ and build/, where a build could replace sources"},
		{filepath.Join(project, "dist"), ""},
		{filepath.Join(project, "build/web"), ""},
		{filepath.Join(parent, "a/b/c"), ""},
		{project + "-site", ""},
	} {
		_, err := locate(tc.out, project)
		why := ""
		if err != nil {
			why = err.Error()
		}
		if why != tc.why {
			t.Errorf("locate %s: %q, want %q", tc.out, why, tc.why)
		}
	}
}

// FuzzParseMarker: any bytes give a marker or an error, never a panic;
// an accepted marker lists valid, distinct paths and survives a round
// trip.
func FuzzParseMarker(f *testing.F) {
	f.Add([]byte(`{"format": "axiom-build/1", "files": [{"path": "a/b.js", "size": 3, "sha256": "` + strings.Repeat("ab", 32) + `"}]}`))
	f.Add([]byte(`{"format": "axiom-build/1", "files": null}`))
	f.Add([]byte(`{"format": "axiom-build/1", "files": [{"path": "../../x", "size": 0, "sha256": ""}]} {}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseMarker(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, e := range m.Files {
			if fsutil.ValidRelPath(e.Path) != nil || seen[e.Path] || e.Path == MarkerName || e.Size < 0 || !validSHA256(e.SHA256) {
				t.Fatalf("accepted %+v", e)
			}
			seen[e.Path] = true
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := parseMarker(again)
		if err != nil || !slices.Equal(m.Files, m2.Files) {
			t.Fatalf("round trip: %v\n%s", err, again)
		}
	})
}
