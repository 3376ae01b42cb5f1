package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"go.lsp.dev/protocol"

	"github.com/axiomcore/acore/internal/editor/features"
	"github.com/axiomcore/acore/internal/editor/position"
)

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestMarkers runs the marker files of testdata/markers: each is a project
// whose sources carry comments `// @op(args...)` (args a JSON array's
// items) that ask the server about the first occurrence of a name on
// their line, as gopls's marker tests do:
//
//	@hover("name", "text")         the hover contains text
//	@def("name", "file", "line")   the definition is in file, on a line containing line, its range the name
//	@typedef("name", "file", "line") the type definition (its model) is in file, on a line containing line
//	@refs("name", n)               n references, the declaration included
//	@diag("AC201")                 a diagnostic with the code starts on this line
//	@complete("text", "label"...)  completion after text offers each label
//	@sig("text", "param", "label") signature help after text has param active in a label starting so
//	@rename("name", "new", n)      renaming the name edits n places
//	@renameerr("name", "new", "x") renaming the name is refused with a message containing x
//	@fix("name", "new")            the line has a diagnostic whose quick fix replaces the name by new
//	@token("name", "type")         the semantic token of the name has the type
//	@format()                      formatting the file gives no edit: it is as axiom fmt writes it
//
// The markers of a local contract's source contracts/<id>.axiom run too.
// A source file that has no @diag marker must have no diagnostic.
func TestMarkers(t *testing.T) {
	files, _ := filepath.Glob("testdata/markers/*.txtar")
	if len(files) == 0 {
		t.Fatal("no marker files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			src := map[string]string{}
			for _, f := range ar.Files {
				src[f.Name] = string(f.Data)
			}
			root := writeProject(t, src)
			c, _ := start(t, root, protocol.ClientCapabilities{})
			names := make([]string, 0, len(src))
			for name := range src {
				if strings.HasSuffix(name, ".acore") || strings.HasPrefix(name, "contracts/") {
					names = append(names, name)
				}
			}
			sort.Strings(names)
			for _, name := range names {
				c.open(name)
			}
			for _, name := range names {
				runMarkers(t, c, name, src[name])
			}
		})
	}
}

var markerRE = regexp.MustCompile(`//\s*@(\w+)\((.*)\)\s*$`)

