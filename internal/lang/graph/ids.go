package graph

import "hash/maphash"

// idTable maps node ids to node indexes. It is an open-addressing table
// of 32-bit slots that holds no strings: the ids live in the nodes, and a
// probe compares the node's id. A map from id to index costs a large
// project about 5 MB; this about half a megabyte.
//
// A slot is 0 when empty; otherwise its low bits hold the index plus one
// and its high bits a tag taken from the id's hash, so that a probe reads
// a node only when the tags agree. The table has 1<<bits slots and maps
// at most 3/4 as many ids, those of nodes 0 to count-1, so every index
// plus one fits in the low bits.
type idTable struct {
	slots []uint32
	bits  uint
	count int
	// fixed selects a hash that is the same in every process (FNV-1a)
	// instead of the process's seeded one, for a table Encode writes.
	fixed bool
}

var idSeed = maphash.MakeSeed()

// newIDTable returns a table with room for n ids.
func newIDTable(n int) *idTable {
	bits := uint(4)
	for n > maxLoad(bits) {
		bits++
	}
	return &idTable{slots: make([]uint32, 1<<bits), bits: bits}
}

// maxLoad is the number of ids a table of 1<<bits slots holds at most:
// linear probing stays short up to three quarters full.
func maxLoad(bits uint) int { return 3 << bits >> 2 }

// hash returns the hash of id the table is laid out by.
func (t *idTable) hash(id string) uint64 {
	if !t.fixed {
		return maphash.String(idSeed, id)
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	// FNV's low bits mix poorly: fold the high half in.
	return h ^ h>>29
}

// at returns the first slot to probe for the hash h and the tag to find.
func (t *idTable) at(h uint64) (pos, tag uint32) {
	return uint32(h) & (1<<t.bits - 1), uint32(h>>32) >> t.bits
}

// get returns the index of the node of g with id.
func (t *idTable) get(g *Graph, id string) (int32, bool) {
	mask := uint32(1)<<t.bits - 1
	pos, tag := t.at(t.hash(id))
	for {
		s := t.slots[pos]
		if s == 0 {
			return 0, false
		}
		if s>>t.bits == tag {
			// A decoded table is checked here, not when read.
			if i := int32(s&mask) - 1; i >= 0 && int(i) < g.n && g.At(i).ID == id {
				return i, true
			}
		}
		pos = (pos + 1) & mask
	}
}

// put maps id to i, the index of a node of g, unless id is mapped; it
// returns the index id maps to and whether it is i. Ids are mapped in
// index order, each once: i is the number of ids mapped. Node i need not
// be in g yet, but every node mapped must be.
func (t *idTable) put(g *Graph, id string, i int32) (int32, bool) {
	return t.putHashed(g, t.hash(id), func() string { return id }, i)
}

// grow makes room for n more ids at once, where they are known to come.
func (t *idTable) grow(g *Graph, n int) {
	bits := t.bits
	for t.count+n > maxLoad(bits) {
		bits++
	}
	if bits != t.bits {
		t.resize(g, bits)
	}
}

// putHashed is put of the id that id returns, whose hash is h; id is
// called only when a mapped id's tag is the same.
func (t *idTable) putHashed(g *Graph, h uint64, id func() string, i int32) (int32, bool) {
	for t.count+1 > maxLoad(t.bits) {
		t.resize(g, t.bits+1)
	}
	mask := uint32(1)<<t.bits - 1
	pos, tag := t.at(h)
	for {
		s := t.slots[pos]
		if s == 0 {
			t.slots[pos] = tag<<t.bits | uint32(i+1)
			t.count++
			return i, true
		}
		if s>>t.bits == tag {
			if j := int32(s&mask) - 1; g.At(j).ID == id() {
				return j, false
			}
		}
		pos = (pos + 1) & mask
	}
}

// resize moves the ids to a table of 1<<bits slots, reading them from the
// nodes of g. The ids mapped are those of nodes 0 to count-1 (nodes are
// mapped as they get their indexes), which are read page by page: in the
// order of the slots, each would be a cache miss.
func (t *idTable) resize(g *Graph, bits uint) {
	t.slots, t.bits = make([]uint32, 1<<bits), bits
	mask := uint32(1)<<bits - 1
	i := uint32(0)
	for _, page := range g.pages {
		for k := range page {
			if int(i) == t.count {
				return
			}
			pos, tag := t.at(t.hash(page[k].ID))
			for t.slots[pos] != 0 {
				pos = (pos + 1) & mask
			}
			t.slots[pos] = tag<<bits | (i + 1)
			i++
		}
	}
}

// trim shrinks the table to the smallest that holds the ids of g, once
// the graph is complete: New sizes it for an estimate of the node count.
func (t *idTable) trim(g *Graph) {
	bits := uint(4)
	for g.n > maxLoad(bits) {
		bits++
	}
	if bits < t.bits {
		t.resize(g, bits)
	}
}
