// Package load reads an Acore project root from disk into memory: its .acore
// sources, the contract artifacts and published contract sources it compiles
// against, and its UI lock. It enforces the semantic service's bounds on
// project size before reading anything, so a hostile or accidental huge file
// costs a Stat, not memory.
package load

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// Service bounds (see the protocol's Limits section).
const (
	SourceFileBytesMax = 2097152  // source_file_bytes_max: any one file read
	SourceFilesMax     = 64       // source_files_max: number of .acore files
	SourcesBytesMax    = 4194304  // sources_bytes_max: total .acore bytes
	SnapshotBytesMax   = 67108864 // snapshot_bytes_max: everything read
)

// ContractSourceDir is the project-relative directory where the backend
// publishes its contract sources.
const ContractSourceDir = "contracts"

// Limits are the bounds LoadWith enforces. A zero or negative field means
// the default (the matching *Max constant).
type Limits struct {
	SourceFileBytes int64 // largest single file, of any kind
	SourceFiles     int   // most .acore files
	SourcesBytes    int64 // total bytes of .acore files
	SnapshotBytes   int64 // total bytes of everything read
}

// DefaultLimits returns the service bounds.
func DefaultLimits() Limits {
	return Limits{
		SourceFileBytes: SourceFileBytesMax,
		SourceFiles:     SourceFilesMax,
		SourcesBytes:    SourcesBytesMax,
		SnapshotBytes:   SnapshotBytesMax,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.SourceFileBytes <= 0 {
		l.SourceFileBytes = d.SourceFileBytes
	}
	if l.SourceFiles <= 0 {
		l.SourceFiles = d.SourceFiles
	}
	if l.SourcesBytes <= 0 {
		l.SourcesBytes = d.SourcesBytes
	}
	if l.SnapshotBytes <= 0 {
		l.SnapshotBytes = d.SnapshotBytes
	}
	return l
}

// LimitError reports a project over one of the bounds. It maps to the
// protocol's resource_limit error with Reason as its reason.
type LimitError struct {
	Reason reason.Reason // FileTooLarge, TooManyModules, SourcesTooLarge or SnapshotTooLarge
	Path   string        // the offending file for file_too_large, the first file over the count for too_many_modules; empty otherwise
	Limit  int64         // the bound
	Got    int64         // the observed value; for too_many_modules a lower bound, since loading stops at the first file over
}

func (e *LimitError) Error() string {
	switch e.Reason {
	case reason.FileTooLarge:
		return fmt.Sprintf("%s: %s is %d bytes, over the limit of %d", e.Reason, e.Path, e.Got, e.Limit)
	case reason.TooManyModules:
		return fmt.Sprintf("%s: more than %d .acore files (%s is number %d)", e.Reason, e.Limit, e.Path, e.Got)
	case reason.SourcesTooLarge:
		return fmt.Sprintf("%s: .acore files total %d bytes, over the limit of %d", e.Reason, e.Got, e.Limit)
	case reason.SnapshotTooLarge:
		return fmt.Sprintf("%s: sources, contracts and lock total %d bytes, over the limit of %d", e.Reason, e.Got, e.Limit)
	}
	return fmt.Sprintf("%s: %s: got %d, limit %d", e.Reason, e.Path, e.Got, e.Limit)
}

// File is one file read from the project.
type File struct {
	Path   string // project-relative, forward slashes
	Data   []byte
	SHA256 string // lowercase hex of Data
}

// Inputs is everything a compile of the project reads.
type Inputs struct {
	Root            string // absolute, symlinks resolved
	Sources         []File // every *.acore file under Root, sorted by Path
	Contracts       []File // every *.axiom under .axiom/dev/contracts/, sorted
	ContractSources []File // every *.axiom under contracts/ (the backend's published contract sources), sorted
	Lock            *File  // .axiom/ui.lock, nil when missing
	// Skipped lists, sorted by path, the files with an input's name that
	// were not read: symlinks leading outside the root or to no regular
	// file, FIFOs and other non-regular files, and names the protocol
	// cannot address.
	Skipped []Skipped
}

// Load reads the project at root with the default limits. See LoadWith.
func Load(root string) (*Inputs, error) {
	return LoadWith(root, DefaultLimits())
}

// LoadWith reads the project at root, enforcing lim.
//
// Walk rules: directories whose name starts with "." are skipped (the
// contract artifacts in .axiom/dev/contracts and the lock are read
// separately), as are node_modules, dist and build. Symlinked directories
// are never followed, including any of .axiom, .axiom/dev and
// .axiom/dev/contracts. A symlinked file is read only when its target is a
// regular file inside the root. Other symlinks, non-regular files and
// names the protocol cannot address (fsutil.ValidRelPath) are not read and
// are listed in Inputs.Skipped when they have an input's name.
//
// Sizes are checked with Stat before anything is read, in this order:
// file_too_large (any file) and too_many_modules as the walk meets them,
// then sources_too_large, then snapshot_too_large. They are checked again
// on the bytes actually read, in case files grew meanwhile. A violation is
// returned as *LimitError. A missing root gives an error wrapping
// os.ErrNotExist.
func LoadWith(root string, lim Limits) (*Inputs, error) {
	return LoadCached(root, lim, nil)
}

// LoadCached is LoadWith that takes the bytes and digest of a file from c
// when its size and modification time are what c saw, so that capturing an
// unchanged project costs a walk and a stat per file instead of reading
// and hashing it all. A nil c reads everything.
//
// Every directory and file is opened through a handle on the root that the
// kernel confines (fsutil.Root), and a file is read only when it is a
// regular file once opened, so a file or directory swapped for a symlink
// leading outside, or for a FIFO, while the project loads is never read
// and never blocks the load.
func LoadCached(root string, lim Limits, c *Cache) (*Inputs, error) {
	lim = lim.withDefaults()
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", root, err)
	}
	fi, err := os.Stat(realRoot)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("load %s: not a directory", root)
	}
	r, err := fsutil.OpenRoot(realRoot)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", root, err)
	}
	defer r.Close()

	w := &walker{root: realRoot, fs: r, lim: lim, cache: c}
	if err := w.walk(".", w.addTreeFile); err != nil {
		return nil, err
	}
	if w.realDir(lock.ContractDir) {
		if err := w.walk(lock.ContractDir, w.addContract); err != nil {
			return nil, err
		}
	}
	if w.realDir(path.Dir(lock.Path)) {
		fi, err := r.Lstat(lock.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("load %s: %w", lock.Path, err)
		default:
			if err := w.addFile(&w.lock, lock.Path, fi); err != nil {
				return nil, err
			}
		}
	}
	if err := w.checkTotals(func(p pending) int64 { return p.size }); err != nil {
		return nil, err
	}
	// The walk's order is per directory ("a/x" before "a.acore"); Inputs
	// promises plain string order.
	for _, list := range [][]pending{w.sources, w.contracts, w.contractSources} {
		slices.SortFunc(list, func(a, b pending) int { return strings.Compare(a.rel, b.rel) })
	}
	return w.read()
}

