package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// binary is acore-semantic, built once by TestMain with acore-semantic-mcp
// beside it, which its mcp command runs: the transports are tested as the
// real processes a client starts.
var binary string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "acore-semantic-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := build(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binary = filepath.Join(dir, "acore-semantic")
	raceBinary = binary
	if raceEnabled {
		// The concurrency tests run binaries built with the race detector
		// too; a race makes them exit with status 66 (GORACE below). The
		// kill tests keep the plain binary: they start many processes.
		if err := build(filepath.Join(dir, "race"), "-race"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		raceBinary = filepath.Join(dir, "race", "acore-semantic")
		os.Setenv("GORACE", "halt_on_error=1 exitcode=66")
	}
	return m.Run()
}

// build builds acore-semantic and acore-semantic-mcp into dir.
func build(dir string, flags ...string) error {
	args := append(append([]string{"build"}, flags...), "-o", dir+string(filepath.Separator), ".", "../acore-semantic-mcp")
	cmd := exec.Command("go", args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %v", strings.Join(args, " "), err)
	}
	return nil
}

// raceBinary is the binary the concurrency tests run: built with -race
// when the tests run with it.
var raceBinary string

// taskApp makes the reference's task-app, as axiom new does.
func taskApp(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// step is one request of the script.
type step struct {
	line int
	req  string // with placeholders
	// before, when set, changes the project's files before the request is
	// sent, on every transport.
	before func(t *testing.T, root string)
}

func (s step) envelope() map[string]any {
	var m map[string]any
	_ = json.Unmarshal([]byte(s.req), &m)
	return m
}

func (s step) prepare(t *testing.T, root string) {
	t.Helper()
	if s.before != nil {
		s.before(t, root)
	}
}

// overMCP reports whether the request can be sent over MCP, where the tool
// chooses the operation and the protocol is always v1.
func (s step) overMCP() bool { return s.envelope()["protocol"] == "axiom-agent-semantic/v1" }

func readScript(t *testing.T) []step {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "transports.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var steps []step
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if !json.Valid([]byte(l)) {
			t.Fatalf("testdata/transports.jsonl:%d: not JSON", i+1)
		}
		steps = append(steps, step{line: i + 1, req: l})
	}
	return steps
}

// vars fills the placeholders from the answers so far.
type vars map[string]string

func (v vars) fill(req string) string {
	for k, val := range v {
		req = strings.ReplaceAll(req, "<"+k+">", val)
	}
	return req
}

// learn takes the workspace and snapshot from workspace.open's answer,
// and the candidate from change.propose's.
func (v vars) learn(t *testing.T, req string, resp []byte) {
	t.Helper()
	if strings.Contains(req, `"change.apply"`) {
		var r struct {
			Result struct {
				Receipt struct {
					ResultSnapshot string `json:"result_snapshot"`
				} `json:"receipt"`
			} `json:"result"`
		}
		if json.Unmarshal(resp, &r) == nil && r.Result.Receipt.ResultSnapshot != "" {
			v["head"] = r.Result.Receipt.ResultSnapshot
		}
		return
	}
	if strings.Contains(req, `"change.propose"`) {
		var r struct {
			Result struct {
				Candidate struct {
					ID string `json:"id"`
				} `json:"candidate"`
			} `json:"result"`
		}
		if json.Unmarshal(resp, &r) == nil && r.Result.Candidate.ID != "" {
			v["candidate"] = r.Result.Candidate.ID
		}
		return
	}
	if !strings.Contains(req, `"workspace.open"`) {
		return
	}
	var r struct {
		Workspace string `json:"workspace"`
		Snapshot  struct {
			ID string `json:"id"`
		} `json:"snapshot"`
	}
	if err := json.Unmarshal(resp, &r); err != nil || r.Workspace == "" || r.Snapshot.ID == "" {
		t.Fatalf("workspace.open answered %s", resp)
	}
	v["workspace"], v["snapshot"] = r.Workspace, r.Snapshot.ID
}

