package change

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"

	"github.com/axiomcore/acore/internal/agent/candidate"
)

// Files are the files a candidate writes after a batch that wrote written
// (nil content: removed) on prev's files (prev nil for a first version),
// against a base whose input digests are base, sorted by path; and the
// overlay they make on the base's inputs. No files means the candidate
// changes nothing.
func Files(prev *candidate.Candidate, base map[string]string, written map[string][]byte) ([]candidate.File, map[string][]byte) {
	files := map[string]candidate.File{}
	if prev != nil {
		for _, f := range prev.Files {
			files[f.Path] = f
		}
	}
	for path, data := range written {
		f := candidate.File{Path: path}
		if sum, ok := base[path]; ok {
			f.Before = &sum
		}
		if data != nil {
			sum := sha256.Sum256(data)
			after := hex.EncodeToString(sum[:])
			f.After, f.Content = &after, data
		}
		if f.Before == nil && f.After == nil {
			delete(files, path) // created, then removed
			continue
		}
		files[path] = f
	}
	out := make([]candidate.File, 0, len(files))
	for _, f := range files {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, Overlay(out)
}

// Overlay is what files make of a base's inputs: each path's content, nil
// for a removed file (load.Inputs.With).
func Overlay(files []candidate.File) map[string][]byte {
	m := make(map[string][]byte, len(files))
	for _, f := range files {
		m[f.Path] = f.Content
		if f.After == nil {
			m[f.Path] = nil
		}
	}
	return m
}
