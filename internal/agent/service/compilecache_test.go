package service

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/scaffold"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// TestCompileCacheAnswers compares a service that compiled its project
// with a fresh one (a later process) that read the compile from the
// compile cache: every read operation, on every node of the task-app and
// on a sample of a generated project's, answers byte for byte alike
// (capture times aside). Then an edit on the cached snapshot (propose,
// check) answers as on the compiled one.
func TestCompileCacheAnswers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(dir string) error
		every int // node.find's nodes read: every n-th
	}{
		{"task-app", func(dir string) error { _, err := scaffold.New(dir); return err }, 1},
		{"generated", func(dir string) error { return projgen.Write(dir, projgen.Project(3, 48<<10)) }, 7},
		{"wide", func(dir string) error { return projgen.Write(dir, projgen.Wide(5, 64<<10)) }, 11},
		{"broken", func(dir string) error {
			if _, err := scaffold.New(dir); err != nil {
				return err
			}
			f, err := os.OpenFile(filepath.Join(dir, "main.acore"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("\npage Broken {\n  view { Text(missing) }\n")
			return err
		}, 1},
		{"unprepared", func(dir string) error {
			if _, err := scaffold.New(dir); err != nil {
				return err
			}
			return os.Remove(filepath.Join(dir, ".axiom", "ui.lock"))
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "p")
			if err := tc.write(dir); err != nil {
				t.Fatal(err)
			}
			compiled, err := newForTest(t, Config{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			reqs := readRequests(t, compiled, tc.every)
			want := answers(compiled, "1", reqs)
			snap, _ := compiled.store.Latest()
			if snap.Project.FromCache() {
				t.Fatal("the first service read a compile from an empty cache")
			}
			compiled.Wait()

			cached, err := newForTest(t, Config{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			got := answers(cached, "2", reqs)
			if snap, _ := cached.store.Latest(); !snap.Project.FromCache() {
				t.Fatal("the second service compiled instead of reading the compile cache")
			}
			for i := range reqs {
				if got[i] != want[i] {
					t.Errorf("%s\ncached:   %s\ncompiled: %s", reqs[i], got[i], want[i])
				}
			}
		})
	}
}

// readRequests lists every read operation's requests on the project s
// serves: the whole-project ones, and per node (every n-th node found) a
// node.get, graph.query both ways, impact.analyze, node.edits and
// context.build; then edits (change.propose and check.run with an
// overlay) on the first element with a literal property.
func readRequests(t *testing.T, s *Service, every int) []string {
	t.Helper()
	const v1 = `{"protocol":"axiom-agent-semantic/v1","snapshot":"latest",`
	type match struct {
		ID   string `json:"id"`
		Kind string `json:"kind"`
		Path string `json:"path"`
	}
	var found struct {
		Snapshot struct{ ID string } `json:"snapshot"`
		Result   struct {
			Nodes []match `json:"nodes"`
		} `json:"result"`
	}
	var matches []match
	for _, kind := range graph.Kinds {
		out := s.Handle(context.Background(), []byte(v1+`"operation":"node.find","params":{"query":"","kind":"`+kind+`","limit":50}}`))
		found.Result.Nodes = nil
		if err := json.Unmarshal(out, &found); err != nil {
			t.Fatalf("node.find: %v %.400s", err, out)
		}
		matches = append(matches, found.Result.Nodes...)
	}
	path := "main.acore"
	if len(matches) > 0 {
		path = matches[0].Path
	}
	snap := found.Snapshot.ID
	reqs := []string{
		`{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","params":{"roots":[{"path":"` + s.Root() + `"}]}}`,
		v1 + `"operation":"project.overview","params":{}}`,
		v1 + `"operation":"check.run","params":{"checks":["compile","axag"]}}`,
		v1 + `"operation":"node.find","params":{"query":"add","limit":20}}`,
		v1 + `"operation":"node.find","params":{"query":"a","kind":"element","limit":20}}`,
		v1 + `"operation":"node.find","params":{"query":"ti","limit":20,"path":"` + path + `"}}`,
		v1 + `"operation":"changes.since","params":{"since":"` + snap + `"}}`,
	}
	var ids []string
	for i, m := range matches {
		if i%every == 0 {
			ids = append(ids, m.ID)
		}
	}
	for _, id := range ids {
		for _, p := range []string{
			`"operation":"node.get","params":{"nodes":["%s"],"projection":"full","include":["incoming","edges","body","provenance","edits"]}}`,
			`"operation":"graph.query","limits":{"max_depth":16},"params":{"from":["%s"],"mode":"dependents","transitive":true}}`,
			`"operation":"graph.query","params":{"from":["%s"],"mode":"dependencies"}}`,
			`"operation":"impact.analyze","params":{"targets":["%s"],"direction":"both"}}`,
			`"operation":"node.edits","params":{"nodes":["%s"],"include_unavailable":true}}`,
			`"operation":"context.build","params":{"focus":["%s"],"purpose":"change_input"}}`,
			`"operation":"node.relocate","params":{"from_snapshot":"` + snap + `","nodes":["%s"]}}`,
		} {
			reqs = append(reqs, v1+fmt.Sprintf(p, id))
		}
	}
	// An edit: the placeholder of the first input that has one, changed
	// for a new candidate, planned, and checked.
	for _, m := range matches {
		if m.Kind != "element" {
			continue
		}
		var got struct {
			Result struct {
				Nodes []struct {
					Properties []struct {
						Name  string `json:"name"`
						Value any    `json:"value"`
					} `json:"properties"`
				} `json:"nodes"`
			} `json:"result"`
		}
		out := s.Handle(context.Background(), []byte(v1+`"operation":"node.get","params":{"nodes":["`+m.ID+`"]}}`))
		if json.Unmarshal(out, &got) != nil || len(got.Result.Nodes) != 1 {
			continue
		}
		for _, p := range got.Result.Nodes[0].Properties {
			if old, ok := p.Value.(string); ok && p.Name == "placeholder" {
				op := fmt.Sprintf(`{"kind":"set_property","node":%q,"property":"placeholder","old_value":%q,"new_value":"Cached"}`, m.ID, old)
				edit := `{"protocol":"axiom-agent-semantic/v1","base_snapshot":"` + snap + `",`
				return append(reqs,
					edit+`"operation":"edit.plan","params":{"operations":[`+op+`]}}`,
					edit+`"request_id":"{{rid}}","operation":"change.propose","params":{"operations":[`+op+`],"checks":["compile","axag"]}}`)
			}
		}
	}
	// A project whose graph has none (one that is not prepared) is read
	// only.
	return reqs
}

// Capture times differ between two captures of the same files, and a
// candidate's id (drawn at random) and expiry between two proposals of
// the same change.
var (
	capturedAt  = regexp.MustCompile(`"(captured_at|expires_at)":"[^"]*"`)
	candidateID = regexp.MustCompile(`cand-[0-9a-f]+`)
)

// answers returns s's answers to reqs, in which {{rid}} stands for a
// request id of the service's own (tag, of one length for all), so that the second service's
// proposal is not a replay of the first's.
func answers(s *Service, tag string, reqs []string) []string {
	out := make([]string, len(reqs))
	rid := "cache-test-" + tag
	for i, r := range reqs {
		a := s.Handle(context.Background(), []byte(strings.ReplaceAll(r, "{{rid}}", rid)))
		a = capturedAt.ReplaceAll(a, []byte(`"$1":"-"`))
		a = candidateID.ReplaceAll(a, []byte("cand-x"))
		out[i] = strings.ReplaceAll(string(a), rid, "{{rid}}")
	}
	return out
}
