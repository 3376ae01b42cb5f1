package graph

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// The binary layout of a frozen graph, for the compile cache: a string
// table; the nodes in pages of pageSize (every string an index in the
// table, integers uvarints or zigzag varints) with each page's offset, so
// that a page is decoded when one of its nodes is first read; then, as
// raw little-endian arrays aligned to 4 bytes so that they are used in
// place, the edges, their rows both ways, an id table laid out by a hash
// every process computes alike, and the whole search index.

// Encode appends the frozen graph g to b in the layout Decode reads. The
// search index is encoded whole: the graph's own when it has a whole one,
// otherwise one built here. A graph with no index yet builds and keeps
// its own (Search), so that its first query waits for the build the
// encoding started, which runs in the background after a compile,
// instead of building a second index.
func (g *Graph) Encode(b []byte) ([]byte, error) {
	// The index first: a query of g may be waiting for it.
	s := g.search.Load()
	if s == nil {
		s = g.Search()
	}
	if s.over != nil {
		s = buildSearch(g)
	}
	n := g.Len()
	// Sized for the layout's usual 220 bytes a node, so that the entry
	// is not copied as it grows.
	e := &encoder{b: slices.Grow(b, n*256), strs: make(map[string]uint32, n/4), list: make([]string, 0, n+n/2)}
	// The nodes go to their own buffer first, numbering strings as they
	// come, so that the string table can precede them. Ids are unique,
	// so they are added to the table without looking them up.
	nodes := encoder{b: make([]byte, 0, n*64)}
	offs := make([]int32, 0, n/pageSize+1)
	for i := range int32(n) {
		if i%pageSize == 0 {
			offs = append(offs, int32(len(nodes.b)))
		}
		if err := e.node(&nodes, g.At(i)); err != nil {
			return nil, err
		}
	}
	for _, list := range [][]string{keysByCode(s.kinds), keysByCode(s.owners), pathKeys(s.paths)} {
		for _, k := range list {
			e.intern(k)
		}
	}
	// The string table: where each string ends, then their bytes.
	ends := make([]int32, len(e.list))
	size := 0
	for i, str := range e.list {
		size += len(str)
		ends[i] = int32(size)
	}
	blob := make([]byte, 0, size)
	for _, str := range e.list {
		blob = append(blob, str...)
	}
	e.int32s(ends)
	e.bytes(blob)
	e.uvarint(uint64(n))
	e.int32s(offs)
	e.bytes(nodes.b)
	// Edges as they lie in memory: source, target, kind, layer and the
	// argument; then the vias of the bound edges, which are the last.
	edges := make([]int32, 0, 3*len(g.Edges))
	for _, ed := range g.Edges {
		edges = append(edges, ed.From, ed.To, int32(ed.kind)|int32(ed.layer)<<8|int32(ed.arg)<<16)
	}
	e.int32s(edges)
	e.int32s(g.via)
	for _, a := range [][]int32{g.outAt, g.out, g.inAt, g.in} {
		e.int32s(a)
	}
	ids := newIDTable(n)
	ids.fixed = true
	for i := range int32(n) {
		ids.put(g, g.At(i).ID, i)
	}
	e.uvarint(uint64(ids.bits))
	e.int32s(unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(ids.slots))), len(ids.slots)))
	e.search(s)
	return e.b, nil
}

// node writes nd to out, numbering its strings in e's table.
func (e *encoder) node(out *encoder, nd *Node) error {
	out.uvarint(uint64(len(e.list)))
	e.list = append(e.list, nd.ID)
	for k, s := range [...]string{nd.Kind, nd.Name, nd.Path, nd.Owner, nd.Signature} {
		out.uvarint(uint64(e.index(k, s)))
	}
	for _, v := range [...]int32{nd.Pos, nd.End, nd.Line, nd.Column, nd.SigPos, nd.SigEnd} {
		out.varint(int64(v))
	}
	flags := byte(0)
	if nd.Foreign {
		flags = 1
	}
	out.b = append(out.b, flags)
	out.uvarint(uint64(len(nd.Props)))
	for k := range nd.Props {
		if err := e.prop(out, &nd.Props[k]); err != nil {
			return fmt.Errorf("node %s: %w", nd.ID, err)
		}
	}
	return nil
}

// index returns the number of s in the table, adding it if new. Most
// neighbours share a kind, file and owner, so the last string of each
// field (slot) is compared before the map is read.
func (e *encoder) index(slot int, s string) uint32 {
	if l := &e.last[slot]; l.ok && l.s == s {
		return l.i
	}
	i := e.intern(s)
	e.last[slot] = lastString{s, i, true}
	return i
}

