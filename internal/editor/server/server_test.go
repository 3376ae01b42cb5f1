package server_test

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/editor/position"
	"github.com/axiomcore/acore/internal/lang/format"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

var twoFiles = map[string]string{
	"main.acore": `module shop

use component Card from "./card"

app Shop {
  route "/" => Home
}

page Home {
  state draft: String = "😀"
  view {
    Card(label: draft)
  }
}
`,
	"card.acore": `module card

component Card(label: String) {
  view { Text(label) }
}
`,
}

func codes(ds []protocol.Diagnostic) string {
	var out []string
	for _, d := range ds {
		c, _ := d.Code.(protocol.String)
		out = append(out, string(c))
	}
	return strings.Join(out, " ")
}

func change(c *client, rel string, version int32, changes ...protocol.TextDocumentContentChangeEvent) {
	c.t.Helper()
	if err := c.server.DidChange(c.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: c.uri(rel)}, Version: version},
		ContentChanges: changes}); err != nil {
		c.t.Fatal(err)
	}
}

func rng(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

// An edit in one file that breaks another is reported in the other, and
// an edit that mends it clears it with an empty list.
func TestDiagnosticsAcrossFiles(t *testing.T) {
	c, _ := start(t, writeProject(t, twoFiles), protocol.ClientCapabilities{})
	c.open("main.acore")
	c.open("card.acore")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	// Rename the prop in card.acore: Home's `label:` no longer exists.
	change(c, "card.acore", 2, &protocol.TextDocumentContentChangePartial{Range: rng(2, 15, 2, 20), Text: "title"},
		&protocol.TextDocumentContentChangePartial{Range: rng(3, 14, 3, 19), Text: "title"})
	ds := c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	if !strings.Contains(codes(ds), "AC302") && !strings.Contains(codes(ds), "AC303") {
		t.Fatalf("main.acore after the rename: %v", ds)
	}
	if ds[0].Range.Start.Line != 11 {
		t.Errorf("diagnostic on line %d, want 12: %+v", ds[0].Range.Start.Line+1, ds[0])
	}
	c.waitDiags("card.acore", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	// Undo it with a whole-document change.
	change(c, "card.acore", 3, &protocol.TextDocumentContentChangeWholeDocument{Text: twoFiles["card.acore"]})
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
}

// A request after a didChange sees the change: messages are handled in
// the order the client sent them.
func TestHoverSeesTheChange(t *testing.T) {
	c, _ := start(t, writeProject(t, twoFiles), protocol.ClientCapabilities{})
	c.open("main.acore")
	// state draft: String -> state draft: Int
	change(c, "main.acore", 2, &protocol.TextDocumentContentChangePartial{Range: rng(9, 15, 9, 25), Text: "Int = 1"})
	h, err := c.server.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("main.acore")}, Position: protocol.Position{Line: 9, Character: 9}}})
	if err != nil || h == nil {
		t.Fatalf("hover: %v %v", h, err)
	}
	if got := h.Contents.(*protocol.MarkupContent).Value; !strings.Contains(got, "Int") {
		t.Fatalf("hover after the change:\n%s", got)
	}
}

// The server takes UTF-8 when the client prefers it and counts columns in
// it; UTF-16 otherwise.
func TestPositionEncoding(t *testing.T) {
	root := writeProject(t, map[string]string{"main.acore": `module m

app A {
  route "/" => Home
}

page Home {
  state s: String = "😀😀"
  view { Text("😀" + nope) }
}
`})
	for _, c := range []struct {
		offer []protocol.PositionEncodingKind
		want  protocol.PositionEncodingKind
		col   uint32 // of nope on line 9
	}{
		{nil, "utf-16", 21},
		{[]protocol.PositionEncodingKind{"utf-8", "utf-16"}, "utf-8", 23},
		{[]protocol.PositionEncodingKind{"utf-32"}, "utf-32", 20},
	} {
		cl, res := start(t, root, protocol.ClientCapabilities{General: &protocol.GeneralClientCapabilities{PositionEncodings: c.offer}})
		if res.Capabilities.PositionEncoding != c.want {
			t.Errorf("offered %v: got %q, want %q", c.offer, res.Capabilities.PositionEncoding, c.want)
		}
		cl.open("main.acore")
		ds := cl.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
		if got := ds[0].Range.Start; got.Line != 8 || got.Character != c.col {
			t.Errorf("%s: diagnostic at %d:%d, want 9:%d", c.want, got.Line+1, got.Character, c.col)
		}
	}
}

