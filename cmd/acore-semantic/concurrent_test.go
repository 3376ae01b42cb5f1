package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestConcurrentServeAndMCPClients runs a serve process and an MCP server
// on one root and sends them reads and edits at the same time: MCP tool
// calls from several goroutines, serve lines from another. Every answer
// must be a v1 envelope, at most one apply of the same file may win, and
// neither process may report a data race (when the tests run with -race,
// so do the processes).
func TestConcurrentServeAndMCPClients(t *testing.T) {
	root := taskApp(t)
	ctx := ctxFor(t)
	client := sdk.NewClient(&sdk.Implementation{Name: "concurrent-test", Version: "0"}, nil)
	mcpCmd := exec.CommandContext(ctx, raceBinary, "mcp", "--root", root)
	var mcpErr strings.Builder
	mcpCmd.Stderr = &mcpErr
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: mcpCmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	serve := exec.CommandContext(ctx, raceBinary, "serve", "--root", root)
	var serveErr strings.Builder
	serve.Stderr = &serveErr
	var requests strings.Builder
	for i := range 20 {
		fmt.Fprintf(&requests, `{"protocol":"axiom-agent-semantic/v1","operation":"node.find","snapshot":"latest","params":{"query":"%c","limit":5}}`+"\n", 'a'+i%26)
		requests.WriteString(`{"protocol":"axiom-agent-semantic/v1","operation":"graph.query","snapshot":"latest","params":{"from":["state:Home.draft"],"mode":"dependents","transitive":true}}` + "\n")
	}
	serve.Stdin = strings.NewReader(requests.String())

	var wg sync.WaitGroup
	var serveOut []byte
	var serveRunErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		serveOut, serveRunErr = serve.Output()
	}()
	call := func(op string, args map[string]any) map[string]any {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: strings.ReplaceAll(op, ".", "_"), Arguments: args})
		if err != nil {
			t.Errorf("%s: %v", op, err)
			return nil
		}
		b, _ := json.Marshal(res.StructuredContent)
		var o map[string]any
		_ = json.Unmarshal(b, &o)
		if o["protocol"] != "axiom-agent-semantic/v1" {
			t.Errorf("%s: not a v1 envelope: %s", op, b)
		}
		return o
	}
	open := call("workspace.open", map[string]any{"params": map[string]any{"roots": []any{map[string]any{"path": root}}}})
	snapObj, _ := open["snapshot"].(map[string]any)
	snap, _ := snapObj["id"].(string)
	if snap == "" {
		t.Fatalf("workspace.open: %v\n%s", open, mcpErr.String())
	}
	applied := make(chan string, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5 {
				call("node.get", map[string]any{"snapshot": "latest", "params": map[string]any{"nodes": []any{"element:Home/view/0/1"}}})
				call("impact.analyze", map[string]any{"snapshot": snap, "params": map[string]any{"targets": []any{"state:Home.draft"}, "direction": "both"}})
				_ = i
			}
			// Each goroutine proposes its own label on the same base and
			// tries to apply it: only the first apply can win.
			o := call("change.propose", map[string]any{"base_snapshot": snap, "request_id": fmt.Sprintf("c-%d", g),
				"params": map[string]any{"operations": []any{map[string]any{"kind": "set_property", "node": "element:Home/view/0/1",
					"property": "label", "old_value": "Add", "new_value": fmt.Sprintf("Add %d", g)}}}})
			res, _ := o["result"].(map[string]any)
			if res == nil {
				// Once another goroutine's apply changed main.acore, the old
				// base is stale for this edit: the right answer.
				if e, _ := o["error"].(map[string]any); e == nil || e["code"] != "stale_snapshot" {
					t.Errorf("change.propose %d: %v", g, o["error"])
				}
				return
			}
			cand, _ := res["candidate"].(map[string]any)["id"].(string)
			a := call("change.apply", map[string]any{"request_id": fmt.Sprintf("a-%d", g),
				"params": map[string]any{"candidate": cand, "expected_candidate_version": 1}})
			if r, ok := a["result"].(map[string]any); ok && r["receipt"].(map[string]any)["outcome"] == "applied" {
				applied <- cand
			}
		}()
	}
	wg.Wait()
	close(applied)
	n := 0
	for range applied {
		n++
	}
	if n != 1 {
		t.Errorf("%d applies of the same file on one base won, want exactly 1", n)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("closing the MCP session: %v", err)
	}
	_ = mcpCmd.Wait()
	var exit *exec.ExitError
	if errors.As(serveRunErr, &exit) || strings.Contains(serveErr.String(), "DATA RACE") || strings.Contains(mcpErr.String(), "DATA RACE") {
		t.Errorf("serve: %v\n%s\nmcp:\n%s", serveRunErr, serveErr.String(), mcpErr.String())
	}
	if lines := strings.Count(string(serveOut), "\n"); lines != 40 {
		t.Errorf("serve answered %d lines, want 40", lines)
	}
	if mcpCmd.ProcessState != nil && mcpCmd.ProcessState.ExitCode() == 66 {
		t.Errorf("the MCP server found a data race:\n%s", mcpErr.String())
	}
	src, _ := os.ReadFile(root + "/main.acore")
	if !strings.Contains(string(src), `label: "Add `) {
		t.Errorf("main.acore holds no applied label:\n%s", src)
	}
}
