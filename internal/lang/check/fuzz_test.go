package check_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/rogpeppe/go-internal/txtar"
)

const fuzzContract = `contract Tasks audience "mobile", "web" {
  model Task {
    id: String
    title: String
    done: Bool
  }

  query list_tasks(): [Task]
  mutation create_task(title: String): Task
  mutation delete_task(id: String): Bool
}
`

// compileMain checks src as main.acore against a fixed, locked contract.
func compileMain(src []byte) (*check.Result, *syntax.File) {
	const kpath = ".axiom/dev/contracts/tasks.axiom"
	sum := sha256.Sum256([]byte(fuzzContract))
	sha := hex.EncodeToString(sum[:])
	f := syntax.Parse("main.acore", src)
	k := syntax.Parse(kpath, []byte(fuzzContract))
	in := &check.Input{
		Root:        "/fuzz",
		Sources:     []*syntax.File{f},
		Contracts:   []*syntax.File{k},
		ContractSHA: map[string]string{kpath: sha},
		Lock: &lock.Lock{LockVersion: 1, LanguageProfile: "acore-ui", Target: "web", CatalogVersion: catalog.Version,
			Contracts: []lock.Contract{{ID: "tasks", Name: "Tasks", Path: kpath, SHA256: sha}}},
	}
	return check.Check(in), f
}

// FuzzCheck mutates valid modules: the checker must never panic, every
// diagnostic must point into a file, and the graph must be well formed.
func FuzzCheck(f *testing.F) {
	seeds, _ := filepath.Glob("../project/testdata/check/*.txtar")
	for _, s := range seeds {
		ar, err := txtar.ParseFile(s)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			if file.Name == "main.acore" {
				f.Add(file.Data)
			}
		}
	}
	if src, err := os.ReadFile("../../../examples/task-app/main.acore"); err == nil {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		res, file := compileMain(src)
		for _, d := range res.Diagnostics {
			if d.Line < 1 || d.Column < 1 || d.Path == "" || d.Message == "" || d.Code == "" {
				t.Fatalf("malformed diagnostic %+v", d)
			}
			if d.Path == "main.acore" && d.Line > len(file.Lines) {
				t.Fatalf("diagnostic past the end: %+v", d)
			}
		}
		switch res.State {
		case check.StateUnavailable:
			if res.Graph != nil {
				t.Fatal("an unavailable project has a graph")
			}
			return
		case check.StateSyntax, check.StateResolved, check.StateValidated:
		default:
			t.Fatalf("unknown state %q", res.State)
		}
		g := res.Graph
		seen := map[string]bool{}
		for i := range int32(g.Len()) {
			n := g.At(i)
			if seen[n.ID] {
				t.Fatalf("duplicate node id %s", n.ID)
			}
			seen[n.ID] = true
			if n.Path == "main.acore" && (n.Pos < 0 || int(n.Pos) > int(n.End) || int(n.End) > len(src)) {
				t.Fatalf("node %s span [%d,%d) outside the file", n.ID, n.Pos, n.End)
			}
			if n.Line < 1 || n.Column < 1 || len(g.Version(n)) != 64 {
				t.Fatalf("node %s has position %d:%d version %q", n.ID, n.Line, n.Column, g.Version(n))
			}
		}
		for _, e := range g.Edges {
			if int(e.From) >= g.Len() || int(e.To) >= g.Len() || e.From < 0 || e.To < 0 {
				t.Fatalf("edge %+v out of range", e)
			}
		}
		if res.State == check.StateValidated {
			for _, d := range res.Diagnostics {
				if d.Severity == "error" {
					t.Fatalf("validated with an error: %+v", d)
				}
			}
		}
	})
}