func runMarkers(t *testing.T, c *client, rel, text string) {
	lines := strings.Split(text, "\n")
	m := position.New([]byte(text))
	wantDiag := map[int][]string{}
	for i, line := range lines {
		mm := markerRE.FindStringSubmatch(line)
		if mm == nil {
			continue
		}
		var args []any
		if err := json.Unmarshal([]byte("["+mm[2]+"]"), &args); err != nil {
			t.Fatalf("%s:%d: bad marker arguments: %v", rel, i+1, err)
		}
		// pos is where args[0] starts on the line, or with end where it
		// ends: the cursor of a completion typed after it.
		pos := func(end bool) protocol.Position {
			name := args[0].(string)
			code := line[:strings.Index(line, "//")]
			col := strings.Index(code, name)
			if col < 0 {
				t.Fatalf("%s:%d: %q is not on the line", rel, i+1, name)
			}
			if end {
				col += len(name)
			}
			off := 0
			for _, l := range lines[:i] {
				off += len(l) + 1
			}
			p := m.Position(off+col, position.UTF16)
			return protocol.Position{Line: p.Line, Character: p.Character}
		}
		at := func() protocol.Position { return pos(false) }
		where := fmt.Sprintf("%s:%d: @%s(%s)", rel, i+1, mm[1], mm[2])
		td := protocol.TextDocumentIdentifier{URI: c.uri(rel)}
		switch mm[1] {
		case "hover":
			h, err := c.server.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: at()}})
			if err != nil || h == nil {
				t.Errorf("%s: no hover (%v)", where, err)
				continue
			}
			got := h.Contents.(*protocol.MarkupContent).Value
			if !strings.Contains(got, args[1].(string)) {
				t.Errorf("%s: hover is\n%s", where, got)
			}
		case "def":
			res, err := c.server.Definition(c.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: at()}})
			locs, _ := res.(protocol.LocationSlice)
			if err != nil || len(locs) != 1 {
				t.Errorf("%s: definition %v, %v", where, locs, err)
				continue
			}
			checkLocation(t, c, where, locs[0], args[1].(string), args[2].(string), args[0].(string))
		case "typedef":
			res, err := c.server.TypeDefinition(c.ctx, &protocol.TypeDefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: at()}})
			locs, _ := res.(protocol.LocationSlice)
			if err != nil || len(locs) != 1 {
				t.Errorf("%s: type definition %v, %v", where, locs, err)
				continue
			}
			words := strings.Fields(args[2].(string))
			checkLocation(t, c, where, locs[0], args[1].(string), args[2].(string), words[len(words)-1])
		case "refs":
			locs, err := c.server.References(c.ctx, &protocol.ReferenceParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: at()},
				Context: protocol.ReferenceContext{IncludeDeclaration: true}})
			if err != nil || len(locs) != int(args[1].(float64)) {
				t.Errorf("%s: %d references (%v): %v", where, len(locs), err, locs)
			}
			for _, l := range locs {
				checkLocation(t, c, where, l, "", "", args[0].(string))
			}
		case "diag":
			wantDiag[i] = append(wantDiag[i], args[0].(string))
		case "complete":
			res, err := c.server.Completion(c.ctx, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: pos(true)}})
			list, _ := res.(*protocol.CompletionList)
			if err != nil || list == nil {
				t.Errorf("%s: no completion (%v)", where, err)
				continue
			}
			labels := map[string]bool{}
			for _, it := range list.Items {
				labels[it.Label] = true
			}
			for _, want := range args[1:] {
				if !labels[want.(string)] {
					t.Errorf("%s: no %q among %d items: %v", where, want, len(list.Items), keys(labels))
				}
			}
		case "sig":
			h, err := c.server.SignatureHelp(c.ctx, &protocol.SignatureHelpParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: pos(true)}})
			if err != nil || h == nil || len(h.Signatures) != 1 {
				t.Errorf("%s: signature help %+v (%v)", where, h, err)
				continue
			}
			sig := h.Signatures[0]
			active, _ := sig.ActiveParameter.Get()
			if !strings.HasPrefix(sig.Label, args[2].(string)) || int(active) >= len(sig.Parameters) {
				t.Errorf("%s: signature %q, active %d", where, sig.Label, active)
				continue
			}
			r := sig.Parameters[active].Label.(protocol.ParameterInformationLabelTuple)
			if got := sig.Label[r[0]:r[1]]; !strings.HasPrefix(got, args[1].(string)+":") {
				t.Errorf("%s: active parameter %q of %q", where, got, sig.Label)
			}
		case "rename", "renameerr":
			e, err := c.server.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: at()}, NewName: args[1].(string)})
			if mm[1] == "renameerr" {
				if err == nil || !strings.Contains(err.Error(), args[2].(string)) {
					t.Errorf("%s: rename answered %v, %v", where, e, err)
				}
				continue
			}
			if err != nil || e == nil {
				t.Errorf("%s: rename refused: %v", where, err)
				continue
			}
			n := 0
			for u, edits := range e.Changes {
				if strings.HasSuffix(string(u), "/.axiom/ui.lock") {
					// Re-prepared whole for a local contract's field.
					if len(edits) != 1 || !strings.Contains(edits[0].NewText, `"contracts"`) {
						t.Errorf("%s: lock edits %v", where, edits)
					}
					continue
				}
				for _, te := range edits {
					n++
					name, _, _ := strings.Cut(args[0].(string), " ")
					checkLocation(t, c, where, protocol.Location{URI: u, Range: te.Range}, "", "", name)
					if te.NewText != args[1].(string) {
						t.Errorf("%s: edit to %q", where, te.NewText)
					}
				}
			}
			if n != int(args[2].(float64)) {
				t.Errorf("%s: %d edits, want %v: %v", where, n, args[2], e.Changes)
			}
			if pr, err := c.server.PrepareRename(c.ctx, &protocol.PrepareRenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: at()}}); err != nil || pr == nil {
				t.Errorf("%s: prepareRename %v, %v", where, pr, err)
			}
		case "fix":
			wantDiag[i] = append(wantDiag[i], "")
			p := at()
			acts, err := c.server.CodeAction(c.ctx, &protocol.CodeActionParams{TextDocument: td, Range: protocol.Range{Start: p, End: p}})
			if err != nil || len(acts) != 1 {
				t.Errorf("%s: code actions %v, %v", where, acts, err)
				continue
			}
			a := acts[0].(*protocol.CodeAction)
			edits := a.Edit.Changes[c.uri(rel)]
			if len(edits) != 1 || edits[0].NewText != args[1].(string) {
				t.Errorf("%s: code action %q edits %v", where, a.Title, edits)
				continue
			}
			checkLocation(t, c, where, protocol.Location{URI: c.uri(rel), Range: edits[0].Range}, "", "", args[0].(string))
		case "format":
			edits, err := c.server.Formatting(c.ctx, &protocol.DocumentFormattingParams{TextDocument: td})
			if err != nil || len(edits) != 0 {
				t.Errorf("%s: formatting gives %v, %v", where, edits, err)
			}
		case "token":
			toks, err := c.server.SemanticTokensFull(c.ctx, &protocol.SemanticTokensParams{TextDocument: td})
			if err != nil || toks == nil {
				t.Errorf("%s: semantic tokens %v", where, err)
				continue
			}
			p := at()
			var line, char uint32
			found := false
			for k := 0; k+5 <= len(toks.Data); k += 5 {
				d := toks.Data[k : k+5]
				if d[0] > 0 {
					char = 0
				}
				line, char = line+d[0], char+d[1]
				if line == p.Line && char == p.Character {
					found = true
					if got := features.TokenTypes[d[3]]; got != args[1].(string) || d[2] != uint32(len(args[0].(string))) {
						t.Errorf("%s: token %s of length %d", where, got, d[2])
					}
				}
			}
			if !found {
				t.Errorf("%s: no semantic token at %v", where, p)
			}
		default:
			t.Fatalf("%s: unknown marker", where)
		}
	}
	if !strings.HasSuffix(rel, ".acore") {
		// A contract's source is not compiled: its diagnostics are its
		// artifact's.
		return
	}
	diags := c.waitDiags(rel, func([]protocol.Diagnostic) bool { return true })
	got := map[int][]string{}
	for _, d := range diags {
		code, _ := d.Code.(protocol.String)
		got[int(d.Range.Start.Line)] = append(got[int(d.Range.Start.Line)], string(code))
	}
	for line, codes := range wantDiag {
		for _, code := range codes {
			if !strings.Contains(strings.Join(got[line], " "), code) || len(got[line]) == 0 {
				t.Errorf("%s:%d: want a diagnostic %s; the line has %v (all: %v)", rel, line+1, code, got[line], diags)
			}
		}
	}
	for line, codes := range got {
		if wantDiag[line] == nil {
			t.Errorf("%s:%d: unexpected diagnostics %v", rel, line+1, codes)
		}
	}
}

