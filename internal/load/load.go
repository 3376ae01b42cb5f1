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
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/axiomcore/acore/internal/fsutil"
	"github.com/axiomcore/acore/internal/lock"
)

// Service bounds (see the protocol's Limits section).
const (
	SourceFileBytesMax = 2097152  // source_file_bytes_max: any one file read
	SourceFilesMax     = 64       // source_files_max: number of .acore files
	SourcesBytesMax    = 4194304  // sources_bytes_max: total .acore bytes
	SnapshotBytesMax   = 67108864 // snapshot_bytes_max: everything read
)

// LimitError reasons, as the protocol names them for resource_limit.
const (
	ReasonFileTooLarge     = "file_too_large"
	ReasonSourcesTooLarge  = "sources_too_large"
	ReasonTooManyModules   = "too_many_modules"
	ReasonSnapshotTooLarge = "snapshot_too_large"
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
	Reason string // one of the Reason* constants
	Path   string // the offending file for file_too_large, the first file over the count for too_many_modules; empty otherwise
	Limit  int64  // the bound
	Got    int64  // the observed value; for too_many_modules a lower bound, since loading stops at the first file over
}

func (e *LimitError) Error() string {
	switch e.Reason {
	case ReasonFileTooLarge:
		return fmt.Sprintf("%s: %s is %d bytes, over the limit of %d", e.Reason, e.Path, e.Got, e.Limit)
	case ReasonTooManyModules:
		return fmt.Sprintf("%s: more than %d .acore files (%s is number %d)", e.Reason, e.Limit, e.Path, e.Got)
	case ReasonSourcesTooLarge:
		return fmt.Sprintf("%s: .acore files total %d bytes, over the limit of %d", e.Reason, e.Got, e.Limit)
	case ReasonSnapshotTooLarge:
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
// regular file inside the root; other symlinks and non-regular files are
// ignored.
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
// unchanged project costs a walk and a Stat per file instead of reading and
// hashing it all. A nil c reads everything.
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

	w := &walker{root: realRoot, lim: lim, cache: c}
	if err := w.walk(realRoot, w.addTreeFile); err != nil {
		return nil, err
	}
	if dir, ok := w.realDir(lock.ContractDir); ok {
		if err := w.walk(dir, w.addContract); err != nil {
			return nil, err
		}
	}
	if _, ok := w.realDir(filepath.Dir(lock.Path)); ok {
		abs := filepath.Join(realRoot, filepath.FromSlash(lock.Path))
		fi, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("load %s: %w", lock.Path, err)
		default:
			if err := w.addFile(&w.lock, lock.Path, abs, fi); err != nil {
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
	rel  string    // project-relative path
	abs  string    // what to open: the file itself or its resolved symlink target
	size int64     // from Stat, before reading
	mod  time.Time // modification time, from Stat
	data []byte    // filled by read
	sha  string    // filled by read when the cache knew the file
}

type walker struct {
	root            string
	lim             Limits
	cache           *Cache
	sources         []pending
	contracts       []pending
	contractSources []pending
	lock            []pending // zero or one
}

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

// walk visits the regular files and symlinks under dir (lexically ordered,
// so results and the first limit hit are deterministic) and hands each to
// add with its project-relative path.
func (w *walker) walk(dir string, add func(rel, abs string, d fs.DirEntry) error) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		if d.IsDir() {
			if p != dir && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return nil // sockets, pipes, devices: never inputs
		}
		rel, err := filepath.Rel(w.root, p)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		return add(filepath.ToSlash(rel), p, d)
	})
}

func (w *walker) addTreeFile(rel, abs string, d fs.DirEntry) error {
	switch {
	case strings.HasSuffix(rel, ".acore"):
		return w.addEntry(&w.sources, rel, abs, d)
	case strings.HasPrefix(rel, ContractSourceDir+"/") && strings.HasSuffix(rel, ".axiom"):
		return w.addEntry(&w.contractSources, rel, abs, d)
	}
	return nil
}

func (w *walker) addContract(rel, abs string, d fs.DirEntry) error {
	if strings.HasSuffix(rel, ".axiom") {
		return w.addEntry(&w.contracts, rel, abs, d)
	}
	return nil
}

func (w *walker) addEntry(list *[]pending, rel, abs string, d fs.DirEntry) error {
	fi, err := d.Info()
	if errors.Is(err, fs.ErrNotExist) {
		return nil // removed during the walk
	}
	if err != nil {
		return fmt.Errorf("load %s: %w", rel, err)
	}
	return w.addFile(list, rel, abs, fi)
}

