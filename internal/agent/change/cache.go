package change

import (
	"fmt"
	"strings"
	"sync"

	"github.com/axiomcore/acore/internal/agent/snapshot"
	"github.com/axiomcore/acore/internal/lang/project"
)

// Compiled is a candidate version compiled: its base snapshot and the
// compiled base-plus-overlay project.
type Compiled struct {
	Base    *snapshot.Snapshot
	Project *project.Project
}

// Cache keeps the last few compiled candidate versions in memory, oldest
// dropped first; each holds a compiled project, like a snapshot. It is
// safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	max   int
	m     map[string]*Compiled // by id@version
	order []string             // oldest first
}

// NewCache returns a cache of at most max versions.
func NewCache(max int) *Cache { return &Cache{max: max, m: map[string]*Compiled{}} }

func cacheKey(id string, version int) string { return fmt.Sprintf("%s@%d", id, version) }

// Get returns version of candidate id, or nil.
func (c *Cache) Get(id string, version int) *Compiled {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[cacheKey(id, version)]
}

// Put keeps cc as version of candidate id.
func (c *Cache) Put(id string, version int, cc *Compiled) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := cacheKey(id, version)
	if _, ok := c.m[k]; !ok {
		c.order = append(c.order, k)
	}
	c.m[k] = cc
	for len(c.order) > c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
}

// Release drops every version of candidate id.
func (c *Cache) Release(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keep := c.order[:0]
	for _, k := range c.order {
		if strings.HasPrefix(k, id+"@") {
			delete(c.m, k)
			continue
		}
		keep = append(keep, k)
	}
	c.order = keep
}

// Drop forgets one version.
func (c *Cache) Drop(id string, version int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := cacheKey(id, version)
	if _, ok := c.m[k]; !ok {
		return
	}
	delete(c.m, k)
	for i, o := range c.order {
		if o == k {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
}
