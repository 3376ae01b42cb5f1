//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// execMCP replaces this process with the MCP server: the client's pipes
// and signals reach it directly, and no second process is left waiting.
func execMCP(path string, args []string, stderr io.Writer) int {
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	fmt.Fprintf(stderr, "acore-semantic mcp: running %s: %v\n", path, err)
	return 1
}
