// Package lock reads and writes the UI lock, .axiom/ui.lock: the file that
// pins what a project compiles against (language profile, target, catalog
// version and the exact bytes of each backend contract artifact). Because a
// compile's result depends on it, parsing is strict and writing is
// deterministic, so the same lock always has the same bytes and digest.
package lock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// Path is the project-relative location of the UI lock.
const Path = ".axiom/ui.lock"

// ContractDir is the project-relative directory holding the contract
// artifacts the lock pins.
const ContractDir = ".axiom/dev/contracts"

// Version is the only lock_version this package reads and writes.
const Version = 1

// maxBytes bounds the lock file Read accepts, so a corrupt or hostile lock
// cannot make us allocate without limit. It matches the service's
// source_file_bytes_max.
const maxBytes = 2 << 20

// contractIDMaxBytes bounds a contract id; ids become file names.
const contractIDMaxBytes = 128

// Lock is the parsed content of .axiom/ui.lock.
type Lock struct {
	LockVersion     int        `json:"lock_version"`
	LanguageProfile string     `json:"language_profile"`
	Target          string     `json:"target"`
	CatalogVersion  string     `json:"catalog_version"`
	Contracts       []Contract `json:"contracts"`
}

// Contract pins one backend contract artifact by path and SHA-256.
type Contract struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256"` // lowercase hex of the artifact bytes
	Signed bool   `json:"signed"`
}

// ArtifactPath returns the project-relative path of contract id's artifact:
// ContractDir + "/" + id + ".axiom".
func ArtifactPath(id string) string {
	return ContractDir + "/" + id + ".axiom"
}

// The raw types mirror Lock and Contract with pointers so Parse can tell a
// missing (or null) field from a zero value.
type rawLock struct {
	LockVersion     *int           `json:"lock_version"`
	LanguageProfile *string        `json:"language_profile"`
	Target          *string        `json:"target"`
	CatalogVersion  *string        `json:"catalog_version"`
	Contracts       *[]rawContract `json:"contracts"`
}

type rawContract struct {
	ID     *string `json:"id"`
	Name   *string `json:"name"`
	Path   *string `json:"path"`
	SHA256 *string `json:"sha256"`
	Signed *bool   `json:"signed"`
}

