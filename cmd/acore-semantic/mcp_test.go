package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPProgramMissing runs acore-semantic mcp where acore-semantic-mcp
// is neither beside it nor on PATH: it says what to install and exits 1.
func TestMCPProgramMissing(t *testing.T) {
	dir := t.TempDir()
	alone := filepath.Join(dir, "acore-semantic")
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(alone, "mcp", "--root", taskApp(t))
	cmd.Env = append(os.Environ(), "PATH="+dir)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d (%v), want 1:\n%s", code, err, out)
	}
	for _, want := range []string{"acore-semantic mcp: the MCP server is the program acore-semantic-mcp",
		"go install github.com/axiomcore/acore/cmd/acore-semantic-mcp@latest"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestMCPUsage checks that acore-semantic mcp hands its arguments to the
// MCP server, which reports a missing root as acore-semantic mcp.
func TestMCPUsage(t *testing.T) {
	cmd := exec.Command(binary, "mcp")
	out, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "acore-semantic mcp: --root is required") {
		t.Fatalf("exit %d, want 2 and the missing root:\n%s", code, out)
	}
}

// TestOneShotLinksNoNetwork keeps the MCP SDK and the network stack out
// of acore-semantic, which starts a process per one-shot request: with
// them (net/http, TLS, OAuth, and cgo for net's resolver) it took 22 ms to
// start and exit on the bench machine, without them 13 ms.
func TestOneShotLinksNoNetwork(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	banned := map[string]bool{"net": true, "net/http": true, "crypto/tls": true, "runtime/cgo": true,
		"github.com/modelcontextprotocol/go-sdk/mcp": true}
	for _, p := range strings.Fields(string(out)) {
		if banned[p] {
			t.Errorf("acore-semantic depends on %s", p)
		}
	}
}
