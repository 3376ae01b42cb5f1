// Package bench measures the service at several project sizes, in process
// and through the serve transport, beside the floors of issue 6: reading
// and hashing the same bytes, go/parser and go/types. A second project
// shape (Wide) is measured the same way, and both shapes on files written
// moments before: in a fresh serve process and right after an apply.
package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/project"
)

// MaxBytes is the source total of the largest project: the service bounds.
const MaxBytes = 4<<20 - 64<<10

// Options chooses what a run measures.
type Options struct {
	Sizes []int // files per project
	Quick bool  // fewer calls, for CI
	Log   io.Writer
	// Compile holds the choices for compiles that the product's main
	// makes, so that services in this process compile as its do.
	Compile project.Options
}

// Row is one operation at one size through one transport.
type Row struct {
	Op        string  `json:"op"`
	Transport string  `json:"transport"`       // "in_process", "serve", TransportFresh or TransportAfterApply
	Shape     string  `json:"shape,omitempty"` // the project's Shape; empty for Pages
	Files     int     `json:"files"`
	Bytes     int     `json:"bytes"` // sources of the project
	N         int     `json:"n"`
	P50ms     float64 `json:"p50_ms"`
	P99ms     float64 `json:"p99_ms"`
	MeanMs    float64 `json:"mean_ms"`
}

// Floor is one side-by-side figure.
type Floor struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	Note  string  `json:"note,omitempty"`
}

// Result is a whole run.
type Result struct {
	Date      string  `json:"date"`
	GoVersion string  `json:"go_version"`
	Quick     bool    `json:"quick"`
	Rows      []Row   `json:"rows"`
	Floors    []Floor `json:"floors"`
}

func (o Options) logf(format string, a ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", a...)
	}
}

// Bytes is the source total of a project of files files: MaxBytes scaled.
func Bytes(files int) int { return files * (MaxBytes / 64) }

// Run measures every size, then the floors.
func Run(o Options) (*Result, error) {
	res := &Result{Date: time.Now().UTC().Format(time.RFC3339), Quick: o.Quick}
	tmp, err := os.MkdirTemp("", "acore-bench")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "acore-semantic")
	o.logf("building acore-semantic and acore-semantic-mcp")
	// The MCP program goes beside acore-semantic, whose mcp command runs it.
	if out, err := exec.Command("go", "build", "-o", tmp+string(filepath.Separator), "github.com/axiomcore/acore/cmd/acore-semantic",
		"github.com/axiomcore/acore/cmd/acore-semantic-mcp").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building acore-semantic: %v\n%s", err, out)
	}
	gv, _ := exec.Command("go", "env", "GOVERSION").Output()
	res.GoVersion = strings.TrimSpace(string(gv))
	var largest string
	var largestFiles int
	for _, n := range o.Sizes {
		dir := filepath.Join(tmp, fmt.Sprintf("p%d", n))
		if err := writeProject(dir, n); err != nil {
			return nil, err
		}
		o.logf("size %d files: in process", n)
		rows, floors, err := measureSize(o, dir, n, Pages(n).Page)
		if err != nil {
			return nil, fmt.Errorf("size %d: %w", n, err)
		}
		res.Rows = append(res.Rows, rows...)
		res.Floors = append(res.Floors, floors...)
		o.logf("size %d files: serve", n)
		rows, err = measureServe(o, bin, dir, n, Pages(n).Page)
		if err != nil {
			return nil, fmt.Errorf("size %d serve: %w", n, err)
		}
		res.Rows = append(res.Rows, rows...)
		if n >= largestFiles {
			largest, largestFiles = dir, n
		}
	}
	rows, err := measureShapes(o, bin, tmp, largest, largestFiles)
	if err != nil {
		return nil, err
	}
	res.Rows = append(res.Rows, rows...)
	o.logf("floors")
	fl, err := floors(o, bin, tmp, largest, largestFiles)
	if err != nil {
		return nil, err
	}
	res.Floors = append(res.Floors, fl...)
	if fl, err = toolsList(o, bin, largest); err != nil {
		return nil, err
	}
	res.Floors = append(res.Floors, fl...)
	return res, nil
}

// writeProject generates the first shape's project of files files, its
// files old enough for the service's load cache to trust, as real
// projects are.
func writeProject(dir string, files int) error { return Pages(files).writeOld(dir) }

