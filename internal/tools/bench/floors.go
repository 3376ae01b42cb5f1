package bench

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/scaffold"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

func mbps(bytes int, d time.Duration) float64 {
	return math.Round(float64(bytes)/1e6/d.Seconds()*10) / 10
}

// best runs f reps times and returns the fastest.
func best(reps int, f func()) time.Duration {
	b := time.Duration(math.MaxInt64)
	for range reps {
		start := time.Now()
		f()
		b = min(b, time.Since(start))
	}
	return b
}

// goFile is one Go source file of GOROOT/src.
type goFile struct {
	path string
	data []byte
}

// goPackages returns GOROOT/src's packages (non-test files, vendor and
// testdata skipped), sorted by directory.
func goPackages() (map[string][]goFile, []string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, nil, err
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	pkgs := map[string][]goFile{}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "vendor" || n == "testdata" || strings.HasPrefix(n, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		pkgs[filepath.Dir(p)] = append(pkgs[filepath.Dir(p)], goFile{p, b})
		return nil
	})
	var dirs []string
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return pkgs, dirs, err
}

// floors measures parse and check throughput beside go/parser and
// go/types, peak RSS with 20 snapshots and candidates alive, and a
// one-shot request on the task-app as a whole process.
func floors(o Options, bin, tmp, largest string, files int) ([]Floor, error) {
	var fl []Floor
	// Peak RSS first, before the Go sources below are read, with 20 snapshots and candidates alive.
	fresh := filepath.Join(tmp, "rss")
	if err := writeProject(fresh, files); err != nil {
		return nil, err
	}
	rss, base, err := childRSS(fresh, "alive")
	if err != nil {
		return nil, fmt.Errorf("peak RSS: %w", err)
	}
	fl = append(fl, Floor{Name: "peak_rss.20_snapshots_candidates", Value: rss, Unit: "MiB", Note: fmt.Sprintf("VmHWM of a fresh process (%.1f MiB before opening) holding 20 applied snapshots and 20 open candidates of the largest project", base)})
	loop := filepath.Join(tmp, "rss-loop")
	if err := writeProject(loop, files); err != nil {
		return nil, err
	}
	if rss, base, err = childRSS(loop, "loop"); err != nil {
		return nil, fmt.Errorf("peak RSS of the agent loop: %w", err)
	}
	fl = append(fl, Floor{Name: "peak_rss.agent_loop", Value: rss, Unit: "MiB", Note: fmt.Sprintf("VmHWM of a fresh process (%.1f MiB before opening) after 20 rounds of node.find, change.propose, check.run and change.apply on the latest snapshot of the largest project", base)})

	in, err := load.Load(largest)
	if err != nil {
		return nil, err
	}
	acoreBytes := 0
	for _, f := range in.Sources {
		acoreBytes += len(f.Data)
	}
	reps := 5
	if o.Quick {
		reps = 2
	}
	dParse := best(reps, func() {
		for _, f := range in.Sources {
			syntax.Parse(f.Path, f.Data)
		}
	})
	fl = append(fl, Floor{Name: "acore.parse", Value: mbps(acoreBytes, dParse), Unit: "MB/s", Note: fmt.Sprintf("syntax.Parse, one core, %d bytes of the largest project", acoreBytes)})

	pkgs, dirs, err := goPackages()
	if err != nil {
		return nil, err
	}
	// go/parser on an equal number of bytes of Go source.
	var goFiles []goFile
	goBytes := 0
	for _, d := range dirs {
		if goBytes >= acoreBytes {
			break
		}
		for _, f := range pkgs[d] {
			if goBytes+len(f.data) > acoreBytes {
				continue // a smaller file may still fit
			}
			goFiles = append(goFiles, f)
			goBytes += len(f.data)
		}
	}
	dGo := best(reps, func() {
		fset := token.NewFileSet()
		for _, f := range goFiles {
			parser.ParseFile(fset, f.path, f.data, parser.SkipObjectResolution)
		}
	})
	fl = append(fl, Floor{Name: "go.parser", Value: mbps(goBytes, dGo), Unit: "MB/s", Note: fmt.Sprintf("go/parser.ParseFile, one core, %d bytes of GOROOT/src", goBytes)})

	// A compile parses every source: the figure is parse + check.
	dCompile := best(reps, func() { o.Compile.Compile(in) })
	fl = append(fl, Floor{Name: "acore.parse+check", Value: mbps(acoreBytes, dCompile), Unit: "MB/s", Note: fmt.Sprintf("project.Compile (parses on %d cores)", runtime.GOMAXPROCS(0))})
	procs := runtime.GOMAXPROCS(1)
	dCompile1 := best(reps, func() { o.Compile.Compile(in) })
	runtime.GOMAXPROCS(procs)
	fl = append(fl, Floor{Name: "acore.parse+check.one_core", Value: mbps(acoreBytes, dCompile1), Unit: "MB/s", Note: "project.Compile with GOMAXPROCS=1, as go/types below"})

	// go/types on packages that import nothing: type-checking stdlib
	// packages with imports would check their dependencies too, from
	// source, which is not equal work.
	type pkg struct {
		files []goFile
	}
	var leaf []pkg
	leafBytes := 0
	for _, d := range dirs {
		if leafBytes >= acoreBytes {
			break
		}
		fset := token.NewFileSet()
		ok := true
		n := 0
		name := ""
		for _, f := range pkgs[d] {
			af, err := parser.ParseFile(fset, f.path, f.data, parser.ImportsOnly|parser.ParseComments)
			if err != nil || len(af.Imports) > 0 || hasBuildTag(af) || (name != "" && af.Name.Name != name) {
				ok = false
				break
			}
			name = af.Name.Name
			n += len(f.data)
		}
		if ok && n > 0 {
			leaf = append(leaf, pkg{pkgs[d]})
			leafBytes += n
		}
	}
	var typeErrs int
	dTypes := best(reps, func() {
		typeErrs = 0
		for _, p := range leaf {
			fset := token.NewFileSet()
			var files []*ast.File
			for _, f := range p.files {
				af, err := parser.ParseFile(fset, f.path, f.data, parser.SkipObjectResolution)
				if err == nil {
					files = append(files, af)
				}
			}
			conf := types.Config{Error: func(error) { typeErrs++ }}
			conf.Check(files[0].Name.Name, fset, files, &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}})
		}
	})
	fl = append(fl, Floor{Name: "go.parser+types.no_imports", Value: mbps(leafBytes, dTypes), Unit: "MB/s", Note: fmt.Sprintf("go/parser + go/types, one core, on the %d GOROOT/src packages that import nothing (%d bytes; type errors %d)", len(leaf), leafBytes, typeErrs)})
	if f, err := goTypesImporting(acoreBytes, reps); err != nil {
		o.logf("go/types with the source importer: %v", err)
	} else {
		fl = append(fl, f)
	}

	// What this machine makes every process pay, to compare runs made on
	// different machines: a first touch of fresh memory, and a process's
	// start and exit.
	if perPage, perHuge, err := faultCost(); err != nil {
		o.logf("page fault cost: %v", err)
	} else {
		fl = append(fl, Floor{Name: "machine.page_fault", Value: math.Round(perPage*100) / 100, Unit: "us", Note: "first touch of a fresh 4 KiB page of anonymous memory, mean over 64 MiB"})
		if perHuge > 0 {
			fl = append(fl, Floor{Name: "machine.huge_page_fault", Value: math.Round(perHuge*1000) / 1000, Unit: "ms", Note: "first touch of a fresh 2 MiB of anonymous memory advised for transparent huge pages, mean over 64 MiB"})
		}
	}
	empty := filepath.Join(tmp, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(empty, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		return nil, err
	}
	build := exec.Command("go", "build", "-o", filepath.Join(empty, "empty"), "main.go")
	build.Dir = empty
	build.Env = append(os.Environ(), "GO111MODULE=off")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building an empty Go program: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name, note string
		args       []string
	}{
		{"process.go_empty", "an empty Go program (func main() {}), whole process, mean of 20", []string{filepath.Join(empty, "empty")}},
		{"process.acore_semantic_start", "acore-semantic refusing an unknown flag (exit 2): its start and exit, mean of 20", []string{bin, "--no-such-flag"}},
	} {
		var sum time.Duration
		for range 20 {
			start := time.Now()
			_ = exec.Command(c.args[0], c.args[1:]...).Run()
			sum += time.Since(start)
		}
		fl = append(fl, Floor{Name: c.name, Value: meanMS(sum, 20), Unit: "ms", Note: c.note})
	}

	// One-shot request on the task-app as a whole process.
	app := filepath.Join(tmp, "task-app")
	if _, err := scaffold.New(app); err != nil {
		return nil, err
	}
	if app, err = filepath.EvalSymlinks(app); err != nil {
		return nil, err
	}
	find := `{"protocol":"axiom-agent-semantic/v1","operation":"node.find","snapshot":"latest","params":{"query":"Add","kind":"element","limit":10}}`
	ms, err := oneShot(bin, app, find, "", 20)
	if err != nil {
		return nil, err
	}
	fl = append(fl, Floor{Name: "one_shot.task_app.node.find", Value: ms, Unit: "ms", Note: "acore-semantic --root <task-app> with a node.find request, whole process, mean of 20"})

	// One-shot requests on the wide shape, with the compile cache (its
	// entry written by a first process) and without it.
	wide := filepath.Join(tmp, "wide-one-shot")
	if err := Wide.writeOld(wide); err != nil {
		return nil, err
	}
	if wide, err = filepath.EvalSymlinks(wide); err != nil {
		return nil, err
	}
	open := `{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","params":{"roots":[{"path":"` + wide + `"}]}}`
	runs := 10
	if o.Quick {
		runs = 3
	}
	// The four are taken in turn, run after run, so that a slow spell of
	// the machine weighs on each alike rather than on whichever ran then.
	cases := []struct{ name, req, env, note string }{
		{"one_shot.wide.node.find.no_cache", find, "off", "without the compile cache (ACORE_COMPILE_CACHE=off)"},
		{"one_shot.wide.workspace.open.no_cache", open, "off", "without the compile cache (ACORE_COMPILE_CACHE=off)"},
		{"one_shot.wide.node.find.cache", find, "", "reading the compile cache, which a first process wrote"},
		{"one_shot.wide.workspace.open.cache", open, "", "reading the compile cache, which a first process wrote"},
	}
	for _, c := range cases {
		if c.env == "" {
			if _, err := oneShotOnce(bin, wide, c.req, ""); err != nil {
				return nil, err
			}
		}
	}
	quiet()
	sums := make([]time.Duration, len(cases))
	for range runs {
		for i, c := range cases {
			d, err := oneShotOnce(bin, wide, c.req, c.env)
			if err != nil {
				return nil, err
			}
			sums[i] += d
		}
	}
	for i, c := range cases {
		fl = append(fl, Floor{Name: c.name, Value: meanMS(sums[i], runs), Unit: "ms", Note: fmt.Sprintf("acore-semantic --root <wide, %d files> with one request, whole process, %s, mean of %d taken in turn with the other three", Wide.Files, c.note, runs)})
	}
	return fl, nil
}

