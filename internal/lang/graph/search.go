package graph

import (
	"bytes"
	"cmp"
	"runtime"
	"slices"
	"sync"
	"unicode/utf8"
)

// Search is an index for substring queries over a frozen graph: for each
// node, in document order (by file, then position), its name, id and
// literal string property values in lower case, packed in one array.
//
// Beside the text it keeps what narrows a query before the text is read:
// the range of each file (a file's nodes are contiguous in document
// order), the nodes of each kind and of each owner, and a trigram index
// listing, for each hashed three-byte sequence, the nodes with a part that
// contains it. A query reads the smallest of the lists that must hold every
// match (the kind's, the owner's, and for three bytes or more the shortest
// trigram list) and checks each node listed against the text; when every
// list is long it scans the text of the file range instead.
type Search struct {
	// Order lists node indexes in document order; a node's position in it
	// is what the lists below hold.
	Order []int32
	text  []byte
	// For the k-th node in Order: name is text[at[k]:idAt[k]-1], id
	// text[idAt[k]:propAt[k]-1], literal values text[propAt[k]:at[k+1]-1];
	// each part ends with a NUL byte, so no match spans two parts.
	at, idAt, propAt []int32

	// kind[k] and owner[k] number the kind and owner of the k-th node,
	// as kinds and owners map them; byKind and byOwner list the
	// positions of each number's nodes in document order.
	kind, owner     []int32
	kinds, owners   map[string]int32
	byKind, byOwner [][]int32
	// paths maps a file to the range [lo, hi) of its nodes' positions.
	paths map[string][2]int32
	// gramPost[gramAt[b]:gramAt[b+1]] lists, once each and in document
	// order, the positions of the nodes with a part containing a trigram
	// of hash b, as uvarint deltas from the previous position (the first
	// from -1), so the lists take about a byte per entry.
	gramAt   []int32
	gramPost []byte

	// over is set on an index derived from a whole one, whose fields
	// above it shares: it holds the nodes whose text differs.
	over *overlay
}

// overlay is what an index derived from a whole one (the seed's root)
// knows beyond it: the text of the re-created nodes whose name, id or
// literal values changed. Every other fact of root holds, as a recheck
// keeps node indexes, ids, kinds, owners, files and document order
// (deriveSearch verifies it).
type overlay struct {
	searchSeed
	// texts holds, in document order, the text of each re-created node
	// whose text differs from root's; mark[k] is set for their positions.
	texts []nodeText
	mark  bitset
}

// nodeText is the text of the node at position k laid out as a whole
// index's: the lower-case name, id and literal values, each ending with a
// NUL byte, and where the id and values start.
type nodeText struct {
	k            int32
	text         []byte
	idAt, propAt int32
}

// searchSeed is what the index of a derived graph starts from: a whole
// index of an earlier graph of the same nodes, and the nodes re-created
// since, in index order.
type searchSeed struct {
	root    *Search
	changed []int32
}

// Filter narrows a query to the nodes of one kind, declared in one file
// and owned by one page or component; an empty field does not narrow.
type Filter struct {
	Kind  string
	Path  string
	Owner string
}

// gramBits sets the number of trigram hash buckets, 1<<16: few distinct
// trigrams share a bucket, and the bucket offsets take 256 KB.
const gramBits = 16

// appendGrams appends the hash of every trigram of s that holds no NUL
// byte.
func appendGrams(out []uint32, s []byte) []uint32 {
	var h uint32 // the last bytes read, up to three since a NUL
	run := 0
	for _, c := range s {
		if c == 0 {
			run = 0
			continue
		}
		h = h<<8 | uint32(c)
		if run++; run >= 3 {
			out = append(out, (h&0xFFFFFF)*0x9E3779B1>>(32-gramBits))
		}
	}
	return out
}

// Search returns the graph's search index, built on first use. A graph
// derived from one that had an index (or could derive one) derives its
// index from it, which costs about its re-created nodes; otherwise, or
// when that does not hold (see deriveSearch), it builds a whole index.
func (g *Graph) Search() *Search {
	g.searchOnce.Do(func() {
		var s *Search
		if g.lazy != nil && g.lazy.search != nil {
			s = g.decodedSearch()
		}
		if s == nil && g.seed != nil {
			s = deriveSearch(g, g.seed)
		}
		if s == nil {
			s = buildSearch(g)
		}
		g.search.Store(s)
	})
	return g.search.Load()
}