// kind tags where a file belongs; its order is the canonical order of
// Fingerprint.
type kind int

const (
	kindSource kind = iota
	kindContract
	kindContractSource
	kindLock
)

var kindNames = [...]string{"source", "contract", "contract_source", "lock"}

// pending is a file selected by the walk but not read yet.
type pending struct {
	rel     string    // project-relative path
	size    int64     // from Stat, before reading
	mod     time.Time // modification time, from Stat
	data    []byte    // filled by read
	sha     string    // filled by read when the cache knew the file
	skipped string    // set by read when the file is no longer a readable regular file inside the root
}

type walker struct {
	root            string
	fs              *fsutil.Root
	lim             Limits
	cache           *Cache
	clock           fsClock // read before any file, when the cache needs it
	sources         []pending
	contracts       []pending
	contractSources []pending
	lock            []pending // zero or one
	skipped         []Skipped
}

// Skipped is a file the load found with an input's name but did not read.
type Skipped struct {
	Path   string // as found; it may not be a valid relative path
	Reason string // one of the Skip* constants
	Detail string // for people
}

// Skipped reasons.
const (
	// SkipOutside is a symlink that leads outside the project root.
	SkipOutside = "outside_root"
	// SkipNotRegular is a FIFO, socket, device or directory, or a
	// symlink to one, or a dangling symlink.
	SkipNotRegular = "not_regular"
	// SkipBadName is a name the protocol cannot address: a control
	// character, a backslash or invalid UTF-8.
	SkipBadName = "invalid_name"
)

// skipDir reports whether the walk must not descend into a directory with
// this name: hidden directories (VCS, editor and tool state) and the usual
// dependency and build output directories, which are never project sources.
func skipDir(name string) bool {
	switch name {
	case "node_modules", "dist", "build":
		return true
	}
	return strings.HasPrefix(name, ".")
}