// quiet collects the bench's own heap and returns it, so that its
// collector and scavenger do not run beside the measured processes on a
// machine of two cores.
func quiet() {
	runtime.GC()
	debug.FreeOSMemory()
}

// meanMS is the mean of runs durations summing to sum, in milliseconds.
func meanMS(sum time.Duration, runs int) float64 {
	return math.Round(float64(sum/time.Duration(runs))/1e3) / 1e3
}

// oneShot runs req through the one-shot command on root runs times and
// returns the mean time of a whole process in milliseconds; cache is the
// process's ACORE_COMPILE_CACHE.
func oneShot(bin, root, req, cache string, runs int) (float64, error) {
	quiet()
	var sum time.Duration
	for range runs {
		d, err := oneShotOnce(bin, root, req, cache)
		if err != nil {
			return 0, err
		}
		sum += d
	}
	return meanMS(sum, runs), nil
}

// oneShotOnce runs req through the one-shot command on root and returns
// the time of the whole process.
func oneShotOnce(bin, root, req, cache string) (time.Duration, error) {
	cmd := exec.Command(bin, "--root", root)
	cmd.Env = append(os.Environ(), "ACORE_COMPILE_CACHE="+cache)
	cmd.Stdin = strings.NewReader(req)
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("one-shot: %v %s", err, trim(out))
	}
	d := time.Since(start)
	if _, _, err := decode(out); err != nil {
		return 0, fmt.Errorf("one-shot: %w", err)
	}
	return d, nil
}

