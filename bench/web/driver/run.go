package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/memory"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/axiomcore/acore/bench/web/backend"
)

// Chromium is the browser the benchmark drives.
const Chromium = "/usr/bin/chromium"

type options struct {
	Root, Out, Name string
	Quick           bool
	Runs, Warmups   int
	Seed            uint64
	// Breakdown logs where each timed run's time went (breakdown).
	Breakdown bool
	// Profile runs each operation once per implementation under the CPU
	// profiler, logs where its time went and measures nothing else.
	Profile bool
	// Screenshots, when set, is a directory for a picture of each app with
	// 1,000 rows; nothing is measured.
	Screenshots string
	// Only, when set, names the operations to run (comma-separated).
	Only string
	// Facts adds the Acore app with its live AXAG attributes left out
	// (factless), to measure what they cost.
	Facts bool
	Log   io.Writer
}

// factless is the name of the Acore app without its live AXAG attributes.
const factless = "acore-nofacts"

// withoutFacts copies the build in dist to dir with a classic script in
// index.html, which runs before the module, that drops every write of an
// axag-* attribute: the same app, whose live DOM lacks only its AXAG
// facts (rows are clones of a prototype built by setAttribute). The node
// ids stay: a row's events find their handler by its element's id.
func withoutFacts(dist, dir string) error {
	if err := os.CopyFS(dir, os.DirFS(dist)); err != nil {
		return err
	}
	page := filepath.Join(dir, "index.html")
	b, err := os.ReadFile(page)
	if err != nil {
		return err
	}
	const module = `<script type="module"`
	if !strings.Contains(string(b), module) {
		return fmt.Errorf("%s loads no module", page)
	}
	drop := `<script>{const set = Element.prototype.setAttribute; Element.prototype.setAttribute = function (n, v) { if (!n.startsWith("axag-")) set.call(this, n, v); };}</script>` + "\n"
	return os.WriteFile(page, []byte(strings.Replace(string(b), module, drop+module, 1)), 0o644)
}

// impl is one implementation of the app, served with its own backend.
type impl struct {
	Name    string           `json:"name"`
	Dir     string           `json:"-"`
	URL     string           `json:"url"`
	Backend *backend.Backend `json:"-"`
}

func serve(dir string, b *backend.Backend) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	files := http.FileServer(http.Dir(dir))
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/rows/") {
			b.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		files.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", func() { srv.Close() }, nil
}

// buildAcore builds cmd/axiom and with it the Acore app into out.
func buildAcore(root, out string) error {
	axiom := filepath.Join(out, "axiom")
	build := exec.Command("go", "build", "-o", axiom, "./cmd/axiom")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/axiom: %v\n%s", err, b)
	}
	cmd := exec.Command(axiom, "build", filepath.Join(root, "bench", "web", "acore"), "--out", filepath.Join(out, "dist"))
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("axiom build bench/web/acore: %v\n%s", err, b)
	}
	return nil
}

func run(o options) (*results, error) {
	if _, err := os.Stat(Chromium); err != nil {
		return nil, fmt.Errorf("the benchmark needs Chromium at %s: %w", Chromium, err)
	}
	if o.Quick {
		o.Runs, o.Warmups = 1, 0
	}
	if o.Runs < 1 {
		return nil, errors.New("--runs must be at least 1")
	}
	tmp, err := os.MkdirTemp("", "acore-webbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(o.Log, "building the Acore app with axiom build")
	if err := buildAcore(o.Root, tmp); err != nil {
		return nil, err
	}
	impls := []*impl{
		{Name: "vanilla", Dir: filepath.Join(o.Root, "bench", "web", "vanilla")},
		{Name: "acore", Dir: filepath.Join(tmp, "dist")},
	}
	if o.Facts {
		dir := filepath.Join(tmp, factless)
		if err := withoutFacts(impls[1].Dir, dir); err != nil {
			return nil, err
		}
		impls = append(impls, &impl{Name: factless, Dir: dir})
	}
	fmt.Fprintf(o.Log, "backend labels: seed %d, %d labels\n", o.Seed, backend.PoolSize)
	for _, im := range impls {
		im.Backend = backend.New(o.Seed)
		url, stop, err := serve(im.Dir, im.Backend)
		if err != nil {
			return nil, err
		}
		defer stop()
		im.URL = url
	}

	res := &results{Date: time.Now().UTC().Format(time.RFC3339), Seed: o.Seed, Runs: o.Runs, Warmups: o.Warmups, Quick: o.Quick}
	if out, err := exec.Command(Chromium, "--version").Output(); err == nil {
		res.Browser = strings.TrimSpace(string(out))
	}
	for _, im := range impls {
		b, err := shipped(im.Dir)
		if err != nil {
			return nil, err
		}
		res.Impls = append(res.Impls, implResult{Name: im.Name, Bytes: b})
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(Chromium),
		chromedp.Headless,
		// Containers without user namespaces for the sandbox, nor a GPU.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(filepath.Join(tmp, "profile")),
		chromedp.WindowSize(1200, 800),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	if err := chromedp.Do(ctx); err != nil {
		return nil, fmt.Errorf("starting %s: %w", Chromium, err)
	}
	d := &driver{ctx: ctx, breakdown: o.Breakdown, log: o.Log}

	if o.Screenshots != "" {
		for _, im := range impls {
			if err := d.screenshot(im, o.Screenshots); err != nil {
				return nil, fmt.Errorf("screenshot of %s: %w", im.Name, err)
			}
		}
		return nil, nil
	}
	for _, op := range operations {
		if o.Only != "" && !slices.Contains(strings.Split(o.Only, ","), op.Name) {
			continue
		}
		if o.Profile {
			for _, im := range impls {
				if err := d.profiled(im, op); err != nil {
					return nil, fmt.Errorf("%s, %s, profile: %w", op.Name, im.Name, err)
				}
			}
			continue
		}
		or := opResult{Name: op.Name, Label: op.Label, Times: map[string][]float64{}, Mutations: map[string]mutations{}}
		for i := range o.Warmups + o.Runs {
			// Interleaved, each run in the other order than the last.
			order := slices.Clone(impls)
			if i%2 == 1 {
				slices.Reverse(order)
			}
			for _, im := range order {
				var m *mutations
				if o.Quick {
					m = new(mutations)
				}
				ms, err := d.timed(im, op, m)
				if err != nil {
					return nil, fmt.Errorf("%s, %s: %w", op.Name, im.Name, err)
				}
				if i >= o.Warmups {
					or.Times[im.Name] = append(or.Times[im.Name], ms)
				}
				if m != nil {
					or.Mutations[im.Name] = *m
				}
			}
		}
		for _, im := range impls {
			if o.Quick {
				break
			}
			m, err := d.observed(im, op)
			if err != nil {
				return nil, fmt.Errorf("%s, %s, MutationObserver: %w", op.Name, im.Name, err)
			}
			or.Mutations[im.Name] = m
		}
		or.summarize()
		fmt.Fprintf(o.Log, "%-12s vanilla %8.1f ms  acore %8.1f ms  (%.2fx)", op.Name, or.Median["vanilla"], or.Median["acore"], or.Ratio)
		if o.Facts {
			fmt.Fprintf(o.Log, "  without facts %8.1f ms", or.Median[factless])
		}
		fmt.Fprintln(o.Log)
		res.Ops = append(res.Ops, or)
	}
	if o.Profile {
		return nil, nil
	}
	for i, im := range impls {
		m, err := d.memory(im)
		if err != nil {
			return nil, fmt.Errorf("memory, %s: %w", im.Name, err)
		}
		res.Impls[i].Memory = m
		res.Impls[i].Answers = len(im.Backend.Log())
	}
	// Both backends answered the same sequence of list_rows with the same
	// bytes: the apps compared were shown the same rows.
	va := impls[0].Backend.Log()
	res.SameAnswers = true
	for _, im := range impls[1:] {
		if ac := im.Backend.Log(); !slices.Equal(va, ac) {
			res.SameAnswers = false
			fmt.Fprintf(o.Log, "the backends' answers differ: vanilla %d, %s %d\n", len(va), im.Name, len(ac))
		}
	}
	return res, nil
}

type driver struct {
	ctx       context.Context
	breakdown bool
	log       io.Writer
}

func (d *driver) eval(js string, out any) error {
	ctx, cancel := context.WithTimeout(d.ctx, time.Minute)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("evaluating %.60s: %w", js, err)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// waitFor polls cond from the driver, not from the page, so that the
// polling adds no animation frames or timers to the page's trace.
func (d *driver) waitFor(cond string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var ok bool
		if err := d.eval(`!!(`+cond+`)`, &ok); err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waited a minute for %s", cond)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// frame resolves after the page's next frame and the task after it: the
// paint of what was rendered before has been committed.
const frame = `new Promise(done => requestAnimationFrame(() => setTimeout(done)))`

// load opens im with an empty backend and waits until its first list_rows
// answer is shown.
func (d *driver) load(im *impl) error {
	if err := im.Backend.Apply("clear", 0); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(d.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(im.URL)); err != nil {
		return err
	}
	if err := d.waitFor(`document.querySelector("button.run") && performance.getEntriesByType("resource").some(e => e.name.endsWith("/rows/list_rows"))`); err != nil {
		return err
	}
	return d.eval(frame, nil)
}

func (d *driver) click(sel string) error {
	ctx, cancel := context.WithTimeout(d.ctx, time.Minute)
	defer cancel()
	return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

func (d *driver) step(s step) error {
	if err := d.eval(remember, nil); err != nil {
		return err
	}
	if err := d.click(s.Click); err != nil {
		return err
	}
	return d.waitFor(s.Done)
}

func (d *driver) prepare(im *impl, op operation) error {
	if err := d.load(im); err != nil {
		return err
	}
	for _, s := range op.Prep {
		if err := d.step(s); err != nil {
			return err
		}
	}
	if err := d.gc(); err != nil {
		return err
	}
	if err := d.eval(frame, nil); err != nil {
		return err
	}
	return d.eval(remember, nil)
}

// timed runs op on a fresh page of im and returns its duration in ms. With
// m, a MutationObserver counts the run's records into it: the quick mode's
// one run, which is a check and not a measurement.
func (d *driver) timed(im *impl, op operation, m *mutations) (float64, error) {
	if err := d.prepare(im, op); err != nil {
		return 0, err
	}
	if m != nil {
		if err := d.eval(observe, nil); err != nil {
			return 0, err
		}
	}
	if err := startTrace(d.ctx); err != nil {
		return 0, err
	}
	stepErr := d.click(op.Run.Click)
	if stepErr == nil {
		stepErr = d.waitFor(op.Run.Done)
	}
	if stepErr == nil {
		stepErr = d.eval(`console.timeStamp("`+settledMark+`"), `+frame, nil)
	}
	events, err := stopTrace(d.ctx)
	if stepErr != nil {
		return 0, stepErr
	}
	if err != nil {
		return 0, err
	}
	if m != nil {
		if err := d.eval(collect, m); err != nil {
			return 0, err
		}
	}
	if d.breakdown {
		sums, timeline, err := breakdown(events)
		if err != nil {
			return 0, err
		}
		names := slices.SortedFunc(maps.Keys(sums), func(a, b string) int { return cmp.Compare(sums[b], sums[a]) })
		var b strings.Builder
		for _, n := range names[:min(len(names), 10)] {
			fmt.Fprintf(&b, " %s %.1f", n, sums[n])
		}
		for _, t := range timeline {
			fmt.Fprintf(&b, "\n    %s", t)
		}
		fmt.Fprintf(d.log, "  %s %s:%s\n", op.Name, im.Name, b.String())
	}
	return duration(events)
}

// mutations are the MutationObserver records of one run of an operation.
type mutations struct {
	Records    int `json:"records"`
	Added      int `json:"added"`
	Removed    int `json:"removed"`
	Attributes int `json:"attributes"`
	Texts      int `json:"texts"`
}

const (
	observe = `(() => { const rs = window.__wbr = [], o = window.__wbo = new MutationObserver(r => rs.push(...r)); o.observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); })()`
	collect = frame + `.then(() => { const rs = window.__wbr; rs.push(...window.__wbo.takeRecords()); window.__wbo.disconnect();
		const m = {records: rs.length, added: 0, removed: 0, attributes: 0, texts: 0};
		for (const r of rs) { m.added += r.addedNodes.length; m.removed += r.removedNodes.length;
			if (r.type === "attributes") m.attributes++; if (r.type === "characterData") m.texts++; }
		return m; })`
)

// observed runs op once, untimed, under a MutationObserver of the document.
func (d *driver) observed(im *impl, op operation) (mutations, error) {
	var m mutations
	if err := d.prepare(im, op); err != nil {
		return m, err
	}
	if err := d.eval(observe, nil); err != nil {
		return m, err
	}
	if err := d.click(op.Run.Click); err != nil {
		return m, err
	}
	if err := d.waitFor(op.Run.Done); err != nil {
		return m, err
	}
	err := d.eval(collect, &m)
	return m, err
}

// counters are the page's JS heap and DOM after a garbage collection.
type counters struct {
	Heap      float64 `json:"heap_bytes"`
	Nodes     int64   `json:"nodes"`
	Listeners int64   `json:"listeners"`
	// FactBytes are the bytes of the live page's data-acore-id and axag-*
	// attributes, written as name="value" with a space before.
	FactBytes int64 `json:"fact_attribute_bytes"`
}

const factBytes = `[...document.body.querySelectorAll("*")].reduce((n, e) => { for (const a of e.attributes) if (a.name == "data-acore-id" || a.name.startsWith("axag-")) n += a.name.length + a.value.length + 4; return n; }, 0)`

// gc collects the page's garbage, so that one run's does not fall into the
// next one's measurement.
func (d *driver) gc() error {
	ctx, cancel := context.WithTimeout(d.ctx, time.Minute)
	defer cancel()
	_, err := chromedp.Call(ctx, heapprofiler.CollectGarbage, cdp.Empty{})
	return err
}

func (d *driver) counters() (counters, error) {
	var c counters
	if err := d.gc(); err != nil {
		return c, err
	}
	ctx, cancel := context.WithTimeout(d.ctx, time.Minute)
	defer cancel()
	h, err := chromedp.Call(ctx, cdpruntime.GetHeapUsage, cdp.Empty{})
	if err != nil {
		return c, err
	}
	dc, err := chromedp.Call(ctx, memory.GetDOMCounters, cdp.Empty{})
	if err != nil {
		return c, err
	}
	c = counters{Heap: h.UsedSize, Nodes: dc.Nodes, Listeners: dc.JsEventListeners}
	err = d.eval(factBytes, &c.FactBytes)
	return c, err
}

// memoryResult is what 1,000 and 10,000 rows cost over the empty page.
type memoryResult struct {
	Empty           counters `json:"empty"`
	Rows1k          counters `json:"rows_1000"`
	Rows10k         counters `json:"rows_10000"`
	HeapPerRow      float64  `json:"heap_bytes_per_row"`
	NodesPerRow     float64  `json:"nodes_per_row"`
	ListenersPerRow float64  `json:"listeners_per_row"`
	FactBytesPerRow float64  `json:"fact_attribute_bytes_per_row"`
}

func (d *driver) memory(im *impl) (memoryResult, error) {
	var m memoryResult
	var err error
	if err = d.load(im); err != nil {
		return m, err
	}
	if m.Empty, err = d.counters(); err != nil {
		return m, err
	}
	if err = d.step(create1k); err != nil {
		return m, err
	}
	if m.Rows1k, err = d.counters(); err != nil {
		return m, err
	}
	if err = d.step(clearRows); err != nil {
		return m, err
	}
	if err = d.step(create10k); err != nil {
		return m, err
	}
	if m.Rows10k, err = d.counters(); err != nil {
		return m, err
	}
	m.HeapPerRow = (m.Rows10k.Heap - m.Empty.Heap) / 10000
	m.FactBytesPerRow = float64(m.Rows10k.FactBytes-m.Empty.FactBytes) / 10000
	m.NodesPerRow = float64(m.Rows10k.Nodes-m.Empty.Nodes) / 10000
	m.ListenersPerRow = float64(m.Rows10k.Listeners-m.Empty.Listeners) / 10000
	return m, nil
}

// bytesShipped is the HTML, JS and CSS of an app's directory, raw and each
// file gzipped at the best compression.
type bytesShipped struct {
	Files []string `json:"files"`
	Raw   int      `json:"raw"`
	Gzip  int      `json:"gzip"`
}

func shipped(dir string) (bytesShipped, error) {
	var b bytesShipped
	entries, err := os.ReadDir(dir)
	if err != nil {
		return b, err
	}
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".html", ".js", ".css":
		default:
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return b, err
		}
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		b.Files = append(b.Files, e.Name())
		b.Raw += len(data)
		b.Gzip += z.Len()
	}
	return b, nil
}