// walk visits the regular files and symlinks under the project directory
// dir (in lexical order, so results and the first limit hit are
// deterministic) and hands each to add with its project-relative path,
// the open directory it is in and its name there. Symlinked directories
// are not descended into; directories are opened
// through the confined root and without blocking, so a directory swapped
// for a symlink or a FIFO after it was listed is at worst another
// directory inside the root, or skipped.
func (w *walker) walk(dir string, add func(rel string, in *os.File, name string) error) error {
	f, err := w.fs.OpenDir(dir)
	if err != nil {
		if dir != "." && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fsutil.ErrEscape) || errors.Is(err, fsutil.ErrNotDir)) {
			return nil // replaced or removed during the walk
		}
		return fmt.Errorf("load: %w", err)
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	if err != nil {
		return fmt.Errorf("load %s: %w", dir, err)
	}
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, d := range list {
		rel := d.Name()
		if dir != "." {
			rel = dir + "/" + rel
		}
		if d.IsDir() {
			if skipDir(d.Name()) {
				continue
			}
			if err := w.walk(rel, add); err != nil {
				return err
			}
			continue
		}
		if err := add(rel, f, d.Name()); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) addTreeFile(rel string, in *os.File, name string) error {
	switch {
	case strings.HasSuffix(rel, ".acore"):
		return w.addEntry(&w.sources, rel, in, name)
	case strings.HasPrefix(rel, ContractSourceDir+"/") && strings.HasSuffix(rel, ".axiom"):
		return w.addEntry(&w.contractSources, rel, in, name)
	}
	return nil
}

func (w *walker) addContract(rel string, in *os.File, name string) error {
	if strings.HasSuffix(rel, ".axiom") {
		return w.addEntry(&w.contracts, rel, in, name)
	}
	return nil
}

func (w *walker) addEntry(list *[]pending, rel string, in *os.File, name string) error {
	// Not fs.DirEntry.Info, which names the file by its full path.
	fi, err := w.lstatEntry(in, rel, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // removed during the walk
	}
	if err != nil {
		return fmt.Errorf("load %s: %w", rel, err)
	}
	return w.addFile(list, rel, fi)
}

func (w *walker) skip(rel, reason, detail string) {
	w.skipped = append(w.skipped, Skipped{Path: rel, Reason: reason, Detail: detail})
}

// addFile applies the name rule, the symlink rule and the per-file and
// count bounds to one candidate file (fi from Lstat) and queues it for
// reading.
func (w *walker) addFile(list *[]pending, rel string, fi fs.FileInfo) error {
	if err := fsutil.ValidRelPath(rel); err != nil {
		// Such a name cannot be reported or addressed in the protocol:
		// the file is listed as skipped, and the rest of the project
		// loads.
		w.skip(rel, SkipBadName, err.Error())
		return nil
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		tfi, err := w.fs.Stat(rel)
		switch {
		case errors.Is(err, fsutil.ErrEscape):
			w.skip(rel, SkipOutside, rel+" is a symlink that points outside the project root")
			return nil
		case err != nil:
			w.skip(rel, SkipNotRegular, rel+" is a symlink that leads nowhere readable: "+err.Error())
			return nil
		}
		fi = tfi
	}
	if !fi.Mode().IsRegular() {
		w.skip(rel, SkipNotRegular, rel+" is not a regular file")
		return nil
	}
	if fi.Size() > w.lim.SourceFileBytes {
		return &LimitError{Reason: reason.FileTooLarge, Path: rel, Limit: w.lim.SourceFileBytes, Got: fi.Size()}
	}
	if list == &w.sources && len(w.sources) >= w.lim.SourceFiles {
		return &LimitError{Reason: reason.TooManyModules, Path: rel, Limit: int64(w.lim.SourceFiles), Got: int64(len(w.sources) + 1)}
	}
	*list = append(*list, pending{rel: rel, size: fi.Size(), mod: fi.ModTime()})
	return nil
}

