// Command axiom is the command-line front end of the acore toolchain: it
// creates, prepares, checks and formats Acore UI projects. It only parses
// flags and prints; the work happens in the internal packages.
//
// Usage:
//
//	axiom new <dir>
//	axiom prepare [dir]
//	axiom check [dir] [--json]
//	axiom dev [dir] [--addr HOST:PORT]
//	axiom fmt [--check] [paths...]
//	axiom build [dir] [--out DIR] [--backend URL]
//	axiom lsp
//	axiom version
//	axiom help [command]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/platform/gcpolicy"
)

// Exit statuses. Usage errors are distinct from failures so that scripts
// can tell "you called me wrong" from "your project has errors".
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

const usage = `usage: axiom <command> [arguments]

commands:
  new <dir>                 create the task-app sample project in <dir>
  prepare [dir]             write the development contracts and the UI lock
  check [dir] [--json]      compile the project and report its diagnostics
  dev [dir] [--addr ADDR]   serve the app and a development backend, rebuilding on change
  fmt [--check] [paths...]  format .acore files in place
  build [dir] [--out DIR] [--backend URL]
                            compile the project into a static web app
  lsp                       run the language server on stdin and stdout
  version                   print the version
  help [command]            print help about a command

dir defaults to the current directory.
`

// command is one subcommand: its usage text and its body. run returns the
// exit status.
type command struct {
	usage string
	run   func(args []string, stdout, stderr io.Writer) int
}

var commands map[string]command

func init() {
	// Assigned in init because the help command refers to the map.
	commands = map[string]command{
		"new":     {newUsage, runNew},
		"prepare": {prepareUsage, runPrepare},
		"check":   {checkUsage, runCheck},
		"dev":     {devUsage, runDev},
		"fmt":     {fmtUsage, runFmt},
		"build":   {buildUsage, runBuild},
		"lsp":     {lspUsage, runLSP},
		"version": {"usage: axiom version\n\nPrint the axiom version, the element catalog version and the Go version.\n", runVersion},
		"help":    {"usage: axiom help [command]\n", runHelp},
	}
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "check" {
		oneCompileGC()
	}
	if len(os.Args) > 1 && os.Args[1] == "lsp" {
		gcpolicy.Service()
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// oneCompileGC turns the collector off in axiom check, which compiles
// once and exits, unless the user set GOGC or GOMEMLIMIT: collecting while
// a compile runs marks a heap that is still growing, again and again, and
// frees little of it; the heap is freed when the process exits. The
// memory limit collects a compile that grows past what the bounds let one
// allocate (sources_bytes_max: about twenty times its sources).
func oneCompileGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(oneCompileHeap)
	debug.SetGCPercent(-1)
}

// oneCompileHeap bounds the heap of axiom check, as acore-semantic's
// one-shot heap does its.
const oneCompileHeap = 512 << 20

// run executes the command line args (without the program name).
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "axiom: unknown command %q\n\n%s", name, usage)
		return exitUsage
	}
	return cmd.run(args[1:], stdout, stderr)
}

func runHelp(args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, usage)
		return exitOK
	case 1:
		cmd, ok := commands[args[0]]
		if !ok {
			fmt.Fprintf(stderr, "axiom help: unknown command %q\n\n%s", args[0], usage)
			return exitUsage
		}
		fmt.Fprint(stdout, cmd.usage)
		return exitOK
	}
	fmt.Fprint(stderr, commands["help"].usage)
	return exitUsage
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprint(stderr, commands["version"].usage)
		return exitUsage
	}
	v := version()
	// The catalog version is printed because the UI lock pins it: it is
	// what decides whether a lock written elsewhere is still valid here.
	fmt.Fprintf(stdout, "axiom %s (catalog %s, %s)\n", v, catalog.Version, runtime.Version())
	return exitOK
}

// version is the module version axiom was built at, "(devel)" for a
// build from a checkout.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// parseArgs parses args with fs, allowing flags before, between and after
// positional arguments ("axiom check dir --json"); the standard flag
// package stops at the first positional one. Everything after "--" is
// positional. On a usage error it prints the message and the command's
// usage to stderr and returns the exit status to use; on -h it prints the
// usage to stdout and returns exitOK.
func parseArgs(fs *flag.FlagSet, args []string, cmdUsage string, stdout, stderr io.Writer) ([]string, int, bool) {
	fs.SetOutput(io.Discard) // errors are printed below, with our usage text
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, cmdUsage)
				return nil, exitOK, false
			}
			fmt.Fprintf(stderr, "axiom %s: %v\n\n%s", fs.Name(), err, cmdUsage)
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		// fs.Parse consumed a "--" if that is what stopped it; then the
		// rest is positional.
		if len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// usageError prints msg and the command's usage to stderr.
func usageError(stderr io.Writer, name, msg, cmdUsage string) int {
	fmt.Fprintf(stderr, "axiom %s: %s\n\n%s", name, msg, cmdUsage)
	return exitUsage
}

// printDiagnostic prints d in the file:line:col format editors and
// terminals recognise.
func printDiagnostic(w io.Writer, d diag.Diagnostic) {
	fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", d.Path, d.Line, d.Column, d.Severity, d.Message, d.Code)
}

// printFinding prints an AXAG finding as axag validate does; one in a
// local contract's development artifact is shown in its source under
// contracts/, the file people edit, when the artifact is its copy.
func printFinding(w io.Writer, in *load.Inputs, f axag.Finding) {
	if in != nil {
		if src := in.ContractSource(f.File); src != nil {
			f.File = src.Path
		}
	}
	fmt.Fprintln(w, f)
}

// axagSummary is the summary of AXAG findings, "" for none, else
// "; AXAG: 1 error, 2 warnings", and the number of errors among them.
func axagSummary(fs []axag.Finding) (string, int) {
	nerr, nwarn := 0, 0
	for _, f := range fs {
		switch f.Severity {
		case axag.SeverityError:
			nerr++
		case axag.SeverityWarning:
			nwarn++
		}
	}
	if len(fs) == 0 {
		return "", 0
	}
	return fmt.Sprintf("; AXAG: %s, %s", plural(nerr, "error"), plural(nwarn, "warning")), nerr
}

// plural returns "1 error", "2 errors", "0 errors".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// shellQuote quotes s for a POSIX shell when it needs it, so that printed
// next-step commands can be pasted as they are. check.Prepare quotes the
// same way.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	if !strings.ContainsAny(s, " \t\n'\"$`\\*?[]{}()<>|&;#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
