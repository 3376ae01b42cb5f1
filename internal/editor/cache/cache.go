// Package cache holds what the language server knows of the projects it
// serves: for each project root, the files on disk, the overlays of the
// documents the editor has open (their unsaved text), and immutable
// snapshots, each one compile of the disk under the overlays. As in
// gopls, a feature is a function of a snapshot; an edit makes a new
// snapshot and never changes one a request is reading.
package cache

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/refs"
)

// Overlay is the text of an open document and its version.
type Overlay struct {
	Text    []byte
	Version int32
}

// View is one project: a directory holding main.acore.
type View struct {
	Root string // absolute, symlinks resolved

	opts  project.Options
	files *load.Cache

	mu       sync.Mutex
	overlays map[string]Overlay // by project-relative path
	disk     *load.Inputs       // nil: read the disk again
	diskErr  error
	snap     *Snapshot // nil: compile again
	// good is the last compile without errors, the base of the next: a
	// recheck of the few files typed since starts from a compile without
	// errors only.
	good *Snapshot
	seq  uint64
}

// NewView returns the view of the project at root.
func NewView(root string, opts project.Options) (*View, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return &View{Root: abs, opts: opts, files: load.NewCache(), overlays: map[string]Overlay{}}, nil
}

// Rel returns the project-relative path of the absolute file name, or
// false when it is not inside the root.
func (v *View) Rel(name string) (string, bool) {
	if r, err := filepath.EvalSymlinks(filepath.Dir(name)); err == nil {
		name = filepath.Join(r, filepath.Base(name))
	}
	rel, err := filepath.Rel(v.Root, name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Abs is the absolute file name of a project-relative path.
func (v *View) Abs(rel string) string { return filepath.Join(v.Root, filepath.FromSlash(rel)) }

// SetOverlay records the editor's text of the document at rel.
func (v *View) SetOverlay(rel string, text []byte, version int32) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.overlays[rel] = Overlay{Text: text, Version: version}
	v.snap = nil
}

// Overlay returns the open document at rel.
func (v *View) Overlay(rel string) (Overlay, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	o, ok := v.overlays[rel]
	return o, ok
}

// CloseOverlay forgets the open document at rel: the disk's text counts
// again.
func (v *View) CloseOverlay(rel string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.overlays, rel)
	v.snap = nil
}

// DiskChanged makes the next snapshot read the disk again (files changed
// by other programs: an agent, git checkout). The load cache re-reads only
// the files whose stamps changed.
func (v *View) DiskChanged() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.disk, v.diskErr, v.snap = nil, nil, nil
}

// Snapshot returns the current snapshot, compiling when something changed
// since the last.
func (v *View) Snapshot() *Snapshot {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.snap != nil {
		return v.snap
	}
	if v.disk == nil && v.diskErr == nil {
		v.disk, v.diskErr = load.LoadCached(v.Root, load.DefaultLimits(), v.files)
	}
	v.seq++
	s := &Snapshot{ID: v.seq, View: v, Overlays: make(map[string]Overlay, len(v.overlays))}
	changes := map[string][]byte{}
	for p, o := range v.overlays {
		s.Overlays[p] = o
		if isInput(p) {
			changes[p] = o.Text
		}
	}
	v.snap = s
	if v.diskErr != nil {
		s.Err = v.diskErr
		return s
	}
	in, err := v.disk.With(changes)
	if err != nil {
		s.Err = err
		return s
	}
	s.Inputs = in
	var base *project.Project
	if v.good != nil {
		base = v.good.Project()
		// What is being typed usually leaves the rest of the project as
		// it was: its diagnostics come from a recheck of the changed files
		// over the last compile without errors, and the whole compile
		// waits until a feature asks for it.
		if diags, ok := project.DiagnosticsFrom(base, in); ok && hasErrors(diags) {
			s.Diagnostics = diags
			s.compile = func() *project.Project { return v.opts.CompileFrom(base, in) }
			return s
		}
	}
	p := v.opts.CompileFrom(base, in)
	s.compile = func() *project.Project { return p }
	if p.Result != nil {
		s.Diagnostics = p.Result.Diagnostics
		if !hasErrors(p.Result.Diagnostics) {
			v.good = s
		}
	}
	return s
}

