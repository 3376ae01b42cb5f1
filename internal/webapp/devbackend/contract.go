package devbackend

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/reason"
	"github.com/axiomcore/acore/internal/lang/syntax"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// scalar reports whether values of t can be ordered for sorting.
func scalar(t *check.Type) bool {
	switch t.Kind {
	case check.TString, check.TInt, check.TFloat, check.TBool:
		return true
	}
	return false
}

// required returns t without its optional mark.
func required(t *check.Type) *check.Type {
	if !t.Optional {
		return t
	}
	c := *t
	c.Optional = false
	return &c
}

// modelType is the type of the values of model m.
func modelType(m *check.Model) *check.Type { return &check.Type{Kind: check.TModel, Model: m} }

// fieldList names the fields of m for messages: "id, title, done".
func fieldList(m *check.Model) string {
	names := make([]string, len(m.Fields))
	for i, f := range m.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// param is a parameter of an operation.
type param struct {
	name string
	typ  *check.Type
	// def is the default written in the contract, normalized; hasDef tells
	// a default null from no default.
	def    any
	hasDef bool
}

// op is a checked operation of a contract and what the backend does for
// it.
type op struct {
	name   string
	kind   syntax.DataKind
	does   check.OpKind
	params []param
	byName map[string]int
	result *check.Type // nil: the operation has no result type
	plan   plan
}

// contract is one contract artifact.
type contract struct {
	id   string // the artifact's file name without .axiom
	name string
	path string // project-relative artifact path
	// models in declaration order, as the checker gives them; their
	// tables are made when loaded.
	models []*check.Model
	ops    map[string]*op
	// broken, when set, says why the artifact cannot be used; every call
	// of the contract answers 500 with it.
	broken string
}

// qual names an operation for messages: "Tasks.create_task".
func (c *contract) qual(o *op) string { return c.name + "." + o.name }

// loadContracts reads every artifact in .axiom/dev/contracts of root. A
// missing directory means no contracts. An artifact that cannot be used is
// returned with broken set rather than failing the others.
func loadContracts(root string) (map[string]*contract, error) {
	r, err := fsutil.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("read contract artifacts: %w", err)
	}
	defer r.Close()
	// Listed through the root too: a FIFO in the directory's place is
	// refused instead of waited on.
	d, err := r.OpenDir(lock.ContractDir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]*contract{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read contract artifacts: %w", err)
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("read contract artifacts: %w", err)
	}
	out := map[string]*contract{}
	var files []*syntax.File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".axiom") {
			continue
		}
		id := strings.TrimSuffix(e.Name(), ".axiom")
		rel := path.Join(lock.ContractDir, e.Name())
		c := &contract{id: id, name: id, path: rel}
		out[id] = c
		data, err := readArtifact(r, rel)
		if err != nil {
			c.broken = err.Error()
			continue
		}
		files = append(files, syntax.Parse(rel, data))
	}
	useChecked(out, files)
	return out, nil
}

// useChecked fills the contracts of files from the checker's contract-only
// check, which the UI's compile applies to them too, or sets broken to the
// first error it reports in the file, written as a diagnostic
// (path:line:col: message [code]) and followed by the command that fixes
// it.
func useChecked(cs map[string]*contract, files []*syntax.File) {
	checked, ds := check.CheckContracts(files)
	for _, f := range files {
		c := cs[strings.TrimSuffix(path.Base(f.Path), ".axiom")]
		for _, d := range ds {
			if d.Path == f.Path && d.Severity == diag.Error {
				c.broken = fmt.Sprintf("%s:%d:%d: %s [%s]; fix the contract source and run `axiom prepare`", d.Path, d.Line, d.Column, d.Message, d.Code)
				break
			}
		}
		if k := checked[c.id]; c.broken == "" && k != nil {
			fill(c, k)
		}
	}
}

