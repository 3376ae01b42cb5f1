//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/lock"
)

// newFilesKillCase copies the template project and proposes, through the
// service, a batch of the file family: a new page (in a new folder), the
// removal of m2.acore and, as raw text (params.files), a changed contract
// source, whose development artifact and UI lock the candidate re-prepares.
// The kill case is that candidate's apply.
func newFilesKillCase(t *testing.T) *killCase {
	t.Helper()
	dir, _ := copyTemplate(t)
	contract, err := os.ReadFile(filepath.Join(dir, "contracts/tasks.axiom"))
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(contract), "  @axag(risk_level: \"low\"", "  @axag(risk_level: \"none\", scope: \"user\")\n  query count_tasks(): Int\n  @axag(risk_level: \"low\"", 1)
	if changed == string(contract) {
		t.Fatal("the template's contract has no mutation to add a query before")
	}
	svc, err := service.New(service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Wait()
	call := func(req string) map[string]any {
		out := svc.Handle(context.Background(), []byte(req))
		v := response(t, out)
		if v["error"] != nil {
			t.Fatalf("%s: %s", req[:80], out)
		}
		return v
	}
	open := call(`{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","snapshot":"latest","params":{"roots":[{"path":"` + dir + `"}]}}`)
	ws, snap := field(open, "workspace").(string), field(open, "snapshot.id").(string)
	m2 := "module tasks.app.m2\n"
	files, _ := json.Marshal([]map[string]any{{"path": "contracts/tasks.axiom", "content": changed, "sha256": *digestOf(sp(string(contract)))}})
	prop := call(fmt.Sprintf(`{"protocol":"axiom-agent-semantic/v1","operation":"change.propose","workspace":%q,"base_snapshot":%q,"request_id":"propose-files","params":{"operations":[`+
		`{"kind":"file","op":"create","path":"pages/stats.acore","text":%q},`+
		`{"kind":"file","op":"remove","path":"m2.acore","old_sha256":%q}],"files":%s}}`,
		ws, snap, "module tasks.pages.stats\n\npage Stats {\n  view {\n    Text(\"Stats\")\n  }\n}\n", *digestOf(&m2), files))
	id := field(prop, "result.candidate.id").(string)
	c, err := candidate.NewStore(dir).Get(id)
	if err != nil {
		t.Fatal(err)
	}
	k := &killCase{dir: dir, cand: c, base: map[string]*string{}, after: map[string]*string{}}
	for _, f := range c.Files {
		if b, err := os.ReadFile(filepath.Join(dir, f.Path)); err == nil {
			k.base[f.Path] = sp(string(b))
		} else {
			k.base[f.Path] = nil
		}
		if f.After != nil {
			k.after[f.Path] = sp(string(f.Content))
		} else {
			k.after[f.Path] = nil
		}
	}
	for _, p := range []string{"pages/stats.acore", "m2.acore", "contracts/tasks.axiom", lock.ArtifactPath("tasks"), lock.Path} {
		if _, ok := k.base[p]; !ok {
			t.Fatalf("the candidate does not write %s: %v", p, c.Files)
		}
	}
	if len(c.Files) != 5 {
		t.Fatalf("the candidate writes %d files, want 5", len(c.Files))
	}
	k.req = fmt.Sprintf(`{"protocol":"axiom-agent-semantic/v1","operation":"change.apply","workspace":%q,"request_id":"apply-kill","params":{"candidate":%q,"expected_candidate_version":1,"require_checks":["compile"]}}`, ws, id)
	return k
}

// TestKillFilesAtEveryFailpoint kills the apply of the file family's
// batch (a created page, a removed module, a changed contract source with
// its artifact and lock) at every failpoint: right after the kill the
// files are the base, the candidate, or a mix the journal knows of; the
// resend ends applied with every file the candidate's, and the applied
// project compiles, its artifact and lock agreeing with the source.
func TestKillFilesAtEveryFailpoint(t *testing.T) {
	killAtEveryPoint(t, "files:", 5, newFilesKillCase, func(t *testing.T, k *killCase) {
		l, _, err := lock.Read(k.dir)
		if err != nil {
			t.Fatal(err)
		}
		art, err := os.ReadFile(filepath.Join(k.dir, lock.ArtifactPath("tasks")))
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := l.Contract("tasks"); !ok || c.SHA256 != *digestOf(sp(string(art))) || !strings.Contains(string(art), "count_tasks") {
			t.Fatalf("lock %+v does not pin the new artifact", l)
		}
	})
}