// seedFor returns the seed of a graph derived from base that re-created
// the nodes changed (in index order), or nil: base's index, or the index
// base would derive its own from, with the nodes re-created since. Indexes
// stop being derived once half the nodes were re-created: deriving one
// then costs about what building it does.
func seedFor(base *Graph, changed []int32) *searchSeed {
	var from searchSeed
	switch s := base.ready(); {
	case s != nil && s.over != nil:
		from = s.over.searchSeed
	case s != nil:
		from.root = s
	case base.seed != nil:
		from = *base.seed
	default:
		return nil
	}
	all := union(from.changed, changed)
	if len(all) > len(from.root.Order)/2 {
		return nil
	}
	return &searchSeed{root: from.root, changed: all}
}

// union merges two lists of node indexes in index order.
func union(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return out
}

// deriveSearch derives g's index from seed's whole index, or returns nil
// when a re-created node's kind, owner or file differs from the root's, or
// it no longer sits between its neighbours in document order, or when the
// text of more than an eighth of the nodes changed: every query reads the
// changed text, so many changes are better indexed whole.
func deriveSearch(g *Graph, seed *searchSeed) *Search {
	root := seed.root
	n := int32(len(root.Order))
	if int32(g.Len()) != n {
		return nil
	}
	re := make(bitset, n/64+1)
	for _, i := range seed.changed {
		re.set(i)
	}
	// The document order of the root: (file, position, index).
	before := func(a, b int32) bool {
		x, y := g.At(a), g.At(b)
		return x.Pos < y.Pos || x.Pos == y.Pos && a < b
	}
	o := &overlay{searchSeed: *seed, mark: make(bitset, n/64+1)}
	var buf []byte
	for k, i := range root.Order {
		if !re.has(i) {
			continue
		}
		nd := g.At(i)
		k := int32(k)
		if c, ok := root.kinds[nd.Kind]; !ok || c != root.kind[k] {
			return nil
		}
		if c, ok := root.owners[nd.Owner]; !ok || c != root.owner[k] {
			return nil
		}
		if r, ok := root.paths[nd.Path]; !ok || k < r[0] || k >= r[1] {
			return nil
		}
		if r := root.paths[nd.Path]; k > r[0] && !before(root.Order[k-1], i) || k+1 < r[1] && !before(i, root.Order[k+1]) {
			return nil
		}
		t := nodeText{k: k}
		buf, t.idAt, t.propAt = appendText(buf[:0], nd)
		if !bytes.Equal(buf, root.text[root.at[k]:root.at[k+1]]) {
			t.text = slices.Clone(buf)
			o.texts = append(o.texts, t)
			o.mark.set(k)
			if len(o.texts) > int(n/8) {
				return nil
			}
		}
	}
	s := *root
	s.over = o
	return &s
}

// appendText appends a node's text as a whole index lays it out, and
// returns where its id and values start in what it appended.
func appendText(b []byte, nd *Node) ([]byte, int32, int32) {
	start := len(b)
	b = appendLower(b, nd.Name)
	idAt := int32(len(b) - start)
	b = appendLower(b, nd.ID)
	propAt := int32(len(b) - start)
	for _, p := range nd.Props {
		if v, ok := p.Value.(string); ok && p.Literal {
			b = appendLower(b, v)
		}
	}
	return b, idAt, propAt
}

func buildSearch(g *Graph) *Search {
	n := g.Len()
	s := &Search{Order: make([]int32, n), at: make([]int32, n+1), idAt: make([]int32, n), propAt: make([]int32, n),
		kind: make([]int32, n), owner: make([]int32, n), kinds: map[string]int32{}, owners: map[string]int32{}, paths: map[string][2]int32{}}
	s.order(g)
	size := 0
	for i := range int32(n) {
		size += len(g.At(i).Name) + len(g.At(i).ID) + 8
	}
	s.text = make([]byte, 0, size)
	// Neighbours in document order mostly share kind, owner and file, so
	// the maps are read only when one changes.
	var kind, owner, path string
	var c, o int32
	for k, i := range s.Order {
		nd := g.At(i)
		at := int32(len(s.text))
		var idAt, propAt int32
		s.text, idAt, propAt = appendText(s.text, nd)
		s.at[k], s.idAt[k], s.propAt[k] = at, at+idAt, at+propAt
		if k == 0 || nd.Kind != kind {
			kind = nd.Kind
			c = codeOf(s.kinds, kind)
		}
		s.kind[k] = c
		if k == 0 || nd.Owner != owner {
			owner = nd.Owner
			o = codeOf(s.owners, owner)
		}
		s.owner[k] = o
		if k == 0 || nd.Path != path {
			if k > 0 {
				s.paths[path] = [2]int32{s.paths[path][0], int32(k)}
			}
			path = nd.Path
			s.paths[path] = [2]int32{int32(k), 0}
		}
	}
	if n > 0 {
		s.paths[path] = [2]int32{s.paths[path][0], int32(n)}
	}
	s.at[n] = int32(len(s.text))
	s.byKind = groups(s.kind, len(s.kinds))
	s.byOwner = groups(s.owner, len(s.owners))
	s.buildGrams()
	return s
}

