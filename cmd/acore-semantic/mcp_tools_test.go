package main

import (
	"os/exec"
	"sort"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/internal/agent/transport/mcp"
)

// toolsListMaxBytes bounds what the tool list costs an agent: an MCP client
// sends it to the model with every request (issue 14: 92.8 KB before).
// Issue 28's edit families (file create and remove, rename, route add and
// remove, and change.propose's overlay files) are five more shapes in both
// change.propose and edit.plan, which the bound makes room for.
const toolsListMaxBytes = 33_000

// TestMCPToolsListSize lists the tools of a real acore-semantic mcp process
// with the SDK's client and bounds the bytes of the answer.
func TestMCPToolsListSize(t *testing.T) {
	cmd := exec.CommandContext(ctxFor(t), binary, "mcp", "--root", taskApp(t))
	size, err := mcp.MeasureToolsList(ctxFor(t), &sdk.CommandTransport{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	if len(size.Tools) != len(schema.Operations()) {
		t.Errorf("%d tools listed, want one per operation (%d)", len(size.Tools), len(schema.Operations()))
	}
	names := make([]string, 0, len(size.Tools))
	sum := 0
	for name, n := range size.Tools {
		names = append(names, name)
		sum += n
	}
	sort.Strings(names)
	for _, name := range names {
		t.Logf("%-18s %6d bytes", name, size.Tools[name])
	}
	t.Logf("tools/list result: %d bytes", size.Total)
	if size.Total > toolsListMaxBytes {
		t.Errorf("tools/list is %d bytes, over %d", size.Total, toolsListMaxBytes)
	}
	if sum == 0 || sum >= size.Total {
		t.Errorf("the tools add up to %d bytes of a %d-byte result", sum, size.Total)
	}
}
