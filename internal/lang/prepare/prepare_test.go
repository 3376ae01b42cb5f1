package prepare_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/prepare"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const tasks = "contract Tasks {\n  query list_tasks(): [String]\n}\n"

func TestPrepareWritesArtifactsAndLock(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"contracts/tasks.axiom": tasks, "main.acore": "module m\n"})
	rep, err := prepare.Run(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rep.Written, ","); got != ".axiom/dev/contracts/tasks.axiom,.axiom/ui.lock" {
		t.Fatalf("written %s", got)
	}
	art, err := os.ReadFile(filepath.Join(dir, ".axiom/dev/contracts/tasks.axiom"))
	if err != nil || string(art) != tasks {
		t.Fatalf("artifact %q, %v", art, err)
	}
	l, _, err := lock.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Contracts) != 1 || l.Contracts[0].Name != "Tasks" || l.Contracts[0].ID != "tasks" || l.Contracts[0].Signed {
		t.Fatalf("lock %+v", l)
	}
	// A second run changes nothing.
	rep, err = prepare.Run(dir)
	if err != nil || len(rep.Written) != 0 {
		t.Fatalf("second run wrote %v, %v", rep.Written, err)
	}
}

// TestPrepareRefusesBrokenContracts checks that nothing is written when a
// contract source has errors.
func TestPrepareRefusesBrokenContracts(t *testing.T) {
	for name, src := range map[string]string{
		"syntax":      "contract Tasks {\n  query list_tasks(: [String]\n}\n",
		"no_contract": "// nothing here\n",
		"two":         tasks + "contract More {\n}\n",
		"page":        "page Home {\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"contracts/tasks.axiom": src})
			_, err := prepare.Run(dir)
			var ce *prepare.ContractError
			if !errors.As(err, &ce) || len(ce.Diagnostics) == 0 {
				t.Fatalf("err %v", err)
			}
			golden := filepath.Join("testdata", name+".golden")
			got := ce.Error() + "\n"
			if os.Getenv("UPDATE") != "" {
				os.MkdirAll("testdata", 0o755)
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, _ := os.ReadFile(golden)
			if got != string(want) {
				t.Errorf("got %q, want %q", got, want)
			}
			if _, err := os.Stat(filepath.Join(dir, ".axiom")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf(".axiom was written: %v", err)
			}
		})
	}
}

func TestPrepareRemovesArtifactsWhoseSourceIsGone(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"contracts/tasks.axiom": tasks, "contracts/old.axiom": "contract Old {\n}\n"})
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "contracts/old.axiom")); err != nil {
		t.Fatal(err)
	}
	rep, err := prepare.Run(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.Removed, ",") != ".axiom/dev/contracts/old.axiom" {
		t.Fatalf("removed %v", rep.Removed)
	}
	if _, err := os.Stat(filepath.Join(dir, ".axiom/dev/contracts/old.axiom")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale artifact still there: %v", err)
	}
	l, _, err := lock.Read(dir)
	if err != nil || len(l.Contracts) != 1 || l.Contracts[0].ID != "tasks" {
		t.Fatalf("lock %+v %v", l, err)
	}
}

// TestPrepareWritesCatalog11: a project whose lock pins the 1.0.0 catalog
// (which still compiles, see lang10_lock.txtar) is moved to 1.1.0 by
// prepare, as AC507's message says.
func TestPrepareWritesCatalog11(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.acore": "module m\n",
		".axiom/ui.lock": `{"lock_version":1,"language_profile":"acore-ui","target":"web","catalog_version":"1.0.0","contracts":[]}`})
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	l, _, err := lock.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if l.CatalogVersion != "1.1.0" {
		t.Errorf("catalog_version %q after prepare, want 1.1.0", l.CatalogVersion)
	}
}
