// Package features computes what the language server answers, each as a
// function of a snapshot, a file and a position (as gopls's golang
// package does); the server's handlers only decode, call and encode.
package features

import (
	"bytes"
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/editor/cache"
	"github.com/axiomcore/acore/internal/editor/position"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/format"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/lock"
	"github.com/axiomcore/acore/internal/lang/refs"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Files maps the files of one snapshot to URIs and positions, each file's
// line table built once.
type Files struct {
	Snap *cache.Snapshot
	Enc  position.Encoding
	m    map[string]*position.Mapper
}

// NewFiles returns the mapper of the snapshot's files in encoding enc.
func NewFiles(s *cache.Snapshot, enc position.Encoding) *Files {
	return &Files{Snap: s, Enc: enc, m: map[string]*position.Mapper{}}
}

// Mapper returns the mapper of the file at rel, or nil when it has no text.
func (fs *Files) Mapper(rel string) *position.Mapper {
	if m, ok := fs.m[rel]; ok {
		return m
	}
	var m *position.Mapper
	if text, ok := fs.Snap.Text(rel); ok {
		m = position.New(text)
	}
	fs.m[rel] = m
	return m
}

// URI is the URI of the project-relative path rel.
func (fs *Files) URI(rel string) uri.URI { return uri.File(fs.Snap.View.Abs(rel)) }

// Range is the range of the bytes [pos, end) of rel.
func (fs *Files) Range(rel string, pos, end int) protocol.Range {
	m := fs.Mapper(rel)
	if m == nil {
		return protocol.Range{}
	}
	return protocol.Range{Start: lsp(m.Position(pos, fs.Enc)), End: lsp(m.Position(end, fs.Enc))}
}

// Offset is the byte offset of p in rel.
func (fs *Files) Offset(rel string, p protocol.Position) (int, bool) {
	m := fs.Mapper(rel)
	if m == nil {
		return 0, false
	}
	return m.Offset(position.Position{Line: p.Line, Character: p.Character}, fs.Enc)
}

func lsp(p position.Position) protocol.Position {
	return protocol.Position{Line: p.Line, Character: p.Character}
}

// Diagnostics returns the diagnostics of every file of the snapshot, by
// project-relative path; a file without any has an empty list, so that an
// editor clears what it showed. A diagnostic of no file (a missing lock)
// is shown on main.acore.
func Diagnostics(fs *Files) map[string][]protocol.Diagnostic {
	out := map[string][]protocol.Diagnostic{}
	for _, p := range fs.Snap.Sources() {
		out[p] = []protocol.Diagnostic{}
	}
	s := fs.Snap
	if s.Err != nil {
		out["main.acore"] = []protocol.Diagnostic{{Severity: protocol.DiagnosticSeverityError, Source: protocol.NewOptional("acore"), Message: protocol.String(s.Err.Error())}}
		return out
	}
	for _, d := range s.Diagnostics {
		path := d.Path
		if path == "" || fs.Mapper(path) == nil {
			path = "main.acore"
		}
		pd := protocol.Diagnostic{
			Range:    fs.Range(path, d.Pos, max(d.End, d.Pos)),
			Severity: severity(d.Severity),
			Code:     protocol.String(d.Code),
			Source:   protocol.NewOptional("acore"),
			Message:  protocol.String(d.Message),
		}
		if d.Path == "" {
			pd.Range = protocol.Range{}
		}
		for _, r := range d.Related {
			if fs.Mapper(r.Path) != nil {
				pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
					Location: protocol.Location{URI: fs.URI(r.Path), Range: fs.Range(r.Path, r.Pos, r.End)}, Message: r.Message})
			}
		}
		out[path] = append(out[path], pd)
	}
	return out
}

// AxagDiagnostics returns the AXAG findings of the snapshot
// (cache.Snapshot.AxagFindings) as diagnostics, by project-relative path.
// It makes them when they are not made yet, which takes a recorded
// compile.
func AxagDiagnostics(fs *Files) map[string][]protocol.Diagnostic {
	out := map[string][]protocol.Diagnostic{}
	for _, f := range fs.Snap.AxagFindings() {
		// A local contract's artifact is its source byte for byte: the
		// finding is shown in the file people edit.
		if src := fs.sourceOf(f.File); src != "" {
			f.File = src
		}
		if pd, ok := axagDiagnostic(fs, f); ok {
			out[f.File] = append(out[f.File], pd)
		}
	}
	return out
}

