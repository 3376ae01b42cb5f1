package web

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// minMoves is the fewest rows a keyed list must move to go from old to
// next: the kept rows outside a longest increasing subsequence of their
// old positions.
func minMoves(old, next []string) int {
	pos := map[string]int{}
	for i, k := range old {
		pos[k] = i
	}
	var tails []int
	kept := 0
	for _, k := range next {
		i, ok := pos[k]
		if !ok {
			continue
		}
		kept++
		j, _ := slices.BinarySearch(tails, i)
		if j == len(tails) {
			tails = append(tails, i)
		} else {
			tails[j] = i
		}
	}
	return kept - len(tails)
}

func keys(ns ...int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}

func span(a, b int) []int {
	var out []int
	for i := a; i < b; i++ {
		out = append(out, i)
	}
	return out
}

// TestListReconcileInChromium runs the runtime's keyed list (L) in
// Chromium through named changes and random ones, with each kind of row
// (general: a scope and effects per row; plain: rows without effects):
// after each, the list shows the items in order, every row whose key
// stays is the same node, and the rows moved are exactly the fewest
// (minMoves).
func TestListReconcileInChromium(t *testing.T) {
	steps := []listStep{
		{"create", keys(span(0, 20)...)},
		{"swap", keys(slices.Concat([]int{0, 18}, span(2, 18), []int{1, 19})...)},
		{"reverse", nil},
		{"append", nil},
		{"prepend", nil},
		{"remove one", nil},
		{"insert in the middle", nil},
		{"rotate", nil},
		{"clear", []string{}},
		{"replace all", keys(span(100, 110)...)},
	}
	cur := steps[1].items
	for i := 2; i < len(steps)-2; i++ {
		next := slices.Clone(cur)
		switch steps[i].name {
		case "reverse":
			slices.Reverse(next)
		case "append":
			next = append(next, keys(span(20, 25)...)...)
		case "prepend":
			next = append(keys(span(30, 33)...), next...)
		case "remove one":
			next = slices.Delete(next, 7, 8)
		case "insert in the middle":
			next = slices.Insert(next, 5, "40", "41")
		case "rotate":
			next = append(next[1:], next[0])
		}
		steps[i].items, cur = next, next
	}
	r := rand.New(rand.NewPCG(27, 1))
	cur = steps[len(steps)-1].items
	for i := range 150 {
		next := slices.Clone(cur)
		r.Shuffle(len(next), func(a, b int) {
			if r.IntN(4) == 0 {
				next[a], next[b] = next[b], next[a]
			}
		})
		for range r.IntN(3) { // move one row
			if len(next) > 1 {
				j := r.IntN(len(next))
				k := next[j]
				next = slices.Delete(next, j, j+1)
				next = slices.Insert(next, r.IntN(len(next)+1), k)
			}
		}
		if len(next) > 0 && r.IntN(3) == 0 {
			j := r.IntN(len(next))
			next = slices.Delete(next, j, j+1)
		}
		for n := range r.IntN(3) {
			next = slices.Insert(next, r.IntN(len(next)+1), "r"+strconv.Itoa(i)+"-"+strconv.Itoa(n))
		}
		steps = append(steps, listStep{"random " + strconv.Itoa(i), next})
		cur = next
	}
	// The ends, which the runtime matches before it looks for the longest
	// increasing subsequence (keep).
	ends := keys(span(200, 210)...)
	steps = append(steps,
		listStep{"ends again", ends},
		listStep{"the ends swapped", slices.Concat(ends[9:], ends[1:9], ends[:1])},
		listStep{"the ends swapped around new rows only", []string{ends[0], "e1", "e2", ends[9]}},
		listStep{"two rows swapped", []string{ends[9], ends[0]}},
		listStep{"back, with a new row", []string{ends[0], "e3", ends[9]}},
		listStep{"the ends swapped, some rows gone", slices.Concat(ends[9:], ends[1:5], ends[:1])},
	)
	kinds := []struct{ name, rows string }{
		{"general", `T.G((li, item) => T.tx(li, () => item()))`},
		{"plain", `(() => { const p = document.createElement("li"); p.textContent = " "; return T.PL(p, (li, x) => T.wt(li, x), {}, []); })()`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rt.js" {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(runtimeJS + "window.T={S,L,tx,G,PL,wt};\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><meta charset="utf-8"><div id="app"></div><script type="module" src="/rt.js"></script>`))
	}))
	defer srv.Close()
	for _, kind := range kinds {
		t.Run(kind.name, func(t *testing.T) { reconcile(t, browsertest.New(t), srv.URL, kind.rows, steps) })
	}
}

type listStep struct {
	name  string
	items []string
}

func reconcile(t *testing.T, p *browsertest.Page, url, rows string, steps []listStep) {
	p.Navigate(url + "/")
	p.WaitFor("the runtime", `window.T`)
	p.Eval(`(() => {
		const ul = document.createElement("ul"), items = T.S([]);
		document.body.append(ul);
		T.L(ul, () => items(), (x) => x, `+rows+`, null, null);
		// A move is a moveBefore or insertBefore of a row already in the
		// list (Chromium's moveBefore queues no mutation record).
		let moved = 0;
		for (const m of ["moveBefore", "insertBefore"]) {
			const f = ul[m];
			if (f) ul[m] = function (n, ref) {
				if (n.parentNode === ul) moved++;
				return f.call(this, n, ref);
			};
		}
		window.step = async (next) => {
			const before = new Map([...ul.children].map((li) => [li.textContent, li]));
			moved = 0;
			items.set(next);
			// The list's flush was queued first, so it has run when this resolves.
			await new Promise(queueMicrotask);
			const shown = [...ul.children].map((li) => li.textContent);
			const same = [...ul.children].every((li) => !before.has(li.textContent) || before.get(li.textContent) === li);
			return {shown, same, moved};
		};
	})()`, nil)
	var prev []string
	for _, s := range steps {
		in, _ := json.Marshal(s.items)
		var got struct {
			Shown []string
			Same  bool
			Moved int
		}
		p.Eval(`step(`+string(in)+`)`, &got)
		if !slices.Equal(got.Shown, s.items) && !(len(got.Shown) == 0 && len(s.items) == 0) {
			t.Fatalf("%s: the list shows %q, want %q", s.name, got.Shown, s.items)
		}
		if !got.Same {
			t.Errorf("%s: a row whose key stayed is a new node", s.name)
		}
		if want := minMoves(prev, s.items); got.Moved != want {
			t.Errorf("%s: %d rows moved, want %d", s.name, got.Moved, want)
		}
		prev = s.items
	}
}