// sourceBytes is the total of the .acore and .axiom files under dir.
func sourceBytes(dir string) (int, [][]byte) {
	total := 0
	var all [][]byte
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && (strings.HasSuffix(p, ".acore") || strings.HasSuffix(p, ".axiom") || strings.HasSuffix(p, ".lock")) {
			b, _ := os.ReadFile(p)
			total += len(b)
			all = append(all, b)
		}
		return nil
	})
	return total, all
}

// readHash reads and hashes the project's inputs, the I/O floor.
func readHash(dir string) time.Duration {
	start := time.Now()
	h := sha256.New()
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && (strings.HasSuffix(p, ".acore") || strings.HasSuffix(p, ".axiom") || strings.HasSuffix(p, ".lock")) {
			b, _ := os.ReadFile(p)
			h.Reset()
			h.Write(b)
			h.Sum(nil)
		}
		return nil
	})
	return time.Since(start)
}

const proto = `{"protocol":"axiom-agent-semantic/v1",`

// readsOn are the read requests, on snapshot snap, of a project with the
// page page laid out as gen's pages are.
func readsOn(snap, page string) [][2]string {
	el := "element:" + page + "/view/0/1/1"
	return [][2]string{
		{"node.find", `"snapshot":"` + snap + `","operation":"node.find","params":{"query":"Add","kind":"element","limit":10}}`},
		{"node.get", `"snapshot":"` + snap + `","operation":"node.get","params":{"nodes":["` + el + `"]}}`},
		{"node.edits", `"snapshot":"` + snap + `","operation":"node.edits","params":{"nodes":["` + el + `"],"include_unavailable":true}}`},
		{"graph.query", `"snapshot":"` + snap + `","operation":"graph.query","params":{"from":["state:` + page + `.draft"],"mode":"dependents"}}`},
		{"graph.query.transitive16", `"snapshot":"` + snap + `","operation":"graph.query","limits":{"max_depth":16},"params":{"from":["state:` + page + `.draft"],"mode":"dependents","transitive":true}}`},
		{"context.build.change_input", `"snapshot":"` + snap + `","operation":"context.build","params":{"focus":["` + el + `"],"purpose":"change_input"}}`},
		{"context.build.change_behavior", `"snapshot":"` + snap + `","operation":"context.build","params":{"focus":["action:` + page + `.submit"],"purpose":"change_behavior"}}`},
		{"impact.analyze", `"snapshot":"` + snap + `","operation":"impact.analyze","params":{"targets":["state:` + page + `.draft"],"direction":"dependents"}}`},
		{"changes.since", `"snapshot":"` + snap + `","operation":"changes.since","params":{"since":"` + snap + `","scope":{"nodes":["` + el + `"]}}}`},
		{"node.relocate", `"snapshot":"` + snap + `","operation":"node.relocate","params":{"from_snapshot":"` + snap + `","nodes":["` + el + `","state:` + page + `.draft"]}}`},
	}
}

// ReadOps, EditOps name every operation a run reports per size.
var (
	ReadOps = []string{"node.find", "node.get", "node.edits", "graph.query", "graph.query.transitive16", "context.build.change_input", "context.build.change_behavior", "impact.analyze", "changes.since", "node.relocate"}
	EditOps = []string{"workspace.open.cold", "workspace.open.cached", "change.propose.1", "change.propose.50", "check.run", "change.apply"}
)

func (o Options) calls() int {
	if o.Quick {
		return 20
	}
	return 200
}

func (o Options) edits() int {
	if o.Quick {
		return 3
	}
	return 20
}

type svc struct {
	s *service.Service
}

// reqID numbers the requests that need a request_id.
var reqID atomic.Int64

func nextID() string { return fmt.Sprintf("bench-%d", reqID.Add(1)) }

// call sends one request and fails on an error answer.
func (v svc) call(body string) (map[string]any, []byte, error) {
	out := v.s.Handle(context.Background(), []byte(proto+body))
	return decode(out)
}

func decode(out []byte) (map[string]any, []byte, error) {
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, out, fmt.Errorf("not JSON: %s", trim(out))
	}
	if e, ok := m["error"]; ok && e != nil {
		return m, out, fmt.Errorf("error answer: %s", trim(out))
	}
	return m, out, nil
}

