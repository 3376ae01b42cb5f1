package load

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCacheSeesChangesWithinTheRacyWindow(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "main.acore")
	if err := os.WriteFile(p, []byte("module a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := NewCache()
	first, err := LoadCached(dir, Limits{}, c)
	if err != nil {
		t.Fatal(err)
	}
	// Same size, same modification time, new content, written right away:
	// the cache must not trust a time this recent.
	fi, _ := os.Stat(p)
	if err := os.WriteFile(p, []byte("module b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	second, err := LoadCached(dir, Limits{}, c)
	if err != nil {
		t.Fatal(err)
	}
	if first.Sources[0].SHA256 == second.Sources[0].SHA256 || string(second.Sources[0].Data) != "module b\n" {
		t.Fatalf("a recent change was served from the cache: %q", second.Sources[0].Data)
	}
}

func TestCacheReusesOldUnchangedFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "main.acore")
	if err := os.WriteFile(p, []byte("module a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	c := NewCache()
	first, err := LoadCached(dir, Limits{}, c)
	if err != nil {
		t.Fatal(err)
	}
	second, err := LoadCached(dir, Limits{}, c)
	if err != nil {
		t.Fatal(err)
	}
	if &first.Sources[0].Data[0] != &second.Sources[0].Data[0] {
		t.Error("an old, unchanged file was read again")
	}
	// A new modification time is a change, whatever the size.
	if err := os.WriteFile(p, []byte("module c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := LoadCached(dir, Limits{}, c)
	if err != nil {
		t.Fatal(err)
	}
	if string(third.Sources[0].Data) != "module c\n" {
		t.Errorf("changed file served from the cache: %q", third.Sources[0].Data)
	}
}
