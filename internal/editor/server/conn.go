package server

import (
	"context"
	"runtime/debug"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// codec marshals LSP payloads with the protocol package's union-aware
// Marshal and Unmarshal, as the one protocol.NewServer installs does; the
// server makes its own connection to choose its handler chain.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// handler is the server's chain: each message in the order it arrived. Unlike protocol.NewServer's, it does not release every
// request to run concurrently: a notification (didChange) is handled
// before the next message is read, and a read-only request is released
// only once it holds its snapshot (see files), so a request sees every
// change sent before it. A panic answers the request with an internal
// error and leaves the connection up; a notification's error is logged to
// the client, not turned into the end of the connection.
func (s *Server) handler() jsonrpc2.Handler {
	next := protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)
	// No cancellation middleware: protocol.CancelHandler derives a context
	// from the request's, which the connection recycles once a handler
	// that did not release it returns, and the derived context's watcher
	// then reads a recycled request. Requests here take milliseconds; a
	// $/cancelRequest is answered as a no-op.
	return func(ctx context.Context, req *jsonrpc2.Request) (res any, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.logError("%s panicked: %v\n%s", req.Method(), r, debug.Stack())
				res, err = nil, nil
				if req.IsCall() {
					err = jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", req.Method(), r)
				}
			}
		}()
		// LSP lets a server ignore the notifications whose method starts
		// with "$/" ($/cancelRequest, $/setTrace).
		if !req.IsCall() && strings.HasPrefix(req.Method(), "$/") {
			return nil, nil
		}
		res, err = next(ctx, req)
		if err != nil && !req.IsCall() {
			s.logError("%s: %v", req.Method(), err)
			err = nil
		}
		return res, err
	}
}
