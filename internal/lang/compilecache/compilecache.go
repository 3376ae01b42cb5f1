// Package compilecache keeps compiled projects under .axiom/state/compiled
// so that a later process (a one-shot command, a restarted server) reads a
// compile instead of doing it again.
//
// An entry is keyed by the digest of everything the compile depends on:
// the compiler's identity (the toolchain's, and this executable's path,
// size and modification time, so a rebuilt binary never reads an older
// build's entries), the root and every input's path and SHA-256, and the
// files the load skipped. It holds the check result (state, status,
// diagnostics, entry points, modules, contracts, preparation) and the
// graph with its node.find index, in a compact binary layout
// (graph.Encode), behind a header that repeats the key and has a CRC-32C
// of each half of the rest: an entry whose key, length or checksums are
// wrong, or that does not decode, is removed and compiled again. Entries are written to a
// temporary file and renamed, so another process sees a whole entry or
// none. The folder is kept under MaxBytes by removing the entries used
// longest ago (a hit renews an entry's modification time).
//
// What is not kept is the checker's state: a project read from the cache
// answers every read as the compiled one does, and the first edit on it
// compiles its inputs whole once, for that state, over which that edit
// and the next recheck only the modules they change (see project.Cached).
package compilecache

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// Dir is the cache's folder, relative to the project root.
const Dir = fsutil.StateDir + "/compiled"

// MaxBytes bounds the entries the folder keeps: 256 MiB, about ten
// compiles of a project at sources_bytes_max (an entry is about six times
// its sources) and thousands of small ones.
const MaxBytes = 256 << 20

// staleTemp is the age past which a temporary file is one a killed
// process left, not one being written.
const staleTemp = 10 * time.Minute

// magic starts every entry; its version changes with the layout.
const magic = "acorecc5"

// headerSize is the magic, the key, the payload's length and the CRC-32C
// of each half of the payload (see decode).
const headerSize = len(magic) + sha256.Size + 8 + 4 + 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Cache reads and writes the compiled projects of one root. It is safe
// for concurrent use.
type Cache struct {
	root     string
	identity string
	max      int64
	// off is set when this executable cannot be identified: another
	// build's entries could not be told apart, so none is read or
	// written.
	off bool
	// opts are given to the projects read (see WithOptions).
	opts project.Options
}

// New returns the cache of the project at root for compiles by the
// compiler named by identity (the toolchain's compiler identity).
func New(root, identity string) *Cache {
	exe := executable()
	return &Cache{root: root, identity: identity + "\x00" + exe, max: MaxBytes, off: exe == ""}
}

// WithOptions returns a copy of c whose projects compile with o when
// they are compiled from (project.CompileFrom).
func (c *Cache) WithOptions(o project.Options) *Cache {
	d := *c
	d.opts = o
	return &d
}

// WithMax returns a copy of c that keeps the folder under max bytes.
func (c *Cache) WithMax(max int64) *Cache {
	d := *c
	d.max = max
	return &d
}

var exe struct {
	once sync.Once
	id   string
}

// executable names this build: the running binary's path, size and
// modification time (or "" when it cannot be found).
func executable() string {
	exe.once.Do(func() {
		p, err := os.Executable()
		if err != nil {
			return
		}
		fi, err := os.Stat(p)
		if err != nil {
			return
		}
		exe.id = fmt.Sprintf("%s\x00%d\x00%d", p, fi.Size(), fi.ModTime().UnixNano())
	})
	return exe.id
}

// Key returns the digest the compile of in is kept under.
func (c *Cache) Key(in *load.Inputs) [sha256.Size]byte {
	h := sha256.New()
	for _, s := range []string{magic, c.identity, in.Root, in.Fingerprint()} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	for _, s := range in.Skipped {
		h.Write([]byte(s.Path + "\x00" + s.Detail + "\x00"))
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

func entryName(k [sha256.Size]byte) string { return fmt.Sprintf("%s/%x.bin", Dir, k) }

// Load returns the project compiled from in, read from its entry, or nil
// when there is none or it is unusable (which is then removed).
func (c *Cache) Load(in *load.Inputs) *project.Project {
	if c.off {
		return nil
	}
	r, err := fsutil.OpenRoot(c.root)
	if err != nil {
		return nil
	}
	defer r.Close()
	k := c.Key(in)
	name := entryName(k)
	data, err := readEntry(r, name)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			_ = r.Remove(name)
		}
		return nil
	}
	p, err := decode(data, k, in, c.opts)
	if err != nil {
		release(data)
		_ = r.Remove(name)
		return nil
	}
	now := time.Now()
	_ = r.Chtimes(name, now, now)
	return p
}

