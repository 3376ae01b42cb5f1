// Package server is the language server of `axiom lsp`: one thin handler
// per LSP method over the features package, on the session of
// internal/editor/cache. Messages are handled in the order the client
// sent them, so a request after a didChange sees the change.
package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/editor/cache"
	"github.com/axiomcore/acore/internal/editor/features"
	"github.com/axiomcore/acore/internal/editor/position"
	"github.com/axiomcore/acore/internal/lang/project"
)

// Options are the server's choices.
type Options struct {
	// Debounce is how long diagnostics wait for typing to pause before
	// the project is compiled again.
	Debounce time.Duration
	// AxagPause is how long typing must pause before the AXAG findings of
	// what was typed are made (a recorded compile, slower than the
	// recheck the diagnostics wait for).
	AxagPause time.Duration
	// Version is the server's version, sent in initialize's serverInfo.
	Version string
}

// Serve runs the server on a stream of LSP messages (Content-Length
// framing) until the client exits or the stream ends. It returns nil
// after shutdown and exit, an error otherwise.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	s := &Server{opts: opts, session: cache.NewSession(project.ServiceOptions()), enc: position.UTF16,
		published: map[uri.URI]string{}, exited: make(chan struct{}), ready: make(chan struct{}),
		axagLast: map[*cache.View]map[string][]protocol.Diagnostic{}, axagTimer: map[*cache.View]*time.Timer{}, axagBusy: map[*cache.View]bool{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn := jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(rwc), jsonrpc2.WithCodec(codec{}))
	client := protocol.ClientDispatcher(conn)
	ctx = protocol.WithClient(ctx, client)
	s.client, s.ctx = client, ctx
	close(s.ready)
	conn.Go(ctx, s.handler())
	select {
	case <-conn.Done():
		if s.isShutdown() {
			return nil
		}
		if err := conn.Err(); err != nil {
			return err
		}
		return fmt.Errorf("the client closed the connection without shutdown")
	case <-s.exited:
		// The read of a blocking stdin is not ended by its close, and the
		// connection's close waits for it: the process ends without.
		go conn.Close()
		if !s.isShutdown() {
			return fmt.Errorf("exit before shutdown")
		}
		return nil
	}
}

// Server implements protocol.Server.
type Server struct {
	protocol.UnimplementedServer

	opts    Options
	session *cache.Session
	client  protocol.Client
	ctx     context.Context
	ready   chan struct{} // closed once client and ctx are set

	mu           sync.Mutex
	enc          position.Encoding
	watchDynamic bool
	inlayRefresh bool // the client takes workspace/inlayHint/refresh
	shutdown     bool
	exited       chan struct{}
	exitOnce     sync.Once
	timer        *time.Timer
	dirty        map[*cache.View]bool
	published    map[uri.URI]string // the last diagnostics sent, as JSON
	pubMu        sync.Mutex
	// axagLast holds each view's AXAG diagnostics as last made, shown
	// while those of a newer snapshot wait (under pubMu); axagTimer waits
	// for the pause in typing and axagBusy marks the views whose findings
	// are being made (under mu).
	axagLast  map[*cache.View]map[string][]protocol.Diagnostic
	axagTimer map[*cache.View]*time.Timer
	axagBusy  map[*cache.View]bool
}