// findingSpan is the bytes of the name at the finding's place.
func findingSpan(m *position.Mapper, f axag.Finding) (pos, end int, ok bool) {
	if f.Line < 1 || f.Column < 1 {
		return 0, 0, false
	}
	// Columns count Unicode scalars, as UTF-32 does.
	pos, ok = m.Offset(position.Position{Line: uint32(f.Line - 1), Character: uint32(f.Column - 1)}, position.UTF32)
	if !ok {
		return 0, 0, false
	}
	text := m.Text()
	end = pos
	for end < len(text) && identByte(text[end]) {
		end++
	}
	return pos, end, true
}

// axagDiagnostic is the diagnostic of an AXAG finding, on the name at its
// place (a member's, an element's) and with its fix: a runtime agent reads
// the manifest these facts make, so an understated risk is shown where it
// is written.
func axagDiagnostic(fs *Files, f axag.Finding) (protocol.Diagnostic, bool) {
	m := fs.Mapper(f.File)
	if m == nil {
		return protocol.Diagnostic{}, false
	}
	pos, end, ok := findingSpan(m, f)
	if !ok {
		return protocol.Diagnostic{}, false
	}
	msg := f.Message
	if f.Fix != "" {
		msg += "\nfix: " + f.Fix
	}
	sev := protocol.DiagnosticSeverityWarning
	switch f.Severity {
	case axag.SeverityError:
		sev = protocol.DiagnosticSeverityError
	case axag.SeverityInfo:
		sev = protocol.DiagnosticSeverityInformation
	}
	return protocol.Diagnostic{
		Range:    fs.Range(f.File, pos, end),
		Severity: sev,
		Code:     protocol.String(f.Rule),
		Source:   protocol.NewOptional("axag"),
		Message:  protocol.String(msg),
	}, true
}

func severity(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Error:
		return protocol.DiagnosticSeverityError
	case diag.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// identAt is the identifier at p in rel, with the index it is from. In a
// local contract's source the identifier is the one of its artifact.
func identAt(fs *Files, rel string, p protocol.Position) (*refs.Index, refs.Ref, bool) {
	off, _ := fs.Offset(rel, p)
	ix := fs.Snap.Index()
	if a := fs.artifactOf(rel); a != "" {
		rel = a
	}
	id, ok := ix.At(rel, off)
	return ix, id, ok
}

// artifactOf is the artifact .axiom/dev/contracts/<id>.axiom of rel when rel
// is a local contract's source contracts/<id>.axiom and the artifact is its
// prepared copy, byte for byte: the compile reads the artifact only, and a
// name of the source is the artifact's name at the same offset. "" otherwise.
func (fs *Files) artifactOf(rel string) string {
	if path.Dir(rel) != load.ContractSourceDir || path.Ext(rel) != ".axiom" {
		return ""
	}
	a := lock.ArtifactPath(strings.TrimSuffix(path.Base(rel), ".axiom"))
	if !fs.samePrepared(rel, a) {
		return ""
	}
	return a
}

// sourceOf is the local source of the artifact a when a is its prepared
// copy, "" otherwise: where a location in the artifact is shown, since the
// source is the file its author edits and prepare overwrites the artifact.
func (fs *Files) sourceOf(a string) string {
	src := load.ContractSourcePath(a)
	if src == "" || !fs.samePrepared(src, a) {
		return ""
	}
	return src
}

func (fs *Files) samePrepared(src, artifact string) bool {
	if fs.Snap.Inputs == nil {
		return false
	}
	s, ok := fs.Snap.Text(src)
	a := fs.Snap.Inputs.Data(artifact)
	return ok && a != nil && bytes.Equal(s, a)
}

// location is the location of the bytes [pos, end) of rel, shown in the
// local contract's source when rel is its prepared artifact.
func (fs *Files) location(rel string, pos, end int) protocol.Location {
	if src := fs.sourceOf(rel); src != "" {
		rel = src
	}
	return protocol.Location{URI: fs.URI(rel), Range: fs.Range(rel, pos, end)}
}

// Hover describes the name at p: what it declares, its type, its @doc and
// the id of its graph node, the id acore-semantic answers with; a name
// that declares nothing, as an argument's, is described by nameHover.
func Hover(fs *Files, rel string, p protocol.Position) *protocol.Hover {
	ix, id, ok := identAt(fs, rel, p)
	if !ok || id.Obj == nil {
		return nameHover(fs, rel, p)
	}
	o := id.Obj
	var b strings.Builder
	b.WriteString("```acore\n")
	b.WriteString(describe(ix, o))
	b.WriteString("\n```\n")
	if doc := docOf(o.Decl); doc != "" {
		b.WriteString("\n" + doc + "\n")
	}
	if n := node(ix, o); n != nil {
		fmt.Fprintf(&b, "\nnode `%s`\n", n.ID)
		if o.Kind == check.ObjQuery || o.Kind == check.ObjMutation {
			if a, ok := fs.Snap.MemberActions()[n.ID]; ok {
				b.WriteString("\n" + axagLine(a) + "\n")
			}
		}
	}
	r := fs.Range(rel, int(id.Ident.Pos), int(id.Ident.End))
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: b.String()}, Range: &r}
}