// order fills Order: the nodes grouped by file, files in name order, and
// each file's nodes by position. The grouping is a counting sort, stable
// like the sort by position, so nodes at the same position keep their
// index order.
func (s *Search) order(g *Graph) {
	n := int32(g.Len())
	rank := map[string]int32{}
	var names []string
	file := make([]int32, n)
	last := ""
	r := int32(-1)
	for i := range n {
		if p := g.At(i).Path; r < 0 || p != last {
			var ok bool
			if r, ok = rank[p]; !ok {
				r = int32(len(names))
				rank[p] = r
				names = append(names, p)
			}
			last = p
		}
		file[i] = r
	}
	// Files by name, then start[r]: where the nodes of file r go.
	byName := make([]int32, len(names))
	for r := range byName {
		byName[r] = int32(r)
	}
	slices.SortFunc(byName, func(a, b int32) int { return cmp.Compare(names[a], names[b]) })
	count := make([]int32, len(names))
	for _, r := range file {
		count[r]++
	}
	start := make([]int32, len(names))
	next := int32(0)
	for _, r := range byName {
		start[r] = next
		next += count[r]
	}
	for i, r := range file {
		s.Order[start[r]] = int32(i)
		start[r]++
	}
	pos := func(a, b int32) int { return cmp.Compare(g.At(a).Pos, g.At(b).Pos) }
	for _, r := range byName {
		part := s.Order[start[r]-count[r] : start[r]]
		if !slices.IsSortedFunc(part, pos) {
			slices.SortStableFunc(part, pos)
		}
	}
}

// groups lists the positions k of each number 0..m-1 in num, in order, in
// one backing array.
func groups(num []int32, m int) [][]int32 {
	at := make([]int32, m+1)
	for _, c := range num {
		at[c+1]++
	}
	for c := 1; c <= m; c++ {
		at[c] += at[c-1]
	}
	all := make([]int32, len(num))
	next := slices.Clone(at[:m])
	for k, c := range num {
		all[next[c]] = int32(k)
		next[c]++
	}
	out := make([][]int32, m)
	for c := range out {
		out[c] = all[at[c]:at[c+1]:at[c+1]]
	}
	return out
}

// appendLower appends s in lower case, as bytes.ToLower has it, and a
// NUL byte.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(append(b, bytes.ToLower([]byte(s))...), 0)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return append(b, 0)
}

// buildGrams fills the trigram index in two passes over the text: one
// sizes each list, one writes it.
func (s *Search) buildGrams() {
	s.buildGramsIn(gramParts(len(s.Order)))
}

// gramParts is the number of parts of the positions whose postings are
// built at once: one per core for large graphs (a cold node.find of the
// wide bench shape, 80k nodes, spent a quarter of its time here), but
// none under gramPartMin positions, where starting goroutines costs more.
func gramParts(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/gramPartMin))
}

const gramPartMin = 8192

// gramPart is one part's share of the postings: the positions from lo
// to hi, and for each bucket its first and last position in them (or -1),
// the bytes of its deltas after the first, the last position of the
// parts before it (or -1) and where its postings go in gramPost.
type gramPart struct {
	lo, hi      int32
	first, last []int32
	size        []int32
	prev, next  []int32
}