func (s *Server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

func (s *Server) Initialize(_ context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	var offered []string
	if g := p.Capabilities.General; g != nil {
		for _, e := range g.PositionEncodings {
			offered = append(offered, string(e))
		}
	}
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		s.watchDynamic = *w.DidChangeWatchedFiles.DynamicRegistration
	}
	refresh := false
	if w := p.Capabilities.Workspace; w != nil && w.InlayHint != nil && w.InlayHint.RefreshSupport != nil {
		refresh = *w.InlayHint.RefreshSupport
	}
	s.mu.Lock()
	s.enc = position.Negotiate(offered)
	s.inlayRefresh = refresh
	s.mu.Unlock()
	if folders, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range folders {
			s.session.AddRoot(f.URI.FsPath())
		}
	}
	//lint:ignore SA1019 clients older than workspace folders send only the root
	if root := p.RootURI; root != nil {
		s.session.AddRoot(root.FsPath())
	}
	change := protocol.TextDocumentSyncKindIncremental
	yes := true
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: protocol.PositionEncodingKind(s.enc),
			TextDocumentSync: &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &change,
				Save: &protocol.SaveOptions{}},
			HoverProvider:              protocol.Boolean(true),
			DefinitionProvider:         protocol.Boolean(true),
			TypeDefinitionProvider:     protocol.Boolean(true),
			ReferencesProvider:         protocol.Boolean(true),
			DocumentSymbolProvider:     protocol.Boolean(true),
			DocumentFormattingProvider: protocol.Boolean(true),
			WorkspaceSymbolProvider:    protocol.Boolean(true),
			FoldingRangeProvider:       protocol.Boolean(true),
			InlayHintProvider:          protocol.Boolean(true),
			DocumentHighlightProvider:  protocol.Boolean(true),
			DocumentLinkProvider:       &protocol.DocumentLinkOptions{},
			RenameProvider:             &protocol.RenameOptions{PrepareProvider: &yes},
			CodeActionProvider:         &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
			CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{".", "(", ",", "\""}},
			SignatureHelpProvider:      &protocol.SignatureHelpOptions{TriggerCharacters: []string{"(", ","}},
			SemanticTokensProvider: &protocol.SemanticTokensOptions{
				Legend: protocol.SemanticTokensLegend{TokenTypes: features.TokenTypes, TokenModifiers: features.TokenModifiers},
				Full:   protocol.Boolean(true),
			},
		},
		ServerInfo: protocol.ServerInfo{Name: "axiom lsp", Version: protocol.NewOptional(s.opts.Version)},
	}, nil
}

func (s *Server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	if s.watchDynamic {
		opts := protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{
			{GlobPattern: protocol.Pattern("**/*.acore")},
			{GlobPattern: protocol.Pattern("**/*.axiom")},
			{GlobPattern: protocol.Pattern("**/.axiom/ui.lock")},
		}}
		raw, err := protocol.Marshal(&opts)
		if err != nil {
			s.logError("registering the file watcher: %v", err)
			return nil
		}
		<-s.ready
		// A request to the client from a notification's handler must not
		// wait for the answer, which the read loop this handler holds
		// would deliver.
		go s.client.RegisterCapability(s.ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{
			{ID: "acore-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: raw}}})
	}
	for _, v := range s.session.Views() {
		s.changed(v)
	}
	return nil
}

func (s *Server) Shutdown(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = true
	if s.timer != nil {
		s.timer.Stop()
	}
	for _, t := range s.axagTimer {
		t.Stop()
	}
	return nil
}

func (s *Server) Exit(context.Context) error {
	s.exitOnce.Do(func() { close(s.exited) })
	return nil
}

// doc resolves a document URI to its view and project-relative path.
func (s *Server) doc(u uri.URI) (*cache.View, string, error) {
	v, rel, ok := s.session.ViewOf(u.FsPath())
	if !ok {
		return nil, "", fmt.Errorf("%s is in no Acore project of the workspace (no main.acore in a directory above it, inside a workspace folder)", u.FsPath())
	}
	return v, rel, nil
}

func (s *Server) DidOpen(_ context.Context, p *protocol.DidOpenTextDocumentParams) error {
	v, rel, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil // not ours: an editor opens any file
	}
	v.SetOverlay(rel, []byte(p.TextDocument.Text), p.TextDocument.Version)
	s.changed(v)
	return nil
}

func (s *Server) DidChange(_ context.Context, p *protocol.DidChangeTextDocumentParams) error {
	v, rel, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil
	}
	o, ok := v.Overlay(rel)
	if !ok {
		s.logError("didChange of %s, which is not open", rel)
		return nil
	}
	text := o.Text
	s.mu.Lock()
	enc := s.enc
	s.mu.Unlock()
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			text = []byte(c.Text)
		case *protocol.TextDocumentContentChangePartial:
			m := position.New(text)
			start, _ := m.Offset(position.Position{Line: c.Range.Start.Line, Character: c.Range.Start.Character}, enc)
			end, _ := m.Offset(position.Position{Line: c.Range.End.Line, Character: c.Range.End.Character}, enc)
			if end < start {
				s.logError("didChange of %s: the range ends before it starts", rel)
				return nil
			}
			next := make([]byte, 0, len(text)-(end-start)+len(c.Text))
			next = append(append(append(next, text[:start]...), c.Text...), text[end:]...)
			text = next
		}
	}
	v.SetOverlay(rel, text, p.TextDocument.Version)
	s.changed(v)
	return nil
}