func hasErrors(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// isInput reports whether an open document at rel is one the compile
// reads (With accepts no other). The lock is one: a rename of a local
// contract's field replaces it in a buffer with the artifact's, and the
// buffers compile together before they are saved.
func isInput(rel string) bool {
	return strings.HasSuffix(rel, ".acore") || rel == lock.Path || (strings.HasSuffix(rel, ".axiom") &&
		(strings.HasPrefix(rel, "contracts/") || strings.HasPrefix(rel, ".axiom/dev/contracts/")))
}

// Snapshot is one compile of a view: immutable.
type Snapshot struct {
	ID       uint64
	View     *View
	Overlays map[string]Overlay
	// Inputs are the files compiled, nil when they could not be read (Err
	// says why).
	Inputs *load.Inputs
	Err    error
	// Diagnostics are the compile's diagnostics.
	Diagnostics []diag.Diagnostic

	compile     func() *project.Project
	projectOnce sync.Once
	project     *project.Project

	indexOnce sync.Once
	index     *refs.Index

	// The AXAG facts of the compile: its members' actions and the
	// findings (none while it has errors), made together by axag.Describe.
	axagOnce  sync.Once
	actions   map[string]axag.Action
	findings  []axag.Finding
	axagReady atomic.Bool
}

// Index returns the index of the snapshot's identifiers (see refs.Index),
// built on first use.
func (s *Snapshot) Index() *refs.Index {
	s.indexOnce.Do(func() { s.index = refs.Build(s.Project()) })
	return s.index
}

// MemberActions returns the AXAG action of each query and mutation member
// by its node id (axag.MemberActions), made on first use: a hover asks on
// every move of the pointer.
func (s *Snapshot) MemberActions() map[string]axag.Action {
	s.describe()
	return s.actions
}

// describe makes the snapshot's AXAG facts once; they need the recorded
// compile.
func (s *Snapshot) describe() {
	s.axagOnce.Do(func() {
		defer s.axagReady.Store(true)
		p := s.Project()
		if p == nil || p.Result == nil || p.Result.Graph == nil {
			return
		}
		_, fs, actions := axag.Describe(p.Recorded(), axag.Options{})
		s.actions, s.findings = actions, axag.RuleFindings(fs)
	})
}

// HasErrors reports whether the snapshot's inputs could not be read or
// its compile has errors.
func (s *Snapshot) HasErrors() bool { return s.Err != nil || hasErrors(s.Diagnostics) }

// AxagFindings returns what the AXAG rules find in the manifest of the
// snapshot's compile (axag.ManifestFor), made on first use with the
// members' actions. None while the snapshot has errors, when the manifest
// would miss what they hide. The @axag diagnostics of the compile itself
// (AC4xx) are in Diagnostics, not here.
func (s *Snapshot) AxagFindings() []axag.Finding {
	if s.HasErrors() {
		return nil
	}
	s.describe()
	return s.findings
}

// AxagMade reports whether the snapshot's AXAG facts are made, so that
// asking for them costs nothing.
func (s *Snapshot) AxagMade() bool { return s.axagReady.Load() }

// Project returns the compile of the snapshot, made on first use when its
// diagnostics came from a recheck; nil when the inputs could not be read.
func (s *Snapshot) Project() *project.Project {
	s.projectOnce.Do(func() {
		if s.compile != nil {
			s.project = s.compile()
		}
	})
	return s.project
}

// Text returns the text of the file at rel as this snapshot sees it: the
// overlay, else the compiled input, else the disk.
func (s *Snapshot) Text(rel string) ([]byte, bool) {
	if o, ok := s.Overlays[rel]; ok {
		return o.Text, true
	}
	if s.Inputs != nil {
		if d := s.Inputs.Data(rel); d != nil {
			return d, true
		}
	}
	// Through the root, which the kernel confines: a symbolic link inside
	// the project that leads out of it is not followed.
	r, err := os.OpenRoot(s.View.Root)
	if err != nil {
		return nil, false
	}
	defer r.Close()
	data, err := r.ReadFile(filepath.FromSlash(rel))
	return data, err == nil
}

// Sources are the project-relative paths of the sources compiled, sorted.
func (s *Snapshot) Sources() []string {
	if s.Inputs == nil {
		return nil
	}
	var out []string
	for _, f := range s.Inputs.Sources {
		out = append(out, f.Path)
	}
	for _, f := range s.Inputs.Contracts {
		out = append(out, f.Path)
	}
	sort.Strings(out)
	return out
}

// Session is every view of one server.
type Session struct {
	opts project.Options

	mu    sync.Mutex
	views map[string]*View
	// folders are the workspace folders; files outside them are served
	// only when the client named none.
	folders []string
}

// NewSession returns a session whose compiles use opts.
func NewSession(opts project.Options) *Session {
	return &Session{opts: opts, views: map[string]*View{}}
}

// AddRoot adds the projects of a workspace folder: dir itself when it
// holds main.acore, else the folders below it that do, a few levels deep
// (a repository of several apps), hidden folders and dependencies skipped.
func (s *Session) AddRoot(dir string) []*View {
	if abs, err := filepath.Abs(dir); err == nil {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		s.mu.Lock()
		s.folders = append(s.folders, abs)
		s.mu.Unlock()
	}
	var out []*View
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		if len(out) >= maxRoots {
			return
		}
		if _, err := os.Stat(filepath.Join(d, "main.acore")); err == nil {
			if v := s.view(d); v != nil {
				out = append(out, v)
			}
			return
		}
		if depth == 0 {
			return
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			return
		}
		for _, e := range entries {
			if n := e.Name(); e.IsDir() && !strings.HasPrefix(n, ".") && n != "node_modules" && n != "vendor" {
				walk(filepath.Join(d, n), depth-1)
			}
		}
	}
	walk(dir, rootDepth)
	return out
}

// rootDepth and maxRoots bound the search of a workspace folder for
// projects, which runs as the server starts.
const (
	rootDepth = 3
	maxRoots  = 64
)

// ViewOf returns the view of the project that holds the file name: the
// nearest directory above it that holds main.acore, else a known root
// that contains it.
func (s *Session) ViewOf(name string) (*View, string, bool) {
	if !s.inFolders(name) {
		return nil, "", false
	}
	var best *View
	for dir := filepath.Dir(name); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "main.acore")); err == nil {
			best = s.view(dir)
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if best == nil {
		s.mu.Lock()
		for _, v := range s.views {
			if _, ok := v.Rel(name); ok && (best == nil || len(v.Root) > len(best.Root)) {
				best = v
			}
		}
		s.mu.Unlock()
	}
	if best == nil {
		return nil, "", false
	}
	rel, ok := best.Rel(name)
	return best, rel, ok
}

// inFolders reports whether the file name is inside a workspace folder,
// or whether the client named none (then any project is served).
func (s *Session) inFolders(name string) bool {
	if r, err := filepath.EvalSymlinks(filepath.Dir(name)); err == nil {
		name = filepath.Join(r, filepath.Base(name))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.folders) == 0 {
		return true
	}
	for _, f := range s.folders {
		if rel, err := filepath.Rel(f, name); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// Views returns every view, by root.
func (s *Session) Views() []*View {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*View, 0, len(s.views))
	for _, v := range s.views {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Root < out[j].Root })
	return out
}

func (s *Session) view(dir string) *View {
	v, err := NewView(dir, s.opts)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.views[v.Root]; ok {
		return old
	}
	s.views[v.Root] = v
	return v
}