func trim(b []byte) string {
	if len(b) > 1600 {
		return string(b[:1600]) + "…"
	}
	return string(b)
}

func str(m map[string]any, path ...string) string {
	var v any = m
	for _, k := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = mm[k]
	}
	s, _ := v.(string)
	return s
}

func open(dir string, c project.Options) (svc, string, error) {
	return openWith(service.Config{Root: dir, Compile: c})
}

// openWith opens a service made with cfg and its root's workspace.
func openWith(cfg service.Config) (svc, string, error) {
	s, err := service.New(cfg)
	if err != nil {
		return svc{}, "", err
	}
	v := svc{s}
	m, _, err := v.call(`"operation":"workspace.open","params":{"roots":[{"path":"` + s.Root() + `"}]}}`)
	if err != nil {
		return svc{}, "", err
	}
	return v, str(m, "snapshot", "id"), nil
}

func stats(op, transport string, files, bytes int, d []time.Duration) Row {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	ms := func(x time.Duration) float64 { return math.Round(float64(x)/1e3) / 1e3 }
	p99 := d[max(0, int(math.Ceil(0.99*float64(len(d))))-1)]
	return Row{Op: op, Transport: transport, Files: files, Bytes: bytes, N: len(d), P50ms: ms(d[len(d)/2]), P99ms: ms(p99), MeanMs: ms(sum / time.Duration(len(d)))}
}

func timeN(n int, f func(i int) error) ([]time.Duration, error) {
	d := make([]time.Duration, 0, n)
	for i := range n {
		start := time.Now()
		if err := f(i); err != nil {
			return nil, err
		}
		d = append(d, time.Since(start))
	}
	return d, nil
}

// target is a string property of an element, for set_property.
type target struct{ node, prop, value string }

// targets finds n elements with a string property through node.find:
// the Add buttons' labels, then the inputs' placeholders.
func targets(v svc, snap string, n int) ([]target, error) {
	var out []target
	for _, q := range []struct{ query, prop string }{{"Add", "label"}, {"New item", "placeholder"}} {
		m, _, err := v.call(`"snapshot":"` + snap + `","operation":"node.find","params":{"query":"` + q.query + `","kind":"element","limit":50}}`)
		if err != nil {
			return nil, err
		}
		res, _ := m["result"].(map[string]any)
		matches, _ := res["matches"].([]any)
		for _, x := range matches {
			node := str(x.(map[string]any), "node")
			if node != "" && len(out) < n {
				out = append(out, target{node, q.prop, q.query})
			}
		}
	}
	if len(out) < n {
		return nil, fmt.Errorf("node.find found %d elements with a string property, want %d", len(out), n)
	}
	return out, nil
}

// propose proposes setting every target from value+old to value+suffix
// on base.
func (v svc) propose(base string, ts []target, old, suffix string) (string, error) {
	var ops []string
	for _, t := range ts {
		ops = append(ops, fmt.Sprintf(`{"kind":"set_property","node":%q,"property":%q,"old_value":%q,"new_value":%q}`, t.node, t.prop, t.value+old, t.value+suffix))
	}
	m, _, err := v.call(`"base_snapshot":"` + base + `","request_id":"` + nextID() + `","operation":"change.propose","params":{"operations":[` + strings.Join(ops, ",") + `]}}`)
	if err != nil {
		return "", err
	}
	id := str(m, "result", "candidate", "id")
	if id == "" {
		return "", fmt.Errorf("change.propose named no candidate")
	}
	return id, nil
}

func (v svc) check(cand string) error {
	_, _, err := v.call(`"operation":"check.run","params":{"candidate":"` + cand + `","checks":["compile"]}}`)
	return err
}

func (v svc) apply(cand string) (string, error) {
	m, _, err := v.call(`"request_id":"` + nextID() + `","operation":"change.apply","params":{"candidate":"` + cand + `","expected_candidate_version":1,"require_checks":["compile"]}}`)
	if err != nil {
		return "", err
	}
	head := str(m, "result", "receipt", "result_snapshot")
	if head == "" {
		return "", fmt.Errorf("change.apply named no result snapshot")
	}
	return head, nil
}