func (s *Server) DidSave(context.Context, *protocol.DidSaveTextDocumentParams) error { return nil }

func (s *Server) DidClose(_ context.Context, p *protocol.DidCloseTextDocumentParams) error {
	v, rel, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil
	}
	v.CloseOverlay(rel)
	s.changed(v)
	return nil
}

func (s *Server) DidChangeWatchedFiles(_ context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	seen := map[*cache.View]bool{}
	for _, c := range p.Changes {
		if v, _, ok := s.session.ViewOf(c.URI.FsPath()); ok && !seen[v] {
			seen[v] = true
			v.DiskChanged()
			s.changed(v)
		}
	}
	return nil
}

// changed schedules the diagnostics of v, after the debounce.
func (s *Server) changed(v *cache.View) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return
	}
	if s.dirty == nil {
		s.dirty = map[*cache.View]bool{}
	}
	s.dirty[v] = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timer = time.AfterFunc(s.opts.Debounce, s.publish)
}

// publish sends the diagnostics of every file whose diagnostics changed
// in the views that changed, an empty list for a file that became clean.
func (s *Server) publish() {
	s.mu.Lock()
	views := s.dirty
	s.dirty = nil
	enc := s.enc
	s.mu.Unlock()
	<-s.ready
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	for v := range views {
		snap := v.Snapshot()
		fs := features.NewFiles(snap, enc)
		now := features.Diagnostics(fs)
		for rel, ds := range s.axagDiagnostics(v, fs) {
			now[rel] = append(now[rel], ds...)
		}
		// A file that had diagnostics and is gone from the project is
		// cleared too.
		for u := range s.published {
			if rel, ok := v.Rel(u.FsPath()); ok {
				if _, still := now[rel]; !still {
					now[rel] = []protocol.Diagnostic{}
				}
			}
		}
		for rel, ds := range now {
			u := fs.URI(rel)
			key, _ := json.Marshal(ds)
			if last, sent := s.published[u]; sent && last == string(key) {
				continue
			}
			s.published[u] = string(key)
			params := &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: ds}
			if o, ok := snap.Overlays[rel]; ok {
				params.Version = protocol.NewOptional(o.Version)
			}
			s.client.PublishDiagnostics(s.ctx, params)
		}
	}
}

// axagDiagnostics are the AXAG diagnostics to publish with the compile's.
// They take a recorded compile, which on a large project is much slower
// than the recheck of what was typed, so a snapshot's own are made in the
// background once typing pauses (findAxag) and until then the view's last
// stand, as an editor keeps a marker in place while its text moves; the
// first are made at once, so that a project is shown whole when opened.
// A snapshot with errors has none.
func (s *Server) axagDiagnostics(v *cache.View, fs *features.Files) map[string][]protocol.Diagnostic {
	snap := fs.Snap
	if snap.HasErrors() {
		return nil
	}
	last, made := s.axagLast[v]
	if snap.AxagMade() || !made {
		last = features.AxagDiagnostics(fs)
		s.axagLast[v] = last
		return last
	}
	s.findAxag(v)
	return last
}

// onAxag reports whether r overlaps an AXAG diagnostic last made for rel.
func (s *Server) onAxag(v *cache.View, rel string, r protocol.Range) bool {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	for _, d := range s.axagLast[v][rel] {
		if features.Overlaps(d.Range, r) {
			return true
		}
	}
	return false
}

// findAxag makes the AXAG findings of the view's current snapshot once
// typing has paused for AxagPause, then publishes again: one at a time per
// view, and a snapshot that a newer replaced before the pause ended costs
// nothing.
func (s *Server) findAxag(v *cache.View) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return
	}
	if t := s.axagTimer[v]; t != nil {
		t.Reset(s.opts.AxagPause)
		return
	}
	s.axagTimer[v] = time.AfterFunc(s.opts.AxagPause, func() { s.makeAxag(v) })
}

func (s *Server) makeAxag(v *cache.View) {
	s.mu.Lock()
	if s.shutdown || s.axagBusy[v] {
		// The one running publishes, which asks again if the snapshot
		// moved on.
		s.mu.Unlock()
		return
	}
	s.axagBusy[v] = true
	s.mu.Unlock()
	v.Snapshot().AxagFindings()
	s.mu.Lock()
	delete(s.axagBusy, v)
	refresh := s.inlayRefresh && !s.shutdown
	s.mu.Unlock()
	s.changed(v)
	// The inlay hints of AXAG actions wait for the findings' compile.
	if refresh {
		<-s.ready
		go s.client.InlayHintRefresh(s.ctx)
	}
}

