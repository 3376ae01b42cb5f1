package features

import (
	"fmt"
	"path"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/refs"
	"github.com/axiomcore/acore/internal/lang/rename"
)

// PrepareRename is the range of the name at p and the name itself when
// it can be renamed, else the refusal.
func PrepareRename(fs *Files, rel string, p protocol.Position) (*protocol.PrepareRenamePlaceholder, error) {
	ix, id, err := renameAt(fs, rel, p)
	if err != nil {
		return nil, err
	}
	if err := rename.Renamable(ix, id.Obj); err != nil {
		return nil, err
	}
	return &protocol.PrepareRenamePlaceholder{Range: fs.Range(rel, int(id.Ident.Pos), int(id.Ident.End)), Placeholder: id.Ident.Name}, nil
}

// renameAt is the identifier at p in rel that a rename starts from, or
// why there is none.
func renameAt(fs *Files, rel string, p protocol.Position) (*refs.Index, refs.Ref, error) {
	ix, id, ok := identAt(fs, rel, p)
	if ok {
		return ix, id, nil
	}
	if path.Dir(rel) == load.ContractSourceDir && path.Ext(rel) == ".axiom" && fs.artifactOf(rel) == "" {
		// The compile reads the artifact, which then says nothing of this
		// text: a rename from it would rename what the artifact holds.
		return nil, refs.Ref{}, &rename.Refusal{Reason: rename.NotRenamable, Message: fmt.Sprintf(
			"%s is not as prepared: %s is not its copy; save it, run axiom prepare and rename again", rel, lock.ArtifactPath(strings.TrimSuffix(path.Base(rel), ".axiom")))}
	}
	return nil, refs.Ref{}, &rename.Refusal{Reason: rename.NotRenamable, Message: "no name here"}
}

// Rename is the edit of every file that names the declaration at p,
// checked by the rename engine (see package rename), or its refusal.
func Rename(fs *Files, rel string, p protocol.Position, newName string) (*protocol.WorkspaceEdit, error) {
	ix, id, err := renameAt(fs, rel, p)
	if err != nil {
		return nil, err
	}
	plan, err := rename.Rename(ix, id.Obj, newName)
	if err != nil {
		return nil, err
	}
	changes := map[uri.URI][]protocol.TextEdit{}
	for _, e := range plan.Edits {
		u := fs.URI(e.Path)
		changes[u] = append(changes[u], protocol.TextEdit{Range: fs.Range(e.Path, e.Pos, e.End), NewText: plan.New})
	}
	// A local contract's field is renamed in its source and artifact; the
	// lock that pins the artifact is replaced whole, as preparing would.
	for _, p := range plan.Prepared {
		old, ok := fs.Snap.Text(p)
		if !ok {
			return nil, &rename.Refusal{Reason: rename.Breaks, Message: p + " cannot be read to re-prepare it; run axiom prepare and rename again"}
		}
		changes[fs.URI(p)] = []protocol.TextEdit{{Range: fs.Range(p, 0, len(old)), NewText: string(plan.Candidate.Inputs.Data(p))}}
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}