// realDir reports whether the project directory rel and every directory
// on the way to it is a real directory, not a symlink.
func (w *walker) realDir(rel string) bool {
	cur := ""
	for _, seg := range strings.Split(rel, "/") {
		cur = path.Join(cur, seg)
		fi, err := w.fs.Lstat(cur)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// checkTotals applies the aggregate bounds, measuring each file with size.
func (w *walker) checkTotals(size func(pending) int64) error {
	var sources, all int64
	for _, p := range w.sources {
		sources += size(p)
	}
	all = sources
	for _, list := range [][]pending{w.contracts, w.contractSources, w.lock} {
		for _, p := range list {
			all += size(p)
		}
	}
	if sources > w.lim.SourcesBytes {
		return &LimitError{Reason: reason.SourcesTooLarge, Limit: w.lim.SourcesBytes, Got: sources}
	}
	if all > w.lim.SnapshotBytes {
		return &LimitError{Reason: reason.SnapshotTooLarge, Limit: w.lim.SnapshotBytes, Got: all}
	}
	return nil
}

// read reads every queued file, re-checking the bounds on the actual bytes.
func (w *walker) read() (*Inputs, error) {
	var todo []*pending
	for _, list := range [][]pending{w.sources, w.contracts, w.contractSources, w.lock} {
		for i := range list {
			todo = append(todo, &list[i])
		}
	}
	w.clock = w.cache.clock(w.fs, todo)
	// Files are read and hashed on every core: a cold capture of a
	// project at the bounds reads and hashes 4 MiB.
	errs := make([]error, len(todo))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(todo) {
					return
				}
				errs[k] = w.readFile(todo[k])
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := w.checkTotals(func(p pending) int64 { return int64(len(p.data)) }); err != nil {
		return nil, err
	}
	in := &Inputs{
		Root:            w.root,
		Sources:         w.files(w.sources),
		Contracts:       w.files(w.contracts),
		ContractSources: w.files(w.contractSources),
	}
	if l := w.files(w.lock); len(l) == 1 {
		in.Lock = &l[0]
	}
	in.Skipped = w.skipped
	slices.SortFunc(in.Skipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return in, nil
}

// readFile opens one queued file through the confined root and reads it,
// never more than the per-file bound plus one byte, unless the cache holds
// its content under the walk's or the open descriptor's stat. A file that is no longer a regular file inside the root
// when opened (it was swapped for a symlink leading outside, a FIFO or a
// directory, or removed) is marked skipped instead.
func (w *walker) readFile(p *pending) error {
	// A file the cache vouches for by the walk's stat is not opened: its
	// content was read from inside the root, and nothing is read now.
	if data, sha, ok := w.cache.lookup(*p); ok {
		p.data, p.sha = data, sha
		return nil
	}
	start := time.Now()
	f, fi, err := w.fs.OpenRegular(p.rel)
	switch {
	case errors.Is(err, fsutil.ErrEscape):
		p.skipped, p.data = SkipOutside, nil
		return nil
	case errors.Is(err, fsutil.ErrNotRegular), errors.Is(err, fs.ErrNotExist):
		p.skipped, p.data = SkipNotRegular, nil
		return nil
	case err != nil:
		return fmt.Errorf("load %s: %w", p.rel, err)
	}
	defer f.Close()
	p.size, p.mod = fi.Size(), fi.ModTime()
	if data, sha, ok := w.cache.lookup(*p); ok {
		p.data, p.sha = data, sha
		return nil
	}
	if fi.Size() > w.lim.SourceFileBytes {
		return &LimitError{Reason: reason.FileTooLarge, Path: p.rel, Limit: w.lim.SourceFileBytes, Got: fi.Size()}
	}
	data, err := fsutil.ReadAllTo(io.LimitReader(f, w.lim.SourceFileBytes+1), w.cache.buffer(min(fi.Size(), w.lim.SourceFileBytes)+512))
	if err != nil {
		return fmt.Errorf("load %s: %w", p.rel, err)
	}
	if int64(len(data)) > w.lim.SourceFileBytes {
		// The file grew after it was measured.
		got := int64(len(data))
		if fi, err := f.Stat(); err == nil && fi.Size() > got {
			got = fi.Size()
		}
		return &LimitError{Reason: reason.FileTooLarge, Path: p.rel, Limit: w.lim.SourceFileBytes, Got: got}
	}
	p.data = data
	if w.cache == nil {
		sum := sha256.Sum256(data)
		p.sha = hex.EncodeToString(sum[:])
		return nil
	}
	dev, devOK := device(fi)
	w.cache.store(p, start, w.clock, dev, devOK)
	return nil
}

// files converts queued files to Files, keeping their order; the ones
// read found swapped are listed as skipped instead.
func (w *walker) files(ps []pending) []File {
	out := make([]File, 0, len(ps))
	for _, p := range ps {
		if p.skipped != "" {
			w.skip(p.rel, p.skipped, p.rel+" changed into something that is not a regular file inside the project root while it was read")
			continue
		}
		out = append(out, File{Path: p.rel, Data: p.data, SHA256: p.sha})
	}
	return out
}

// Fingerprint returns the content id of the inputs: the lowercase hex
// SHA-256 of this canonical text, which names each file by kind, path and
// digest but not by the root, so moving a project keeps its fingerprint:
//
//	acore-inputs/v1\n
//	<kind>\t<path>\t<sha256>\n   (one line per file)
//
// Kinds come in the order source, contract, contract_source, lock, and
// files are sorted by path within a kind. Paths are valid relative paths,
// so they contain no tab or newline and the text is unambiguous.
func (in *Inputs) Fingerprint() string {
	h := sha256.New()
	io.WriteString(h, "acore-inputs/v1\n")
	group := func(k kind, fs []File) {
		lines := make([]string, len(fs))
		for i, f := range fs {
			lines[i] = f.Path + "\t" + f.SHA256
		}
		// Sorted here too, so hand-built Inputs fingerprint the same.
		slices.Sort(lines)
		for _, l := range lines {
			io.WriteString(h, kindNames[k]+"\t"+l+"\n")
		}
	}
	group(kindSource, in.Sources)
	group(kindContract, in.Contracts)
	group(kindContractSource, in.ContractSources)
	if in.Lock != nil {
		group(kindLock, []File{*in.Lock})
	}
	return hex.EncodeToString(h.Sum(nil))
}