// normalize decodes a response envelope and drops snapshot.captured_at,
// the one field that differs between two captures of the same files, and
// what differs between two candidates or applies of the same request:
// expires_at, recorded_at, the random part of candidate, receipt and
// journal ids, and a receipt's input_fingerprint (over the candidate id).
func normalize(t *testing.T, resp []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(resp, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v\n%s", err, resp)
	}
	if s, ok := m["snapshot"].(map[string]any); ok {
		delete(s, "captured_at")
	}
	return sameCandidates(m).(map[string]any)
}

func sameCandidates(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "expires_at")
		delete(x, "recorded_at")
		if _, ok := x["receipt_id"]; ok {
			x["input_fingerprint"] = "…" // over the candidate's id
		}
		for k, e := range x {
			x[k] = sameCandidates(e)
		}
	case []any:
		for i, e := range x {
			x[i] = sameCandidates(e)
		}
	case string:
		if strings.HasPrefix(x, "cand-") && len(x) == len("cand-")+24 {
			return "cand-…"
		}
		for _, p := range []string{"rcpt-", "jrnl-"} {
			if strings.HasPrefix(x, p) {
				return p + "…"
			}
		}
	}
	return v
}

// fresh lays out the task-app again at root, so that each transport starts
// from the same files and no candidates or request records.
func fresh(t *testing.T, root string) string {
	t.Helper()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if _, err := scaffold.New(root); err != nil {
		t.Fatal(err)
	}
	return root
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// runOneShot answers each request with a new process, request on stdin.
func runOneShot(t *testing.T, root string, steps []step) map[int][]byte {
	ctx := ctxFor(t)
	v := vars{"root": root}
	out := map[int][]byte{}
	for _, s := range steps {
		s.prepare(t, root)
		req := v.fill(s.req)
		cmd := exec.CommandContext(ctx, binary, "--root", root)
		cmd.Stdin = strings.NewReader(req)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		resp, err := cmd.Output()
		if err != nil {
			t.Fatalf("one-shot line %d: %v\n%s", s.line, err, stderr.Bytes())
		}
		resp = bytes.TrimSpace(resp)
		if bytes.Count(resp, []byte("\n")) != 0 {
			t.Fatalf("one-shot line %d: more than one line out:\n%s", s.line, resp)
		}
		v.learn(t, req, resp)
		out[s.line] = resp
	}
	return out
}

// lineProcess is acore-semantic serve or mcp, driven line by line.
type lineProcess struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	lines chan []byte
}

