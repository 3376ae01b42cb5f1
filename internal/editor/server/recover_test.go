package server

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// A handler that panics answers its request with an internal error, and
// a notification's panic is logged to the client: neither ends the
// connection, which answers the next request.
func TestPanicIsAnInternalError(t *testing.T) {
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serverConn := jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(a), jsonrpc2.WithCodec(codec{}))
	// A server without a session panics on its first use of it.
	s := &Server{ready: make(chan struct{}), client: protocol.ClientDispatcher(serverConn), ctx: ctx}
	close(s.ready)
	serverConn.Go(ctx, s.handler())
	defer serverConn.Close()
	logged := make(chan string, 4)
	clientConn := jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(b), jsonrpc2.WithCodec(codec{}))
	clientConn.Go(ctx, func(_ context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodWindowLogMessage {
			logged <- string(req.Params())
		}
		return nil, nil
	})
	defer clientConn.Close()

	hover := map[string]any{"textDocument": map[string]any{"uri": "file:///x/main.acore"}, "position": map[string]any{"line": 0, "character": 0}}
	var res any
	_, err := clientConn.Call(ctx, "textDocument/hover", hover, &res)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.InternalError || !strings.Contains(err.Error(), "textDocument/hover") {
		t.Errorf("a panicking request answered %v", err)
	}
	if msg := <-logged; !strings.Contains(msg, "panicked") {
		t.Errorf("logged %s", msg)
	}
	open := map[string]any{"textDocument": map[string]any{"uri": "file:///x/main.acore", "languageId": "acore", "version": 1, "text": ""}}
	if err := clientConn.Notify(ctx, "textDocument/didOpen", open); err != nil {
		t.Fatal(err)
	}
	if msg := <-logged; !strings.Contains(msg, "didOpen panicked") {
		t.Errorf("logged %s", msg)
	}
	if _, err := clientConn.Call(ctx, "acore/nope", map[string]any{}, &res); !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.MethodNotFound {
		t.Errorf("after the panics, an unknown method answered %v", err)
	}
}
