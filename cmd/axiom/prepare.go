package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/axiomcore/acore/internal/lang/prepare"
)

const prepareUsage = `usage: axiom prepare [dir]

Turn the contract sources in dir/contracts/ into development contracts
(dir/.axiom/dev/contracts/) and write the UI lock (dir/.axiom/ui.lock) that
pins them. Files that would not change are left alone. dir defaults to the
current directory.
`

func runPrepare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("prepare", flag.ContinueOnError)
	pos, code, ok := parseArgs(fs, args, prepareUsage, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 1 {
		return usageError(stderr, "prepare", "expected at most one directory", prepareUsage)
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	if msg := notADir(dir); msg != "" {
		fmt.Fprintf(stderr, "axiom prepare: %s\n", msg)
		return exitFail
	}
	rep, err := prepare.Run(dir)
	// Run may have written some files before failing; report them either
	// way so the user knows what changed on disk.
	if rep != nil {
		for _, f := range rep.Removed {
			fmt.Fprintf(stdout, "removed %s\n", f)
		}
		for _, f := range rep.Written {
			fmt.Fprintf(stdout, "wrote %s\n", f)
		}
	}
	var ce *prepare.ContractError
	switch {
	case errors.As(err, &ce):
		for _, d := range ce.Diagnostics {
			printDiagnostic(stderr, d)
		}
		fmt.Fprintf(stderr, "axiom prepare: contract sources have errors; fix them and run axiom prepare again\n")
		return exitFail
	case err != nil:
		fmt.Fprintf(stderr, "axiom prepare: %v\n", err)
		return exitFail
	}
	if len(rep.Written) == 0 && len(rep.Removed) == 0 {
		fmt.Fprintln(stdout, "up to date")
	}
	return exitOK
}
