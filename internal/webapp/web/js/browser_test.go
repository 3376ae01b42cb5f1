package js

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// TestPrintEvaluatesInChromium: on random trees (the seed is logged), the
// minimal printing evaluates in Chromium to what the fully parenthesised
// printing does, value or exception, and neither is a syntax error.
func TestPrintEvaluatesInChromium(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed>>1))
	const trees = 600
	var pairs [][2]string
	for range trees {
		e := randExpr(r, 5, true)
		min, err := PrintExpr(nil, e)
		if err != nil {
			t.Fatal(err)
		}
		full, err := printFull(e)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, [2]string{string(min), full})
	}
	src, err := json.Marshal(pairs)
	if err != nil {
		t.Fatal(err)
	}
	p := browsertest.New(t)
	p.Navigate("about:blank")
	var got [][2]string
	p.Eval(`(() => {
  // A function's text is its source, which differs between the two.
  Function.prototype.toString = () => "function";
  const a = 1, b = "b", o = {p: {q: 2}, q: [3], length: 4}, f = (x, y) => [x, y];
  const show = v => typeof v + ":" + (Object.is(v, -0) ? "-0" : typeof v == "function" ? "function" : (() => { try { return JSON.stringify(v) ?? String(v) } catch { return String(v) } })());
  const run = s => { try { return show(eval("(" + s + "\n)")) } catch (e) { return "throws " + e.name } };
  return `+string(src)+`.map(([m, f]) => [run(m), run(f)]);
})()`, &got)
	if len(got) != len(pairs) {
		t.Fatalf("%d results for %d trees", len(got), len(pairs))
	}
	for i, g := range got {
		if g[0] != g[1] || g[0] == "throws SyntaxError" {
			t.Errorf("%s gives %s\n%s gives %s", pairs[i][0], g[0], pairs[i][1], g[1])
		}
	}
}