type lastString struct {
	s  string
	i  uint32
	ok bool
}

type encoder struct {
	b    []byte
	strs map[string]uint32
	list []string
	last [8]lastString
}

func (e *encoder) intern(s string) uint32 {
	i, ok := e.strs[s]
	if !ok {
		i = uint32(len(e.list))
		e.strs[s] = i
		e.list = append(e.list, s)
	}
	return i
}

func (e *encoder) uvarint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) varint(x int64)   { e.b = binary.AppendVarint(e.b, x) }
func (e *encoder) str(s string)     { e.uvarint(uint64(e.strs[s])) }

// Value tags of a property.
const (
	valNil = iota
	valString
	valFalse
	valTrue
	valInt
	valFloat
)

func (e *encoder) prop(out *encoder, p *Property) error {
	out.uvarint(uint64(e.index(5, p.Name)))
	out.uvarint(uint64(e.index(6, p.Type)))
	switch v := p.Value.(type) {
	case nil:
		out.b = append(out.b, valNil)
	case string:
		out.b = append(out.b, valString)
		out.uvarint(uint64(e.index(7, v)))
	case bool:
		if v {
			out.b = append(out.b, valTrue)
		} else {
			out.b = append(out.b, valFalse)
		}
	case int64:
		out.b = append(out.b, valInt)
		out.varint(v)
	case float64:
		out.b = append(out.b, valFloat)
		out.b = binary.LittleEndian.AppendUint64(out.b, math.Float64bits(v))
	default:
		return fmt.Errorf("property %s: a value of type %T has no encoding", p.Name, v)
	}
	flags := byte(0)
	if p.Editable {
		flags |= 1
	}
	if p.Literal {
		flags |= 2
	}
	out.b = append(out.b, flags)
	out.varint(int64(p.ValuePos))
	out.varint(int64(p.ValueEnd))
	return nil
}

// int32s writes a's length, padding to 4 bytes from the start of e.b
// (the start of the entry, which a reader holds 8-aligned) and a's
// values.
func (e *encoder) int32s(a []int32) {
	e.uvarint(uint64(len(a)))
	pad := (4 - (len(e.b)+1)%4) % 4
	e.b = append(e.b, byte(pad))
	e.b = append(e.b, make([]byte, pad)...)
	if littleEndian && len(a) > 0 {
		e.b = append(e.b, unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 4*len(a))...)
		return
	}
	for _, x := range a {
		e.b = binary.LittleEndian.AppendUint32(e.b, uint32(x))
	}
}

func (e *encoder) bytes(a []byte) {
	e.uvarint(uint64(len(a)))
	e.b = append(e.b, a...)
}

func (e *encoder) strs2(list []string) {
	e.uvarint(uint64(len(list)))
	for _, s := range list {
		e.str(s)
	}
}

// lists writes lists of positions as where each ends and their values.
func (e *encoder) lists(ls [][]int32) {
	ends := make([]int32, len(ls))
	var all []int32
	for i, l := range ls {
		all = append(all, l...)
		ends[i] = int32(len(all))
	}
	e.int32s(ends)
	e.int32s(all)
}

// search writes s's arrays.
func (e *encoder) search(s *Search) {
	for _, a := range [][]int32{s.Order, s.at, s.idAt, s.propAt, s.kind, s.owner, s.gramAt} {
		e.int32s(a)
	}
	e.bytes(s.text)
	e.bytes(s.gramPost)
	e.strs2(keysByCode(s.kinds))
	e.strs2(keysByCode(s.owners))
	e.lists(s.byKind)
	e.lists(s.byOwner)
	paths := pathKeys(s.paths)
	e.strs2(paths)
	for _, p := range paths {
		e.uvarint(uint64(s.paths[p][0]))
		e.uvarint(uint64(s.paths[p][1]))
	}
}

// keysByCode lists the keys of m, which numbers them 0..len-1, by number.
func keysByCode(m map[string]int32) []string {
	out := make([]string, len(m))
	for k, c := range m {
		out[c] = k
	}
	return out
}

func pathKeys(m map[string][2]int32) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	// Sorted, so that equal graphs encode to equal bytes.
	slices.Sort(out)
	return out
}

// errCorrupt is the error of every inconsistency Decode finds.
var errCorrupt = errors.New("graph: corrupt encoding")

