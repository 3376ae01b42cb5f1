package load

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// racyWindow is how recent a modification time may be, by this process's
// clock, before the cache stops trusting it when it cannot ask the file
// system for its own clock: a file written twice within the file system's
// time granularity can keep its size and time.
const racyWindow = 2 * time.Second

// Cache remembers the bytes and digest of files by path, size and
// modification time (as the walk or an open descriptor reports them). It
// is safe for concurrent use.
//
// A file's stat vouches for its content only once the content was read
// when its modification time was already in the past by the file system's
// clock, as git does for racily clean index entries: a later write, even
// of the same size, then gets a later time. Until then the file is read at
// every capture; each such read is a verification, and the first one made
// safely after the file's time makes the entry trusted, so a file is read
// again only until it has been verified once.
type Cache struct {
	mu sync.Mutex
	m  map[string]cacheEntry
	// probeDir is the project directory where a load creates and removes
	// a file to read the file system's clock; empty for none.
	probeDir string
	// last is the last reading of the file system's clock, taken at
	// lastAt by this process's clock.
	last   fsClock
	lastAt time.Time
	// reads counts the files read from disk rather than served from the
	// cache, and probes the readings of the file system's clock.
	reads, probes atomic.Int64
	// buffers makes the buffers files are read into (see Buffers).
	buffers func(n int) []byte
}

// Buffers makes loads through c read files into buffers that make returns
// (empty, with room for n bytes) instead of buffers of the heap. Call it
// before the first load.
func (c *Cache) Buffers(make func(n int) []byte) { c.buffers = make }

// buffer returns an empty buffer with room for n bytes.
func (c *Cache) buffer(n int64) []byte {
	if c != nil && c.buffers != nil {
		return c.buffers(int(n))
	}
	return make([]byte, 0, n)
}

type cacheEntry struct {
	size    int64
	mod     time.Time
	data    []byte
	sha     string
	trusted bool
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{m: map[string]cacheEntry{}}
}

// ProbeClock makes loads through c read the file system's clock, when a
// file is too recent for the wall clock to vouch for it, by creating and
// removing a file in the project directory dir (which must exist, inside
// the root, on the sources' file system; else the wall clock's window
// applies). Files written just before a capture, such as a freshly cloned
// project or the files an apply wrote, are then trusted after one read
// instead of racyWindow of reads.
func (c *Cache) ProbeClock(dir string) {
	c.mu.Lock()
	c.probeDir = dir
	c.mu.Unlock()
}

// ClockProbePrefix starts the name of the file a load creates and removes
// to read the file system's clock where it cannot create a file without a
// name; one left by a killed process may be removed.
const ClockProbePrefix = ".clock-"

// fsClock is a reading of the file system's clock: the modification time
// of a file created at that moment, and the device it is on.
type fsClock struct {
	at  time.Time
	dev uint64
	ok  bool
}

// probe reads the file system's clock under dir through the confined
// root, leaving nothing there: the file it creates has no name where the
// system allows (stampUnnamed), else it is created and removed through
// one handle on dir (stampNamed).
func probe(r *fsutil.Root, dir string) fsClock {
	d, err := r.Dir(dir)
	if err != nil {
		return fsClock{}
	}
	defer d.Close()
	fi, err := stampUnnamed(d)
	if err != nil {
		fi, err = stampNamed(d)
	}
	if err != nil {
		return fsClock{}
	}
	dev, ok := device(fi)
	return fsClock{at: fi.ModTime(), dev: dev, ok: ok}
}

// stampNamed creates a file in d and returns its metadata; the file is
// removed whatever fails. Both go through d, so dir moved or swapped in
// between does not send the removal elsewhere.
func stampNamed(d *fsutil.Root) (fs.FileInfo, error) {
	name := ClockProbePrefix + rand.Text()
	f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	f.Close()
	if rerr := d.Remove(name); err == nil {
		err = rerr
	}
	return fi, err
}

// probeEvery bounds how often a load reads the file system's clock again:
// a file dated ahead of it (a clock ahead of this one, an archive's
// future times) would otherwise cost a probe at every load.
const probeEvery = 100 * time.Millisecond

// clock returns a reading of the file system's clock for a load of todo,
// taken before any file is read: the last reading when it is recent
// enough for every queued file the wall clock cannot vouch for (an
// earlier reading of a clock that only moves forward is as good), else a
// new one, at most every probeEvery; or none.
func (c *Cache) clock(r *fsutil.Root, todo []*pending) fsClock {
	if c == nil {
		return fsClock{}
	}
	recent := time.Now().Add(-racyWindow)
	c.mu.Lock()
	dir, last, lastAt := c.probeDir, c.last, c.lastAt
	need, stale := false, false
	for _, p := range todo {
		if e, ok := c.m[p.rel]; ok && e.trusted && e.size == p.size && e.mod.Equal(p.mod) {
			continue
		}
		if !p.mod.Before(recent) {
			need = true
			stale = stale || !last.ok || !p.mod.Before(last.at)
		}
	}
	c.mu.Unlock()
	if dir == "" || !need || !stale || time.Since(lastAt) < probeEvery {
		return last
	}
	now := probe(r, dir)
	c.probes.Add(1)
	c.mu.Lock()
	if now.ok {
		c.last = now
	}
	c.lastAt = time.Now()
	c.mu.Unlock()
	return now
}

func (c *Cache) lookup(p pending) ([]byte, string, bool) {
	if c == nil {
		return nil, "", false
	}
	c.mu.Lock()
	e, ok := c.m[p.rel]
	c.mu.Unlock()
	if !ok || !e.trusted || e.size != p.size || !e.mod.Equal(p.mod) {
		return nil, "", false
	}
	return e.data, e.sha, true
}

// store records p, whose content was read from an open descriptor whose
// fstat gave p.size, p.mod and dev after start (by this process's clock)
// and after clock was read. The entry is trusted when the file's time was
// then safely past: before clock on the same device, or racyWindow before
// start. When the content equals the entry's, the entry's bytes and digest
// are kept, sparing a hash.
func (c *Cache) store(p *pending, start time.Time, clock fsClock, dev uint64, devOK bool) {
	if c == nil {
		return
	}
	c.reads.Add(1)
	c.mu.Lock()
	e, ok := c.m[p.rel]
	c.mu.Unlock()
	if ok && e.size == int64(len(p.data)) && bytes.Equal(e.data, p.data) {
		p.data, p.sha = e.data, e.sha
	} else {
		sum := sha256.Sum256(p.data)
		p.sha = hex.EncodeToString(sum[:])
	}
	// A file that changed size while it was read is never trusted.
	trusted := int64(len(p.data)) == p.size &&
		(p.mod.Before(start.Add(-racyWindow)) || clock.ok && devOK && dev == clock.dev && p.mod.Before(clock.at))
	c.mu.Lock()
	c.m[p.rel] = cacheEntry{size: p.size, mod: p.mod, data: p.data, sha: p.sha, trusted: trusted}
	c.mu.Unlock()
}
