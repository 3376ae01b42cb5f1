//go:build !unix

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// execMCP runs the MCP server as a child with this process's standard
// streams, where a process cannot be replaced, and exits as it does.
func execMCP(path string, args []string, stderr io.Writer) int {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "acore-semantic mcp: running %s: %v\n", path, err)
		return 1
	}
	return 0
}