// Decode reads a graph Encode wrote, frozen and with its search index,
// whose nodes point into files (see SetFiles). The graph's strings and
// arrays point into data, which must not change afterwards. Every count,
// index and offset the graph reads at once is checked, so that corrupt
// data is an error, not a panic; the nodes are decoded a page at a time
// when first read, from data the caller has verified (the compile cache
// checks a CRC over it).
func Decode(data []byte, files []*syntax.File) (*Graph, error) {
	d := &decoder{b: data}
	d.strs.ends, d.strs.blob = d.int32s(), d.bytes()
	if d.err != nil || !d.strs.valid() {
		return nil, errCorrupt
	}
	strs := d.strs
	n := int(d.uvarint())
	offs := d.int32s()
	nodes := d.bytes()
	pages := (n + pageSize - 1) / pageSize
	if d.err != nil || n > math.MaxInt32/2 || len(offs) != pages {
		return nil, errCorrupt
	}
	for k, o := range offs {
		if o < 0 || int(o) > len(nodes) || k > 0 && o < offs[k-1] {
			return nil, errCorrupt
		}
	}
	g := &Graph{n: n, pages: make([][]Node, pages)}
	g.lazy = &lazyNodes{strs: strs, nodes: nodes, offs: offs, pages: make([]lazyPage, pages)}
	edges := d.int32s()
	if d.err != nil || len(edges)%3 != 0 {
		return nil, errCorrupt
	}
	for i := 0; i < len(edges); i += 3 {
		from, to, code := edges[i], edges[i+1], edges[i+2]
		kind, layer := code&0xFF, code>>8&0xFF
		if from < 0 || int(from) >= n || to < 0 || int(to) >= n || int(kind) >= len(EdgeKinds) || int(layer) >= len(layers) {
			return nil, errCorrupt
		}
	}
	if edgeInPlace && len(edges) > 0 {
		g.Edges = unsafe.Slice((*Edge)(unsafe.Pointer(&edges[0])), len(edges)/3)
	} else {
		g.Edges = make([]Edge, len(edges)/3)
		for i := range g.Edges {
			code := edges[3*i+2]
			g.Edges[i] = Edge{From: edges[3*i], To: edges[3*i+1], kind: uint8(code), layer: uint8(code >> 8), arg: uint16(uint32(code) >> 16)}
		}
	}
	if via := d.int32s(); len(via) > 0 {
		if len(via) > len(g.Edges) {
			return nil, errCorrupt
		}
		for _, v := range via {
			if v < 0 || int(v) >= n {
				return nil, errCorrupt
			}
		}
		g.via = via
	}
	g.outAt, g.out, g.inAt, g.in = d.int32s(), d.int32s(), d.int32s(), d.int32s()
	if d.err != nil || !validRows(g.outAt, g.out, n, len(g.Edges)) || !validRows(g.inAt, g.in, n, len(g.Edges)) {
		return nil, errCorrupt
	}
	bits := d.uvarint()
	slots := d.int32s()
	if d.err != nil || bits < 4 || bits > 30 || len(slots) != 1<<bits || n > maxLoad(uint(bits)) {
		return nil, errCorrupt
	}
	g.lazy.ids = &idTable{slots: unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(slots))), len(slots)), bits: uint(bits), count: n, fixed: true}
	if !slices.Contains(g.lazy.ids.slots, 0) {
		// A probe ends at an empty slot.
		return nil, errCorrupt
	}
	// The search index, the last part and the largest, is read when a
	// query first needs it (Search): an answer that needs none (a
	// workspace.open) reads none of it.
	rest := *d
	g.lazy.search = &rest
	g.SetFiles(files)
	return g, nil
}

// decodedSearch reads the index Decode left for Search, or returns nil
// when it does not hold (the entry's checksum held, so only a defect
// would); Search then builds one.
func (g *Graph) decodedSearch() *Search {
	d := *g.lazy.search
	s, err := d.search(g.n)
	if err != nil || d.off != len(d.b) {
		return nil
	}
	return s
}

// ready returns g's search index when it has one or can read one from
// its encoding, or nil when it would have to build it.
func (g *Graph) ready() *Search {
	if g.lazy != nil && g.lazy.search != nil {
		return g.Search()
	}
	return g.search.Load()
}

// validRows checks compressed rows of m edges over n nodes.
func validRows(at, idx []int32, n, m int) bool {
	if len(at) != n+1 || len(idx) != m || at[0] != 0 || int(at[n]) != m {
		return false
	}
	for i := range n {
		if at[i] > at[i+1] {
			return false
		}
	}
	for _, e := range idx {
		if e < 0 || int(e) >= m {
			return false
		}
	}
	return true
}

// lazyNodes holds the encoded pages of a decoded graph, each decoded on
// first use.
type lazyNodes struct {
	strs  strTable
	nodes []byte
	offs  []int32
	pages []lazyPage
	ids   *idTable
	// search is where the encoded search index starts, for Search.
	search *decoder
}

