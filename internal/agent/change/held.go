package change

import (
	"sync"

	"github.com/axiomcore/acore/internal/agent/candidate"
)

// Candidates are what a process holds of its roots' candidates, by root.
// The command creates one and gives it to every service it starts, so that
// the services of one root share their in-memory copies; a service given
// none holds its own.
type Candidates struct {
	roots sync.Map // root → *Held
}

// NewCandidates returns an empty set.
func NewCandidates() *Candidates { return &Candidates{} }

// compiledMax bounds the compiled candidates kept in memory per root; each
// holds a compiled project, like a snapshot.
const compiledMax = 4

// Of returns what is held of root's candidates; the first call for a root
// opens its store and sweeps candidates past their expiry.
func (cs *Candidates) Of(root string) *Held {
	if v, ok := cs.roots.Load(root); ok {
		return v.(*Held)
	}
	h := &Held{Store: candidate.NewStore(root), Compiled: NewCache(compiledMax)}
	v, loaded := cs.roots.LoadOrStore(root, h)
	if !loaded {
		h.Store.Sweep()
	}
	return v.(*Held)
}

// Held is what a process holds of one root's candidates: the store (in
// memory and under .axiom/state) and a small cache of compiled versions.
type Held struct {
	Store *candidate.Store
	// Mu serializes the check of a candidate's version and state with its
	// write, so two extensions of the same version cannot both succeed
	// within one process.
	Mu       sync.Mutex
	Compiled *Cache
	// requests holds a mutex per request_id (workspace + id), so that
	// concurrent requests with one request_id answer one after the other:
	// the first records, the others replay.
	requests sync.Map
}

// LockRequest serializes the requests of one request_id in this process;
// call the returned function to release it.
func (h *Held) LockRequest(workspace, requestID string) func() {
	v, _ := h.requests.LoadOrStore(workspace+"\x00"+requestID, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}
