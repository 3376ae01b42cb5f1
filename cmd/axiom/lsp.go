package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/axiomcore/acore/internal/editor/server"
)

const lspUsage = `usage: axiom lsp

Run the Acore language server on standard input and output (the Language
Server Protocol 3.17, Content-Length framing), for editors and for coding
agents' LSP tools. It serves the projects of the workspace folders the
client names, and of any opened file with a main.acore in a directory
above it.
`

func runLSP(args []string, stdout, stderr io.Writer) int {
	if _, code, ok := parseArgs(flag.NewFlagSet("lsp", flag.ContinueOnError), args, lspUsage, stdout, stderr); !ok {
		return code
	}
	if err := server.Serve(context.Background(), stdio{}, server.Options{Debounce: 30 * time.Millisecond, AxagPause: 300 * time.Millisecond, Version: version()}); err != nil {
		fmt.Fprintf(stderr, "axiom lsp: %v\n", err)
		return exitFail
	}
	return exitOK
}

// stdio is the process's standard input and output as one stream.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }
