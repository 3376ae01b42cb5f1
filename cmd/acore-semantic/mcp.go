package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// mcpProgram serves MCP (cmd/acore-semantic-mcp). It is a program of its
// own so that this one, which answers a one-shot request in a process,
// does not link the MCP SDK and its HTTP stack.
const mcpProgram = "acore-semantic-mcp"

// startMCP runs acore-semantic-mcp with args in this process's place, with
// its standard input and output.
func startMCP(args []string, stderr io.Writer) int {
	path, err := findMCP()
	if err != nil {
		fmt.Fprintf(stderr, "acore-semantic mcp: %v\n", err)
		return 1
	}
	return execMCP(path, args, stderr)
}

// findMCP returns acore-semantic-mcp beside this program, as go install
// puts them, or else the one on PATH.
func findMCP() (string, error) {
	name := mcpProgram
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	beside := ""
	if exe, err := os.Executable(); err == nil {
		beside = filepath.Join(filepath.Dir(exe), name)
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(mcpProgram); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the MCP server is the program %s, which is neither at %s nor on PATH; install it beside acore-semantic with go install github.com/axiomcore/acore/cmd/acore-semantic-mcp@latest (in the repository: go install ./cmd/...)", mcpProgram, beside)
}
