package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/project"
)

const checkUsage = `usage: axiom check [dir] [--json]

Compile the project in dir and print its diagnostics as
path:line:col: severity: message [code], then, when it compiles, what the
AXAG rules find in its manifest (as axag validate prints them, each with its
fix), then a summary line. dir defaults to the current directory. The exit
status is 1 when the project has errors, including when it needs
"axiom prepare", or its manifest has AXAG errors, and 0 otherwise.

flags:
  --json  print one JSON object instead: project, root, semantic_state,
          status, preparation, errors, warnings, diagnostics, axag (the
          findings: rule, severity, file, line, column, message, fix)
`

// checkReport is the --json output. It is a struct, not a map, so that
// keys come out in this order every time.
type checkReport struct {
	Project       string            `json:"project"`
	Root          string            `json:"root"`
	SemanticState string            `json:"semantic_state"`
	Status        string            `json:"status"`
	Preparation   []string          `json:"preparation"`
	Errors        int               `json:"errors"`
	Warnings      int               `json:"warnings"`
	Diagnostics   []diag.Diagnostic `json:"diagnostics"`
	Axag          []axag.Finding    `json:"axag"`
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	pos, code, ok := parseArgs(fs, args, checkUsage, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 1 {
		return usageError(stderr, "check", "expected at most one directory", checkUsage)
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	if msg := notADir(dir); msg != "" {
		fmt.Fprintf(stderr, "axiom check: %s\n", msg)
		return exitFail
	}
	root := absRoot(dir)
	// One compile with the record the AXAG manifest reads, instead of a
	// plain one and then a recorded one.
	p, err := project.Options{Record: true}.Open(dir)
	if err != nil {
		fmt.Fprintf(stderr, "axiom check: %v\n", err)
		return exitFail
	}
	res := p.Result
	nerr, nwarn := diag.Count(res.Diagnostics)
	failed := nerr > 0 || res.Status != check.StatusReady || res.State == check.StateUnavailable
	name := filepath.Base(root)
	// The manifest's findings need a compile without errors: with them
	// it would miss what they hide.
	var findings []axag.Finding
	if !failed {
		_, fs := axag.ManifestFor(p.Recorded(), axag.Options{})
		findings = axag.RuleFindings(fs)
	}
	more, axErrs := axagSummary(findings)
	failed = failed || axErrs > 0

	if *asJSON {
		rep := checkReport{
			Project:       name,
			Root:          root,
			SemanticState: res.State,
			Status:        res.Status,
			Preparation:   res.Preparation,
			Errors:        nerr,
			Warnings:      nwarn,
			Diagnostics:   res.Diagnostics,
			Axag:          findings,
		}
		// Empty lists are [] rather than null, so consumers need not
		// special-case a clean project.
		if rep.Preparation == nil {
			rep.Preparation = []string{}
		}
		if rep.Diagnostics == nil {
			rep.Diagnostics = []diag.Diagnostic{}
		}
		if rep.Axag == nil {
			rep.Axag = []axag.Finding{}
		}
		out, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "axiom check: %v\n", err)
			return exitFail
		}
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		for _, d := range res.Diagnostics {
			printDiagnostic(stdout, d)
		}
		for _, f := range findings {
			printFinding(stdout, p.Inputs, f)
		}
		state := res.State
		if res.Status == check.StatusNeedsPreparation {
			// The lock diagnostic above names the command to run.
			state += " (needs preparation)"
		}
		fmt.Fprintf(stdout, "%s: %s, %s, %s%s\n", name, state, plural(nerr, "error"), plural(nwarn, "warning"), more)
	}
	if failed {
		return exitFail
	}
	return exitOK
}

// notADir returns why dir cannot be a project root, or "" when it can.
// It exists to turn a raw "lstat ...: no such file or directory" from deep
// in the loader into a message about the argument the user typed.
func notADir(dir string) string {
	fi, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		return fmt.Sprintf("%s: no such directory", dir)
	case err != nil:
		return err.Error()
	case !fi.IsDir():
		return fmt.Sprintf("%s: not a directory; pass the project's root directory", dir)
	}
	return ""
}

// absRoot returns dir as an absolute path with symlinks resolved, the way
// the loader sees the root, so that "root" in the JSON output matches the
// paths in preparation commands.
func absRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}