// Files changed on disk by other programs are read again on
// didChangeWatchedFiles; the watcher is registered when the client can.
func TestWatchedFiles(t *testing.T) {
	root := writeProject(t, twoFiles)
	yes := true
	c, _ := start(t, root, protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &yes}}})
	c.open("main.acore")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	c.mu.Lock()
	for len(c.registrations) == 0 {
		c.cond.Wait()
	}
	if c.registrations[0].Method != protocol.MethodWorkspaceDidChangeWatchedFiles {
		t.Errorf("registered %+v", c.registrations)
	}
	c.mu.Unlock()
	// An agent rewrites card.acore, which is not open.
	card := filepath.Join(root, "card.acore")
	if err := os.WriteFile(card, []byte(strings.ReplaceAll(twoFiles["card.acore"], "label", "title")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.server.DidChangeWatchedFiles(c.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri("card.acore"), Type: protocol.FileChangeTypeChanged}}}); err != nil {
		t.Fatal(err)
	}
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
}

// Formatting gives exactly what axiom fmt writes.
func TestFormatting(t *testing.T) {
	messy := "module m\napp A {\n      route \"/\" => Home\n}\npage Home {\n view {   Text(\"a\") }\n}\n"
	c, _ := start(t, writeProject(t, map[string]string{"main.acore": messy}), protocol.ClientCapabilities{})
	c.open("main.acore")
	edits, err := c.server.Formatting(c.ctx, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("main.acore")}})
	if err != nil || len(edits) != 1 {
		t.Fatalf("formatting: %v %v", edits, err)
	}
	want, _, err := format.Check(syntax.Parse("main.acore", []byte(messy)))
	if err != nil {
		t.Fatal(err)
	}
	if edits[0].NewText != string(want) || edits[0].Range.Start != (protocol.Position{}) || edits[0].Range.End.Line != 7 {
		t.Errorf("edit %+v, want the whole file as\n%s", edits[0], want)
	}
	change(c, "main.acore", 2, &protocol.TextDocumentContentChangeWholeDocument{Text: string(want)})
	edits, err = c.server.Formatting(c.ctx, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("main.acore")}})
	if err != nil || len(edits) != 0 {
		t.Errorf("formatting a formatted file: %v %v", edits, err)
	}
}

// Document symbols are the declarations, members under their owner; a
// local contract's source has its artifact's.
func TestDocumentSymbols(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
		root             func(t *testing.T) string
	}{
		{"module", "main.acore",
			fmt.Sprintf("Shop %d line 5\n  / %d line 6\nHome %d line 9\n  draft %d line 10\n", protocol.SymbolKindModule, protocol.SymbolKindEvent, protocol.SymbolKindClass, protocol.SymbolKindVariable),
			func(t *testing.T) string { return writeProject(t, twoFiles) }},
		// The contract holds its model, whose fields are under it, and its
		// operations, each on its line of the source.
		{"contract source", "contracts/books.axiom", fmt.Sprintf("Books %d line 2\n  Book %d line 3\n    id %d line 4\n    title %[3]d line 5\n    author %[3]d line 6\n"+
			"  list_books %[4]d line 9\n  create_book %[4]d line 10\n  delete_book %[4]d line 11\n",
			protocol.SymbolKindInterface, protocol.SymbolKindStruct, protocol.SymbolKindField, protocol.SymbolKindMethod),
			func(t *testing.T) string { return copyExample(t, "reading-list") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := start(t, tc.root(t), protocol.ClientCapabilities{})
			c.open(tc.file)
			res, err := c.server.DocumentSymbol(c.ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(tc.file)}})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			var dump func([]protocol.DocumentSymbol, string)
			dump = func(ss []protocol.DocumentSymbol, indent string) {
				for _, s := range ss {
					fmt.Fprintf(&b, "%s%s %d line %d\n", indent, s.Name, s.Kind, s.SelectionRange.Start.Line+1)
					dump(s.Children, indent+"  ")
				}
			}
			dump(res.(protocol.DocumentSymbolSlice), "")
			if b.String() != tc.want {
				t.Errorf("symbols:\n%s\nwant:\n%s", b.String(), tc.want)
			}
		})
	}
}

// Workspace symbols are found in every file, whether open or not, by a
// subsequence of their name; a local contract's are in its source.
func TestWorkspaceSymbols(t *testing.T) {
	files := maps.Clone(twoFiles)
	files["main.acore"] = strings.Replace(files["main.acore"], "\n\nuse component", "\n\nuse contract Books from \"books\" audience \"web\"\nuse component", 1)
	files["contracts/books.axiom"] = "contract Books audience \"web\" {\n  model Book {\n    isbn: String\n  }\n\n  query list_books(): [Book]\n}\n"
	c, _ := start(t, writeProject(t, files), protocol.ClientCapabilities{})
	for _, tc := range []struct{ query, want string }{
		{"card", "Card card.acore"},
		{"lbl", "label card.acore Card"},
		{"drf", "draft main.acore Home"},
		{"isbn", "isbn contracts/books.axiom Books.Book"},
		{"lstbk", "list_books contracts/books.axiom Books"},
		{"zzz", ""},
	} {
		res, err := c.server.Symbols(c.ctx, &protocol.WorkspaceSymbolParams{Query: tc.query})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range res.(protocol.SymbolInformationSlice) {
			rel, _ := filepath.Rel(c.root, s.Location.URI.FsPath())
			container := ""
			if s.ContainerName != nil {
				container = *s.ContainerName
			}
			got = append(got, strings.TrimSpace(s.Name+" "+filepath.ToSlash(rel)+" "+container))
		}
		if strings.Join(got, "; ") != tc.want {
			t.Errorf("%q: %q, want %q", tc.query, got, tc.want)
		}
	}
}

// Blocks that span lines fold, their closing line left visible, and so do
// runs of comments and of use lines.
func TestFoldingRanges(t *testing.T) {
	src := map[string]string{"main.acore": `module shop

// one
// two
use component Card from "./card"
use component Card2 from "./card2"

app Shop {
  route "/" => Home
}

page Home {
  view {
    Card(
      label: "x")
  }
}
`, "card.acore": "module card\n\ncomponent Card(label: String) {\n  view { Text(label) }\n}\n",
		"card2.acore": "module card2\n\ncomponent Card2(label: String) {\n  view { Text(label) }\n}\n"}
	c, _ := start(t, writeProject(t, src), protocol.ClientCapabilities{})
	c.open("main.acore")
	rs, err := c.server.FoldingRanges(c.ctx, &protocol.FoldingRangeParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("main.acore")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, fmt.Sprintf("%d-%d%s", r.StartLine+1, r.EndLine+1, r.Kind))
	}
	want := "3-4comment 5-6imports 8-9 12-16 13-15"
	if strings.Join(got, " ") != want {
		t.Errorf("folding ranges %q, want %q", strings.Join(got, " "), want)
	}
}

// The server says what it can do: each feature the tests exercise is
// advertised in initialize's answer.
func TestCapabilities(t *testing.T) {
	_, res := start(t, writeProject(t, twoFiles), protocol.ClientCapabilities{})
	caps := res.Capabilities
	for name, ok := range map[string]bool{
		"hover": caps.HoverProvider != nil, "definition": caps.DefinitionProvider != nil,
		"references": caps.ReferencesProvider != nil, "documentSymbol": caps.DocumentSymbolProvider != nil,
		"workspaceSymbol": caps.WorkspaceSymbolProvider != nil, "formatting": caps.DocumentFormattingProvider != nil,
		"rename": caps.RenameProvider != nil, "codeAction": caps.CodeActionProvider != nil,
		"completion": caps.CompletionProvider != nil, "signatureHelp": caps.SignatureHelpProvider != nil,
		"semanticTokens": caps.SemanticTokensProvider != nil, "foldingRange": caps.FoldingRangeProvider != nil,
	} {
		if !ok {
			t.Errorf("%s is not advertised", name)
		}
	}
}

// A name declared twice points at its first declaration, in the same
// file or another.
func TestRelatedInformation(t *testing.T) {
	src := map[string]string{
		"main.acore": "module shop\n\nuse component Card from \"./card\"\n\napp Shop {\n  route \"/\" => Home\n}\n\npage Home {\n  state draft: String = \"\"\n  state draft: Int = 0\n  view { Card(label: draft) }\n}\n\npage Other {\n  view { Text(\"x\") }\n}\n",
		"card.acore": "module card\n\ncomponent Card(label: String) {\n  view { Text(label) }\n}\n\npage Other {\n  view { Text(\"x\") }\n}\n",
	}
	c, _ := start(t, writeProject(t, src), protocol.ClientCapabilities{})
	c.open("main.acore")
	for _, tc := range []struct{ file, code, relFile, relText string }{
		{"main.acore", "AC202", "main.acore", `state draft: String = ""`},
		{"main.acore", "AC203", "card.acore", "Other"},
	} {
		ds := c.waitDiags(tc.file, func(ds []protocol.Diagnostic) bool { return strings.Contains(codes(ds), tc.code) })
		found := false
		for _, d := range ds {
			if code, _ := d.Code.(protocol.String); string(code) != tc.code {
				continue
			}
			if len(d.RelatedInformation) != 1 {
				t.Errorf("%s %s: related %v", tc.file, tc.code, d.RelatedInformation)
				continue
			}
			found = true
			checkLocation(t, c, tc.code, d.RelatedInformation[0].Location, tc.relFile, "", tc.relText)
		}
		if !found {
			t.Errorf("%s: no %s with related information", tc.file, tc.code)
		}
	}
}

// A workspace folder that is a repository of several apps serves each:
// their symbols are found before any file is opened, and a file is
// compiled with the project it is in.
func TestWorkspaceOfSeveralProjects(t *testing.T) {
	top := t.TempDir()
	for _, name := range []string{"shop", "apps/admin"} {
		root := writeProject(t, map[string]string{"main.acore": strings.ReplaceAll(twoFiles["main.acore"], "draft", strings.ReplaceAll(name, "/", "_")+"_draft"), "card.acore": twoFiles["card.acore"]})
		dst := filepath.Join(top, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(root, dst); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := start(t, top, protocol.ClientCapabilities{})
	res, err := c.server.Symbols(c.ctx, &protocol.WorkspaceSymbolParams{Query: "draft"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.(protocol.SymbolInformationSlice) {
		got = append(got, s.Name)
	}
	if strings.Join(got, " ") != "apps_admin_draft shop_draft" {
		t.Errorf("symbols %q", got)
	}
	c.open("apps/admin/main.acore")
	if ds := c.waitDiags("apps/admin/main.acore", func([]protocol.Diagnostic) bool { return true }); len(ds) != 0 {
		t.Errorf("diagnostics %v", ds)
	}
}

// A method the server does not have answers -32601; a file outside the
// workspace folder answers an error and is not read, even when it is in
// a project of its own.
func TestRobustness(t *testing.T) {
	c, _ := start(t, writeProject(t, twoFiles), protocol.ClientCapabilities{})
	_, err := c.server.Request(c.ctx, "acore/nope", map[string]any{})
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.MethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	other := writeProject(t, twoFiles)
	u := uri.File(filepath.Join(other, "main.acore"))
	_, err = c.server.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 9, Character: 9}}})
	if err == nil || !strings.Contains(err.Error(), "no Acore project of the workspace") {
		t.Errorf("hover outside the workspace: %v", err)
	}
	res, err := c.server.Symbols(c.ctx, &protocol.WorkspaceSymbolParams{Query: "draft"})
	if err != nil || len(res.(protocol.SymbolInformationSlice)) != 1 {
		t.Errorf("after a request outside the workspace, symbols %v %v", res, err)
	}
}

// shelf is a project whose delete is rated below high: AXAG011 on the
// member, with AXAG004 (no idempotent).
var shelf = map[string]string{
	"main.acore": `module shelf

use contract Books from "books" audience "web"

app Shelf { route "/" => Home }

page Home {
  query books = Books.list_books()
  @axag(risk_level: "low")
  mutation remove = Books.delete_book(id: "b1")

  view {
    Button("Delete", on_press: || remove.run())
    List(items: books.data, key: |b| b.id) { b => Text(b.title) }
  }
}
`,
	"contracts/books.axiom": `contract Books audience "web" {
  model Book {
    id: String
    title: String
  }

  query list_books(): [Book]
  mutation delete_book(id: String)
}
`,
}

func axagCodes(ds []protocol.Diagnostic) string {
	var out []string
	for _, d := range ds {
		if src, _ := d.Source.Get(); src == "axag" {
			code, _ := d.Code.(protocol.String)
			out = append(out, string(code))
		}
	}
	return strings.Join(out, " ")
}

// The AXAG findings of the manifest are diagnostics where they are
// written, from the first publication on; they follow the edits that
// mend or cause them, and a project with errors has none (its manifest
// would miss what the errors hide).
func TestAxagDiagnostics(t *testing.T) {
	c, _ := start(t, writeProject(t, shelf), protocol.ClientCapabilities{})
	c.open("main.acore")
	ds := c.waitDiags("main.acore", func([]protocol.Diagnostic) bool { return true })
	var low *protocol.Diagnostic
	for i, d := range ds {
		if code, _ := d.Code.(protocol.String); code == "AXAG011" {
			low = &ds[i]
		}
	}
	if low == nil || axagCodes(ds) != "AXAG004 AXAG011" {
		t.Fatalf("first diagnostics %v, want AXAG004 and AXAG011 from axag", ds)
	}
	// On the member's name, line 10 `  mutation remove = ...`.
	if want := rng(9, 11, 9, 17); low.Range != want {
		t.Errorf("AXAG011 at %+v, want %+v (the name remove)", low.Range, want)
	}
	msg, _ := low.Message.(protocol.String)
	if low.Severity != protocol.DiagnosticSeverityWarning || !strings.Contains(string(msg), "delete rated low, below high") ||
		!strings.Contains(string(msg), "\nfix: use risk_level: \"high\"") {
		t.Errorf("AXAG011 is %+v", low)
	}

	fixed := strings.Replace(shelf["main.acore"], `@axag(risk_level: "low")`, `@axag(risk_level: "high", idempotent: true, confirmation_required: true)`, 1)
	change(c, "main.acore", 2, &protocol.TextDocumentContentChangeWholeDocument{Text: fixed})
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "" })

	broken := strings.Replace(shelf["main.acore"], "remove.run()", "remove.runn()", 1)
	change(c, "main.acore", 3, &protocol.TextDocumentContentChangeWholeDocument{Text: broken})
	ds = c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return errorCount(ds) > 0 })
	if axagCodes(ds) != "" {
		t.Errorf("with a compile error: %v", ds)
	}

	change(c, "main.acore", 4, &protocol.TextDocumentContentChangeWholeDocument{Text: shelf["main.acore"]})
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool {
		return errorCount(ds) == 0 && axagCodes(ds) == "AXAG004 AXAG011"
	})
}

// applyFix applies the quick fix titled title among the code actions of
// the selected line of rel (zero-based) to text, sends the result as the document's
// next version and returns it.
func applyFix(t *testing.T, c *client, rel string, version int32, text string, line uint32, title string) string {
	t.Helper()
	acts, err := c.server.CodeAction(c.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(rel)},
		Range: rng(line, 0, line+1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, a := range acts {
		ca, ok := a.(*protocol.CodeAction)
		if !ok {
			continue
		}
		titles = append(titles, ca.Title)
		if ca.Title != title {
			continue
		}
		edits := ca.Edit.Changes[c.uri(rel)]
		if len(edits) != 1 {
			t.Fatalf("%s: edits %v", title, edits)
		}
		m := position.New([]byte(text))
		start, _ := m.Offset(position.Position{Line: edits[0].Range.Start.Line, Character: edits[0].Range.Start.Character}, position.UTF16)
		end, _ := m.Offset(position.Position{Line: edits[0].Range.End.Line, Character: edits[0].Range.End.Character}, position.UTF16)
		text = text[:start] + edits[0].NewText + text[end:]
		change(c, rel, version, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
		return text
	}
	t.Fatalf("no quick fix %q on line %d; there are %q", title, line+1, titles)
	return ""
}

// The AXAG findings have quick fixes that set the fact in the member's
// @axag, or add the annotation: applied one after the other, as a person
// would, they leave the member with complete facts and no finding.
func TestAxagQuickFixes(t *testing.T) {
	c, _ := start(t, writeProject(t, shelf), protocol.ClientCapabilities{})
	c.open("main.acore")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "AXAG004 AXAG011" })
	acts, err := c.server.CodeAction(c.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("main.acore")},
		Range: rng(9, 13, 9, 13)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range acts {
		ca := a.(*protocol.CodeAction)
		code, _ := ca.Diagnostics[0].Code.(protocol.String)
		got = append(got, fmt.Sprintf("%s %s %v", code, ca.Title, *ca.IsPreferred))
	}
	want := []string{
		"AXAG004 Declare idempotent: true in @axag false",
		"AXAG004 Declare idempotent: false in @axag false",
		`AXAG011 Declare risk_level: "high" in @axag true`,
		`AXAG011 Declare risk_level: "critical" in @axag false`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("quick fixes on the member\n%q\nwant\n%q", got, want)
	}

	text := applyFix(t, c, "main.acore", 2, shelf["main.acore"], 9, `Declare risk_level: "high" in @axag`)
	// High risk: now it should ask for confirmation.
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "AXAG003 AXAG004" })
	text = applyFix(t, c, "main.acore", 3, text, 9, "Declare confirmation_required: true in @axag")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "AXAG004" })
	text = applyFix(t, c, "main.acore", 4, text, 9, "Declare idempotent: true in @axag")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "" && errorCount(ds) == 0 })
	if want := "  @axag(risk_level: \"high\", confirmation_required: true, idempotent: true)\n  mutation remove = Books.delete_book(id: \"b1\")\n"; !strings.Contains(text, want) {
		t.Errorf("after the fixes:\n%s", text)
	}

	// A member without @axag gets one on its own line.
	bare := strings.Replace(shelf["main.acore"], "  @axag(risk_level: \"low\")\n", "", 1)
	change(c, "main.acore", 5, &protocol.TextDocumentContentChangeWholeDocument{Text: bare})
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "AXAG004 AXAG010" })
	text = applyFix(t, c, "main.acore", 6, bare, 8, `Declare risk_level: "high" in @axag`)
	if want := "  query books = Books.list_books()\n  @axag(risk_level: \"high\")\n  mutation remove = "; !strings.Contains(text, want) {
		t.Errorf("the annotation added:\n%s", text)
	}
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "AXAG003 AXAG004" && errorCount(ds) == 0 })
}

// An element's own action is mended in the element's @axag.
func TestAxagQuickFixOnElement(t *testing.T) {
	src := maps.Clone(shelf)
	src["main.acore"] = strings.Replace(strings.Replace(shelf["main.acore"], `@axag(risk_level: "low")`, `@axag(risk_level: "high", idempotent: true, confirmation_required: true)`, 1),
		`    Button("Delete", on_press: || remove.run())`,
		"    Button(\"Delete\", on_press: || remove.run())\n    @axag(intent: \"book.share\", action_type: \"write\", idempotent: true)\n    Button(\"Share\", on_press: || { shared = true })", 1)
	src["main.acore"] = strings.Replace(src["main.acore"], "page Home {\n", "page Home {\n  state shared: Bool = false\n", 1)
	c, _ := start(t, writeProject(t, src), protocol.ClientCapabilities{})
	c.open("main.acore")
	ds := c.waitDiags("main.acore", func([]protocol.Diagnostic) bool { return true })
	if axagCodes(ds) != "AXAG010" || ds[len(ds)-1].Range.Start.Line != 15 {
		t.Fatalf("diagnostics %v, want AXAG010 on line 16", ds)
	}
	text := applyFix(t, c, "main.acore", 2, src["main.acore"], 15, `Declare risk_level: "medium" in @axag`)
	if want := "    @axag(intent: \"book.share\", action_type: \"write\", idempotent: true, risk_level: \"medium\")\n    Button(\"Share\""; !strings.Contains(text, want) {
		t.Errorf("after the fix:\n%s", text)
	}
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "" && errorCount(ds) == 0 })
}

// Inlay hints show what the text does not: a let's inferred type after its
// name, and each query's and mutation's AXAG action after it, as the
// manifest tells runtime agents. The actions wait for the findings'
// compile after an edit, and the server asks the client to refresh the
// hints once it is made.
func TestInlayHints(t *testing.T) {
	src := maps.Clone(shelf)
	src["main.acore"] = strings.Replace(shelf["main.acore"], "  query books", "  let none = books.data.is_empty\n  query books", 1)
	yes := true
	c, _ := start(t, writeProject(t, src), protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		InlayHint: &protocol.InlayHintWorkspaceClientCapabilities{RefreshSupport: &yes}}})
	c.open("main.acore")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "AXAG004 AXAG011" })
	// hints waits for the hints to be want: asked again after each refresh
	// the server sends, as an editor does.
	hints := func(want []string) {
		t.Helper()
		for {
			c.mu.Lock()
			before := c.refreshes
			c.mu.Unlock()
			hs, err := c.server.InlayHint(c.ctx, &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("main.acore")},
				Range: rng(0, 0, 100, 0)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hs {
				got = append(got, fmt.Sprintf("%d:%d %s", h.Position.Line+1, h.Position.Character, h.Label))
			}
			if slices.Equal(got, want) {
				return
			}
			if !c.await(func() bool { return c.refreshes != before }) {
				t.Fatalf("inlay hints\n%q\nwant\n%q", got, want)
			}
		}
	}
	want := []string{
		"8:10 : Bool",
		"9:34 AXAG book.list: read, idempotent",
		"11:47 AXAG book.delete: delete, risk low",
	}
	hints(want)

	// After an edit the let's type is there at once, and the action's
	// facts once the findings are made, which a refresh tells.
	edited := strings.Replace(src["main.acore"], `@axag(risk_level: "low")`, `@axag(risk_level: "high", idempotent: true, confirmation_required: true)`, 1)
	change(c, "main.acore", 2, &protocol.TextDocumentContentChangeWholeDocument{Text: edited})
	want[2] = "11:47 AXAG book.delete: delete, risk high, idempotent, asks for confirmation"
	hints(want)
}

// The occurrences of a name in its file: the declaration and each
// assignment are writes, the other uses reads; another page's draft is
// another declaration.
func TestDocumentHighlight(t *testing.T) {
	const main = `module m

app A { route "/" => Home  route "/b" => Other }

page Home {
  state draft: String = ""
  action clear() {
    draft = ""
  }
  view {
    Input(value: draft)
    Text(draft + "!")
    Button("Clear", on_press: clear)
  }
}

page Other {
  state draft: Int = 0
  view { Text("" + draft) }
}
`
	c, _ := start(t, writeProject(t, map[string]string{"main.acore": main}), protocol.ClientCapabilities{})
	c.open("main.acore")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return errorCount(ds) == 0 })
	hs, err := c.server.DocumentHighlight(c.ctx, &protocol.DocumentHighlightParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("main.acore")}, Position: protocol.Position{Line: 5, Character: 9}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		got = append(got, fmt.Sprintf("%d:%d-%d %v", h.Range.Start.Line+1, h.Range.Start.Character, h.Range.End.Character, h.Kind))
	}
	w, r := protocol.DocumentHighlightKindWrite, protocol.DocumentHighlightKindRead
	want := []string{fmt.Sprintf("6:8-13 %v", w), fmt.Sprintf("8:4-9 %v", w), fmt.Sprintf("11:17-22 %v", r), fmt.Sprintf("12:9-14 %v", r)}
	if !slices.Equal(got, want) {
		t.Errorf("highlights of draft\n%q\nwant\n%q", got, want)
	}
}

// The paths of use lines are links to the files they name: a component's
// source, a local contract's source.
func TestDocumentLinks(t *testing.T) {
	src := maps.Clone(twoFiles)
	src["main.acore"] = strings.Replace(twoFiles["main.acore"], "use component Card", "use contract Books from \"books\" audience \"web\"\nuse component Card", 1)
	src["contracts/books.axiom"] = shelf["contracts/books.axiom"]
	c, _ := start(t, writeProject(t, src), protocol.ClientCapabilities{})
	c.open("main.acore")
	links, err := c.server.DocumentLink(c.ctx, &protocol.DocumentLinkParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("main.acore")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range links {
		rel, _ := filepath.Rel(c.root, l.Target.FsPath())
		got = append(got, fmt.Sprintf("%d:%d-%d %s", l.Range.Start.Line+1, l.Range.Start.Character, l.Range.End.Character, filepath.ToSlash(rel)))
	}
	if want := []string{"3:25-30 contracts/books.axiom", "4:25-31 card.acore"}; !slices.Equal(got, want) {
		t.Errorf("links %q, want %q", got, want)
	}
}

// A binding's fact less restrictive than its contract's (AXAG102), or one
// that contradicts the contract (AXAG151), has the quick fix that leaves
// it out: the contract's stands.
func TestAxagLeaveOutFix(t *testing.T) {
	src := maps.Clone(shelf)
	src["contracts/books.axiom"] = strings.Replace(shelf["contracts/books.axiom"], "  mutation delete_book", "  @axag(risk_level: \"high\", idempotent: true, confirmation_required: true)\n  mutation delete_book", 1)
	src["main.acore"] = strings.Replace(shelf["main.acore"], `@axag(risk_level: "low")`, `@axag(action_type: "read", risk_level: "low")`, 1)
	c, _ := start(t, writeProject(t, src), protocol.ClientCapabilities{})
	c.open("main.acore")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "AXAG102 AXAG151" })
	text := applyFix(t, c, "main.acore", 2, src["main.acore"], 9, "Leave action_type out of @axag")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "AXAG102" })
	text = applyFix(t, c, "main.acore", 3, text, 9, "Leave risk_level out of @axag")
	c.waitDiags("main.acore", func(ds []protocol.Diagnostic) bool { return axagCodes(ds) == "" && errorCount(ds) == 0 })
	if want := "  query books = Books.list_books()\n  mutation remove = Books.delete_book(id: \"b1\")\n"; !strings.Contains(text, want) {
		t.Errorf("after the fixes:\n%s", text)
	}
}