func measureSize(o Options, dir string, files int, page string) ([]Row, []Floor, error) {
	bytes, _ := sourceBytes(dir)
	var rows []Row
	// Cold open: a fresh service each time, without the compile cache (a
	// compile parses and checks every source).
	cold, err := timeN(max(3, o.edits()/2), func(int) error {
		_, _, err := openWith(service.Config{Root: dir, Compile: o.Compile, NoCompileCache: true})
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	rows = append(rows, stats("workspace.open.cold", "in_process", files, bytes, cold))
	// The same reading the compile cache, whose entry a first service
	// writes.
	first, _, err := open(dir, o.Compile)
	if err != nil {
		return nil, nil, err
	}
	first.s.Wait()
	cached, err := timeN(len(cold), func(int) error {
		_, _, err := open(dir, o.Compile)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	floorD, _ := timeN(len(cold), func(int) error { readHash(dir); return nil })
	fr := stats("read+sha256", "in_process", files, bytes, floorD)
	rows = append(rows, stats("workspace.open.cached", "in_process", files, bytes, cached), fr)
	fls := []Floor{{Name: fmt.Sprintf("cold_open_over_read_hash.%d", files), Value: math.Round(rows[0].P50ms/fr.P50ms*10) / 10, Unit: "x", Note: "p50 of workspace.open on a fresh service / p50 of reading and hashing the same files in process"}}
	// The floor as the issue measured it: reading and hashing the bytes
	// with standard tools, a whole process.
	procD, err := timeN(len(cold), func(int) error {
		cmd := exec.Command("sh", "-c", `find . \( -name '*.acore' -o -name '*.axiom' -o -name '*.lock' \) -exec cat {} + | sha256sum`)
		cmd.Dir = dir
		return cmd.Run()
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read+sha256 as a process: %w", err)
	}
	pr := stats("read+sha256", "process", files, bytes, procD)
	rows = append(rows, pr)
	fls = append(fls, Floor{Name: fmt.Sprintf("cold_open_over_read_hash_process.%d", files), Value: math.Round(rows[0].P50ms/pr.P50ms*10) / 10, Unit: "x", Note: "p50 of workspace.open on a fresh service / p50 of `find | cat | sha256sum` over the same files, a whole process"})

	v, snap, err := open(dir, o.Compile)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range readsOn(snap, page) {
		if _, _, err := v.call(r[1]); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", r[0], err)
		}
		d, _ := timeN(o.calls(), func(int) error { v.s.Handle(context.Background(), []byte(proto+r[1])); return nil })
		rows = append(rows, stats(r[0], "in_process", files, bytes, d))
	}
	// Context economy: context.build's answer beside the owning file and
	// what it imports (main.acore uses the Store contract only).
	var read int
	for _, f := range []string{"main.acore", "contracts/store.axiom"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
			read += int(fi.Size())
		}
	}
	for _, r := range readsOn(snap, page) {
		if !strings.HasPrefix(r[0], "context.build.") {
			continue
		}
		m, out, err := v.call(r[1])
		if err != nil {
			return nil, nil, err
		}
		tr, _ := m["truncation"].(map[string]any)
		fls = append(fls, Floor{Name: fmt.Sprintf("context_economy.%s.%d", strings.TrimPrefix(r[0], "context.build."), files), Value: math.Round(float64(len(out))/float64(read)*1000) / 10, Unit: "%",
			Note: fmt.Sprintf("bytes of the whole answer (%d, truncated %v) / bytes of main.acore + contracts/store.axiom (%d)", len(out), tr["truncated"], read)})
	}
	ts, err := targets(v, snap, 50)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range []struct {
		op string
		ts []target
	}{{"change.propose.1", ts[:1]}, {"change.propose.50", ts}} {
		d, err := timeN(o.edits(), func(i int) error {
			_, err := v.propose(snap, p.ts, "", fmt.Sprintf(" %d", i))
			return err
		})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p.op, err)
		}
		rows = append(rows, stats(p.op, "in_process", files, bytes, d))
	}
	var checks, applies []time.Duration
	head, old := snap, ""
	for i := range o.edits() {
		cand, err := v.propose(head, ts[:1], old, fmt.Sprintf(" a%d", i))
		old = fmt.Sprintf(" a%d", i)
		if err != nil {
			return nil, nil, fmt.Errorf("change.propose: %w", err)
		}
		start := time.Now()
		if err := v.check(cand); err != nil {
			return nil, nil, fmt.Errorf("check.run: %w", err)
		}
		checks = append(checks, time.Since(start))
		start = time.Now()
		if head, err = v.apply(cand); err != nil {
			return nil, nil, fmt.Errorf("change.apply: %w", err)
		}
		applies = append(applies, time.Since(start))
	}
	rows = append(rows, stats("check.run", "in_process", files, bytes, checks), stats("change.apply", "in_process", files, bytes, applies))
	return rows, fls, nil
}

// lines is a serve process driven one line at a time.
type lines struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startServe(bin, root string) (*lines, error) {
	cmd := exec.Command(bin, "serve", "--root", root)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &lines{cmd, in, bufio.NewReaderSize(out, 1<<20)}, nil
}

func (l *lines) call(body string) ([]byte, error) {
	if _, err := io.WriteString(l.in, proto+body+"\n"); err != nil {
		return nil, err
	}
	return l.out.ReadBytes('\n')
}

func (l *lines) close() {
	l.in.Close()
	l.cmd.Wait()
}

// serveOpen starts a serve process on the project at dir and opens it;
// it returns the process and the snapshot workspace.open named.
func serveOpen(bin, dir string) (*lines, string, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, "", err
	}
	l, err := startServe(bin, root)
	if err != nil {
		return nil, "", err
	}
	out, err := l.call(`"operation":"workspace.open","params":{"roots":[{"path":"` + root + `"}]}}`)
	if err == nil {
		var m map[string]any
		if m, _, err = decode(out); err == nil {
			return l, str(m, "snapshot", "id"), nil
		}
	}
	l.close()
	return nil, "", err
}

