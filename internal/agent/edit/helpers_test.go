package edit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// update rewrites the goldens under testdata/ instead of comparing.
var update = flag.Bool("update", false, "rewrite the goldens under testdata/")

const testSnap = "snap-test"

// taskApp writes the task-app into a temp directory and compiles it.
func taskApp(t testing.TB) *project.Project {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Result.State != "validated" {
		t.Fatalf("task-app is %s", p.Result.State)
	}
	return p
}

// withFiles compiles the task-app with sources replaced or added
// (main.acore among them).
func withFiles(t testing.TB, files map[string]string) *project.Project {
	t.Helper()
	base := taskApp(t)
	in := *base.Inputs
	in.Sources = nil
	seen := map[string]bool{}
	for _, f := range base.Inputs.Sources {
		if src, ok := files[f.Path]; ok {
			f.Data = []byte(src)
			seen[f.Path] = true
		}
		in.Sources = append(in.Sources, f)
	}
	for p, src := range files {
		if !seen[p] {
			in.Sources = append(in.Sources, load.File{Path: p, Data: []byte(src)})
		}
	}
	sort.Slice(in.Sources, func(i, j int) bool { return in.Sources[i].Path < in.Sources[j].Path })
	for i := range in.Sources {
		sum := sha256.Sum256(in.Sources[i].Data)
		in.Sources[i].SHA256 = hex.EncodeToString(sum[:])
	}
	return project.Compile(&in)
}

// withMain compiles the task-app with main.acore replaced by src.
func withMain(t testing.TB, src string) *project.Project {
	t.Helper()
	return withFiles(t, map[string]string{"main.acore": src})
}

// taskMain is the task-app's main.acore.
func taskMain(t testing.TB) string {
	t.Helper()
	return mainSrc(taskApp(t))
}

// DecodeOps decodes a batch as the service does. The service's decoder
// imports this package, so decode_test.go, in package edit_test, sets it.
var DecodeOps func([]json.RawMessage) ([]Op, *Error)

// decodeOps decodes the operations js, which must be JSON.
func decodeOps(t testing.TB, js ...string) ([]Op, *Error) {
	t.Helper()
	raws := make([]json.RawMessage, len(js))
	for i, s := range js {
		if !json.Valid([]byte(s)) {
			t.Fatalf("op %d is not JSON: %s", i, s)
		}
		raws[i] = json.RawMessage(s)
	}
	return DecodeOps(raws)
}

// ops decodes the operations js, which must be well-formed.
func ops(t testing.TB, js ...string) []Op {
	t.Helper()
	out, e := decodeOps(t, js...)
	if e != nil {
		t.Fatalf("operations do not decode: %v", e)
	}
	return out
}

// run decodes and applies js to p: a malformed operation is refused as
// the service refuses it.
func run(t testing.TB, p *project.Project, js ...string) (*Result, *Error) {
	t.Helper()
	o, e := decodeOps(t, js...)
	if e != nil {
		return nil, e
	}
	return Apply(p, o, Options{SnapshotID: testSnap, EditRules: EditRules})
}

func mustApply(t testing.TB, p *project.Project, js ...string) *Result {
	t.Helper()
	r, e := run(t, p, js...)
	if e != nil {
		t.Fatalf("Apply: %v (operation %v, details %v, diagnostics %v)", e, idx(e), e.Details, e.Diagnostics)
	}
	return r
}

func idx(e *Error) int {
	if e.OperationIndex == nil {
		return -1
	}
	return *e.OperationIndex
}

func mainSrc(p *project.Project) string { return string(p.File("main.acore").Src) }

// replaceOnce replaces the one occurrence of old in s.
func replaceOnce(t testing.TB, s, old, new string) string {
	t.Helper()
	if strings.Count(s, old) != 1 {
		t.Fatalf("%q occurs %d times", old, strings.Count(s, old))
	}
	return strings.Replace(s, old, new, 1)
}

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

// jsonText is the compact JSON of v, for failure messages.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// writeFiles writes files in path order, each under a header made by
// header (a format of the path).
func writeFiles(b *strings.Builder, header string, files map[string][]byte) {
	for _, p := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(b, header, p, files[p])
	}
}
