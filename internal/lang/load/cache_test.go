package load

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeAt writes data to dir/name with modification time mod (zero: as
// written).
func writeAt(t *testing.T, dir, name, data string, mod time.Time) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if !mod.IsZero() {
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
}

// probing returns a cache that reads the file system's clock in
// dir/.axiom/state, as the snapshot store's does.
func probing(t *testing.T, dir string) *Cache {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".axiom", "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := NewCache()
	c.ProbeClock(".axiom/state")
	return c
}

// project returns an empty project directory, a cache for it (probing
// the file system's clock when probe is set) and the modification time its
// files are to have: ago from now, or zero (as written) for 0.
func project(t *testing.T, probe bool, ago time.Duration) (string, *Cache, time.Time) {
	t.Helper()
	dir := t.TempDir()
	c := NewCache()
	if probe {
		c = probing(t, dir)
	}
	var mod time.Time
	if ago != 0 {
		mod = time.Now().Add(ago)
	}
	return dir, c, mod
}

func mustLoad(t *testing.T, dir string, c *Cache) *Inputs {
	t.Helper()
	in, err := LoadCached(dir, Limits{}, c)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// A file whose time is not safely past when it is read can be rewritten
// with the same size and time (within the file system's granularity, or by
// a clock ahead of this one): its stat never vouches for it, whichever
// clock the cache reads, and every load reads it again.
func TestCacheNeverTrustsRacyStats(t *testing.T) {
	for _, tc := range []struct {
		name  string
		probe bool
		mod   time.Duration // from now; 0 keeps the time the write gave
	}{
		{"wall clock, just written", false, 0},
		{"wall clock, a second ago", false, -time.Second},
		{"wall clock, ahead", false, time.Hour},
		{"file system clock, a second ahead", true, time.Second},
		{"file system clock, an hour ahead", true, time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, c, mod := project(t, tc.probe, tc.mod)
			writeAt(t, dir, "main.acore", "module a0\n", mod)
			fi, err := os.Stat(filepath.Join(dir, "main.acore"))
			if err != nil {
				t.Fatal(err)
			}
			mustLoad(t, dir, c)
			for i := 1; i <= 3; i++ {
				want := "module a" + string(rune('0'+i)) + "\n"
				writeAt(t, dir, "main.acore", want, fi.ModTime())
				if now, _ := os.Stat(filepath.Join(dir, "main.acore")); now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
					t.Fatalf("the rewrite changed the stat: %v %v, was %v %v", now.Size(), now.ModTime(), fi.Size(), fi.ModTime())
				}
				if got := string(mustLoad(t, dir, c).Sources[0].Data); got != want {
					t.Fatalf("rewrite %d: loaded %q, want %q: a racy stat was trusted", i, got, want)
				}
			}
			if got := c.reads.Load(); got != 4 {
				t.Errorf("%d reads, want 4 (one per load)", got)
			}
		})
	}
}

// A file read once when its time was safely past, by the wall clock or by
// the file system's, is never read again while its stat holds, and a new
// time is seen at once.
func TestCacheReadsAVerifiedFileOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		probe bool
		mod   time.Duration
	}{
		{"wall clock, an hour ago", false, -time.Hour},
		{"file system clock, just written", true, 0},
		{"file system clock, an hour ago", true, -time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, c, mod := project(t, tc.probe, tc.mod)
			writeAt(t, dir, "main.acore", "module a\n", mod)
			writeAt(t, dir, "b.acore", "module b\n", mod)
			// The file system's clock ticks at least every few
			// milliseconds: a file written in the tick of the probe
			// is rightly not trusted yet.
			time.Sleep(20 * time.Millisecond)
			first := mustLoad(t, dir, c)
			for range 3 {
				again := mustLoad(t, dir, c)
				if &again.Sources[1].Data[0] != &first.Sources[1].Data[0] {
					t.Fatal("a verified file's bytes were read again")
				}
			}
			if got := c.reads.Load(); got != 2 {
				t.Errorf("%d reads for 4 loads of 2 files, want 2", got)
			}
			writeAt(t, dir, "main.acore", "module c\n", time.Time{})
			if got := string(mustLoad(t, dir, c).Sources[1].Data); got != "module c\n" {
				t.Errorf("a changed file was served from the cache: %q", got)
			}
			if got := c.reads.Load(); got != 3 {
				t.Errorf("%d reads after one file changed, want 3", got)
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, ".axiom", "state")); len(entries) != 0 {
				t.Errorf("the clock probe left %v behind", entries)
			}
		})
	}
}