// buildGramsIn builds the postings in parts parts of the positions, each
// on its own goroutine: the parts count their postings, the first delta
// of each part's list in a bucket is then known from the parts before
// it, and each part writes its postings where they go. The bytes are
// those of one pass over all positions, whatever the number of parts.
func (s *Search) buildGramsIn(parts int) {
	const buckets = 1 << gramBits
	n := int32(len(s.Order))
	ps := make([]gramPart, parts)
	for w := range ps {
		p := &ps[w]
		p.lo, p.hi = n*int32(w)/int32(parts), n*int32(w+1)/int32(parts)
		p.first, p.last, p.size = make([]int32, buckets), make([]int32, buckets), make([]int32, buckets)
	}
	each := func(f func(p *gramPart)) {
		if parts == 1 {
			f(&ps[0])
			return
		}
		var wg sync.WaitGroup
		for w := range ps {
			wg.Go(func() { f(&ps[w]) })
		}
		wg.Wait()
	}
	each(func(p *gramPart) {
		for b := range buckets {
			p.first[b], p.last[b] = -1, -1
		}
		var gs []uint32
		for k := p.lo; k < p.hi; k++ {
			gs = appendGrams(gs[:0], s.text[s.at[k]:s.at[k+1]])
			for _, b := range gs {
				switch last := p.last[b]; {
				case last == k:
				case last < 0:
					p.first[b], p.last[b] = k, k
				default:
					p.size[b] += uvarintLen(uint32(k - last))
					p.last[b] = k
				}
			}
		}
	})
	// Each part's first posting in a bucket is a delta from the last one
	// of the parts before it (from -1 for the first), and its postings go
	// after theirs.
	s.gramAt = make([]int32, buckets+1)
	for w := range ps {
		ps[w].prev, ps[w].next = make([]int32, buckets), make([]int32, buckets)
	}
	for b := range buckets {
		at, last := s.gramAt[b], int32(-1)
		for w := range ps {
			p := &ps[w]
			p.prev[b], p.next[b] = last, at
			if p.first[b] >= 0 {
				at += uvarintLen(uint32(p.first[b]-last)) + p.size[b]
				last = p.last[b]
			}
		}
		s.gramAt[b+1] = at
	}
	post := make([]byte, s.gramAt[buckets])
	each(func(p *gramPart) {
		last, next := p.prev, p.next // both advance as postings are written
		var gs []uint32
		for k := p.lo; k < p.hi; k++ {
			gs = appendGrams(gs[:0], s.text[s.at[k]:s.at[k+1]])
			for _, b := range gs {
				if last[b] != k {
					x, j := uint32(k-last[b]), next[b]
					for ; x >= 0x80; x >>= 7 {
						post[j] = byte(x) | 0x80
						j++
					}
					post[j] = byte(x)
					next[b], last[b] = j+1, k
				}
			}
		}
	})
	s.gramPost = post
}