// logError tells the client of a message it sent that the server could
// not use: a notification has no answer, and an error from its handler
// would end the connection.
func (s *Server) logError(format string, args ...any) {
	<-s.ready
	go s.client.LogMessage(s.ctx, &protocol.LogMessageParams{Type: protocol.MessageTypeError, Message: fmt.Sprintf(format, args...)})
}

// files returns the current snapshot of the project of u, and releases
// the request to run beside the messages that follow it: it has what it
// reads.
func (s *Server) files(ctx context.Context, u uri.URI) (*features.Files, string, error) {
	v, rel, err := s.doc(u)
	if err != nil {
		return nil, "", err
	}
	s.mu.Lock()
	enc := s.enc
	s.mu.Unlock()
	fs := features.NewFiles(v.Snapshot(), enc)
	jsonrpc2.Async(ctx)
	return fs, rel, nil
}

func (s *Server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.Hover(fs, rel, p.Position), nil
}

func (s *Server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return protocol.LocationSlice(features.Definition(fs, rel, p.Position)), nil
}

func (s *Server) TypeDefinition(ctx context.Context, p *protocol.TypeDefinitionParams) (protocol.DefinitionResult, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return protocol.LocationSlice(features.TypeDefinition(fs, rel, p.Position)), nil
}

func (s *Server) References(ctx context.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.References(fs, rel, p.Position, p.Context.IncludeDeclaration), nil
}

func (s *Server) DocumentSymbol(ctx context.Context, p *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return protocol.DocumentSymbolSlice(features.DocumentSymbols(fs, rel)), nil
}

func (s *Server) Formatting(ctx context.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.Format(fs, rel)
}

func (s *Server) Symbols(ctx context.Context, p *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	s.mu.Lock()
	enc := s.enc
	s.mu.Unlock()
	var views []*features.Files
	for _, v := range s.session.Views() {
		views = append(views, features.NewFiles(v.Snapshot(), enc))
	}
	jsonrpc2.Async(ctx)
	return protocol.SymbolInformationSlice(features.WorkspaceSymbols(views, p.Query)), nil
}

func (s *Server) FoldingRanges(ctx context.Context, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.FoldingRanges(fs, rel), nil
}

func (s *Server) DocumentHighlight(ctx context.Context, p *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.DocumentHighlights(fs, rel, p.Position), nil
}

func (s *Server) DocumentLink(ctx context.Context, p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.DocumentLinks(fs, rel), nil
}

func (s *Server) InlayHint(ctx context.Context, p *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.InlayHints(fs, rel, p.Range, fs.Snap.AxagMade()), nil
}

func (s *Server) PrepareRename(ctx context.Context, p *protocol.PrepareRenameParams) (protocol.PrepareRenameResult, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	r, err := features.PrepareRename(fs, rel, p.Position)
	if err != nil {
		return nil, refused(err)
	}
	return r, nil
}

func (s *Server) Rename(ctx context.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	e, err := features.Rename(fs, rel, p.Position, p.NewName)
	if err != nil {
		return nil, refused(err)
	}
	return e, nil
}

// refused is the answer to a request the server understood and will not
// do: LSP's RequestFailed, whose message an editor shows.
func refused(err error) error {
	return jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesRequestFailed), err.Error())
}

func (s *Server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	// The AXAG findings of a snapshot wait for a pause in typing; a
	// request for the fixes of one shown makes them, but a request sent
	// as the cursor moves elsewhere does not.
	return features.CodeActions(fs, rel, p.Range, s.onAxag(fs.Snap.View, rel, p.Range)), nil
}

func (s *Server) Completion(ctx context.Context, p *protocol.CompletionParams) (protocol.CompletionResult, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return &protocol.CompletionList{Items: features.Completion(fs, rel, p.Position)}, nil
}

func (s *Server) SignatureHelp(ctx context.Context, p *protocol.SignatureHelpParams) (*protocol.SignatureHelp, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.SignatureHelp(fs, rel, p.Position), nil
}

func (s *Server) SemanticTokensFull(ctx context.Context, p *protocol.SemanticTokensParams) (*protocol.SemanticTokens, error) {
	fs, rel, err := s.files(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return features.SemanticTokens(fs, rel), nil
}
