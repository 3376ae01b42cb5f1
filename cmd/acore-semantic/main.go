// Command acore-semantic serves the axiom-agent-semantic/v1 protocol for
// one Acore UI project: one request from standard input (one-shot), JSON
// lines (serve), or MCP on stdio (mcp, which runs acore-semantic-mcp).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/axiomcore/acore/internal/platform/gcpolicy"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/platform/hugeheap"
)

const usage = `usage:
  acore-semantic --root <project> < request.json   answer one request
  acore-semantic serve --root <project>            JSON lines: one request per line in, one response per line out
  acore-semantic mcp --root <project>              MCP on stdio: one tool per operation (node_find for node.find)
  acore-semantic --capabilities                    print the capability manifest and toolchain
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "mcp" {
		return startMCP(args[1:], stderr)
	}
	mode := "oneshot"
	if len(args) > 0 && args[0] == "serve" {
		mode, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("acore-semantic", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	root := fs.String("root", "", "the project root to serve")
	caps := fs.Bool("capabilities", false, "print the capability manifest plus toolchain and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "acore-semantic: unexpected argument %q\n%s", fs.Arg(0), usage)
		return 2
	}
	if *caps {
		return printCapabilities(stdout, stderr)
	}
	if *root == "" {
		fmt.Fprintf(stderr, "acore-semantic: --root is required\n%s", usage)
		return 2
	}
	if mode == "serve" {
		gcpolicy.Service()
	}
	cfg := service.ProcessConfig(*root, os.Getenv)
	reserveNow := false
	if mode == "oneshot" && oneShotGC(*root) {
		// The project is read into memory of its own. Without the compile
		// cache every capture compiles, and the heap is prepared while the
		// service reads the project; with it, a capture may read its
		// compile from the cache and allocate little, so the heap is
		// prepared only when a whole compile starts.
		cfg.ReadBuffers = hugeheap.NewBuffers(readBuffers).Make
		reserveNow = cfg.NoCompileCache
		if !reserveNow {
			cfg.Compile.Before = sync.OnceFunc(func() { hugeheap.Reserve(hugeReserve) })
		}
	}
	svc, err := service.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "acore-semantic: %v\n", err)
		return 1
	}
	if reserveNow {
		hugeheap.Reserve(hugeReserve)
	}
	// The compile a request made is written for the next process while
	// the answer goes out; the process ends once it is.
	defer svc.Wait()
	ctx := context.Background()
	if mode == "serve" {
		return serve(ctx, svc, stdin, stdout, stderr)
	}
	req, err := io.ReadAll(io.LimitReader(stdin, protocol.RequestMaxBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "acore-semantic: reading the request: %v\n", err)
		return 1
	}
	stdout.Write(svc.Handle(ctx, req))
	io.WriteString(stdout, "\n")
	return 0
}

// oneShotHeap bounds the heap of a one-shot process, which collects only
// when it reaches it: one request allocates at most a few compiles of a
// project within the bounds (sources_bytes_max), each about twenty times
// its sources, so most requests never reach it.
const oneShotHeap = 512 << 20

// oneShotGC turns the collector off in a process that answers one request
// and exits, unless the user set GOGC or GOMEMLIMIT: its heap is freed
// when it exits, and a collection after its compile would mark the whole
// graph for nothing.
//
// It reports whether the heap the request allocates is to be backed by
// huge pages where the kernel allows (hugeheap.Reserve, which the caller
// calls once the service has started reading the project): when the
// project's sources pass hugeSources. A compile's first touch of each
// small page is a fault, of several microseconds on a virtual machine.
func oneShotGC(root string) (reserve bool) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetMemoryLimit(oneShotHeap)
	debug.SetGCPercent(-1)
	return load.SourcesOver(root, hugeSources)
}

// hugeSources is the size of sources past which a one-shot process backs
// its heap with huge pages: the reserve costs a collection, which a
// compile of a small project (about twenty times its sources' bytes) does
// not save in faults.
const hugeSources = 256 << 10

// readBuffers is the memory a one-shot process reads the project's files
// into, outside its heap: room for the sources at their bound
// (sources_bytes_max) and a lock and contracts beside them; files past it
// are read into the heap.
const readBuffers = load.SourcesBytesMax + 1<<20

// hugeReserve is the heap a one-shot process backs with huge pages: about
// what a request on a project at the bounds allocates (a node.find with
// its search index the most); more comes in small pages. Making the
// reserve costs more the larger it is (its heap metadata).
const hugeReserve = 128 << 20

// serve answers one request per line until end of input; a line that is
// not a request is answered and reading goes on.
func serve(ctx context.Context, svc *service.Service, stdin io.Reader, stdout, stderr io.Writer) int {
	r := bufio.NewReaderSize(stdin, 64<<10)
	w := bufio.NewWriter(stdout)
	for {
		line, err := readLine(r, protocol.RequestMaxBytes)
		if len(line) > 0 || err == errTooLong {
			if err == errTooLong {
				line = make([]byte, protocol.RequestMaxBytes+1) // answered as request_too_large
			}
			w.Write(svc.Handle(ctx, line))
			w.WriteByte('\n')
			if ferr := w.Flush(); ferr != nil {
				fmt.Fprintf(stderr, "acore-semantic: %v\n", ferr)
				return 1
			}
			select {
			case <-svc.Stopping():
				fmt.Fprintln(stderr, "acore-semantic: exiting after a timed-out change.apply; start the service again and send the same request")
				return 1
			default:
			}
		}
		if err == io.EOF {
			return 0
		}
		if err != nil && err != errTooLong {
			fmt.Fprintf(stderr, "acore-semantic: %v\n", err)
			return 1
		}
	}
}

var errTooLong = fmt.Errorf("line too long")

// readLine reads one line, discarding the rest of a line over max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			if err == io.EOF || err == nil {
				return nil, errTooLong
			}
			return nil, err
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(line) > 0 && line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		return line, err
	}
}

func printCapabilities(stdout, stderr io.Writer) int {
	dir, err := os.MkdirTemp("", "acore-caps")
	if err != nil {
		fmt.Fprintf(stderr, "acore-semantic: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	svc, err := service.New(service.Config{Root: dir})
	if err != nil {
		fmt.Fprintf(stderr, "acore-semantic: %v\n", err)
		return 1
	}
	var resp struct {
		Result struct {
			Manifest            json.RawMessage `json:"manifest"`
			ManifestFingerprint string          `json:"manifest_fingerprint"`
		} `json:"result"`
	}
	out := svc.Handle(context.Background(), []byte(`{"protocol":"axiom-agent-semantic/v1","operation":"capabilities","params":{}}`))
	if err := json.Unmarshal(out, &resp); err != nil {
		fmt.Fprintf(stderr, "acore-semantic: %v\n", err)
		return 1
	}
	b, _ := json.MarshalIndent(map[string]any{"manifest": resp.Result.Manifest, "manifest_fingerprint": resp.Result.ManifestFingerprint, "toolchain": service.Toolchain()}, "", "  ")
	stdout.Write(append(b, '\n'))
	return 0
}
