package snapshot

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/scaffold"
)

// TestEvictionAnswersExpired captures snapshots past a small budget: the
// oldest is evicted and, once the disk no longer has its content, Get
// answers ErrExpired; the newest is kept.
func TestEvictionAnswersExpired(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	s := NewStore(dir, Identity{Compiler: "test", Profile: "acore-ui", Target: "web"}, 1)
	first, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.acore")
	src, _ := os.ReadFile(main)
	if err := os.WriteFile(main, append(src, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if first.ID == second.ID {
		t.Fatal("an edit kept the snapshot id")
	}
	if _, err := s.Get(first.ID); !errors.Is(err, ErrExpired) {
		t.Errorf("evicted snapshot: %v", err)
	}
	if got, err := s.Get(second.ID); err != nil || got != second {
		t.Errorf("newest snapshot: %v", err)
	}
	// Restoring the first content recaptures the first id.
	if err := os.WriteFile(main, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(first.ID); err != nil || got.ID != first.ID {
		t.Errorf("recapture of restored content: %v", err)
	}
	changed, err := s.Changed(second)
	if err != nil || len(changed) != 1 || changed[0] != "main.acore" {
		t.Errorf("changed %v %v", changed, err)
	}
}
