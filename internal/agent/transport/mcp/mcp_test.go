package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

func taskApp(t *testing.T) *service.Service {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	// Background saves end before the temporary directory is removed.
	t.Cleanup(svc.Wait)
	return svc
}

// serve runs Serve on pipes and returns the client's ends.
func serve(t *testing.T, svc *service.Service) (io.WriteCloser, *bufio.Reader, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- Serve(ctx, svc, inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		inR.Close()
		outR.Close()
	})
	return inW, bufio.NewReader(outR), done
}

// connect runs Serve on pipes and connects an SDK client to it.
func connect(t *testing.T, svc *service.Service) *sdk.ClientSession {
	t.Helper()
	inW, out, _ := serve(t, svc)
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.IOTransport{Reader: io.NopCloser(out), Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// withoutCapturedAt drops snapshot.captured_at, the one field that differs
// between two captures of the same files.
func withoutCapturedAt(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, b)
	}
	if s, ok := m["snapshot"].(map[string]any); ok {
		delete(s, "captured_at")
	}
	return m
}

func TestToolsAnswerLikeTheService(t *testing.T) {
	svc := taskApp(t)
	cs := connect(t, svc)
	ctx := context.Background()

	init := cs.InitializeResult()
	if init.ServerInfo.Name != "acore-semantic" || init.ServerInfo.Version != service.Version {
		t.Errorf("server info %+v", init.ServerInfo)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || strings.Count(tool.Description, ". ") > 0 {
			t.Errorf("%s: description %q is not one sentence", tool.Name, tool.Description)
		}
		if s, _ := tool.InputSchema.(map[string]any); s["type"] != "object" {
			t.Errorf("%s: input schema type %v", tool.Name, s["type"])
		}
	}
	var want []string
	for _, op := range schema.Operations() {
		want = append(want, ToolName(op))
	}
	if len(names) != 17 {
		t.Errorf("tools %v, want %v", names, want)
	}
	for _, w := range want {
		found := false
		for _, n := range names {
			found = found || n == w
		}
		if !found {
			t.Errorf("no tool %s", w)
		}
	}

	ws := svc.WorkspaceID()
	for _, tc := range []struct {
		op, args string
		isError  bool
	}{
		{"capabilities", `{"params": {}}`, false},
		{"node.find", `{"snapshot": "latest", "params": {"query": "Add", "kind": "element", "limit": 10}}`, false},
		{"node.find", `{"workspace": "` + ws + `", "snapshot": "latest", "params": {"query": "Add", "kind": "element", "limit": 10}}`, false},
		{"node.get", `{"snapshot": "latest", "params": {"nodes": ["element:Home/view/9"]}}`, true},
		{"node.find", `{"snapshot": "latest", "params": {"query": "Add", "limit": 51}}`, true},
		// The tool chooses the protocol and the operation.
		{"capabilities", `{"protocol": "axiom-agent-semantic/v2", "operation": "node.find", "params": {}}`, false},
		{"capabilities", `{}`, true},
	} {
		var args map[string]any
		if err := json.Unmarshal([]byte(tc.args), &args); err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolName(tc.op), Arguments: args})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.op, tc.args, err)
		}
		if res.IsError != tc.isError {
			t.Errorf("%s %s: isError %v", tc.op, tc.args, res.IsError)
		}
		structured, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Content) != 1 {
			t.Fatalf("%s: %d contents", tc.op, len(res.Content))
		}
		text, ok := res.Content[0].(*sdk.TextContent)
		if !ok {
			t.Fatalf("%s: content is %T", tc.op, res.Content[0])
		}
		if !reflect.DeepEqual(withoutCapturedAt(t, []byte(text.Text)), withoutCapturedAt(t, structured)) {
			t.Errorf("%s: text content and structured content differ:\n%s\n%s", tc.op, text.Text, structured)
		}
		// The same request through Handle.
		full := map[string]any{}
		for k, v := range args {
			full[k] = v
		}
		full["protocol"], full["operation"] = protocol.Name, tc.op
		raw, _ := json.Marshal(full)
		direct := svc.Handle(ctx, raw)
		if got, want := withoutCapturedAt(t, structured), withoutCapturedAt(t, direct); !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s:\nMCP    %s\nHandle %s", tc.op, tc.args, structured, direct)
		}
	}

	// Arguments that are not an object are a JSON-RPC error.
	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "node_find", Arguments: []int{1}})
	if err == nil || !strings.Contains(err.Error(), "must be a JSON object") {
		t.Errorf("array arguments: %v", err)
	}
}

