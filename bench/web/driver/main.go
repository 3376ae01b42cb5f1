// Command driver is the web benchmark of bench/web: it builds the Acore app
// with axiom build, serves it and the vanilla app each with its own
// loopback backend (same seed, so the same answers), and measures in one
// Chromium, the two interleaved, what js-framework-benchmark measures: for
// each operation the time from the click to the end of the next paint, from
// the trace; then bytes shipped, JS heap, DOM nodes and listeners per row,
// and MutationObserver records per operation. It prints a table with the
// ratios to vanilla and writes it under bench/results.
//
//	go run ./bench/web/driver [--quick] [--facts] [--out bench/results] [--name NAME]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	var o options
	flag.BoolVar(&o.Quick, "quick", false, "one timed run of each operation, no warm-up: a check that everything works, not a measurement")
	flag.StringVar(&o.Out, "out", "", "directory of the results (default <repo>/bench/results)")
	flag.StringVar(&o.Name, "name", "", "file name of the results without extension (default web-<date>)")
	flag.IntVar(&o.Runs, "runs", 10, "timed runs of each operation and implementation")
	flag.IntVar(&o.Warmups, "warmups", 3, "untimed runs before them")
	flag.Uint64Var(&o.Seed, "seed", 27, "seed of the backend's labels")
	flag.BoolVar(&o.Breakdown, "breakdown", false, "log where each timed run's time went, by trace event")
	flag.BoolVar(&o.Profile, "profile", false, "run each operation once under the CPU profiler and log the functions with the most self time, instead of measuring")
	flag.StringVar(&o.Screenshots, "screenshots", "", "write a picture of each app with 1,000 rows into this directory, instead of measuring")
	flag.StringVar(&o.Only, "only", "", "comma-separated operations to run (default all)")
	flag.BoolVar(&o.Facts, "facts", false, "also run the Acore app with its live AXAG attributes left out, to measure what they cost")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "driver:", err)
		os.Exit(1)
	}
	o.Root = root
	if o.Out == "" {
		o.Out = filepath.Join(root, "bench", "results")
	}
	o.Log = os.Stderr
	res, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "driver:", err)
		os.Exit(1)
	}
	if res == nil { // --profile and --screenshots measure nothing
		return
	}
	md, js, err := res.write(o.Out, o.Name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "driver:", err)
		os.Exit(1)
	}
	fmt.Print(res.markdown())
	fmt.Fprintf(os.Stderr, "wrote %s and %s\n", md, js)
}

// repoRoot is the directory of go.mod above the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