// axagLine is what the AXAG manifest tells runtime agents of a member's
// action: its intent, type and risk, and what it asks of them.
func axagLine(a axag.Action) string {
	return "AXAG action `" + a.Intent + "`: " + actionFacts(a)
}

// actionFacts are the facts of a that an agent weighs before running it:
// its type, risk, scope, idempotency, confirmation and approval.
func actionFacts(a axag.Action) string {
	var parts []string
	add := func(ok bool, s string) {
		if ok {
			parts = append(parts, s)
		}
	}
	add(a.ActionType != "", a.ActionType)
	add(a.RiskLevel != "", "risk "+a.RiskLevel)
	add(a.Scope != "", "scope "+a.Scope)
	add(a.TenantBoundary != "", "tenant boundary "+a.TenantBoundary)
	if a.Idempotent != nil {
		add(*a.Idempotent, "idempotent")
		add(!*a.Idempotent, "not idempotent")
	}
	add(a.ConfirmationRequired != nil && *a.ConfirmationRequired, "asks for confirmation")
	add(a.ApprovalRequired != nil && *a.ApprovalRequired, "needs approval")
	return strings.Join(parts, ", ")
}

func node(ix *refs.Index, o *check.Object) *graph.Node {
	if ix.Recorded == nil || ix.Recorded.Result == nil || ix.Recorded.Result.Graph == nil || o.Node < 0 {
		return nil
	}
	return ix.Recorded.Result.Graph.At(o.Node)
}

// describe is the one-line declaration of o.
func describe(ix *refs.Index, o *check.Object) string {
	if n := node(ix, o); n != nil {
		if sig := ix.Recorded.Result.Graph.Signature(n); sig != "" && !strings.Contains(sig, "\n") {
			return sig
		}
	}
	s := o.Kind.String() + " " + o.Name
	if o.Type != nil {
		s += ": " + o.Type.String()
	}
	return s
}

// docOf is the text of a @doc("...") annotation on decl.
func docOf(decl syntax.Node) string {
	v := reflect.ValueOf(decl)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return ""
	}
	f := v.Elem().FieldByName("Annotations")
	if !f.IsValid() {
		return ""
	}
	anns, _ := f.Interface().([]*syntax.Annotation)
	for _, a := range anns {
		if a.Name != nil && a.Name.Name == "doc" && len(a.Args) > 0 {
			if s, ok := a.Args[0].Value.(*syntax.StringLit); ok {
				return s.Value
			}
		}
	}
	return ""
}

// declLocation is where o is declared: its graph node's name token, or
// for a local the identifier that declares it.
func declLocation(fs *Files, ix *refs.Index, o *check.Object) (protocol.Location, bool) {
	for _, r := range ix.Refs[o] {
		if r.Def {
			return fs.location(r.Path, int(r.Ident.Pos), int(r.Ident.End)), true
		}
	}
	if n := node(ix, o); n != nil && n.Path != "" {
		return fs.location(n.Path, int(n.Pos), int(n.End)), true
	}
	return protocol.Location{}, false
}

// Definition is where the name at p is declared.
func Definition(fs *Files, rel string, p protocol.Position) []protocol.Location {
	ix, id, ok := identAt(fs, rel, p)
	if !ok || id.Obj == nil {
		return nil
	}
	if loc, ok := declLocation(fs, ix, id.Obj); ok {
		return []protocol.Location{loc}
	}
	return nil
}

// References are the places that name the declaration of the name at p,
// in every file: uses, component instances, the pages of routes; with
// includeDecl, its declaration too.
func References(fs *Files, rel string, p protocol.Position, includeDecl bool) []protocol.Location {
	ix, id, ok := identAt(fs, rel, p)
	if !ok || id.Obj == nil {
		return nil
	}
	var out []protocol.Location
	for _, r := range ix.Refs[id.Obj] {
		if r.Def && !includeDecl {
			continue
		}
		out = append(out, fs.location(r.Path, int(r.Ident.Pos), int(r.Ident.End)))
	}
	return out
}

