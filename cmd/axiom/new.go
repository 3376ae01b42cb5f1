package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/axiomcore/acore/internal/lang/scaffold"
)

const newUsage = `usage: axiom new <dir>

Create the task-app sample project in dir, which must be missing or empty,
and prepare it, so that "axiom check <dir>" passes straight away.
`

func runNew(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	pos, code, ok := parseArgs(fs, args, newUsage, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "new", "expected one directory", newUsage)
	}
	dir := pos[0]
	written, err := scaffold.New(dir)
	if errors.Is(err, scaffold.ErrNotEmpty) {
		// The common case is running the quick start twice; say what to
		// do instead of only what went wrong.
		fmt.Fprintf(stderr, "axiom new: %s already exists and is not empty; axiom new only writes into a missing or empty directory.\n", dir)
		fmt.Fprintf(stderr, "Choose another directory, or check the project already there with:\n  axiom check %s\n", shellQuote(dir))
		return exitFail
	}
	if err != nil {
		for _, f := range written {
			fmt.Fprintf(stdout, "wrote %s\n", f)
		}
		fmt.Fprintf(stderr, "axiom new: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "created the task-app project in %s:\n", dir)
	for _, f := range written {
		fmt.Fprintf(stdout, "  %s\n", f)
	}
	fmt.Fprintf(stdout, "\nnext steps:\n  axiom check %s    # compile it\n  axiom dev %s      # run it in a browser, with a development backend\n", shellQuote(dir), shellQuote(dir))
	return exitOK
}
