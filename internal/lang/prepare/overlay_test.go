package prepare_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/prepare"
)

// TestOverlayIsRunInMemory: applying Overlay to a project's inputs gives the
// inputs Run leaves on disk, for a first preparation, a changed source, a
// removed source and a project already prepared (empty overlay).
func TestOverlayIsRunInMemory(t *testing.T) {
	old := "contract Old {\n}\n"
	changed := "contract Tasks {\n  query list_tasks(): [String]\n  query count(): Int\n}\n"
	for _, tc := range []struct {
		name    string
		before  map[string]string // written, then prepared
		change  map[string]string // then written ("" removes)
		prepped bool
		empty   bool
	}{
		{name: "first", change: map[string]string{"contracts/tasks.axiom": tasks}},
		{name: "changed", before: map[string]string{"contracts/tasks.axiom": tasks}, change: map[string]string{"contracts/tasks.axiom": changed}, prepped: true},
		{name: "removed", before: map[string]string{"contracts/tasks.axiom": tasks, "contracts/old.axiom": old}, change: map[string]string{"contracts/old.axiom": ""}, prepped: true},
		{name: "prepared", before: map[string]string{"contracts/tasks.axiom": tasks}, prepped: true, empty: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"main.acore": "module m\n"})
			writeFiles(t, dir, tc.before)
			if tc.prepped {
				if _, err := prepare.Run(dir); err != nil {
					t.Fatal(err)
				}
			}
			for p, data := range tc.change {
				if data == "" {
					if err := os.Remove(filepath.Join(dir, p)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				writeFiles(t, dir, map[string]string{p: data})
			}
			in, err := load.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			ov, err := prepare.Overlay(in)
			if err != nil {
				t.Fatal(err)
			}
			if tc.empty != (len(ov) == 0) {
				t.Fatalf("overlay %v, want empty %v", keys(ov), tc.empty)
			}
			got, err := in.With(ov)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := prepare.Run(dir); err != nil {
				t.Fatal(err)
			}
			want, err := load.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got.Fingerprint() != want.Fingerprint() || !bytes.Equal(got.Lock.Data, want.Lock.Data) {
				t.Fatalf("overlay gives %s (lock %s), Run gives %s (lock %s)", got.Fingerprint(), got.Lock.Data, want.Fingerprint(), want.Lock.Data)
			}
		})
	}
}

func TestOverlayRefusesBrokenContract(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"contracts/bad.axiom": "contract {\n"})
	in, err := load.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = prepare.Overlay(in)
	var ce *prepare.ContractError
	if !errors.As(err, &ce) || len(ce.Diagnostics) == 0 || ce.Diagnostics[0].Path != "contracts/bad.axiom" {
		t.Fatalf("got %v, want a ContractError on contracts/bad.axiom", err)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