// symbolKinds maps graph node kinds to LSP symbol kinds; kinds not listed
// (elements, conditionals, routes' edges) are not symbols of a document.
var symbolKinds = map[string]protocol.SymbolKind{
	graph.KindApp:            protocol.SymbolKindModule,
	graph.KindRoute:          protocol.SymbolKindEvent,
	graph.KindPage:           protocol.SymbolKindClass,
	graph.KindComponent:      protocol.SymbolKindClass,
	graph.KindModel:          protocol.SymbolKindStruct,
	graph.KindField:          protocol.SymbolKindField,
	graph.KindExtension:      protocol.SymbolKindFunction,
	graph.KindState:          protocol.SymbolKindVariable,
	graph.KindLet:            protocol.SymbolKindConstant,
	graph.KindProp:           protocol.SymbolKindProperty,
	graph.KindQuery:          protocol.SymbolKindField,
	graph.KindMutation:       protocol.SymbolKindField,
	graph.KindAction:         protocol.SymbolKindMethod,
	graph.KindContractImport: protocol.SymbolKindInterface,
	graph.KindOperation:      protocol.SymbolKindMethod,
}

// containers are the kinds whose symbols hold others.
var containers = map[string]bool{graph.KindApp: true, graph.KindPage: true, graph.KindComponent: true, graph.KindModel: true, graph.KindContractImport: true}

// DocumentSymbols are the declarations of rel, members under their owner;
// a local contract's source has its artifact's, at the same bytes.
func DocumentSymbols(fs *Files, rel string) []protocol.DocumentSymbol {
	if a := fs.artifactOf(rel); a != "" {
		rel = a
	}
	ix := fs.Snap.Index()
	if ix.Recorded == nil || ix.Recorded.Result == nil || ix.Recorded.Result.Graph == nil {
		return nil
	}
	g := ix.Recorded.Result.Graph
	// A symbol's children are attached before it is copied out: a
	// contract's model holds its fields.
	type sym struct {
		n        *graph.Node
		s        protocol.DocumentSymbol
		children []*sym
	}
	var all []*sym
	byID := map[string]*sym{}
	var app *sym
	names := map[int32]*syntax.Ident{} // a declaration's node: its name
	for _, id := range ix.Idents[rel] {
		if id.Def && id.Obj.Node >= 0 {
			names[id.Obj.Node] = id.Ident
		}
	}
	for _, i := range g.NodesIn(rel) {
		n := g.At(i)
		kind, ok := symbolKinds[n.Kind]
		if !ok {
			continue
		}
		detail := n.Kind
		if sig := g.Signature(n); sig != "" && !strings.Contains(sig, "\n") {
			detail = sig
		}
		name := n.Name
		if name == "" {
			name = n.ID
		}
		r := fs.Range(rel, int(n.Pos), int(n.End))
		sel := r
		if id, ok := names[i]; ok {
			sel = fs.Range(rel, int(id.Pos), int(id.End))
		}
		s := &sym{n: n, s: protocol.DocumentSymbol{Name: name, Detail: &detail, Kind: kind, Range: r, SelectionRange: sel}}
		all = append(all, s)
		if containers[n.Kind] {
			byID[n.ID] = s
		}
		if n.Kind == graph.KindApp {
			app = s
		}
	}
	var top []*sym
	for _, s := range all {
		if s.n.Kind == graph.KindRoute && app != nil {
			app.children = append(app.children, s)
		} else if o := byID[ownerID(s.n)]; o != nil && o != s {
			o.children = append(o.children, s)
		} else {
			top = append(top, s)
		}
	}
	var out func([]*sym) []protocol.DocumentSymbol
	out = func(list []*sym) []protocol.DocumentSymbol {
		sort.SliceStable(list, func(i, j int) bool { return list[i].n.Pos < list[j].n.Pos })
		ds := make([]protocol.DocumentSymbol, len(list))
		for i, s := range list {
			ds[i] = s.s
			if len(s.children) > 0 {
				ds[i].Children = out(s.children)
			}
		}
		return ds
	}
	return out(top)
}

