package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/axiomcore/acore/internal/webapp/devserver"
)

const devUsage = `usage: axiom dev [dir] [--addr HOST:PORT] [--allow-host NAME]...

Build the project in dir for the web and serve it, with its development
backend, at one address; print the URL (http://HOST:PORT) as the first line
of output. Sources are watched: each change rebuilds and reloads the open
pages; while the sources do not compile, pages show the diagnostics and the
last good build keeps running. A change to contracts/ prepares the project
again first, as axiom prepare does. Ctrl-C stops (a second Ctrl-C
without waiting). dir defaults to the current directory.

flags:
  --addr HOST:PORT   where to listen (default 127.0.0.1:0, a free port on
                     loopback; other hosts expose the app and its data)
  --allow-host NAME  also answer requests addressed to NAME, and calls from
                     its pages (besides localhost, *.localhost and IP
                     addresses); repeat it or separate names by commas
`

func runDev(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	addr := fs.String("addr", devserver.DefaultAddr, "")
	var hosts []string
	fs.Func("allow-host", "", func(v string) error {
		for name := range strings.SplitSeq(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				hosts = append(hosts, name)
			}
		}
		return nil
	})
	pos, code, ok := parseArgs(fs, args, devUsage, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 1 {
		return usageError(stderr, "dev", "expected at most one directory", devUsage)
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	if msg := notADir(dir); msg != "" {
		fmt.Fprintf(stderr, "axiom dev: %s\n", msg)
		return exitFail
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A second signal kills at once, as without axiom dev's handler.
	context.AfterFunc(ctx, stop)
	err := devserver.Run(ctx, devserver.Config{Root: dir, Addr: *addr, AllowHosts: hosts, Stdout: stdout, Stderr: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "axiom dev: %v\n", err)
		return exitFail
	}
	fmt.Fprintln(stderr, "axiom dev: stopped")
	return exitOK
}
