package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/axiomcore/acore/internal/lang/scaffold"
)

type pipes struct {
	io.Reader
	io.WriteCloser
}

type diagClient struct {
	protocol.UnimplementedClient
	got chan *protocol.PublishDiagnosticsParams
}

func (c *diagClient) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	c.got <- p
	return nil
}

// TestLSPProcess runs `axiom lsp` as a process (the test binary stands in
// for axiom, see TestMain) and talks to it as an editor does over stdio:
// initialize, open the task-app's main.acore, receive its diagnostics,
// hover, shut down, exit with status 0.
func TestLSPProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("axiom", "lsp")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := &diagClient{got: make(chan *protocol.PublishDiagnosticsParams, 16)}
	ctx, conn, srv := protocol.NewClient(ctx, c, jsonrpc2.NewHeaderStream(pipes{out, in}))
	defer conn.Close()
	root := uri.File(dir)
	params := &protocol.InitializeParams{}
	params.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: root, Name: "app"}})
	res, err := srv.Initialize(ctx, params)
	if err != nil {
		t.Fatalf("initialize: %v\nstderr: %s", err, &stderr)
	}
	if res.Capabilities.PositionEncoding != "utf-16" || res.ServerInfo.Name != "axiom lsp" {
		t.Errorf("initialize result: %+v", res)
	}
	if err := srv.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.acore")
	text, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	mainURI := uri.File(main)
	if err := srv.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: mainURI, LanguageID: "acore", Version: 1, Text: string(text)}}); err != nil {
		t.Fatal(err)
	}
	for p := range c.got {
		if p.URI == mainURI {
			// The one warning `axiom check` gives the template too.
			if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != protocol.String("AC503") || p.Diagnostics[0].Severity != protocol.DiagnosticSeverityWarning {
				t.Errorf("the task-app's main.acore has diagnostics: %+v", p.Diagnostics)
			}
			break
		}
	}
	// Hover the first "draft" of the file: a state of the template.
	lines := strings.Split(string(text), "\n")
	var pos protocol.Position
	for i, l := range lines {
		if c := strings.Index(l, "draft"); c >= 0 {
			pos = protocol.Position{Line: uint32(i), Character: uint32(c)}
			break
		}
	}
	h, err := srv.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: mainURI}, Position: pos}})
	if err != nil || h == nil || !strings.Contains(h.Contents.(*protocol.MarkupContent).Value, "state:") {
		t.Errorf("hover at %v: %+v %v", pos, h, err)
	}
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := srv.Exit(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("axiom lsp exited with %v\nstderr: %s", err, &stderr)
		}
	case <-ctx.Done():
		t.Fatalf("axiom lsp did not exit\nstderr: %s", &stderr)
	}
}

// The end of standard input, without shutdown and exit (the editor went
// away), ends the server: it exits with status 1, as the LSP asks of an
// exit without shutdown, and says why.
func TestLSPProcessEndsAtEOF(t *testing.T) {
	cmd := exec.Command("axiom", "lsp")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	in.Close()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "axiom lsp:") {
			t.Errorf("after EOF: %v, stderr %q", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("axiom lsp did not end at the end of its input")
	}
}
