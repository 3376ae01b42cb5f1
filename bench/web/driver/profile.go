package main

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// profiled runs op once on a fresh page of im under V8's sampling CPU
// profiler and logs the functions with the most self time, by name and
// place in the script (the runtime is minified: its place, not its name,
// tells which function it is).
func (d *driver) profiled(im *impl, op operation) error {
	if err := d.prepare(im, op); err != nil {
		return err
	}
	ctx := d.ctx
	if _, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{}); err != nil {
		return err
	}
	if _, err := chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 50}); err != nil {
		return err
	}
	if _, err := chromedp.Call(ctx, profiler.Start, cdp.Empty{}); err != nil {
		return err
	}
	err := d.click(op.Run.Click)
	if err == nil {
		err = d.waitFor(op.Run.Done)
	}
	r, err2 := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
	if err == nil {
		err = err2
	}
	if err != nil {
		return err
	}
	p := r.Profile
	interval := (p.EndTime - p.StartTime) / float64(max(1, len(p.Samples))) / 1000
	self := map[string]float64{}
	for _, n := range p.Nodes {
		f := n.CallFrame
		if n.HitCount == 0 || f.FunctionName == "(idle)" || f.FunctionName == "(program)" {
			continue
		}
		url := f.URL[strings.LastIndex(f.URL, "/")+1:]
		self[fmt.Sprintf("%s %s:%d:%d", cmp.Or(f.FunctionName, "(anonymous)"), url, f.LineNumber+1, f.ColumnNumber+1)] += float64(n.HitCount) * interval
	}
	names := slices.SortedFunc(maps.Keys(self), func(a, b string) int { return cmp.Compare(self[b], self[a]) })
	fmt.Fprintf(d.log, "%s %s: self time by function, ms\n", op.Name, im.Name)
	for _, n := range names[:min(len(names), 15)] {
		fmt.Fprintf(d.log, "  %6.2f %s\n", self[n], n)
	}
	return nil
}

// screenshot shows im with 1,000 rows and the second selected, and writes
// what the viewport shows to dir/<name>.png: both apps should look alike.
func (d *driver) screenshot(im *impl, dir string) error {
	if err := d.load(im); err != nil {
		return err
	}
	if err := d.step(create1k); err != nil {
		return err
	}
	if err := d.step(step{"ul.rows > li:nth-of-type(2) button.lbl", rows + `[1].className.includes("danger")`}); err != nil {
		return err
	}
	png, err := chromedp.Run(d.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, im.Name+".png"), png, 0o644)
}