// checkLocation checks that l is in file (when not ""), on a line that
// contains line (when not ""), and that its range holds name.
func checkLocation(t *testing.T, c *client, where string, l protocol.Location, file, line, name string) {
	t.Helper()
	rel, err := filepath.Rel(c.root, l.URI.FsPath())
	if err != nil {
		t.Fatal(err)
	}
	rel = filepath.ToSlash(rel)
	if file != "" && rel != file {
		t.Errorf("%s: location in %s, want %s", where, rel, file)
		return
	}
	data, err := os.ReadFile(l.URI.FsPath())
	if err != nil {
		t.Fatal(err)
	}
	m := position.New(data)
	start, _ := m.Offset(position.Position{Line: l.Range.Start.Line, Character: l.Range.Start.Character}, position.UTF16)
	end, _ := m.Offset(position.Position{Line: l.Range.End.Line, Character: l.Range.End.Character}, position.UTF16)
	if got := string(data[start:end]); got != name {
		t.Errorf("%s: location %s:%d holds %q, want %q", where, rel, l.Range.Start.Line+1, got, name)
	}
	if line != "" && !strings.Contains(strings.Split(string(data), "\n")[l.Range.Start.Line], line) {
		t.Errorf("%s: location on line %d of %s, which lacks %q", where, l.Range.Start.Line+1, rel, line)
	}
}
