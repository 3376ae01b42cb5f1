package prepare

import (
	"bytes"
	"path"
	"sort"
	"strings"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
)

// Overlay is Run in memory, for inputs whose contract sources are the whole
// truth (the project publishes contracts/): the development artifacts and
// the UI lock that preparing in would write, as an overlay on in
// (load.Inputs.With): each artifact whose bytes change, nil for one whose
// source is gone, and the lock when its bytes change. The edit engine
// applies it in the same candidate as the contract source change, so a
// compile never sees a source and an artifact that disagree. A contract
// source with errors is a *ContractError.
func Overlay(in *load.Inputs) (map[string][]byte, error) {
	sources, bad := publishedSources(in)
	if len(bad) > 0 {
		return nil, &ContractError{Diagnostics: bad}
	}
	out := map[string][]byte{}
	for _, f := range in.Contracts {
		id := strings.TrimSuffix(path.Base(f.Path), ".axiom")
		if _, ok := sources[id]; !ok {
			out[f.Path] = nil
		}
	}
	ids := make([]string, 0, len(sources))
	for id := range sources {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	l := &lock.Lock{LockVersion: lock.Version, LanguageProfile: "acore-ui", Target: "web", CatalogVersion: catalog.Version, Contracts: []lock.Contract{}}
	for _, id := range ids {
		rel, data := lock.ArtifactPath(id), sources[id]
		if old := artifact(in, rel); old == nil || !bytes.Equal(old.Data, data) {
			out[rel] = data
		}
		name, _ := contractName(rel, data)
		l.Contracts = append(l.Contracts, lock.Contract{ID: id, Name: name, Path: rel, SHA256: sha256Hex(data), Signed: false})
	}
	if data := l.Marshal(); in.Lock == nil || !bytes.Equal(in.Lock.Data, data) {
		out[lock.Path] = data
	}
	return out, nil
}

func artifact(in *load.Inputs, rel string) *load.File {
	for i := range in.Contracts {
		if in.Contracts[i].Path == rel {
			return &in.Contracts[i]
		}
	}
	return nil
}
