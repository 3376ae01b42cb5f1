// Command acore-semantic-mcp serves the axiom-agent-semantic/v1 protocol
// for one Acore UI project as an MCP server on stdio: one tool per
// operation (node_find for node.find). `acore-semantic mcp` runs it.
//
// It is a program of its own so that acore-semantic, which answers
// one-shot requests in a process each, does not link the MCP SDK: the SDK
// brings net/http, TLS and OAuth with it, whose package initialisation
// and dynamic linking took 9 ms of every one-shot process's 22 ms start.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/axiomcore/acore/internal/platform/gcpolicy"

	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/agent/transport/mcp"
)

const usage = `usage:
  acore-semantic-mcp --root <project>   MCP on stdio: one tool per operation (node_find for node.find)
  (also run as: acore-semantic mcp --root <project>)
`

func main() {
	gcpolicy.Service()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("acore-semantic-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	root := fs.String("root", "", "the project root to serve")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "acore-semantic mcp: unexpected argument %q\n%s", fs.Arg(0), usage)
		return 2
	}
	if *root == "" {
		fmt.Fprintf(stderr, "acore-semantic mcp: --root is required\n%s", usage)
		return 2
	}
	svc, err := service.New(service.ProcessConfig(*root, os.Getenv))
	if err != nil {
		fmt.Fprintf(stderr, "acore-semantic mcp: %v\n", err)
		return 1
	}
	defer svc.Wait()
	// An MCP client ends the server by closing its stdin, or by a signal;
	// either is a normal end.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := mcp.Serve(ctx, svc, stdin, stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "acore-semantic mcp: %v\n", err)
		return 1
	}
	return 0
}
