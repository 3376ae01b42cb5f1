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

	"github.com/axiomcore/acore/internal/editor/position"
)

// TestMarkers runs the marker files of testdata/markers: each is a project
// whose sources carry comments `// @op(args...)` (args a JSON array's
// items) that ask the server about the first occurrence of a name on
// their line, as gopls's marker tests do:
//
//	@hover("name", "text")         the hover contains text
//	@def("name", "file", "line")   the definition is in file, on a line containing line, its range the name
//	@refs("name", n)               n references, the declaration included
//	@diag("AC201")                 a diagnostic with the code starts on this line
//
// A file that has no @diag marker must have no diagnostic.
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
				if strings.HasSuffix(name, ".acore") {
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
		at := func() protocol.Position {
			name := args[0].(string)
			code := line[:strings.Index(line, "//")]
			col := strings.Index(code, name)
			if col < 0 {
				t.Fatalf("%s:%d: %q is not on the line", rel, i+1, name)
			}
			off := 0
			for _, l := range lines[:i] {
				off += len(l) + 1
			}
			p := m.Position(off+col, position.UTF16)
			return protocol.Position{Line: p.Line, Character: p.Character}
		}
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
		default:
			t.Fatalf("%s: unknown marker", where)
		}
	}
	diags := c.waitDiags(rel, func([]protocol.Diagnostic) bool { return true })
	got := map[int][]string{}
	for _, d := range diags {
		code, _ := d.Code.(protocol.String)
		got[int(d.Range.Start.Line)] = append(got[int(d.Range.Start.Line)], string(code))
	}
	for line, codes := range wantDiag {
		for _, code := range codes {
			if !strings.Contains(strings.Join(got[line], " "), code) {
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