type lazyPage struct {
	once  sync.Once
	nodes []Node
}

// page returns page k of g, decoding it the first time. The entry was
// verified whole when read, so a page that does not decode is a fault of
// this code, not of the data: it panics, as an index out of range would.
func (l *lazyNodes) page(g *Graph, k int) []Node {
	p := &l.pages[k]
	p.once.Do(func() {
		d := &decoder{b: l.nodes, off: int(l.offs[k]), strs: l.strs}
		page := make([]Node, min(pageSize, g.n-k*pageSize))
		for j := range page {
			nd := &page[j]
			nd.ID, nd.Kind, nd.Name, nd.Path, nd.Owner, nd.Signature = d.str(), d.str(), d.str(), d.str(), d.str(), d.str()
			nd.Pos, nd.End, nd.Line, nd.Column, nd.SigPos, nd.SigEnd = d.i32(), d.i32(), d.i32(), d.i32(), d.i32(), d.i32()
			nd.Foreign = d.byte() == 1
			nd.Index = int32(k*pageSize + j)
			if np := d.count(4); np > 0 {
				nd.Props = make([]Property, np)
				for i := range nd.Props {
					d.prop(&nd.Props[i])
				}
			}
		}
		if d.err != nil {
			panic(fmt.Sprintf("graph: page %d of a decoded graph does not decode", k))
		}
		p.nodes = page
	})
	return p.nodes
}

type decoder struct {
	b    []byte
	off  int
	err  error
	strs strTable
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	x, k := binary.Uvarint(d.b[d.off:])
	if k <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.off += k
	return x
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	x, k := binary.Varint(d.b[d.off:])
	if k <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.off += k
	return x
}

// count reads a count of items of at least per (at least one) bytes
// each, which the rest of the data must be able to hold.
func (d *decoder) count(per int) int {
	x := d.uvarint()
	if x > uint64(len(d.b)-d.off) || x*uint64(per) > uint64(len(d.b)-d.off) {
		if d.err == nil {
			d.err = errCorrupt
		}
		return 0
	}
	return int(x)
}

func (d *decoder) i32() int32 {
	x := d.varint()
	if x < math.MinInt32 || x > math.MaxInt32 {
		d.err = errCorrupt
	}
	return int32(x)
}

func (d *decoder) byte() byte {
	if d.err != nil || d.off >= len(d.b) {
		d.err = errCorrupt
		return 0
	}
	d.off++
	return d.b[d.off-1]
}

func (d *decoder) str() string {
	i := d.uvarint()
	if i >= uint64(len(d.strs.ends)) {
		if d.err == nil {
			d.err = errCorrupt
		}
		return ""
	}
	return d.strs.at(int(i))
}

// strTable is an encoded string table: string i is
// blob[ends[i-1]:ends[i]], made a string in place.
type strTable struct {
	ends []int32
	blob []byte
}

func (t strTable) valid() bool {
	prev := int32(0)
	for _, e := range t.ends {
		if e < prev {
			return false
		}
		prev = e
	}
	return int(prev) <= len(t.blob)
}

func (t strTable) at(i int) string {
	lo := int32(0)
	if i > 0 {
		lo = t.ends[i-1]
	}
	if lo == t.ends[i] {
		return ""
	}
	return unsafe.String(&t.blob[lo], t.ends[i]-lo)
}

func (d *decoder) prop(p *Property) {
	p.Name, p.Type = d.str(), d.str()
	switch d.byte() {
	case valNil:
	case valString:
		p.Value = d.str()
	case valFalse:
		p.Value = false
	case valTrue:
		p.Value = true
	case valInt:
		p.Value = d.varint()
	case valFloat:
		if d.off+8 > len(d.b) {
			d.err = errCorrupt
			return
		}
		p.Value = math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.off:]))
		d.off += 8
	default:
		d.err = errCorrupt
	}
	flags := d.byte()
	p.Editable, p.Literal = flags&1 != 0, flags&2 != 0
	p.ValuePos, p.ValueEnd = d.i32(), d.i32()
}

// int32s reads an array int32s wrote: in place when it lies 4-aligned
// in memory, as it does in an entry read whole into a fresh buffer.
func (d *decoder) int32s() []int32 {
	l := d.count(4)
	pad := int(d.byte())
	if d.err != nil || pad > 3 || d.off+pad+4*l > len(d.b) {
		d.err = errCorrupt
		return nil
	}
	d.off += pad
	raw := d.b[d.off : d.off+4*l]
	d.off += 4 * l
	if l == 0 {
		return []int32{}
	}
	if uintptr(unsafe.Pointer(&raw[0]))%4 == 0 && littleEndian {
		return unsafe.Slice((*int32)(unsafe.Pointer(&raw[0])), l)
	}
	out := make([]int32, l)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}