func startLines(t *testing.T, args ...string) *lineProcess {
	t.Helper()
	cmd := exec.CommandContext(ctxFor(t), binary, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &lineProcess{t: t, cmd: cmd, in: in, out: bufio.NewReaderSize(stdout, 1<<20), lines: make(chan []byte)}
	go func() {
		defer close(p.lines)
		for {
			l, err := p.out.ReadBytes('\n')
			if len(bytes.TrimSpace(l)) > 0 {
				p.lines <- bytes.TrimSpace(l)
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	return p
}

func (p *lineProcess) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

func (p *lineProcess) recv() []byte {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatal("the process ended its output")
		}
		return l
	case <-time.After(30 * time.Second):
		p.t.Fatal("no answer in 30s")
	}
	return nil
}

// close ends input and requires a clean exit.
func (p *lineProcess) close() {
	p.t.Helper()
	p.in.Close()
	for l := range p.lines {
		p.t.Errorf("unexpected output: %s", l)
	}
	if err := p.cmd.Wait(); err != nil {
		p.t.Errorf("exit: %v", err)
	}
}

// runServe answers the script with one serve process, one line per request.
func runServe(t *testing.T, root string, steps []step) map[int][]byte {
	p := startLines(t, "serve", "--root", root)
	v := vars{"root": root}
	out := map[int][]byte{}
	for _, s := range steps {
		s.prepare(t, root)
		req := v.fill(s.req)
		p.send(req)
		resp := p.recv()
		v.learn(t, req, resp)
		out[s.line] = resp
	}
	p.close()
	return out
}

// runMCP answers the script with one mcp process through the SDK's client:
// each request is a call of its operation's tool.
func runMCP(t *testing.T, root string, steps []step) map[int][]byte {
	ctx := ctxFor(t)
	client := sdk.NewClient(&sdk.Implementation{Name: "transports-test", Version: "0"}, nil)
	cmd := exec.CommandContext(ctx, binary, "mcp", "--root", root)
	cmd.Stderr = os.Stderr
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if info := cs.InitializeResult().ServerInfo; info.Name != "acore-semantic" {
		t.Errorf("server %+v", info)
	}
	v := vars{"root": root}
	out := map[int][]byte{}
	for _, s := range steps {
		if !s.overMCP() {
			continue
		}
		s.prepare(t, root)
		req := v.fill(s.req)
		var args map[string]any
		if err := json.Unmarshal([]byte(req), &args); err != nil {
			t.Fatal(err)
		}
		op, _ := args["operation"].(string)
		delete(args, "protocol")
		delete(args, "operation")
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: strings.ReplaceAll(op, ".", "_"), Arguments: args})
		if err != nil {
			t.Fatalf("mcp line %d: %v", s.line, err)
		}
		resp, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Content) != 1 {
			t.Fatalf("mcp line %d: %d contents", s.line, len(res.Content))
		}
		if text, ok := res.Content[0].(*sdk.TextContent); !ok {
			t.Errorf("mcp line %d: content %T", s.line, res.Content[0])
		} else if !reflect.DeepEqual(normalize(t, []byte(text.Text)), normalize(t, resp)) {
			t.Errorf("mcp line %d: text content and structured content differ:\n%s\n%s", s.line, text.Text, resp)
		}
		if _, isErr := normalize(t, resp)["error"]; isErr != res.IsError {
			t.Errorf("mcp line %d: isError %v for %s", s.line, res.IsError, resp)
		}
		v.learn(t, req, resp)
		out[s.line] = resp
	}
	if err := cs.Close(); err != nil {
		t.Errorf("closing the MCP session: %v", err)
	}
	return out
}

// TestTransportsAnswerAlike sends one script through the one-shot command,
// serve and mcp, and requires the same response envelopes.
func TestTransportsAnswerAlike(t *testing.T) {
	root := taskApp(t)
	steps := readScript(t)
	answers := map[string]map[int][]byte{
		"one-shot": runOneShot(t, fresh(t, root), steps),
		"serve":    runServe(t, fresh(t, root), steps),
		"mcp":      runMCP(t, fresh(t, root), steps),
	}
	skipped := 0
	for _, s := range steps {
		base := answers["one-shot"][s.line]
		want := normalize(t, base)
		checkEnvelope(t, s, want)
		for _, tr := range []string{"serve", "mcp"} {
			resp, ok := answers[tr][s.line]
			if !ok {
				if tr == "mcp" && !s.overMCP() {
					skipped++
					continue
				}
				t.Fatalf("%s: no answer to line %d", tr, s.line)
			}
			if got := normalize(t, resp); !reflect.DeepEqual(got, want) {
				t.Errorf("line %d: %s and one-shot differ\n%s: %s\none-shot: %s", s.line, tr, tr, resp, base)
			}
		}
	}
	if skipped != 1 {
		t.Errorf("%d requests skipped over MCP, want 1 (protocol v2)", skipped)
	}
}