// rpc writes one line and reads one response line.
func rpc(t *testing.T, in io.Writer, out *bufio.Reader, line string) map[string]any {
	t.Helper()
	if _, err := io.WriteString(in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	return readMsg(t, out)
}

func readMsg(t *testing.T, out *bufio.Reader) map[string]any {
	t.Helper()
	type result struct {
		line []byte
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		l, err := out.ReadBytes('\n')
		ch <- result{l, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("reading a response: %v (%q)", r.err, r.line)
		}
		var m map[string]any
		if err := json.Unmarshal(r.line, &m); err != nil {
			t.Fatalf("response %q: %v", r.line, err)
		}
		return m
	case <-time.After(20 * time.Second):
		t.Fatal("no response")
	}
	return nil
}

const (
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	toolsList   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

func errorOf(t *testing.T, m map[string]any) (code float64, msg string) {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	if !ok {
		t.Fatalf("not an error: %v", m)
	}
	if _, ok := m["id"]; !ok {
		t.Errorf("error response without id: %v", m)
	}
	code, _ = e["code"].(float64)
	msg, _ = e["message"].(string)
	return code, msg
}

func TestBadLinesDoNotEndTheSession(t *testing.T) {
	in, out, _ := serve(t, taskApp(t))
	for _, tc := range []struct {
		line   string
		code   float64
		id     any
		prefix string
	}{
		{`not json`, -32700, nil, "Parse error: "},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/list"`, -32700, nil, "Parse error: "},
	} {
		m := rpc(t, in, out, tc.line)
		code, msg := errorOf(t, m)
		if code != tc.code || m["id"] != tc.id || !strings.HasPrefix(msg, tc.prefix) || m["jsonrpc"] != "2.0" {
			t.Errorf("%s: answered %v", tc.line, m)
		}
	}
	if m := rpc(t, in, out, initialize); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	io.WriteString(in, initialized+"\n")
	for _, tc := range []struct {
		line string
		code float64
		id   any
	}{
		{`{"jsonrpc":`, -32700, nil},
		{`[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]`, -32600, nil},
		{`42`, -32600, nil},
		{`{"id":"x7","method":"tools/list"}`, -32600, "x7"},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`, -32602, 8.0},
	} {
		m := rpc(t, in, out, tc.line)
		code, _ := errorOf(t, m)
		if code != tc.code || m["id"] != tc.id {
			t.Errorf("%s: answered %v", tc.line, m)
		}
	}
	m := rpc(t, in, out, toolsList)
	tools, _ := m["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 17 {
		t.Fatalf("tools/list after bad lines: %v", m)
	}
}

// A client that writes its requests and closes its end still gets every
// answer.
func TestAnswersAfterEndOfInput(t *testing.T) {
	var out bytes.Buffer
	in := strings.Join([]string{initialize, initialized,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"node_find","arguments":{"snapshot":"latest","params":{"query":"Add","limit":10}}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"capabilities","arguments":{"params":{}}}}`,
	}, "\n")
	if err := Serve(context.Background(), taskApp(t), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	ids := map[float64]bool{}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if id, ok := m["id"].(float64); ok && m["result"] != nil {
			ids[id] = true
		}
	}
	if !ids[1] || !ids[2] || !ids[3] {
		t.Errorf("answers %v:\n%s", ids, out.String())
	}
}

func TestLongLine(t *testing.T) {
	inR, inW := io.Pipe()
	var out syncBuffer
	tr := &lineTransport{in: inR, out: &out, maxLine: 100}
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"x","params":"`+strings.Repeat("a", 300)+`"}`+"\n")
		io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\r\n")
		inW.Close()
	}()
	msg, err := conn.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(msg); !strings.Contains(string(b), "ping") {
		t.Errorf("read %s", b)
	}
	if !strings.Contains(out.String(), `"code":-32600`) || !strings.Contains(out.String(), "longer than 100 bytes") {
		t.Errorf("output %q", out.String())
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestDuplicateIDsAfterEndOfInput: calls with one id, read together, are
// each answered with that id, exactly as written, and Serve returns at
// the end of input without waiting for an answer that never comes.
func TestDuplicateIDsAfterEndOfInput(t *testing.T) {
	var out bytes.Buffer
	call := `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"node_find","arguments":{"snapshot":"latest","params":{"query":"Add","limit":10}}}}`
	in := strings.Join([]string{initialize, initialized,
		fmt.Sprintf(call, "2.50"), fmt.Sprintf(call, "2.50"), fmt.Sprintf(call, `"2.50"`), fmt.Sprintf(call, "36893488147419103232"),
	}, "\n")
	start := time.Now()
	if err := Serve(context.Background(), taskApp(t), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Serve took %v", d)
	}
	ids := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.Result == nil {
			t.Fatalf("%q: %v", l, err)
		}
		ids[string(m.ID)]++
	}
	if want := map[string]int{"1": 1, "2.50": 2, `"2.50"`: 1, "36893488147419103232": 1}; !reflect.DeepEqual(ids, want) {
		t.Errorf("answers by id %v, want %v", ids, want)
	}
}
