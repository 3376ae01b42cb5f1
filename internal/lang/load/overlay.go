package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// NotInputError is a path given as an input that is none of the project's
// kinds of input.
type NotInputError struct{ Path string }

func (e *NotInputError) Error() string {
	return fmt.Sprintf("%s is not a project input: a .acore source, a contract under %s/ or %s/, or %s",
		e.Path, lock.ContractDir, ContractSourceDir, lock.Path)
}

// With returns in with files replaced, added or (nil content) removed,
// checked against the default bounds as a load of the same files would
// be. A path must be an input of the layout Load reads: a .acore source, a
// contract artifact under .axiom/dev/contracts/, a contract source under
// contracts/, or the UI lock; another is a *NotInputError, a bound a
// *LimitError.
func (in *Inputs) With(files map[string][]byte) (*Inputs, error) {
	out := &Inputs{Root: in.Root, Sources: append([]File(nil), in.Sources...),
		Contracts: append([]File(nil), in.Contracts...), ContractSources: append([]File(nil), in.ContractSources...), Lock: in.Lock}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		data, remove := files[p], files[p] == nil
		sum := sha256.Sum256(data)
		f := File{Path: p, Data: data, SHA256: hex.EncodeToString(sum[:])}
		switch {
		case p == lock.Path:
			if remove {
				out.Lock = nil
			} else {
				out.Lock = &f
			}
		case strings.HasSuffix(p, ".acore"):
			out.Sources = replaceFile(out.Sources, f, remove)
		case strings.HasSuffix(p, ".axiom") && strings.HasPrefix(p, lock.ContractDir+"/"):
			out.Contracts = replaceFile(out.Contracts, f, remove)
		case strings.HasSuffix(p, ".axiom") && strings.HasPrefix(p, ContractSourceDir+"/"):
			out.ContractSources = replaceFile(out.ContractSources, f, remove)
		default:
			return nil, &NotInputError{Path: p}
		}
	}
	if err := out.Check(DefaultLimits()); err != nil {
		return nil, err
	}
	return out, nil
}

// Check applies the bounds to inputs built in memory, as LoadWith applies
// them while reading; a bound is a *LimitError.
func (in *Inputs) Check(lim Limits) error {
	lim = lim.withDefaults()
	if len(in.Sources) > lim.SourceFiles {
		f := in.Sources[lim.SourceFiles]
		return &LimitError{Reason: reason.TooManyModules, Path: f.Path, Limit: int64(lim.SourceFiles), Got: int64(lim.SourceFiles + 1)}
	}
	var total, all int64
	for _, group := range [][]File{in.Sources, in.Contracts, in.ContractSources} {
		for _, f := range group {
			if int64(len(f.Data)) > lim.SourceFileBytes {
				return &LimitError{Reason: reason.FileTooLarge, Path: f.Path, Limit: lim.SourceFileBytes, Got: int64(len(f.Data))}
			}
			all += int64(len(f.Data))
		}
	}
	for _, f := range in.Sources {
		total += int64(len(f.Data))
	}
	if total > lim.SourcesBytes {
		return &LimitError{Reason: reason.SourcesTooLarge, Limit: lim.SourcesBytes, Got: total}
	}
	if in.Lock != nil {
		all += int64(len(in.Lock.Data))
	}
	if all > lim.SnapshotBytes {
		return &LimitError{Reason: reason.SnapshotTooLarge, Limit: lim.SnapshotBytes, Got: all}
	}
	return nil
}

// Digests are the SHA-256 of every input, by path.
func (in *Inputs) Digests() map[string]string {
	m := map[string]string{}
	for _, group := range [][]File{in.Sources, in.Contracts, in.ContractSources} {
		for _, f := range group {
			m[f.Path] = f.SHA256
		}
	}
	if in.Lock != nil {
		m[in.Lock.Path] = in.Lock.SHA256
	}
	return m
}

// ContractSourcePath is the published source contracts/<id>.axiom of
// the development artifact at the project-relative path a, or "" when a
// is not in lock.ContractDir.
func ContractSourcePath(a string) string {
	if path.Dir(a) != lock.ContractDir {
		return ""
	}
	return ContractSourceDir + "/" + path.Base(a)
}

// ContractSource returns the published source of the development
// artifact at p when the artifact is its prepared copy, byte for byte (a
// local contract), or nil: the file people edit for what the compile read.
func (in *Inputs) ContractSource(p string) *File {
	src := ContractSourcePath(p)
	if src == "" {
		return nil
	}
	var art *File
	for i := range in.Contracts {
		if in.Contracts[i].Path == p {
			art = &in.Contracts[i]
		}
	}
	for i := range in.ContractSources {
		if f := &in.ContractSources[i]; f.Path == src && art != nil && bytes.Equal(f.Data, art.Data) {
			return f
		}
	}
	return nil
}

// Data is the content of the input at path, or nil.
func (in *Inputs) Data(path string) []byte {
	for _, group := range [][]File{in.Sources, in.Contracts, in.ContractSources} {
		for _, f := range group {
			if f.Path == path {
				return f.Data
			}
		}
	}
	if in.Lock != nil && in.Lock.Path == path {
		return in.Lock.Data
	}
	return nil
}

// replaceFile replaces, adds or removes f in list, sorted by path.
func replaceFile(list []File, f File, remove bool) []File {
	i := sort.Search(len(list), func(i int) bool { return list[i].Path >= f.Path })
	switch {
	case i < len(list) && list[i].Path == f.Path && remove:
		return append(list[:i], list[i+1:]...)
	case i < len(list) && list[i].Path == f.Path:
		list[i] = f
	case !remove:
		list = append(list, File{})
		copy(list[i+1:], list[i:])
		list[i] = f
	}
	return list
}