// checkEnvelope checks what the script's answers must say whatever the
// transport.
func checkEnvelope(t *testing.T, s step, resp map[string]any) {
	t.Helper()
	req := s.envelope()
	_, hasResult := resp["result"]
	_, hasError := resp["error"]
	if hasResult == hasError || resp["protocol"] != "axiom-agent-semantic/v1" || resp["operation"] != req["operation"] {
		t.Errorf("line %d: not a v1 response envelope: %v", s.line, resp)
	}
	errField := func(k string) any {
		e, _ := resp["error"].(map[string]any)
		return e[k]
	}
	switch {
	case req["protocol"] != "axiom-agent-semantic/v1":
		if errField("reason") != "protocol_unsupported" {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	case strings.Contains(s.req, "element:Home/view/9"):
		if errField("code") != "not_found" {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	case strings.Contains(s.req, `"limit": 51`):
		if errField("code") != "invalid_arguments" {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	case strings.Contains(s.req, `"max_bytes": 256`):
		// The reference's insufficient_context example.
		d, _ := errField("details").(map[string]any)
		if errField("code") != "insufficient_context" || d["required_bytes"] != 294.0 {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	case strings.Contains(s.req, `"cand-1"`):
		if resp["workspace"] == nil || errField("reason") != "candidate_unknown" {
			t.Errorf("line %d: the workspace was not filled in: %v", s.line, resp)
		}
	case strings.Contains(s.req, `"rename-add-0"`):
		if errField("reason") != "old_value_mismatch" {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	case strings.Contains(s.req, `"rename-add-1"`) && strings.Contains(s.req, `"Add a task"}`):
		if errField("reason") != "request_id_reused" {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	case strings.Contains(s.req, `"remove-home-1"`):
		d, _ := errField("diagnostics").([]any)
		if errField("code") != "compile_failed" || len(d) == 0 {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	case strings.Contains(s.req, `"rename-add-2"`):
		if errField("code") != "stale_snapshot" || errField("reason") != "base_not_head" {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	case req["operation"] == "change.apply":
		r, _ := resp["result"].(map[string]any)
		receipt, _ := r["receipt"].(map[string]any)
		if receipt["outcome"] != "applied" {
			t.Errorf("line %d: %v", s.line, resp)
		}
	case req["operation"] == "change.inspect":
		r, _ := resp["result"].(map[string]any)
		if d, _ := r["source_diff"].([]any); len(d) != 1 {
			t.Errorf("line %d: %v", s.line, resp)
		}
		if snap, _ := resp["snapshot"].(map[string]any); snap["overlay"] != "cand-…" {
			t.Errorf("line %d: snapshot %v", s.line, resp["snapshot"])
		}
	case req["operation"] == "check.run":
		if r, _ := resp["result"].(map[string]any); r["ok"] != true {
			t.Errorf("line %d: %v", s.line, resp)
		}
	default:
		if hasError {
			t.Errorf("line %d: %v", s.line, resp["error"])
		}
	}
}

// TestServeGoesOnAfterABadLine: serve answers a line that is not JSON in
// the legacy format and answers the next line.
func TestServeGoesOnAfterABadLine(t *testing.T) {
	p := startLines(t, "serve", "--root", taskApp(t))
	p.send(`this is not json`)
	var legacy struct {
		Protocol *string `json:"protocol"`
		Error    struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if resp := p.recv(); json.Unmarshal(resp, &legacy) != nil || legacy.Error.Code != "invalid_request" || legacy.Protocol != nil {
		t.Errorf("bad line answered %s", resp)
	}
	p.send(`{"protocol": "axiom-agent-semantic/v1", "operation": "capabilities", "params": {}}`)
	if resp := normalize(t, p.recv()); resp["result"] == nil {
		t.Errorf("next line answered %v", resp)
	}
	p.close()
}

// TestMCPGoesOnAfterABadLine drives acore-semantic mcp's stdin and stdout
// directly: a line that is not JSON gets the JSON-RPC parse error, before
// and after initialization, and the session goes on.
func TestMCPGoesOnAfterABadLine(t *testing.T) {
	p := startLines(t, "mcp", "--root", taskApp(t))
	parseError := func(line string) {
		t.Helper()
		p.send(line)
		resp := p.recv()
		var r struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(resp, &r) != nil || r.JSONRPC != "2.0" || string(r.ID) != "null" || r.Error.Code != -32700 ||
			!strings.HasPrefix(r.Error.Message, "Parse error") {
			t.Errorf("%q answered %s", line, resp)
		}
	}
	parseError(`this is not json`)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if resp := p.recv(); !bytes.Contains(resp, []byte(`"serverInfo"`)) {
		t.Fatalf("initialize answered %s", resp)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	parseError(`{"jsonrpc": "2.0", "id": 2, "method": "tools/list"`)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	var list struct {
		ID     int `json:"id"`
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	if resp := p.recv(); json.Unmarshal(resp, &list) != nil || list.ID != 3 || len(list.Result.Tools) != 17 {
		t.Errorf("tools/list answered %.300s", resp)
	}
	p.close()
}