// The clock is read through the confined root: a state directory
// symlinked outside gets no file, and the wall clock's window applies.
func TestCacheProbeStaysInsideTheRoot(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".axiom"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ".axiom", "state")); err != nil {
		t.Fatal(err)
	}
	c := NewCache()
	c.ProbeClock(".axiom/state")
	writeAt(t, dir, "main.acore", "module a\n", time.Time{})
	time.Sleep(20 * time.Millisecond)
	for range 2 {
		mustLoad(t, dir, c)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the probe wrote outside the root: %v", entries)
	}
	if got := c.reads.Load(); got != 2 {
		t.Errorf("%d reads, want 2: without the file system's clock a fresh file is read again", got)
	}
}

// A re-read of unchanged content keeps the cached bytes and digest rather
// than hashing and holding a second copy.
func TestCacheKeepsEqualContent(t *testing.T) {
	dir := t.TempDir()
	c := NewCache()
	writeAt(t, dir, "main.acore", "module "+strings.Repeat("a", 100)+"\n", time.Now().Add(time.Hour))
	first := mustLoad(t, dir, c)
	second := mustLoad(t, dir, c)
	if &first.Sources[0].Data[0] != &second.Sources[0].Data[0] || first.Sources[0].SHA256 != second.Sources[0].SHA256 {
		t.Error("equal content read again was kept twice")
	}
	if got := c.reads.Load(); got != 2 {
		t.Errorf("%d reads, want 2", got)
	}
}

// The file system's clock is read only when a file is newer than the last
// reading, and at most every probeEvery: files dated ahead of every
// clock cost a read at each load but not a probe.
func TestCacheReadsTheFileSystemClockSparingly(t *testing.T) {
	dir, c, _ := project(t, true, 0)
	writeAt(t, dir, "a.acore", "module a\n", time.Time{})
	writeAt(t, dir, "ahead.acore", "module ahead\n", time.Now().Add(time.Hour))
	time.Sleep(20 * time.Millisecond)
	for range 5 {
		mustLoad(t, dir, c)
	}
	if got := c.probes.Load(); got != 1 {
		t.Errorf("%d probes for 5 loads in quick succession, want 1", got)
	}
	if got := c.reads.Load(); got != 6 {
		t.Errorf("%d reads, want 6: a.acore once, the file dated ahead at every load", got)
	}
	// A file written after the last reading is trusted once the clock is
	// read again, past probeEvery.
	time.Sleep(probeEvery + 20*time.Millisecond)
	writeAt(t, dir, "b.acore", "module b\n", time.Time{})
	time.Sleep(20 * time.Millisecond)
	mustLoad(t, dir, c)
	reads := c.reads.Load()
	mustLoad(t, dir, c)
	if got := c.reads.Load() - reads; got != 1 {
		t.Errorf("%d reads after b.acore was verified, want 1 (the file dated ahead)", got)
	}
	if got := c.probes.Load(); got != 2 {
		t.Errorf("%d probes, want 2", got)
	}
}

// Files are read into the buffers the cache's Buffers function gives, and
// arrive whole.
func TestCacheReadsIntoGivenBuffers(t *testing.T) {
	dir, c, _ := project(t, false, -time.Hour)
	writeAt(t, dir, "main.acore", "module a\n", time.Time{})
	big := "module b\n// " + strings.Repeat("x", 3000) + "\n"
	writeAt(t, dir, "b.acore", big, time.Time{})
	var given [][]byte
	var mu sync.Mutex
	c.Buffers(func(n int) []byte {
		mu.Lock()
		defer mu.Unlock()
		b := make([]byte, 0, n)
		given = append(given, b)
		return b
	})
	in := mustLoad(t, dir, c)
	if len(given) != 2 {
		t.Fatalf("%d buffers asked for 2 files", len(given))
	}
	for _, f := range in.Sources {
		from := false
		for _, b := range given {
			if cap(b) >= len(f.Data) && &b[:1][0] == &f.Data[0] {
				from = true
			}
		}
		if !from {
			t.Errorf("%s was not read into a given buffer", f.Path)
		}
	}
	if got := string(in.Sources[0].Data); got != big {
		t.Errorf("b.acore read as %d bytes, want %d", len(got), len(big))
	}
}