// edgeInPlace reports whether encoded edges are Edges as they lie in
// memory: three int32s, the last holding kind and layer in its low bytes
// and the argument in its high half.
var edgeInPlace = littleEndian && unsafe.Sizeof(Edge{}) == 12 && unsafe.Offsetof(Edge{}.kind) == 8 && unsafe.Offsetof(Edge{}.layer) == 9 &&
	unsafe.Offsetof(Edge{}.arg) == 10

// littleEndian reports the machine's byte order, in which raw arrays are
// used in place.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func (d *decoder) bytes() []byte {
	l := d.count(1)
	if d.err != nil {
		return nil
	}
	d.off += l
	return d.b[d.off-l : d.off : d.off]
}

func (d *decoder) strList() []string {
	out := make([]string, d.count(1))
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// search reads a whole index of n nodes and checks what a query indexes
// with: the arrays' lengths, that offsets rise within the text, and that
// the numbers of kinds and owners and the file ranges are in bounds.
func (d *decoder) search(n int) (*Search, error) {
	s := &Search{}
	for _, a := range []*[]int32{&s.Order, &s.at, &s.idAt, &s.propAt, &s.kind, &s.owner, &s.gramAt} {
		*a = d.int32s()
	}
	s.text, s.gramPost = d.bytes(), d.bytes()
	kinds, owners := d.strList(), d.strList()
	s.byKind, s.byOwner = d.lists(len(kinds), n), d.lists(len(owners), n)
	paths := d.strList()
	if d.err != nil || len(s.Order) != n || len(s.at) != n+1 || len(s.idAt) != n || len(s.propAt) != n ||
		len(s.kind) != n || len(s.owner) != n || len(s.gramAt) != 1<<gramBits+1 {
		return nil, errCorrupt
	}
	for k := range n {
		if s.Order[k] < 0 || int(s.Order[k]) >= n || s.at[k] < 0 || s.at[k] > s.idAt[k] || s.idAt[k] > s.propAt[k] || s.propAt[k] > s.at[k+1] ||
			s.kind[k] < 0 || int(s.kind[k]) >= len(kinds) || s.owner[k] < 0 || int(s.owner[k]) >= len(owners) {
			return nil, errCorrupt
		}
	}
	if int(s.at[n]) > len(s.text) || s.gramAt[0] != 0 || int(s.gramAt[1<<gramBits]) != len(s.gramPost) {
		return nil, errCorrupt
	}
	for b := range 1 << gramBits {
		if s.gramAt[b] > s.gramAt[b+1] {
			return nil, errCorrupt
		}
	}
	s.kinds, s.owners, s.paths = codes(kinds), codes(owners), make(map[string][2]int32, len(paths))
	for _, p := range paths {
		lo, hi := d.uvarint(), d.uvarint()
		if d.err != nil || lo > hi || hi > uint64(n) {
			return nil, errCorrupt
		}
		s.paths[p] = [2]int32{int32(lo), int32(hi)}
	}
	if len(s.kinds) != len(kinds) || len(s.owners) != len(owners) || len(s.paths) != len(paths) {
		return nil, errCorrupt
	}
	return s, d.err
}

// lists reads m lists of positions below n that lists wrote.
func (d *decoder) lists(m, n int) [][]int32 {
	ends, all := d.int32s(), d.int32s()
	if d.err != nil || len(ends) != m {
		d.err = errCorrupt
		return nil
	}
	out := make([][]int32, m)
	lo := int32(0)
	for i, hi := range ends {
		if hi < lo || int(hi) > len(all) {
			d.err = errCorrupt
			return nil
		}
		out[i] = all[lo:hi:hi]
		lo = hi
	}
	for _, k := range all {
		if k < 0 || int(k) >= n {
			d.err = errCorrupt
			return nil
		}
	}
	return out
}

func codes(keys []string) map[string]int32 {
	m := make(map[string]int32, len(keys))
	for i, k := range keys {
		m[k] = int32(i)
	}
	return m
}

// ShareSearch gives g, which has not built its search index, the whole
// index of from, a graph of the same compile (the same nodes in the same
// order), so that the graphs derived from g derive theirs from it. It
// does nothing when from has no whole index or g has one.
func (g *Graph) ShareSearch(from *Graph) {
	s := from.ready()
	if s == nil || s.over != nil || g.Len() != from.Len() {
		return
	}
	g.searchOnce.Do(func() { g.search.Store(s) })
}
