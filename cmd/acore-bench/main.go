// Command acore-bench measures acore-semantic on generated projects of
// several sizes and a second shape, in process and through the serve
// transport, on old files and on files just written (a fresh process, and
// right after an apply), beside the floors and peers of issue 6
// (read+hash, go/parser, go/types), and prints a table; --json and --svg
// write the results and a plot.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/platform/gcpolicy"

	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/tools/bench"
)

func main() {
	bench.Child(project.ServiceOptions(), gcpolicy.Service)
	gcpolicy.Service()
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("acore-bench", flag.ContinueOnError)
	sizes := fs.String("sizes", "1,8,64", "project sizes in files, comma-separated")
	jsonOut := fs.String("json", "", "write the results as JSON to this file")
	svgOut := fs.String("svg", "", "write an SVG plot of p50 latency against project size to this file")
	quick := fs.Bool("quick", false, "fewer calls per operation, for CI")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var o bench.Options
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 64 {
			fmt.Fprintf(os.Stderr, "acore-bench: bad size %q (1 to 64 files)\n", s)
			return 2
		}
		o.Sizes = append(o.Sizes, n)
	}
	o.Quick, o.Log, o.Compile = *quick, os.Stderr, project.ServiceOptions()
	res, err := bench.Run(o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "acore-bench: %v\n", err)
		return 1
	}
	bench.Table(os.Stdout, res)
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "acore-bench: %v\n", err)
			return 1
		}
	}
	if *svgOut != "" {
		f, err := os.Create(*svgOut)
		if err == nil {
			err = bench.SVG(f, res)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "acore-bench: %v\n", err)
			return 1
		}
	}
	return 0
}