func hasBuildTag(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") {
				return true
			}
		}
	}
	return false
}

// childEnv names the project a child process measures peak RSS on, and
// modeEnv what it does there: "alive" (peakRSS) or "loop" (loopRSS).
const (
	childEnv = "ACORE_BENCH_RSS_CHILD"
	modeEnv  = "ACORE_BENCH_RSS_MODE"
)

// Child runs the peak RSS measurement when this process was started for
// it by Run (the environment says so), prints its figures and exits; it
// returns otherwise. Call it first in main and TestMain, with the
// choices for compiles the product's main makes and its collector's
// setting (start, called once the peak is reset, before the project is
// opened, as the product's main sets it at its start).
func Child(c project.Options, start func()) {
	dir := os.Getenv(childEnv)
	if dir == "" {
		return
	}
	measure := peakRSS
	if os.Getenv(modeEnv) == "loop" {
		measure = loopRSS
	}
	peak, base, err := measure(dir, 20, c, start)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%g %g\n", peak, base)
	os.Exit(0)
}

// childRSS measures peak RSS in a fresh process: in this one the
// candidates of the projects measured before stay alive (the service
// keeps them per root).
func childRSS(dir, mode string) (peak, base float64, err error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"="+dir, modeEnv+"="+mode)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, 0, err
	}
	_, err = fmt.Sscan(string(out), &peak, &base)
	return peak, base, err
}

