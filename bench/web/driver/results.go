package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

type results struct {
	Date        string       `json:"date"`
	Browser     string       `json:"browser"`
	Seed        uint64       `json:"seed"`
	Runs        int          `json:"runs"`
	Warmups     int          `json:"warmups"`
	Quick       bool         `json:"quick"`
	SameAnswers bool         `json:"same_answers"`
	Impls       []implResult `json:"implementations"`
	Ops         []opResult   `json:"operations"`
}

type implResult struct {
	Name    string       `json:"name"`
	Bytes   bytesShipped `json:"bytes"`
	Memory  memoryResult `json:"memory"`
	Answers int          `json:"list_rows_answers"`
}

type opResult struct {
	Name      string               `json:"name"`
	Label     string               `json:"label"`
	Times     map[string][]float64 `json:"times_ms"`
	Median    map[string]float64   `json:"median_ms"`
	Ratio     float64              `json:"ratio"`
	Mutations map[string]mutations `json:"mutations"`
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func (o *opResult) summarize() {
	o.Median = map[string]float64{}
	for k, v := range o.Times {
		o.Median[k] = median(v)
	}
	if v := o.Median["vanilla"]; v > 0 {
		o.Ratio = o.Median["acore"] / v
	}
}

func (r *results) impl(name string) implResult {
	for _, im := range r.Impls {
		if im.Name == name {
			return im
		}
	}
	return implResult{}
}

func ratio(a, v float64) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/v)
}

func (m mutations) String() string {
	return fmt.Sprintf("%d (+%d −%d, %d attr, %d text)", m.Records, m.Added, m.Removed, m.Attributes, m.Texts)
}

func (r *results) markdown() string {
	var b strings.Builder
	mode := fmt.Sprintf("medians of %d runs after %d warm-ups", r.Runs, r.Warmups)
	if r.Quick {
		mode = "quick check, not a measurement: " + mode
	}
	fmt.Fprintf(&b, "# Web benchmark, %s\n\n%s; %s; backend seed %d; same list_rows answers to both apps: %v.\n\n", r.Date, r.Browser, mode, r.Seed, r.SameAnswers)
	b.WriteString("| operation (click to paint, ms) | vanilla | acore | ratio | MutationObserver records, vanilla | acore |\n|---|---:|---:|---:|---|---|\n")
	for _, o := range r.Ops {
		fmt.Fprintf(&b, "| %s | %.1f | %.1f | %s | %s | %s |\n", o.Label, o.Median["vanilla"], o.Median["acore"], ratio(o.Median["acore"], o.Median["vanilla"]), o.Mutations["vanilla"], o.Mutations["acore"])
	}
	v, a := r.impl("vanilla"), r.impl("acore")
	b.WriteString("\n| | vanilla | acore | ratio |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| bytes shipped, HTML+JS+CSS | %d | %d | %s |\n", v.Bytes.Raw, a.Bytes.Raw, ratio(float64(a.Bytes.Raw), float64(v.Bytes.Raw)))
	fmt.Fprintf(&b, "| bytes shipped, gzipped | %d | %d | %s |\n", v.Bytes.Gzip, a.Bytes.Gzip, ratio(float64(a.Bytes.Gzip), float64(v.Bytes.Gzip)))
	fmt.Fprintf(&b, "| JS heap per row, bytes (10,000 rows, after GC) | %.0f | %.0f | %s |\n", v.Memory.HeapPerRow, a.Memory.HeapPerRow, ratio(a.Memory.HeapPerRow, v.Memory.HeapPerRow))
	fmt.Fprintf(&b, "| DOM nodes per row | %.2f | %.2f | %s |\n", v.Memory.NodesPerRow, a.Memory.NodesPerRow, ratio(a.Memory.NodesPerRow, v.Memory.NodesPerRow))
	fmt.Fprintf(&b, "| event listeners per row | %.2f | %.2f | %s |\n", v.Memory.ListenersPerRow, a.Memory.ListenersPerRow, ratio(a.Memory.ListenersPerRow, v.Memory.ListenersPerRow))
	fmt.Fprintf(&b, "| event listeners added by 10,000 rows | %d | %d | |\n", v.Memory.Rows10k.Listeners-v.Memory.Empty.Listeners, a.Memory.Rows10k.Listeners-a.Memory.Empty.Listeners)
	fmt.Fprintf(&b, "| live AXAG and node id attribute bytes per row | %.0f | %.0f | |\n", v.Memory.FactBytesPerRow, a.Memory.FactBytesPerRow)
	if f := r.impl(factless); f.Name != "" {
		b.WriteString("\nWhat the live AXAG attributes cost: the same Acore app with their writes dropped (" + factless + "; node ids stay, since a row's events find their handler by them).\n\n")
		b.WriteString("| operation (click to paint, ms) | acore | without facts | ratio |\n|---|---:|---:|---:|\n")
		for _, o := range r.Ops {
			fmt.Fprintf(&b, "| %s | %.1f | %.1f | %s |\n", o.Label, o.Median["acore"], o.Median[factless], ratio(o.Median["acore"], o.Median[factless]))
		}
		fmt.Fprintf(&b, "| JS heap per row, bytes | %.0f | %.0f | %s |\n", a.Memory.HeapPerRow, f.Memory.HeapPerRow, ratio(a.Memory.HeapPerRow, f.Memory.HeapPerRow))
		fmt.Fprintf(&b, "| live AXAG and node id attribute bytes per row | %.0f | %.0f | |\n", a.Memory.FactBytesPerRow, f.Memory.FactBytesPerRow)
		fmt.Fprintf(&b, "| DOM nodes per row | %.2f | %.2f | |\n", a.Memory.NodesPerRow, f.Memory.NodesPerRow)
	}
	return b.String()
}

// write writes the results as <name>.md and <name>.json into dir.
func (r *results) write(dir, name string) (string, string, error) {
	if name == "" {
		name = "web-" + time.Now().UTC().Format("2006-01-02")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	md, js := filepath.Join(dir, name+".md"), filepath.Join(dir, name+".json")
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", "", err
	}
	if err := os.WriteFile(md, []byte(r.markdown()), 0o644); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(js, append(data, '\n'), 0o644); err != nil {
		return "", "", err
	}
	return md, js, nil
}