func uvarintLen(x uint32) int32 {
	n := int32(1)
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// parts reports which parts of the k-th node in document order contain
// q, given p, the first match of q in the node's text: the part holding p
// does, the parts before it do not, and the parts after it are searched.
func (s *Search) parts(k int32, q []byte, p int32) (name, id, value bool) {
	return partsOf(s.text[:s.at[k+1]], s.idAt[k], s.propAt[k], q, p)
}

// partsOf is parts for a node whose text ends text, with its id and
// values at idAt and propAt, and the first match of q at p.
func partsOf(text []byte, idAt, propAt int32, q []byte, p int32) (name, id, value bool) {
	switch {
	case p < idAt:
		name = true
		id = bytes.Contains(text[idAt:propAt], q)
		value = bytes.Contains(text[propAt:], q)
	case p < propAt:
		id = true
		value = bytes.Contains(text[propAt:], q)
	default:
		value = true
	}
	return
}

// Find calls fn, in document order, for every node whose name, id or a
// literal string property value contains the lower-case query q, saying
// which of them do. An empty q matches every node by name.
func (s *Search) Find(q []byte, fn func(node int32, name, id, value bool)) {
	s.Query(q, Filter{}, fn)
}

// Query is Find over the nodes that pass f. A kind, file or owner that no
// node has matches nothing.
func (s *Search) Query(q []byte, f Filter, fn func(node int32, name, id, value bool)) {
	lo, hi := int32(0), int32(len(s.Order))
	if f.Path != "" {
		r, ok := s.paths[f.Path]
		if !ok {
			return
		}
		lo, hi = r[0], r[1]
	}
	// list, when listed, holds every node of the range that passes f.
	var list []int32
	listed := false
	kind, owner := int32(-1), int32(-1)
	if f.Kind != "" {
		c, ok := s.kinds[f.Kind]
		if !ok {
			return
		}
		kind, list, listed = c, within(s.byKind[c], lo, hi), true
	}
	if f.Owner != "" {
		o, ok := s.owners[f.Owner]
		if !ok {
			return
		}
		owner = o
		if l := within(s.byOwner[o], lo, hi); !listed || len(l) < len(list) {
			list, listed = l, true
		}
	}
	keep := func(k int32) bool {
		return (kind < 0 || s.kind[k] == kind) && (owner < 0 || s.owner[k] == owner)
	}
	emit := func(k int32, name, id, value bool) { fn(s.Order[k], name, id, value) }
	if len(q) == 0 {
		// Every node matches by name; names are the root's.
		if listed {
			for _, k := range list {
				if keep(k) {
					emit(k, true, false, false)
				}
			}
			return
		}
		for k := lo; k < hi; k++ {
			emit(k, true, false, false)
		}
		return
	}
	if bytes.IndexByte(q, 0) >= 0 {
		return // no part contains a NUL byte
	}
	if o := s.over; o != nil {
		// The nodes whose text changed are matched on their new text,
		// and their matches merged into the root's in document order.
		hits := o.find(q, lo, hi, keep)
		base := keep
		keep = func(k int32) bool { return !o.mark.has(k) && base(k) }
		next := 0
		flush := func(upto int32) {
			for ; next < len(hits) && hits[next].k < upto; next++ {
				h := hits[next]
				fn(s.Order[h.k], h.name, h.id, h.value)
			}
		}
		emit = func(k int32, name, id, value bool) {
			flush(k)
			fn(s.Order[k], name, id, value)
		}
		defer flush(hi)
	}
	check := func(k int32) {
		if keep(k) {
			if j := bytes.Index(s.text[s.at[k]:s.at[k+1]], q); j >= 0 {
				name, id, value := s.parts(k, q, s.at[k]+int32(j))
				emit(k, name, id, value)
			}
		}
	}
	if len(q) >= 3 {
		// The shortest trigram list: about a byte per node it lists.
		var post []byte
		for i, b := range appendGrams(make([]uint32, 0, 8), q) {
			if l := s.gramPost[s.gramAt[b]:s.gramAt[b+1]]; i == 0 || len(l) < len(post) {
				post = l
			}
		}
		if !listed || len(post) < len(list) {
			for k, j := int32(-1), 0; j < len(post); {
				var d uint32
				for shift := 0; ; shift += 7 {
					c := post[j]
					j++
					d |= uint32(c&0x7F) << shift
					if c < 0x80 {
						break
					}
				}
				if k += int32(d); k >= hi {
					break
				}
				if k >= lo {
					check(k)
				}
			}
			return
		}
	}
	if listed && len(list) < int(hi-lo)/4 {
		for _, k := range list {
			check(k)
		}
		return
	}
	s.scan(q, lo, hi, keep, emit)
}

// hit is a match of a node, by its position in document order.
type hit struct {
	k               int32
	name, id, value bool
}

// find matches q against the changed text of the nodes at positions
// [lo, hi) that pass keep, in document order.
func (o *overlay) find(q []byte, lo, hi int32, keep func(int32) bool) []hit {
	var out []hit
	for _, t := range o.texts {
		if t.k < lo || t.k >= hi || !keep(t.k) {
			continue
		}
		if j := bytes.Index(t.text, q); j >= 0 {
			name, id, value := partsOf(t.text, t.idAt, t.propAt, q, int32(j))
			out = append(out, hit{t.k, name, id, value})
		}
	}
	return out
}

// scan finds q in the text of the nodes at positions [lo, hi), in one pass
// of bytes.Index.
func (s *Search) scan(q []byte, lo, hi int32, keep func(int32) bool, emit func(k int32, name, id, value bool)) {
	text := s.text[:s.at[hi]]
	k := lo
	for off := int(s.at[lo]); off < len(text); {
		var j int
		if len(q) == 1 {
			j = bytes.IndexByte(text[off:], q[0])
		} else {
			j = bytes.Index(text[off:], q)
		}
		if j < 0 {
			return
		}
		// The node whose parts hold the match, and the part: the first
		// match in the node, so earlier parts do not contain q.
		p := int32(off + j)
		for s.at[k+1] <= p {
			k++
		}
		if keep(k) {
			name, id, value := s.parts(k, q, p)
			emit(k, name, id, value)
		}
		off = int(s.at[k+1])
	}
}

// within returns the part of the sorted positions list in [lo, hi).
func within(list []int32, lo, hi int32) []int32 {
	a, _ := slices.BinarySearch(list, lo)
	b, _ := slices.BinarySearch(list[a:], hi)
	return list[a : a+b]
}

// codeOf returns key's code in m, giving it the next one when it has none.
func codeOf(m map[string]int32, key string) int32 {
	c, ok := m[key]
	if !ok {
		c = int32(len(m))
		m[key] = c
	}
	return c
}