func measureServe(o Options, bin, dir string, files int, page string) ([]Row, error) {
	bytes, _ := sourceBytes(dir)
	l, snap, err := serveOpen(bin, dir)
	if err != nil {
		return nil, err
	}
	defer l.close()
	var rows []Row
	for _, r := range readsOn(snap, page) {
		if out, err := l.call(r[1]); err != nil {
			return nil, err
		} else if _, _, err := decode(out); err != nil {
			return nil, fmt.Errorf("%s: %w", r[0], err)
		}
		d, err := timeN(o.calls(), func(int) error { _, err := l.call(r[1]); return err })
		if err != nil {
			return nil, err
		}
		rows = append(rows, stats(r[0], "serve", files, bytes, d))
	}
	return rows, nil
}

// Table prints operation × project (shape and size), p50 and p99 in
// milliseconds.
func Table(w io.Writer, r *Result) {
	type col struct {
		shape string
		files int
	}
	type key struct {
		op, tr string
		col
	}
	var cols []col
	seen := map[col]bool{}
	cell := map[key]Row{}
	var order []key
	for _, x := range r.Rows {
		c := col{x.Shape, x.Files}
		if !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
		k := key{x.Op, x.Transport, col{}}
		if _, ok := cell[k]; !ok {
			cell[k] = x
			order = append(order, k)
		}
		cell[key{x.Op, x.Transport, c}] = x
	}
	name := func(c col) string {
		if c.shape == "" {
			return fmt.Sprintf("%d files", c.files)
		}
		return fmt.Sprintf("%s %d files", c.shape, c.files)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%-32s %-17s", "operation (ms)", "transport")
	for _, c := range cols {
		fmt.Fprintf(&b, " %24s", name(c)+" p50/p99")
	}
	b.WriteString("\n")
	for _, k := range order {
		fmt.Fprintf(&b, "%-32s %-17s", k.op, k.tr)
		for _, c := range cols {
			x, ok := cell[key{k.op, k.tr, c}]
			if !ok {
				fmt.Fprintf(&b, " %24s", "-")
				continue
			}
			fmt.Fprintf(&b, " %24s", fmt.Sprintf("%.3f / %.3f", x.P50ms, x.P99ms))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\nproject sources:")
	for _, c := range cols {
		for _, x := range r.Rows {
			if x.Shape == c.shape && x.Files == c.files {
				fmt.Fprintf(&b, " %s = %d bytes;", name(c), x.Bytes)
				break
			}
		}
	}
	b.WriteString("\n\nfloors and peers:\n")
	for _, f := range r.Floors {
		fmt.Fprintf(&b, "  %-40s %12.3f %-5s %s\n", f.Name, f.Value, f.Unit, f.Note)
	}
	w.Write(b.Bytes())
}