// halves splits an entry's payload in the two parts with a checksum each.
func halves(body []byte) (a, b []byte) { return body[:len(body)/2], body[len(body)/2:] }

// errCorrupt is what an entry that does not decode is.
var errCorrupt = errors.New("compilecache: corrupt entry")

// decode reads an entry for the key k of in's compile, a project with
// the options o.
func decode(data []byte, k [sha256.Size]byte, in *load.Inputs, o project.Options) (p *project.Project, err error) {
	if len(data) < headerSize || string(data[:len(magic)]) != magic || [sha256.Size]byte(data[len(magic):len(magic)+sha256.Size]) != k {
		return nil, errCorrupt
	}
	at := len(magic) + sha256.Size
	n := binary.LittleEndian.Uint64(data[at:])
	sumA, sumB := binary.LittleEndian.Uint32(data[at+8:]), binary.LittleEndian.Uint32(data[at+12:])
	body := data[headerSize:]
	if n != uint64(len(body)) {
		return nil, errCorrupt
	}
	// Reading the entry's pages the first time is most of its cost: the
	// first half is checked on another core while the entry decodes,
	// the second here once it has; nothing decoded is used unless both
	// match.
	a, b := halves(body)
	crc := make(chan uint32, 1)
	go func() { crc <- crc32.Checksum(a, castagnoli) }()
	defer func() {
		// The decoders check every bound they read; this keeps a case
		// they miss in data that fails the checksum from ending the
		// process.
		if recover() != nil {
			p, err = nil, errCorrupt
		}
		// Both are waited for: a failed entry is unmapped on return.
		gotB := crc32.Checksum(b, castagnoli)
		if gotA := <-crc; gotA != sumA || gotB != sumB {
			p, err = nil, errCorrupt
		}
	}()
	d := &reader{b: body}
	res := &check.Result{State: d.str(), Status: d.str()}
	res.Diagnostics = makeList[diag.Diagnostic](d)
	for i := range res.Diagnostics {
		x := &res.Diagnostics[i]
		x.Code, x.Severity, x.Path = d.str(), diag.Severity(d.str()), d.str()
		x.Line, x.Column, x.Length, x.Pos, x.End = d.int(), d.int(), d.int(), d.int(), d.int()
		x.Message, x.Decl, x.Suggestion = d.str(), d.str(), d.str()
	}
	res.EntryPoints = d.strs()
	res.Modules = makeList[check.ModuleInfo](d)
	for i := range res.Modules {
		m := &res.Modules[i]
		m.Path, m.Name, m.Owners, m.Imports, m.Errors, m.Warnings = d.str(), d.str(), d.strs(), d.strs(), d.int(), d.int()
	}
	res.Contracts = makeList[check.ContractInfo](d)
	for i := range res.Contracts {
		x := &res.Contracts[i]
		x.ID, x.Name, x.Node, x.Path, x.SHA256, x.Signed = d.str(), d.str(), d.str(), d.str(), d.str(), d.int() == 1
	}
	res.Preparation = d.strs()
	hasGraph := d.int() == 1
	if d.err != nil {
		return nil, d.err
	}
	p = o.Cached(in, res)
	if hasGraph {
		g, err := graph.Decode(d.b[d.off:], p.GraphFiles())
		if err != nil {
			return nil, err
		}
		res.Graph = g
	} else if d.off != len(d.b) {
		return nil, errCorrupt
	}
	return p, nil
}

// Save writes the entry of p, the compile of in, unless one is there, and
// then removes the oldest entries past the bound. It fails only for a
// project whose graph has no encoding or a state folder it cannot write.
func (c *Cache) Save(in *load.Inputs, p *project.Project) error {
	if c.off {
		return errors.New("compilecache: this executable cannot be identified, so its compiles are not kept")
	}
	r, err := fsutil.OpenRoot(c.root)
	if err != nil {
		return err
	}
	defer r.Close()
	k := c.Key(in)
	name := entryName(k)
	if _, err := r.Lstat(name); err == nil {
		return nil
	}
	data, err := encode(k, p.Result)
	if err != nil {
		return err
	}
	if int64(len(data)) > c.max {
		return fmt.Errorf("compilecache: an entry of %d bytes exceeds the bound of %d", len(data), c.max)
	}
	if err := r.ReplaceFile(name, data, 0o644); err != nil {
		return err
	}
	c.evict(r, name)
	return nil
}

