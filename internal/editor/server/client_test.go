package server_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/editor/server"
	"github.com/axiomcore/acore/internal/lang/prepare"
)

// client is an LSP client over an in-memory pipe to a real server: the
// same framing, codec and dispatch as over stdio.
type client struct {
	protocol.UnimplementedClient
	t      testing.TB
	root   string
	server protocol.Server
	ctx    context.Context

	mu            sync.Mutex
	diags         map[uri.URI]*protocol.PublishDiagnosticsParams
	cond          *sync.Cond
	registrations []protocol.Registration
	refreshes     int // workspace/inlayHint/refresh requests
}

func (c *client) InlayHintRefresh(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refreshes++
	c.cond.Broadcast()
	return nil
}

func (c *client) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.diags[p.URI] = p
	c.cond.Broadcast()
	return nil
}

func (c *client) RegisterCapability(_ context.Context, p *protocol.RegistrationParams) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.registrations = append(c.registrations, p.Registrations...)
	c.cond.Broadcast()
	return nil
}

// writeProject writes files under a new directory and prepares it (the
// development contracts and the UI lock), as `axiom prepare` does.
func writeProject(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := prepare.Run(root); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	return root
}

// start runs a server for root and initializes it with the client
// capabilities caps.
func start(t testing.TB, root string, caps protocol.ClientCapabilities) (*client, *protocol.InitializeResult) {
	t.Helper()
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Serve(ctx, a, server.Options{}) }()
	c := &client{t: t, root: root, diags: map[uri.URI]*protocol.PublishDiagnosticsParams{}}
	c.cond = sync.NewCond(&c.mu)
	cctx, conn, srv := protocol.NewClient(ctx, c, jsonrpc2.NewHeaderStream(b))
	c.server, c.ctx = srv, cctx
	t.Cleanup(func() {
		c.server.Shutdown(c.ctx)
		c.server.Exit(c.ctx)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("the server did not stop after exit")
		}
		conn.Close()
		cancel()
	})
	u := uri.File(root)
	params := &protocol.InitializeParams{Capabilities: caps}
	params.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: u, Name: filepath.Base(root)}})
	res, err := srv.Initialize(cctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Initialized(cctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	return c, res
}

func (c *client) uri(rel string) uri.URI {
	return uri.File(filepath.Join(c.root, filepath.FromSlash(rel)))
}

// await waits until ok, called with c.mu held, holds after what the
// server sent; false when 20 seconds pass first.
func (c *client) await(ok func() bool) bool {
	expired := false
	deadline := time.AfterFunc(20*time.Second, func() {
		c.mu.Lock()
		expired = true
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer deadline.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !ok() {
		if expired {
			return false
		}
		c.cond.Wait()
	}
	return true
}

// waitDiags waits until the diagnostics published for rel satisfy ok.
func (c *client) waitDiags(rel string, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	c.t.Helper()
	u := c.uri(rel)
	var got []protocol.Diagnostic
	if !c.await(func() bool {
		p := c.diags[u]
		if p == nil {
			return false
		}
		got = p.Diagnostics
		return ok(got)
	}) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.t.Fatalf("no diagnostics as wanted for %s; last: %+v", rel, c.diags[u])
	}
	return got
}

func (c *client) open(rel string) string {
	c.t.Helper()
	data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(rel)))
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.server.DidOpen(c.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: c.uri(rel), LanguageID: "acore", Version: 1, Text: string(data)}}); err != nil {
		c.t.Fatal(err)
	}
	return string(data)
}
