package server_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/editor/position"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// copyExample copies examples/<name>, prepared as committed, to a
// temporary folder.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "..", "examples", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tree is every file under root but the service's state, by slash path.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == fsutil.StateDir {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// applyWorkspaceEdit writes the edit's changes to the files under root,
// as an editor saves them.
func applyWorkspaceEdit(t *testing.T, root string, e *protocol.WorkspaceEdit) {
	t.Helper()
	for u, edits := range e.Changes {
		name := u.FsPath()
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m := position.New(data)
		type splice struct {
			pos, end int
			text     string
		}
		var list []splice
		for _, te := range edits {
			pos, ok1 := m.Offset(position.Position{Line: te.Range.Start.Line, Character: te.Range.Start.Character}, position.UTF16)
			end, ok2 := m.Offset(position.Position{Line: te.Range.End.Line, Character: te.Range.End.Character}, position.UTF16)
			if !ok1 || !ok2 || end < pos {
				t.Fatalf("edit of %s at %v is not in the file", name, te.Range)
			}
			list = append(list, splice{pos, end, te.NewText})
		}
		sort.Slice(list, func(i, j int) bool { return list[i].pos > list[j].pos })
		for i, s := range list {
			if i > 0 && s.end > list[i-1].pos {
				t.Fatalf("edits of %s overlap", name)
			}
			data = append(append(append([]byte(nil), data[:s.pos]...), s.text...), data[s.end:]...)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// serviceRename renames node to newName in root through the semantic
// service: change.propose, then change.apply.
func serviceRename(t *testing.T, root, node, oldName, newName string) {
	t.Helper()
	s, err := service.New(service.Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Wait)
	call := func(req string) map[string]any {
		t.Helper()
		var o map[string]any
		if err := json.Unmarshal(s.Handle(context.Background(), []byte(req)), &o); err != nil {
			t.Fatal(err)
		}
		if o["error"] != nil {
			t.Fatalf("%s\nanswered %v", req, o["error"])
		}
		return o
	}
	const v1 = `{"protocol": "axiom-agent-semantic/v1", `
	quoted, _ := json.Marshal(root)
	o := call(v1 + `"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": ` + string(quoted) + `}]}}`)
	ws, snap := o["workspace"].(string), o["snapshot"].(map[string]any)["id"].(string)
	o = call(v1 + `"operation": "change.propose", "workspace": "` + ws + `", "base_snapshot": "` + snap + `", "request_id": "rename-1", "params": {"operations": [` +
		`{"kind": "rename", "node": "` + node + `", "old_name": "` + oldName + `", "new_name": "` + newName + `"}]}}`)
	cand := o["result"].(map[string]any)["candidate"].(map[string]any)["id"].(string)
	o = call(v1 + `"operation": "change.apply", "workspace": "` + ws + `", "request_id": "apply-1", "params": {"candidate": "` + cand + `", "expected_candidate_version": 1, "require_checks": ["compile"]}}`)
	if got := o["result"].(map[string]any)["receipt"].(map[string]any)["outcome"]; got != "applied" {
		t.Fatalf("change.apply: %v", o["result"])
	}
}

// The editor's rename of a local contract's field, started on its
// declaration in contracts/books.axiom, writes what the semantic service's
// rename writes: the source, the artifact, the re-prepared lock and every
// use, byte for byte.
func TestContractSourceRenameIsTheServices(t *testing.T) {
	for _, c := range []struct{ field, newName string }{
		{"title", "name"},
		{"author", "written_by"},
	} {
		t.Run(c.field, func(t *testing.T) {
			byEditor, byService := copyExample(t, "reading-list"), copyExample(t, "reading-list")
			before := tree(t, byEditor)

			cl, _ := start(t, byEditor, protocol.ClientCapabilities{})
			text := cl.open("contracts/books.axiom")
			pos := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: cl.uri("contracts/books.axiom")},
				Position: at(t, text, "    "+c.field+": String", 4)}
			pr, err := cl.server.PrepareRename(cl.ctx, &protocol.PrepareRenameParams{TextDocumentPositionParams: pos})
			if err != nil || pr == nil || pr.(*protocol.PrepareRenamePlaceholder).Placeholder != c.field {
				t.Fatalf("prepareRename: %v, %v", pr, err)
			}
			e, err := cl.server.Rename(cl.ctx, &protocol.RenameParams{TextDocumentPositionParams: pos, NewName: c.newName})
			if err != nil {
				t.Fatalf("rename: %v", err)
			}
			applyWorkspaceEdit(t, byEditor, e)

			serviceRename(t, byService, "field:Books.Book."+c.field, c.field, c.newName)

			got, want := tree(t, byEditor), tree(t, byService)
			var changed []string
			for p := range maps.Keys(want) {
				if before[p] != want[p] {
					changed = append(changed, p)
				}
			}
			slices.Sort(changed)
			if !slices.Contains(changed, ".axiom/ui.lock") || !slices.Contains(changed, "contracts/books.axiom") || !slices.Contains(changed, ".axiom/dev/contracts/books.axiom") {
				t.Errorf("the service changed %v; want the source, the artifact and the lock among them", changed)
			}
			for _, p := range slices.Sorted(maps.Keys(want)) {
				if got[p] != want[p] {
					t.Errorf("%s by the editor:\n%s\nby the service:\n%s", p, got[p], want[p])
				}
			}
			for p := range got {
				if _, ok := want[p]; !ok {
					t.Errorf("the editor wrote %s, which the service did not", p)
				}
			}
		})
	}
}

// A rename from a contract source whose text is not its artifact's is
// refused by name: the compile read the artifact, so the names of the
// text the editor shows are not the ones the rename would find.
func TestContractSourceNotPrepared(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(t *testing.T, cl *client, root string)
	}{
		{"edited, not saved", func(t *testing.T, cl *client, root string) {
			cl.open("contracts/books.axiom")
			change(cl, "contracts/books.axiom", 2, &protocol.TextDocumentContentChangePartial{Range: rng(0, 0, 0, 0), Text: "// a new first line\n"})
		}},
		{"saved, not prepared", func(t *testing.T, cl *client, root string) {
			name := filepath.Join(root, "contracts", "books.axiom")
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, append([]byte("// a new first line\n"), data...), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := cl.server.DidChangeWatchedFiles(cl.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: cl.uri("contracts/books.axiom"), Type: protocol.FileChangeTypeChanged}}}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := copyExample(t, "reading-list")
			cl, _ := start(t, root, protocol.ClientCapabilities{})
			c.edit(t, cl, root)
			// "title" of model Book, one line down after the new first line.
			pos := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: cl.uri("contracts/books.axiom")}, Position: protocol.Position{Line: 5, Character: 5}}
			const want = "contracts/books.axiom is not as prepared: .axiom/dev/contracts/books.axiom is not its copy; save it, run axiom prepare and rename again"
			if pr, err := cl.server.PrepareRename(cl.ctx, &protocol.PrepareRenameParams{TextDocumentPositionParams: pos}); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("prepareRename: %v, %v", pr, err)
			}
			if e, err := cl.server.Rename(cl.ctx, &protocol.RenameParams{TextDocumentPositionParams: pos, NewName: "name"}); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("rename: %v, %v", e, err)
			}
		})
	}
}

