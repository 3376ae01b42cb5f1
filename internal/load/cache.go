package load

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"
)

// racyWindow is how recent a modification time may be before the cache
// stops trusting it: a file written twice within the file system's time
// granularity can keep its size and time, so such files are read again
// until their time is safely in the past (the rule git uses for its index).
const racyWindow = 2 * time.Second

// Cache remembers the bytes and digest of files by path, size and
// modification time (as an open descriptor reports them). It is safe for
// concurrent use.
type Cache struct {
	mu sync.Mutex
	m  map[string]cacheEntry
}

type cacheEntry struct {
	size   int64
	mod    time.Time
	readAt time.Time
	data   []byte
	sha    string
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{m: map[string]cacheEntry{}}
}

func (c *Cache) lookup(p pending) ([]byte, string, bool) {
	if c == nil {
		return nil, "", false
	}
	c.mu.Lock()
	e, ok := c.m[p.rel]
	c.mu.Unlock()
	if !ok || e.size != p.size || !e.mod.Equal(p.mod) || !p.mod.Before(e.readAt.Add(-racyWindow)) {
		return nil, "", false
	}
	return e.data, e.sha, true
}

func (c *Cache) store(p *pending) {
	if c == nil {
		return
	}
	if p.sha == "" {
		sum := sha256.Sum256(p.data)
		p.sha = hex.EncodeToString(sum[:])
	}
	c.mu.Lock()
	c.m[p.rel] = cacheEntry{size: p.size, mod: p.mod, readAt: time.Now(), data: p.data, sha: p.sha}
	c.mu.Unlock()
}
