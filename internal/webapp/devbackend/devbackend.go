// Package devbackend is the development backend of `axiom dev`: it
// implements every contract of a project from its models, as the
// checker's contract-only check (check.CheckContracts) gives them, by what
// the names of the operations say they do (check.OperationKind: list_*,
// get_*, create_*, update_*, delete_*, remove_*), over the HTTP wire
// format of the web target, and keeps the data in an SQLite database under
// .axiom/dev so that it survives a restart. docs/web.md describes what it
// does.
package devbackend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// DatabasePath is the project-relative path of the development database.
// SQLite keeps its -wal and -shm files beside it.
const DatabasePath = ".axiom/dev/backend.sqlite"

// MaxBodyBytes bounds a request body; a larger one is answered 413.
const MaxBodyBytes = 1 << 20

// Backend serves the contracts of one project. It is safe for concurrent
// use.
type Backend struct {
	root string
	st   *store

	mu        sync.RWMutex
	contracts map[string]*contract
}

// Open reads the prepared contract artifacts of the project at root and
// opens its database, creating it when missing. A contract artifact that
// cannot be used does not fail Open: calls to that contract answer 500
// with the reason. A database file that SQLite cannot use does.
func Open(root string) (*Backend, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("development backend: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("development backend: %s is not a directory", root)
	}
	dbPath, err := fsutil.Resolve(root, DatabasePath)
	if err != nil {
		return nil, fmt.Errorf("development backend: %w", err)
	}
	if err := private(dbPath); err != nil {
		return nil, fmt.Errorf("development backend: %w", err)
	}
	st, err := openStore(dbPath)
	if err != nil {
		return nil, fmt.Errorf("development backend: the database %s cannot be used: %v; move it away or delete it to start with an empty one", DatabasePath, err)
	}
	b := &Backend{root: root, st: st}
	if err := b.Reload(); err != nil {
		st.close()
		return nil, err
	}
	return b, nil
}

// private makes the directory of the database at dbPath, and the database
// with SQLite's -wal and -shm files, readable by their owner only: the
// directory 0700 and the files 0600, created so or tightened. SQLite creates
// the -wal and -shm files with the database's mode.
func private(dbPath string) error {
	dir := filepath.Dir(dbPath)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	fi, err := r.Stat(".")
	if err != nil {
		return err
	}
	if err := tighten(r, ".", fi, 0o700); err != nil {
		return err
	}
	name := filepath.Base(dbPath)
	f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		err = f.Close()
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	for _, n := range []string{name, name + "-wal", name + "-shm"} {
		fi, err := r.Lstat(n)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			if err := tighten(r, n, fi, 0o600); err != nil {
				return err
			}
		}
	}
	return nil
}

// tighten takes from the file n of r every permission bit outside mask.
func tighten(r *os.Root, n string, fi fs.FileInfo, mask fs.FileMode) error {
	if perm := fi.Mode().Perm(); perm&^mask != 0 {
		return r.Chmod(n, perm&mask)
	}
	return nil
}

// Reload reads the contract artifacts again, after `axiom prepare` changed
// them, and creates the tables of new models. Stored rows are read under
// the new models: a field a model gained reads as its zero value. On an
// error the previous contracts stay.
func (b *Backend) Reload() error {
	cs, err := loadContracts(b.root)
	if err != nil {
		return fmt.Errorf("development backend: %w", err)
	}
	for _, c := range cs {
		if c.broken != "" {
			continue
		}
		if err := b.st.ensure(context.Background(), c); err != nil {
			return fmt.Errorf("development backend: create the tables of contract %s: %w", c.id, err)
		}
	}
	b.mu.Lock()
	b.contracts = cs
	b.mu.Unlock()
	return nil
}

// Close closes the database. Calls after Close answer 500.
func (b *Backend) Close() error { return b.st.close() }

// ServeHTTP answers POST /<contract-id>/<operation> with the operation's
// result, and the CORS preflight of any path.
func (b *Backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Every answer, errors included, is readable from another origin, so a
	// build served elsewhere sees the error messages.
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Content-Type")
		h.Set("Access-Control-Max-Age", "600")
		if r.Header.Get("Access-Control-Request-Private-Network") == "true" {
			// A page on a public origin may call this loopback server.
			h.Set("Access-Control-Allow-Private-Network", "true")
		}
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method != http.MethodPost {
		h.Set("Allow", "POST, OPTIONS")
		writeError(w, fail(http.StatusMethodNotAllowed, "the development backend answers POST /<contract-id>/<operation>, not %s", r.Method))
		return
	}
	out, err := b.serve(w, r)
	if err != nil {
		var ce *callError
		if !errors.As(err, &ce) {
			ce = fail(http.StatusInternalServerError, "the development backend failed: %v", err)
		}
		writeError(w, ce)
		return
	}
	data, err := marshal(out)
	if err != nil {
		writeError(w, fail(http.StatusInternalServerError, "the development backend cannot encode the result: %v", err))
		return
	}
	writeJSON(w, http.StatusOK, data)
}

// serve finds the operation of a POST, checks its arguments and runs it.
func (b *Backend) serve(w http.ResponseWriter, r *http.Request) (any, error) {
	id, name, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if !ok || id == "" || name == "" || strings.Contains(name, "/") {
		return nil, fail(http.StatusNotFound, "no contract operation at %s; the development backend answers POST /<contract-id>/<operation>", r.URL.Path)
	}
	b.mu.RLock()
	c := b.contracts[id]
	known := ids(b.contracts)
	b.mu.RUnlock()
	if c == nil {
		list := strings.Join(known, ", ")
		if list == "" {
			list = "none; run `axiom prepare`"
		}
		return nil, fail(http.StatusNotFound, "there is no contract %q (contracts: %s)", id, list)
	}
	if c.broken != "" {
		return nil, fail(http.StatusInternalServerError, "contract %s cannot be used: %s", c.id, c.broken)
	}
	o := c.ops[name]
	if o == nil {
		return nil, fail(http.StatusNotFound, "contract %s (%s) has no operation %q", c.name, c.id, name)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, fail(http.StatusRequestEntityTooLarge, "%s: the request body is larger than %d bytes", c.qual(o), MaxBodyBytes)
		}
		return nil, fail(http.StatusBadRequest, "%s: the request body cannot be read: %v", c.qual(o), err)
	}
	args, cerr := decodeArgs(c, o, body)
	if cerr != nil {
		return nil, cerr
	}
	if o.plan.verb == vNone {
		return nil, fail(http.StatusNotImplemented, "the development backend cannot implement %s: %s; implement it in a real backend (docs/web.md)", c.qual(o), o.plan.why)
	}
	out, err := b.st.call(r.Context(), c, o, args)
	if err != nil {
		var ce *callError
		if errors.As(err, &ce) {
			return nil, ce
		}
		return nil, fmt.Errorf("%s: the database: %w", c.qual(o), err)
	}
	return out, nil
}

func writeError(w http.ResponseWriter, e *callError) {
	data, _ := marshal(map[string]any{"error": map[string]any{"message": e.msg}})
	writeJSON(w, e.status, data)
}

func writeJSON(w http.ResponseWriter, status int, data []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}