func encode(k [sha256.Size]byte, res *check.Result) ([]byte, error) {
	w := &writer{b: make([]byte, headerSize, 1<<16)}
	copy(w.b, magic)
	copy(w.b[len(magic):], k[:])
	w.str(res.State)
	w.str(res.Status)
	w.count(res.Diagnostics == nil, len(res.Diagnostics))
	for _, x := range res.Diagnostics {
		w.str(x.Code)
		w.str(string(x.Severity))
		w.str(x.Path)
		for _, v := range []int{x.Line, x.Column, x.Length, x.Pos, x.End} {
			w.int(v)
		}
		w.str(x.Message)
		w.str(x.Decl)
		w.str(x.Suggestion)
	}
	w.strs(res.EntryPoints)
	w.count(res.Modules == nil, len(res.Modules))
	for _, m := range res.Modules {
		w.str(m.Path)
		w.str(m.Name)
		w.strs(m.Owners)
		w.strs(m.Imports)
		w.int(m.Errors)
		w.int(m.Warnings)
	}
	w.count(res.Contracts == nil, len(res.Contracts))
	for _, x := range res.Contracts {
		for _, s := range []string{x.ID, x.Name, x.Node, x.Path, x.SHA256} {
			w.str(s)
		}
		w.bool(x.Signed)
	}
	w.strs(res.Preparation)
	w.bool(res.Graph != nil)
	if res.Graph != nil {
		var err error
		if w.b, err = res.Graph.Encode(w.b); err != nil {
			return nil, err
		}
	}
	body := w.b[headerSize:]
	at := len(magic) + sha256.Size
	binary.LittleEndian.PutUint64(w.b[at:], uint64(len(body)))
	a, b := halves(body)
	binary.LittleEndian.PutUint32(w.b[at+8:], crc32.Checksum(a, castagnoli))
	binary.LittleEndian.PutUint32(w.b[at+12:], crc32.Checksum(b, castagnoli))
	return w.b, nil
}

// evict removes the entries used longest ago until the folder holds at
// most c.max bytes, never kept (the entry just written), and temporary
// files killed processes left.
func (c *Cache) evict(r *fsutil.Root, kept string) {
	list, err := r.ReadDir(Dir)
	if err != nil {
		return
	}
	type entry struct {
		name string
		size int64
		used time.Time
	}
	var entries []entry
	var total int64
	for _, de := range list {
		fi, err := de.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		name := path.Join(Dir, de.Name())
		if strings.HasPrefix(de.Name(), ".") {
			if time.Since(fi.ModTime()) > staleTemp {
				_ = r.Remove(name)
			}
			continue
		}
		entries = append(entries, entry{name, fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	slices.SortFunc(entries, func(a, b entry) int { return a.used.Compare(b.used) })
	for _, e := range entries {
		if total <= c.max {
			return
		}
		if e.name == kept {
			continue
		}
		if err := r.Remove(e.name); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
		}
	}
}

type writer struct{ b []byte }

func (w *writer) int(x int) { w.b = binary.AppendVarint(w.b, int64(x)) }
func (w *writer) str(s string) {
	w.int(len(s))
	w.b = append(w.b, s...)
}

// count writes a list's length, or -1 for a nil list: nil and empty
// lists differ in JSON answers, so they differ here.
func (w *writer) count(isNil bool, n int) {
	if isNil {
		n = -1
	}
	w.int(n)
}

func (w *writer) strs(list []string) {
	w.count(list == nil, len(list))
	if list == nil {
		return
	}
	for _, s := range list {
		w.str(s)
	}
}
func (w *writer) bool(v bool) {
	if v {
		w.int(1)
	} else {
		w.int(0)
	}
}

type reader struct {
	b   []byte
	off int
	err error
}

func (d *reader) int() int {
	if d.err != nil {
		return 0
	}
	x, k := binary.Varint(d.b[d.off:])
	if k <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.off += k
	return int(x)
}

// count reads a length, which the rest of the entry must be able to hold.
func (d *reader) count() int {
	n := d.int()
	if n < 0 || n > len(d.b)-d.off {
		if d.err == nil {
			d.err = errCorrupt
		}
		return 0
	}
	return n
}

func (d *reader) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	d.off += n
	return string(d.b[d.off-n : d.off])
}

func (d *reader) strs() []string {
	out := makeList[string](d)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// makeList reads the length count wrote and makes the list.
func makeList[T any](d *reader) []T {
	if d.err != nil {
		return nil
	}
	n := d.int()
	if n == -1 {
		return nil
	}
	if n < 0 || n > len(d.b)-d.off {
		d.err = errCorrupt
		return nil
	}
	return make([]T, n)
}
