package load

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// probesIn lists the clock probes left in dir.
func probesIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ClockProbePrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestProbeLeavesNothing: reading the file system's clock while another
// process moves the state directory away and back again, as a publication
// racing the service may, leaves no probe in either place, whether the
// probe's file has a name or not.
func TestProbeLeavesNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stamp func(r *fsutil.Root, dir string) bool // whether it read the clock
	}{
		{"probe", func(r *fsutil.Root, dir string) bool { return probe(r, dir).ok }},
		{"named", func(r *fsutil.Root, dir string) bool {
			d, err := r.Dir(dir)
			if err != nil {
				return false
			}
			defer d.Close()
			_, err = stampNamed(d)
			return err == nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			state, away := filepath.Join(root, ".axiom", "state"), filepath.Join(root, ".axiom", "away")
			if err := os.MkdirAll(state, 0o755); err != nil {
				t.Fatal(err)
			}
			r, err := fsutil.OpenRoot(root)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if err := os.Rename(state, away); err != nil {
						t.Error(err)
						return
					}
					if err := os.Rename(away, state); err != nil {
						t.Error(err)
						return
					}
				}
			})
			read := 0
			for range 3000 {
				if tc.stamp(r, ".axiom/state") {
					read++
				}
			}
			close(stop)
			wg.Wait()
			t.Logf("%d of 3000 probes read the clock", read)
			if read == 0 {
				t.Error("no probe read the clock")
			}
			for _, dir := range []string{state, away} {
				if left := probesIn(t, dir); len(left) > 0 {
					t.Errorf("%d probes left in %s: %v", len(left), dir, left[:min(3, len(left))])
				}
			}
		})
	}
}