// resetPeak frees what the process can and resets its peak RSS, which it
// returns in MiB.
func resetPeak() (float64, error) {
	runtime.GC()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0, fmt.Errorf("resetting the peak: %w", err)
	}
	return vmHWM()
}

// loopRSS resets the process's peak RSS, runs n rounds of what an agent
// does on the project at dir (find a node on the latest snapshot, propose
// a change, check and apply it), and reads VmHWM in MiB.
func loopRSS(dir string, n int, c project.Options, start func()) (peak, base float64, err error) {
	if base, err = resetPeak(); err != nil {
		return 0, 0, err
	}
	start()
	v, head, err := open(dir, c)
	if err != nil {
		return 0, 0, err
	}
	old := ""
	for i := range n {
		// targets finds the node to edit with node.find, on this round's
		// snapshot.
		ts, err := targets(v, head, 1)
		if err != nil {
			return 0, 0, err
		}
		c, err := v.propose(head, ts, old, fmt.Sprintf(" r%d", i))
		if err != nil {
			return 0, 0, err
		}
		old = fmt.Sprintf(" r%d", i)
		if err := v.check(c); err != nil {
			return 0, 0, err
		}
		if head, err = v.apply(c); err != nil {
			return 0, 0, err
		}
	}
	runtime.KeepAlive(v)
	peak, err = vmHWM()
	return peak, base, err
}

// peakRSS resets the process's peak RSS, holds n snapshots and n
// candidates alive on the project at dir, and reads VmHWM in MiB.
func peakRSS(dir string, n int, c project.Options, start func()) (peak, base float64, err error) {
	if base, err = resetPeak(); err != nil {
		return 0, 0, err
	}
	start()
	v, snap, err := open(dir, c)
	if err != nil {
		return 0, 0, err
	}
	ts, err := targets(v, snap, 1)
	if err != nil {
		return 0, 0, err
	}
	head, old := snap, ""
	var cands []string
	for i := range n {
		c, err := v.propose(head, ts, old, fmt.Sprintf(" r%d", i))
		old = fmt.Sprintf(" r%d", i)
		if err != nil {
			return 0, 0, err
		}
		if err := v.check(c); err != nil {
			return 0, 0, err
		}
		if head, err = v.apply(c); err != nil {
			return 0, 0, err
		}
		c, err = v.propose(head, ts, old, fmt.Sprintf(" open%d", i))
		if err != nil {
			return 0, 0, err
		}
		cands = append(cands, c)
	}
	// Every snapshot is still named: a read on the first answers.
	if _, _, err := v.call(`"snapshot":"` + snap + `","operation":"node.get","params":{"nodes":["` + ts[0].node + `"]}}`); err != nil {
		return 0, 0, err
	}
	runtime.KeepAlive(v)
	runtime.KeepAlive(cands)
	peak, err = vmHWM()
	return peak, base, err
}