// addFile applies the symlink rule and the per-file and count bounds to one
// candidate file (fi from Lstat) and queues it for reading.
func (w *walker) addFile(list *[]pending, rel, abs string, fi fs.FileInfo) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil // dangling or looping: nothing to read
		}
		tfi, err := os.Stat(target)
		if err != nil || !tfi.Mode().IsRegular() || !within(w.root, target) {
			return nil // a directory, or outside the root
		}
		abs, fi = target, tfi
	}
	if !fi.Mode().IsRegular() {
		return nil
	}
	if err := fsutil.ValidRelPath(rel); err != nil {
		// Such a name cannot be reported or addressed in the protocol;
		// refusing is better than silently dropping a source.
		return fmt.Errorf("load: unsupported file name: %w", err)
	}
	if fi.Size() > w.lim.SourceFileBytes {
		return &LimitError{Reason: ReasonFileTooLarge, Path: rel, Limit: w.lim.SourceFileBytes, Got: fi.Size()}
	}
	if list == &w.sources && len(w.sources) >= w.lim.SourceFiles {
		return &LimitError{Reason: ReasonTooManyModules, Path: rel, Limit: int64(w.lim.SourceFiles), Got: int64(len(w.sources) + 1)}
	}
	*list = append(*list, pending{rel: rel, abs: abs, size: fi.Size(), mod: fi.ModTime()})
	return nil
}

// realDir returns the absolute path of the project directory rel if it and
// every directory on the way to it is a real directory, not a symlink.
func (w *walker) realDir(rel string) (string, bool) {
	cur := w.root
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		cur = filepath.Join(cur, seg)
		fi, err := os.Lstat(cur)
		if err != nil || !fi.IsDir() {
			return "", false
		}
	}
	return cur, true
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
		return &LimitError{Reason: ReasonSourcesTooLarge, Limit: w.lim.SourcesBytes, Got: sources}
	}
	if all > w.lim.SnapshotBytes {
		return &LimitError{Reason: ReasonSnapshotTooLarge, Limit: w.lim.SnapshotBytes, Got: all}
	}
	return nil
}

// read reads every queued file, re-checking the bounds on the actual bytes.
func (w *walker) read() (*Inputs, error) {
	var todo []*pending
	for _, list := range [][]pending{w.sources, w.contracts, w.contractSources, w.lock} {
		for i := range list {
			if data, sha, ok := w.cache.lookup(list[i]); ok {
				list[i].data, list[i].sha = data, sha
				continue
			}
			todo = append(todo, &list[i])
		}
	}
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
				p := todo[k]
				data, err := w.readFile(*p)
				if err != nil {
					errs[k] = err
					continue
				}
				sum := sha256.Sum256(data)
				p.data, p.sha = data, hex.EncodeToString(sum[:])
				w.cache.store(p)
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
		Sources:         files(w.sources),
		Contracts:       files(w.contracts),
		ContractSources: files(w.contractSources),
	}
	if len(w.lock) == 1 {
		in.Lock = &files(w.lock)[0]
	}
	return in, nil
}

// readFile reads one file, never more than the per-file bound plus one byte.
func (w *walker) readFile(p pending) ([]byte, error) {
	f, err := os.Open(p.abs)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", p.rel, err)
	}
	defer f.Close()
	// Sized from the Stat, with room to see the end of the file (or that
	// it grew) without growing the buffer.
	data := make([]byte, 0, min(p.size, w.lim.SourceFileBytes)+512)
	r := io.LimitReader(f, w.lim.SourceFileBytes+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", p.rel, err)
		}
	}
	if int64(len(data)) > w.lim.SourceFileBytes {
		// The file grew after it was measured.
		fi, err := f.Stat()
		got := int64(len(data))
		if err == nil && fi.Size() > got {
			got = fi.Size()
		}
		return nil, &LimitError{Reason: ReasonFileTooLarge, Path: p.rel, Limit: w.lim.SourceFileBytes, Got: got}
	}
	return data, nil
}

// files converts queued files to Files, keeping their order.
func files(ps []pending) []File {
	out := make([]File, len(ps))
	for i, p := range ps {
		if p.sha == "" {
			sum := sha256.Sum256(p.data)
			p.sha = hex.EncodeToString(sum[:])
		}
		out[i] = File{Path: p.rel, Data: p.data, SHA256: p.sha}
	}
	return out
}

// within reports whether p is root or below it (both clean and absolute).
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
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