// at is the position of the first occurrence of what in text, moved by
// skip bytes.
func at(t *testing.T, text, what string, skip int) protocol.Position {
	t.Helper()
	off := strings.Index(text, what)
	if off < 0 {
		t.Fatalf("no %q in the text", what)
	}
	p := position.New([]byte(text)).Position(off+skip, position.UTF16)
	return protocol.Position{Line: p.Line, Character: p.Character}
}

// An editor applies a rename's edit to buffers and saves them later: the
// buffers, the lock's among them, compile together meanwhile, so every
// use of the renamed field already resolves to it.
func TestContractSourceRenameInBuffers(t *testing.T) {
	root := copyExample(t, "reading-list")
	cl, _ := start(t, root, protocol.ClientCapabilities{})
	text := cl.open("contracts/books.axiom")
	e, err := cl.server.Rename(cl.ctx, &protocol.RenameParams{NewName: "name", TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: cl.uri("contracts/books.axiom")}, Position: at(t, text, "    title: String", 4)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Changes[cl.uri(".axiom/ui.lock")]; !ok {
		t.Fatalf("the rename does not replace the lock: %v", e.Changes)
	}
	for u, edits := range e.Changes {
		rel, err := filepath.Rel(root, u.FsPath())
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if rel != "contracts/books.axiom" {
			cl.open(rel)
		}
		// One change event per edit, the last first, so that each range
		// is the buffer's as the edit found it.
		edits = slices.Clone(edits)
		sort.Slice(edits, func(i, j int) bool {
			a, b := edits[i].Range.Start, edits[j].Range.Start
			return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
		})
		var changes []protocol.TextDocumentContentChangeEvent
		for _, te := range edits {
			changes = append(changes, &protocol.TextDocumentContentChangePartial{Range: te.Range, Text: te.NewText})
		}
		change(cl, rel, 2, changes...)
	}
	for _, c := range []struct{ file, use string }{
		{"pages/book.acore", "Text(book.title"},
		{"components/book_row.acore", "Link(book.title"},
	} {
		disk, err := os.ReadFile(filepath.Join(root, c.file))
		if err != nil {
			t.Fatal(err)
		}
		// The buffer's use is book.name, where the disk's is book.title.
		h, err := cl.server.Hover(cl.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: cl.uri(c.file)}, Position: at(t, string(disk), c.use, len(c.use)-len("title"))}})
		if err != nil || h == nil || !strings.Contains(h.Contents.(*protocol.MarkupContent).Value, "node `field:Books.Book.name`") {
			t.Errorf("%s: the renamed use in the buffer does not resolve: %v, %v", c.file, h, err)
		}
	}
}
