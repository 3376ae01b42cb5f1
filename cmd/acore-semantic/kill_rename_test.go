//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/agent/service"
)

// newRenameKillCase is a copy of examples/reading-list and a candidate
// that the service itself proposed for a rename edit: PageTitle's
// subtitle prop renamed to caption, in the three files that name it.
func newRenameKillCase(t *testing.T) *killCase {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples", "reading-list"))); err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(req string) map[string]any {
		var v map[string]any
		if err := json.Unmarshal(svc.Handle(context.Background(), []byte(req)), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	open := ask(`{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","snapshot":"latest","params":{"roots":[{"path":` + quote(dir) + `}]}}`)
	snap, _ := field(open, "snapshot.id").(string)
	prop := ask(`{"protocol":"axiom-agent-semantic/v1","operation":"change.propose","base_snapshot":"` + snap + `","request_id":"rename-kill",` +
		`"params":{"operations":[{"kind":"rename","node":"prop:PageTitle.subtitle","old_name":"subtitle","new_name":"caption"}]}}`)
	id, _ := field(prop, "result.candidate.id").(string)
	if id == "" {
		t.Fatalf("rename not proposed: %v", prop["error"])
	}
	svc.Wait()
	c, err := candidate.NewStore(dir).Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 3 {
		t.Fatalf("the rename writes %d files, want 3", len(c.Files))
	}
	k := &killCase{dir: dir, cand: c, base: map[string]*string{}, after: map[string]*string{}}
	for _, f := range c.Files {
		b, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		k.base[f.Path], k.after[f.Path] = sp(string(b)), sp(string(f.Content))
	}
	k.req = fmt.Sprintf(`{"protocol":"axiom-agent-semantic/v1","operation":"change.apply","request_id":"apply-kill","params":{"candidate":%q,"expected_candidate_version":1,"require_checks":["compile"]}}`, id)
	return k
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestKillRenameAtEveryFailpoint kills the apply of a rename, the edit
// family that writes several files from one operation, at every failpoint
// of its three files; each run ends with the files all at the base or all
// renamed, and applied on the resend.
func TestKillRenameAtEveryFailpoint(t *testing.T) {
	t.Run("all", func(t *testing.T) {
		for _, point := range publish.Points(3) {
			t.Run(point, func(t *testing.T) {
				t.Parallel()
				k := newRenameKillCase(t)
				if _, killed := k.send(t, point); !killed {
					t.Fatalf("not killed at %s", point)
				}
				count("rename:" + k.state(t))
				k.finish(t)
			})
		}
	})
	logStats(t, "rename:")
}