// readArtifact reads the artifact rel as the compiler reads it
// (internal/lang/load): through the project's confined root, so a symlink
// leads nowhere outside the project; opened without blocking, so a FIFO
// is refused instead of waited on; and never more than the compiler's
// source_file_bytes_max, even from a file that grows meanwhile. What it
// refuses it reports with the compiler's diagnostic for the file.
func readArtifact(r *fsutil.Root, rel string) ([]byte, error) {
	f, fi, err := r.OpenRegular(rel)
	switch {
	case errors.Is(err, fsutil.ErrEscape):
		return nil, notRead(rel, rel+" is a symlink that points outside the project root")
	case errors.Is(err, fsutil.ErrNotRegular):
		// Named by what was opened: the path may lead elsewhere by now.
		return nil, notRead(rel, rel+" is not a regular file ("+fsutil.FileType(fi.Mode())+")")
	case err != nil:
		return nil, notRead(rel, fmt.Sprintf("%s cannot be read: %v", rel, err))
	}
	defer f.Close()
	return readOpened(f, fi, rel)
}

// readOpened reads the artifact rel from f, opened with the metadata fi.
// The bytes are one version of the file: a file replaced by a rename
// meanwhile is still read whole from the descriptor, and one written in
// place while it is read (its size or modification time no longer those
// it had when opened, or not the number of bytes read) is refused.
func readOpened(f *os.File, fi fs.FileInfo, rel string) ([]byte, error) {
	const limit = load.SourceFileBytesMax
	if fi.Size() > limit {
		return nil, tooLarge(rel, fi.Size())
	}
	data, err := fsutil.ReadAllTo(io.LimitReader(f, limit+1), make([]byte, 0, fi.Size()+512))
	if err != nil {
		return nil, notRead(rel, fmt.Sprintf("%s cannot be read: %v", rel, err))
	}
	if len(data) > limit {
		return nil, tooLarge(rel, int64(len(data)))
	}
	now, err := f.Stat()
	if err != nil {
		return nil, notRead(rel, fmt.Sprintf("%s cannot be read: %v", rel, err))
	}
	if int64(len(data)) != fi.Size() || now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
		return nil, notRead(rel, rel+" changed while it was read")
	}
	return data, nil
}

// notRead is the compiler's AC506 for an artifact it does not read.
func notRead(rel, detail string) error {
	return fmt.Errorf("%s:1:1: %q was not read: %s [%s]; replace it with the artifact `axiom prepare` writes", rel, rel, detail, diag.FileNotRead)
}

// tooLarge is the compiler's AC153 for an artifact over
// source_file_bytes_max; got is at least its size.
func tooLarge(rel string, got int64) error {
	lim := &load.LimitError{Reason: reason.FileTooLarge, Path: rel, Limit: load.SourceFileBytesMax, Got: got}
	return fmt.Errorf("%s:1:1: %s [%s]; replace it with the artifact `axiom prepare` writes", rel, lim, diag.FileTooLarge)
}

// fill makes c's models and operations of the checked contract k.
func fill(c *contract, k *check.Contract) {
	c.name = k.Name
	c.models = k.Models
	c.ops = make(map[string]*op, len(k.Ops))
	for _, ko := range k.Ops {
		o := &op{name: ko.Name, kind: ko.Kind, does: ko.Does(), byName: make(map[string]int, len(ko.Params))}
		if ko.Result.Kind != check.TVoid {
			o.result = ko.Result
		}
		for _, kp := range ko.Params {
			p := param{name: kp.Name, typ: kp.Type}
			if kp.Default != nil {
				// The checker proved the default a constant that fits.
				v, _ := check.Constant(kp.Default)
				p.def, p.hasDef = normalize(v, kp.Type), true
			}
			o.byName[p.name] = len(o.params)
			o.params = append(o.params, p)
		}
		c.ops[o.name] = o
	}
	for _, o := range c.ops {
		o.plan = infer(c, o)
	}
}

// normalize makes a constant of type t a value of the backend: an Int
// constant where a Float is expected is a float64.
func normalize(v any, t *check.Type) any {
	switch v := v.(type) {
	case int64:
		if t.Kind == check.TFloat {
			return float64(v)
		}
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e, t.Elem)
		}
		return out
	}
	return v
}

// ids returns the contract ids in order, for messages.
func ids(cs map[string]*contract) []string {
	out := make([]string, 0, len(cs))
	for id := range cs {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
