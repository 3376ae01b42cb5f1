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
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/axiomcore/acore/internal/service"
	"github.com/axiomcore/acore/internal/transport/mcp"
)

const usage = `usage:
  acore-semantic-mcp --root <project>   MCP on stdio: one tool per operation (node_find for node.find)
  (also run as: acore-semantic mcp --root <project>)
`

func main() {
	serviceGC()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// serviceGC sets the collector of a process that serves agents, as
// acore-semantic serve's main does, unless
// the user set GOGC or GOMEMLIMIT: off from the start until the heap first
// reaches serviceStartHeap, then at the default percent. A whole compile
// allocates about twenty times its sources and keeps about half; collecting
// while the first one runs marks a heap that is still growing, again and
// again, and frees little. The collection at serviceStartHeap, or the first
// one the program asks for, ends the start.
func serviceGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := debug.SetMemoryLimit(serviceStartHeap)
	percent := debug.SetGCPercent(-1)
	// Not a tiny allocation, which may share its block and never be
	// collected.
	start := new([32]byte)
	runtime.AddCleanup(start, func(struct{}) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}, struct{}{})
}

// serviceStartHeap is the heap a service process grows to before its
// first collection: about what the first compile of a project at the
// bounds (sources_bytes_max) allocates.
const serviceStartHeap = 128 << 20

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
