// Package prepare makes a project compilable: it turns the backend's
// contract sources (contracts/<id>.axiom) into development artifacts
// (.axiom/dev/contracts/<id>.axiom) and writes the UI lock that pins them.
package prepare

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// Report says what Run did.
type Report struct {
	// Written lists the project-relative files written, in order.
	Written []string
	// Removed lists development artifacts removed because their source in
	// contracts/ is gone.
	Removed []string
	// Contracts lists the locked contracts.
	Contracts []lock.Contract
}

// ContractError is a contract source that cannot become an artifact.
type ContractError struct {
	Diagnostics []diag.Diagnostic
}

func (e *ContractError) Error() string {
	var b strings.Builder
	for i, d := range e.Diagnostics {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]", d.Path, d.Line, d.Column, d.Severity, d.Message, d.Code)
	}
	return b.String()
}

// Run prepares the project at root. Nothing is written when a contract
// source has errors. Files whose content would not change are left alone.
func Run(root string) (*Report, error) {
	in, err := load.Load(root)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	artifacts := map[string][]byte{} // id -> bytes
	for _, f := range in.Contracts {
		artifacts[strings.TrimSuffix(path.Base(f.Path), ".axiom")] = f.Data
	}
	sources, bad := publishedSources(in)
	if len(bad) > 0 {
		return nil, &ContractError{Diagnostics: bad}
	}
	// Every write and removal goes through a handle on the root the
	// kernel confines: a folder swapped for a symlink leading outside is
	// refused, never written through.
	proj, err := fsutil.OpenRoot(in.Root)
	if err != nil {
		return rep, err
	}
	defer proj.Close()
	ids := make([]string, 0, len(sources))
	for id := range sources {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		data := sources[id]
		if old, ok := artifacts[id]; ok && bytes.Equal(old, data) {
			continue
		}
		rel := lock.ArtifactPath(id)
		if err := proj.WriteFileAtomic(rel, data, 0o644); err != nil {
			return rep, err
		}
		artifacts[id] = data
		rep.Written = append(rep.Written, rel)
	}
	// When the project publishes contract sources, they are the whole
	// truth: an artifact whose source was deleted is removed, so the lock
	// never pins a contract the backend no longer publishes.
	if fi, err := os.Stat(filepath.Join(in.Root, load.ContractSourceDir)); err == nil && fi.IsDir() {
		for id := range artifacts {
			if _, ok := sources[id]; ok {
				continue
			}
			rel := lock.ArtifactPath(id)
			if err := proj.Remove(rel); err != nil {
				return rep, err
			}
			delete(artifacts, id)
			rep.Removed = append(rep.Removed, rel)
		}
		sort.Strings(rep.Removed)
	}
	l := &lock.Lock{LockVersion: lock.Version, LanguageProfile: "acore-ui", Target: "web", CatalogVersion: catalog.Version}
	all := make([]string, 0, len(artifacts))
	for id := range artifacts {
		all = append(all, id)
	}
	sort.Strings(all)
	var errs []diag.Diagnostic
	for _, id := range all {
		rel := lock.ArtifactPath(id)
		name, ds := contractName(rel, artifacts[id])
		if len(ds) > 0 {
			errs = append(errs, ds...)
			continue
		}
		l.Contracts = append(l.Contracts, lock.Contract{ID: id, Name: name, Path: rel, SHA256: sha256Hex(artifacts[id]), Signed: false})
	}
	if len(errs) > 0 {
		return rep, &ContractError{Diagnostics: errs}
	}
	rep.Contracts = l.Contracts
	old, _, err := lock.Read(in.Root)
	if err == nil && bytes.Equal(old.Marshal(), l.Marshal()) {
		return rep, nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		// A malformed lock is replaced; that is what preparation is for.
		_ = err
	}
	if err := lock.Write(in.Root, l); err != nil {
		return rep, err
	}
	rep.Written = append(rep.Written, lock.Path)
	return rep, nil
}

// publishedSources returns in's published contract sources
// (contracts/<id>.axiom) by id, or the diagnostics of those that cannot
// become an artifact.
func publishedSources(in *load.Inputs) (map[string][]byte, []diag.Diagnostic) {
	var bad []diag.Diagnostic
	sources := map[string][]byte{}
	for _, f := range in.ContractSources {
		if path.Dir(f.Path) != load.ContractSourceDir {
			continue // only contracts/<id>.axiom are published sources
		}
		id := strings.TrimSuffix(path.Base(f.Path), ".axiom")
		if _, errs := contractName(f.Path, f.Data); len(errs) > 0 {
			bad = append(bad, errs...)
			continue
		}
		if err := fsutil.ValidRelPath(lock.ArtifactPath(id)); err != nil || strings.ContainsAny(id, " \t") {
			bad = append(bad, diag.Diagnostic{Code: diag.BadContract, Severity: diag.Error, Path: f.Path, Line: 1, Column: 1,
				Message: fmt.Sprintf("contract id %q (the file name) is not usable as a file name", id)})
			continue
		}
		sources[id] = f.Data
	}
	return sources, bad
}

// contractName parses a contract file and returns the name of its one
// contract, or the diagnostics that make it unusable.
func contractName(p string, data []byte) (string, []diag.Diagnostic) {
	f := syntax.Parse(p, data)
	var out []diag.Diagnostic
	at := func(pos int, code, msg string) {
		pp := f.Position(pos)
		out = append(out, diag.Diagnostic{Code: code, Severity: diag.Error, Path: p, Line: pp.Line, Column: pp.Column, Message: msg})
	}
	for _, e := range f.Errors {
		at(int(e.Pos), e.Code, e.Msg)
	}
	name := ""
	for _, d := range f.Decls {
		if k, ok := d.(*syntax.ContractDecl); ok {
			if name != "" {
				at(int(k.Pos), diag.Misplaced, "a contract file declares one contract")
				continue
			}
			name = k.Name.Name
		} else if _, bad := d.(*syntax.BadDecl); !bad {
			at(int(d.Bounds().Pos), diag.Misplaced, "a contract file holds only a contract declaration")
		}
	}
	if name == "" && len(out) == 0 {
		at(0, diag.BadContract, "the file declares no contract")
	}
	return name, out
}
