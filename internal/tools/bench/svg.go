package bench

import (
	"fmt"
	"io"
	"math"
	"sort"
)

// SVG writes a line plot of in-process p50 latency (log scale) against
// project size (log scale) of the first shape, one line per operation.
func SVG(w io.Writer, r *Result) error {
	const (
		width, height          = 900, 560
		left, right, top, bott = 70, 250, 40, 60
	)
	series := map[string][]Row{}
	var ops []string
	for _, x := range r.Rows {
		if x.Transport != "in_process" || x.Shape != "" {
			continue // one line per operation, over the sizes of one shape
		}
		if _, ok := series[x.Op]; !ok {
			ops = append(ops, x.Op)
		}
		series[x.Op] = append(series[x.Op], x)
	}
	minB, maxB := math.MaxFloat64, 0.0
	minY, maxY := math.MaxFloat64, 0.0
	for _, rows := range series {
		for _, x := range rows {
			minB, maxB = math.Min(minB, float64(x.Bytes)), math.Max(maxB, float64(x.Bytes))
			y := math.Max(x.P50ms, 0.001)
			minY, maxY = math.Min(minY, y), math.Max(maxY, y)
		}
	}
	if maxB == 0 {
		return fmt.Errorf("nothing to plot")
	}
	lx0, lx1 := math.Log10(minB), math.Log10(maxB)
	if lx1-lx0 < 1e-9 {
		lx0, lx1 = lx0-0.5, lx1+0.5
	}
	ly0, ly1 := math.Floor(math.Log10(minY)), math.Ceil(math.Log10(maxY))
	if ly1 == ly0 {
		ly1++
	}
	pw, ph := float64(width-left-right), float64(height-top-bott)
	px := func(b float64) float64 { return left + (math.Log10(b)-lx0)/(lx1-lx0)*pw }
	py := func(ms float64) float64 {
		return top + ph - (math.Log10(math.Max(ms, 0.001))-ly0)/(ly1-ly0)*ph
	}
	colors := []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(w, `<text x="%d" y="22" font-size="14">acore-semantic in process: p50 latency against project size (%s)</text>`+"\n", left, r.Date)
	for e := ly0; e <= ly1; e++ {
		y := py(math.Pow(10, e))
		fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%g ms</text>`+"\n", left, y, left+pw, y, left-6, y+4, math.Pow(10, e))
	}
	for _, x := range series[ops[0]] {
		X := px(float64(x.Bytes))
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="middle">%d files, %.0f KiB</text>`+"\n", X, top, X, top+ph, X, top+ph+16, x.Files, float64(x.Bytes)/1024)
	}
	fmt.Fprintf(w, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">project sources (log scale)</text>`+"\n", left+pw/2, height-14)
	for i, op := range ops {
		c := colors[i%len(colors)]
		rows := series[op]
		sort.Slice(rows, func(a, b int) bool { return rows[a].Bytes < rows[b].Bytes })
		pts := ""
		for _, x := range rows {
			pts += fmt.Sprintf("%.1f,%.1f ", px(float64(x.Bytes)), py(x.P50ms))
		}
		fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", pts, c)
		for _, x := range rows {
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(float64(x.Bytes)), py(x.P50ms), c)
		}
		ly := top + 10 + i*18
		fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/><text x="%d" y="%d">%s</text>`+"\n", width-right+15, ly, width-right+35, ly, c, width-right+40, ly+4, op)
	}
	_, err := fmt.Fprintln(w, "</svg>")
	return err
}
