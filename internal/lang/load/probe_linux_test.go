package load

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// TestProbeHasNoName: on Linux the probe's file never has a name, so a
// process killed while it reads the clock leaves nothing: a listing of
// the state directory taken while probes run never sees one.
func TestProbeHasNoName(t *testing.T) {
	root := t.TempDir()
	state := filepath.Join(root, ".axiom", "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := fsutil.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := r.Dir(".axiom/state")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := stampUnnamed(d); err != nil {
		t.Skipf("no unnamed files on this file system: %v", err)
	}
	var done atomic.Bool
	var wg sync.WaitGroup
	seen, lists := 0, 0
	wg.Go(func() {
		for !done.Load() {
			seen += len(probesIn(t, state))
			lists++
		}
	})
	for range 3000 {
		if !probe(r, ".axiom/state").ok {
			t.Fatal("a probe did not read the clock")
		}
	}
	done.Store(true)
	wg.Wait()
	if seen > 0 {
		t.Errorf("%d listings of %d saw a probe's file", seen, lists)
	}
}