// vmHWM reads the process's peak RSS in MiB.
func vmHWM() (float64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, err := strconv.Atoi(f[1])
			if err != nil {
				return 0, err
			}
			return math.Round(float64(kb)/1024*10) / 10, nil
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

// goTypesImporting type-checks standard library packages (for this
// platform, without cgo, outside cmd/) up to about budget bytes with
// importer.ForCompiler(fset, "source", nil). Their imports are checked
// once before the timing, as a warm cache, so that only the packages' own
// bytes are parsed and checked while timed.
func goTypesImporting(budget, reps int) (Floor, error) {
	type gpkg struct {
		path  string
		files []string
	}
	ctx := build.Default
	ctx.CgoEnabled = false
	src := filepath.Join(ctx.GOROOT, "src")
	var pkgs []gpkg
	total := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if n := d.Name(); rel != "." && (n == "vendor" || n == "testdata" || strings.HasPrefix(n, ".") || rel == "cmd" || rel == "builtin") {
			return filepath.SkipDir
		}
		if total >= budget || rel == "." {
			return nil
		}
		bp, err := ctx.ImportDir(p, 0)
		if err != nil || bp.Name == "main" || len(bp.GoFiles) == 0 {
			return nil
		}
		var files []string
		n := 0
		for _, f := range bp.GoFiles {
			fi, err := os.Stat(filepath.Join(p, f))
			if err != nil {
				return nil
			}
			n += int(fi.Size())
			files = append(files, filepath.Join(p, f))
		}
		if total+n > budget {
			return nil
		}
		pkgs = append(pkgs, gpkg{filepath.ToSlash(rel), files})
		total += n
		return nil
	})
	if err != nil {
		return Floor{}, err
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	data := map[string][]byte{}
	var ok []gpkg
	okBytes := 0
	for _, p := range pkgs {
		good := true
		for _, f := range p.files {
			b, err := os.ReadFile(f)
			if err != nil {
				good = false
				break
			}
			data[f] = b
			af, err := parser.ParseFile(fset, f, b, parser.ImportsOnly)
			if err != nil {
				good = false
				break
			}
			for _, is := range af.Imports {
				path, _ := strconv.Unquote(is.Path.Value)
				if path == "C" {
					good = false
					break
				}
				if _, err := imp.Import(path); err != nil {
					good = false
					break
				}
			}
		}
		if good {
			ok = append(ok, p)
			for _, f := range p.files {
				okBytes += len(data[f])
			}
		}
	}
	if len(ok) == 0 {
		return Floor{}, fmt.Errorf("no package could be checked")
	}
	var typeErrs int
	d := best(reps, func() {
		typeErrs = 0
		for _, p := range ok {
			var files []*ast.File
			for _, f := range p.files {
				af, err := parser.ParseFile(fset, f, data[f], parser.SkipObjectResolution)
				if err == nil {
					files = append(files, af)
				}
			}
			conf := types.Config{Importer: imp, Error: func(error) { typeErrs++ }}
			conf.Check(p.path, fset, files, &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}})
		}
	})
	return Floor{Name: "go.parser+types", Value: mbps(okBytes, d), Unit: "MB/s", Note: fmt.Sprintf("go/parser + go/types, one core, on %d GOROOT/src packages (%d bytes; type errors %d), importer.ForCompiler \"source\" with their imports checked before the timing", len(ok), okBytes, typeErrs)}, nil
}
