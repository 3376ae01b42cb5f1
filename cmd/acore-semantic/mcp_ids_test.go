package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// rpcID is the id of a JSON-RPC response line, as written.
func rpcID(t *testing.T, line []byte) string {
	t.Helper()
	var r struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, line)
	}
	return string(r.ID)
}

func initializeMCP(t *testing.T, p *lineProcess) {
	t.Helper()
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if resp := p.recv(); !strings.Contains(string(resp), `"serverInfo"`) {
		t.Fatalf("initialize answered %s", resp)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestMCPEchoesIDsExactly sends calls whose ids an int64 cannot hold and
// requires each answer to carry the id exactly as sent; an id null is
// refused (MCP forbids it) instead of being taken for a notification.
func TestMCPEchoesIDsExactly(t *testing.T) {
	p := startLines(t, "mcp", "--root", taskApp(t))
	initializeMCP(t, p)
	for _, id := range []string{`1.5`, `1180591620717411303424`, `9007199254740993`, `-3`, `1e3`, `"a\u00e9\"b"`, `""`} {
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`)
		resp := p.recv()
		if got := rpcID(t, resp); got != id {
			t.Errorf("id %s answered with id %s", id, got)
		}
		if !strings.Contains(string(resp), `"tools"`) {
			t.Errorf("id %s: %.200s", id, resp)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`)
	resp := p.recv()
	if got := rpcID(t, resp); got != "null" || !strings.Contains(string(resp), `"code":-32600`) {
		t.Errorf("id null answered %s", resp)
	}
	p.close()
}

// TestMCPDuplicateIDsInFlight sends two calls with the same id in one
// write, so the second arrives while the first runs: both are answered,
// and the process exits as soon as its input ends.
func TestMCPDuplicateIDsInFlight(t *testing.T) {
	root := taskApp(t)
	p := startLines(t, "mcp", "--root", root)
	initializeMCP(t, p)
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"workspace_open","arguments":{"snapshot":"latest","params":{"roots":[{"path":"` + root + `"}]}}}}`
	p.send(call + "\n" + call)
	for range 2 {
		resp := p.recv()
		if got := rpcID(t, resp); got != "7" || !strings.Contains(string(resp), `"structuredContent"`) {
			t.Errorf("answer %.300s", resp)
		}
	}
	start := time.Now()
	p.close()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the process took %v to exit after its input ended", d)
	}
}

// TestMCPCancelByClientID cancels a call by the id the client gave it:
// the call is still answered once, with that id, and the process exits
// promptly.
func TestMCPCancelByClientID(t *testing.T) {
	root := taskApp(t)
	p := startLines(t, "mcp", "--root", root)
	initializeMCP(t, p)
	call := `{"jsonrpc":"2.0","id":1.25,"method":"tools/call","params":{"name":"workspace_open","arguments":{"snapshot":"latest","params":{"roots":[{"path":"` + root + `"}]}}}}`
	p.send(call + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.25,"reason":"test"}}`)
	if got := rpcID(t, p.recv()); got != "1.25" {
		t.Errorf("answered with id %s", got)
	}
	start := time.Now()
	p.close()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the process took %v to exit after its input ended", d)
	}
}