// ownerID is the id of the declaration a member node belongs to: its
// page or component, the model of a field (field:Books.Book.title is
// model:Books.Book's), or the contract of a contract's model or operation.
func ownerID(n *graph.Node) string {
	if n.Owner != "" {
		return n.Owner
	}
	_, rest, _ := strings.Cut(n.ID, ":")
	dot := strings.LastIndex(rest, ".")
	if dot < 0 {
		// Routes belong to the app, which DocumentSymbols finds.
		return ""
	}
	switch n.Kind {
	case graph.KindField:
		return graph.KindModel + ":" + rest[:dot]
	case graph.KindModel, graph.KindOperation:
		return graph.KindContractImport + ":" + rest[:dot]
	}
	return ""
}

// Format is the edit that makes rel as `axiom fmt` writes it: none when
// it is already, nil with an error when it does not parse.
func Format(fs *Files, rel string) ([]protocol.TextEdit, error) {
	text, ok := fs.Snap.Text(rel)
	if !ok {
		return nil, fmt.Errorf("%s: no such file", rel)
	}
	f := syntax.Parse(rel, text)
	out, changed, err := format.Check(f)
	if err != nil {
		return nil, err
	}
	if !changed {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{{Range: fs.Range(rel, 0, len(text)), NewText: string(out)}}, nil
}

// DocumentHighlights are the occurrences in rel of what the name at p
// names: its declaration and the assignments to it as writes, its other
// uses as reads.
func DocumentHighlights(fs *Files, rel string, p protocol.Position) []protocol.DocumentHighlight {
	ix, id, ok := identAt(fs, rel, p)
	if !ok || id.Obj == nil {
		return nil
	}
	path := rel
	if a := fs.artifactOf(rel); a != "" {
		path = a
	}
	var out []protocol.DocumentHighlight
	for _, r := range ix.Refs[id.Obj] {
		if r.Path != path {
			continue
		}
		kind := protocol.DocumentHighlightKindRead
		if r.Def || assigned(r) {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: fs.Range(rel, int(r.Ident.Pos), int(r.Ident.End)), Kind: kind})
	}
	return out
}

// assigned reports whether r is the target of an assignment.
func assigned(r refs.Ref) bool {
	if len(r.Stack) == 0 {
		return false
	}
	a, ok := r.Stack[len(r.Stack)-1].(*syntax.AssignStmt)
	return ok && a.Target == syntax.Expr(r.Ident)
}

// DocumentLinks are the paths of rel's use lines, each a link to the
// file it names: a module's or component's source, a contract's source
// under contracts/ (its development artifact when it has none).
func DocumentLinks(fs *Files, rel string) []protocol.DocumentLink {
	text, ok := fs.Snap.Text(rel)
	if !ok || !strings.HasSuffix(rel, ".acore") {
		return nil
	}
	var out []protocol.DocumentLink
	for _, u := range syntax.Parse(rel, text).Uses {
		if u.From == nil || u.From.End-u.From.Pos < 2 {
			continue
		}
		var target string
		if u.Kind == syntax.UseContract {
			target = lock.ArtifactPath(u.From.Value)
			if src := load.ContractSourcePath(target); src != "" {
				if _, ok := fs.Snap.Text(src); ok {
					target = src
				}
			}
		} else if p, ok := check.ResolveImportPath(rel, u.From.Value); ok {
			target = p
		}
		if _, ok := fs.Snap.Text(target); target == "" || !ok {
			continue
		}
		to := fs.URI(target)
		out = append(out, protocol.DocumentLink{Range: fs.Range(rel, int(u.From.Pos)+1, int(u.From.End)-1), Target: &to})
	}
	return out
}

// TypeDefinition is where the model of the type of what the name at p
// names is declared: a state of type [Todo] or Todo?, a query whose data
// is [Book], a field or parameter of a model type.
func TypeDefinition(fs *Files, rel string, p protocol.Position) []protocol.Location {
	ix, id, ok := identAt(fs, rel, p)
	if !ok || id.Obj == nil {
		return nil
	}
	t := id.Obj.Type
	for t != nil && t.Model == nil && t.Elem != nil {
		t = t.Elem
	}
	if t == nil || t.Model == nil {
		return nil
	}
	for o := range ix.Refs {
		if o.Kind == check.ObjModel && o.Model == t.Model {
			if loc, ok := declLocation(fs, ix, o); ok {
				return []protocol.Location{loc}
			}
		}
	}
	if ix.Recorded != nil && ix.Recorded.Result.Graph != nil {
		g := ix.Recorded.Result.Graph
		if i, ok := g.Lookup(t.Model.NodeID); ok {
			n := g.At(i)
			return []protocol.Location{fs.location(n.Path, int(n.Pos), int(n.End))}
		}
	}
	return nil
}