// Parse decodes and validates a UI lock. It is strict: unknown or duplicate
// fields, missing or null required fields, trailing data, a lock_version
// other than 1, malformed digests, invalid paths or ids and duplicate
// contract ids are all errors, each naming what is wrong. A lock silently
// misread would make a compile depend on inputs nobody pinned.
func Parse(data []byte) (*Lock, error) {
	if err := checkKeys(data); err != nil {
		return nil, fmt.Errorf("ui.lock: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw rawLock
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("ui.lock: %w", decodeError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("ui.lock: trailing data after the JSON object")
	}

	var missing []string
	need := func(ok bool, name string) {
		if !ok {
			missing = append(missing, name)
		}
	}
	need(raw.LockVersion != nil, "lock_version")
	need(raw.LanguageProfile != nil, "language_profile")
	need(raw.Target != nil, "target")
	need(raw.CatalogVersion != nil, "catalog_version")
	need(raw.Contracts != nil, "contracts")
	if len(missing) > 0 {
		return nil, fmt.Errorf("ui.lock: missing or null required field(s): %s", strings.Join(missing, ", "))
	}

	l := &Lock{
		LockVersion:     *raw.LockVersion,
		LanguageProfile: *raw.LanguageProfile,
		Target:          *raw.Target,
		CatalogVersion:  *raw.CatalogVersion,
		Contracts:       make([]Contract, 0, len(*raw.Contracts)),
	}
	for i, rc := range *raw.Contracts {
		need(rc.ID != nil, "id")
		need(rc.Name != nil, "name")
		need(rc.Path != nil, "path")
		need(rc.SHA256 != nil, "sha256")
		need(rc.Signed != nil, "signed")
		if len(missing) > 0 {
			return nil, fmt.Errorf("ui.lock: contracts[%d]: missing or null required field(s): %s", i, strings.Join(missing, ", "))
		}
		l.Contracts = append(l.Contracts, Contract{
			ID: *rc.ID, Name: *rc.Name, Path: *rc.Path, SHA256: *rc.SHA256, Signed: *rc.Signed,
		})
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return l, nil
}

// decodeError rewords encoding/json errors in terms of the lock's fields
// rather than Go types.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("empty input, want a JSON object")
	case errors.As(err, &te):
		where := te.Field
		if where == "" {
			where = "top level"
		}
		want := "a JSON " + te.Type.Kind().String()
		switch te.Type.Kind() {
		case reflect.Int:
			want = "an integer"
		case reflect.String:
			want = "a string"
		case reflect.Bool:
			want = "a boolean"
		case reflect.Struct:
			want = "an object"
		case reflect.Slice:
			want = "an array"
		}
		return fmt.Errorf("%s: got %s, want %s", where, te.Value, want)
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// Validate reports the first rule l breaks: lock_version must be 1; the
// profile, target and catalog version non-empty; each contract needs an id
// usable as a file name, a non-empty name, a valid project-relative path and
// a 64-character lowercase hex SHA-256; ids must be unique.
func (l *Lock) Validate() error {
	if l.LockVersion != Version {
		return fmt.Errorf("ui.lock: lock_version is %d, want %d", l.LockVersion, Version)
	}
	for _, f := range []struct{ name, val string }{
		{"language_profile", l.LanguageProfile},
		{"target", l.Target},
		{"catalog_version", l.CatalogVersion},
	} {
		if f.val == "" {
			return fmt.Errorf("ui.lock: %s is empty", f.name)
		}
	}
	seen := make(map[string]bool, len(l.Contracts))
	for i, c := range l.Contracts {
		if err := validID(c.ID); err != nil {
			return fmt.Errorf("ui.lock: contracts[%d]: %w", i, err)
		}
		if seen[c.ID] {
			return fmt.Errorf("ui.lock: contracts[%d]: duplicate id %q", i, c.ID)
		}
		seen[c.ID] = true
		if c.Name == "" {
			return fmt.Errorf("ui.lock: contracts[%d] (%s): name is empty", i, c.ID)
		}
		if err := fsutil.ValidRelPath(c.Path); err != nil {
			return fmt.Errorf("ui.lock: contracts[%d] (%s): path: %w", i, c.ID, err)
		}
		if !isSHA256Hex(c.SHA256) {
			return fmt.Errorf("ui.lock: contracts[%d] (%s): sha256 %q is not 64 lowercase hex digits", i, c.ID, c.SHA256)
		}
	}
	return nil
}

// validID accepts ids that are a single valid path segment, because
// ArtifactPath turns the id into a file name.
func validID(id string) error {
	switch {
	case id == "":
		return errors.New("id is empty")
	case len(id) > contractIDMaxBytes:
		return fmt.Errorf("id %.40q... is longer than %d bytes", id, contractIDMaxBytes)
	case strings.Contains(id, "/"):
		return fmt.Errorf("id %q contains a slash", id)
	}
	if err := fsutil.ValidRelPath(id); err != nil {
		return fmt.Errorf("id %q is not a valid file name: %w", id, err)
	}
	return nil
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// knownKeys are all field names a lock may contain, at any level.
var knownKeys = map[string]bool{
	"lock_version": true, "language_profile": true, "target": true, "catalog_version": true, "contracts": true,
	"id": true, "name": true, "path": true, "sha256": true, "signed": true,
}

// checkKeys rejects an object with the same key twice at any depth, and any
// key that is not exactly a known field name. encoding/json silently keeps
// the last of duplicate keys and matches names case-insensitively (even
// "ſigned" matches "signed"), either of which would let two readers of
// the same lock disagree. Which key is allowed where is left to the decoder's
// DisallowUnknownFields.
func checkKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		keys   map[string]bool
		object bool
		expect bool // next string token in this object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			// Syntax errors are reported by the real decode.
			return nil
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if key, ok := tok.(string); ok && top != nil && top.object && top.expect {
			if !knownKeys[key] {
				return fmt.Errorf("unknown field %q", key)
			}
			if top.keys[key] {
				return fmt.Errorf("duplicate field %q", key)
			}
			top.keys[key] = true
			top.expect = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, object: true, expect: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value just ended; in an object the next token is a key.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].expect = true
		}
	}
}

// Marshal returns the canonical encoding: JSON with a 2-space indent, a
// trailing newline, contracts sorted by id and no HTML escaping. Equal locks
// always marshal to equal bytes. l itself is not modified.
func (l *Lock) Marshal() []byte {
	out := *l
	out.Contracts = slices.Clone(l.Contracts)
	if out.Contracts == nil {
		out.Contracts = []Contract{} // "contracts": [] rather than null
	}
	slices.SortStableFunc(out.Contracts, func(a, b Contract) int { return strings.Compare(a.ID, b.ID) })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&out); err != nil {
		// Only strings, ints and bools: encoding cannot fail.
		panic("lock: marshal: " + err.Error())
	}
	return buf.Bytes()
}

// Contract returns the contract with the given id.
func (l *Lock) Contract(id string) (Contract, bool) {
	for _, c := range l.Contracts {
		if c.ID == id {
			return c, true
		}
	}
	return Contract{}, false
}

// Read reads and parses root/.axiom/ui.lock, returning the lock and its
// bytes. The bytes are returned whenever the file could be read, even if
// parsing failed, so callers can digest or report it. A missing lock gives
// an error wrapping os.ErrNotExist. The lock is opened through a handle
// on the root the kernel confines (fsutil.Root), without blocking, and
// only a regular file is read: a lock symlinked outside the root, or
// swapped for a FIFO, is refused.
func Read(root string) (*Lock, []byte, error) {
	r, err := fsutil.OpenRoot(root)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", Path, err)
	}
	defer r.Close()
	f, fi, err := r.OpenRegular(Path)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", Path, err)
	}
	defer f.Close()
	if fi.Size() > maxBytes {
		return nil, nil, fmt.Errorf("read %s: %d bytes, larger than %d", Path, fi.Size(), maxBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", Path, err)
	}
	if len(data) > maxBytes {
		return nil, nil, fmt.Errorf("read %s: larger than %d bytes", Path, maxBytes)
	}
	l, err := Parse(data)
	if err != nil {
		return nil, data, err
	}
	return l, data, nil
}

// Write validates l and writes its canonical encoding to
// root/.axiom/ui.lock atomically (mode 0o644), creating .axiom if needed.
// Refusing to write an invalid lock keeps Read(Write(l)) from failing later.
func Write(root string, l *Lock) error {
	if err := l.Validate(); err != nil {
		return err
	}
	r, err := fsutil.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("write %s: %w", Path, err)
	}
	defer r.Close()
	return r.WriteFileAtomic(Path, l.Marshal(), 0o644)
}
