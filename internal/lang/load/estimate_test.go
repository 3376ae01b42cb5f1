package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSourcesOver(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, size int) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.acore", 100)
	write("screens/a.acore", 300)
	write("node_modules/big.acore", 10_000) // skipped, as a load skips it
	write(".axiom/big.acore", 10_000)       // skipped
	write("notes.txt", 10_000)              // not a source
	if err := os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    int64
		want bool
	}{{399, true}, {400, false}, {10_000, false}, {0, true}} {
		if got := SourcesOver(root, c.n); got != c.want {
			t.Errorf("SourcesOver(%d) = %v, want %v (sources total 400 bytes)", c.n, got, c.want)
		}
	}
	if SourcesOver(filepath.Join(root, "missing"), 0) {
		t.Error("a missing root is over 0 bytes")
	}
}
