package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// rowsBackend answers testdata/keyed's contract: apply(op) changes the
// rows as js-framework-benchmark's operations do, list_rows gives them
// (new objects at every answer, as a server's JSON is).
type rowsBackend struct {
	mu   sync.Mutex
	rows []map[string]any
}

func (b *rowsBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if allowCORS(w, r) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	var args struct{ Op string }
	body, _ := io.ReadAll(r.Body)
	json.Unmarshal(body, &args)
	var result any = true
	switch r.URL.Path {
	case "/rows/list_rows":
		result = b.rows
	case "/rows/apply":
		switch args.Op {
		case "create":
			b.rows = make([]map[string]any, 1000)
			for i := range b.rows {
				b.rows[i] = map[string]any{"id": i + 1, "label": fmt.Sprintf("row %d", i+1)}
			}
		case "append":
			for i := len(b.rows); i < 2000; i++ {
				b.rows = append(b.rows, map[string]any{"id": i + 1, "label": fmt.Sprintf("row %d", i+1)})
			}
		case "swap":
			b.rows[1], b.rows[998] = b.rows[998], b.rows[1]
		case "update":
			for i := 0; i < len(b.rows); i += 10 {
				b.rows[i]["label"] = b.rows[i]["label"].(string) + " !!!"
			}
		case "clear":
			b.rows = []map[string]any{}
		default:
			http.Error(w, `{"error":{"message":"no such op"}}`, http.StatusBadRequest)
			return
		}
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(result)
}

// observeList starts a MutationObserver on the list, its subtree
// included, and notes the time of the next click and of the last change.
const observeList = `(() => {
	const s = window.__keyed = {records: [], t0: 0, t1: 0};
	addEventListener("click", () => s.t0 = performance.now(), {capture: true, once: true});
	s.observer = new MutationObserver(rs => {
		s.records.push(...rs);
		s.t1 = performance.now();
	});
	s.observer.observe(document.querySelector("ul.rows"), {subtree: true, childList: true, attributes: true, characterData: true});
})()`

// listChanges stops the observer and sums up its records.
const listChanges = `(() => {
	const s = window.__keyed;
	s.records.push(...s.observer.takeRecords());
	s.observer.disconnect();
	const c = {records: s.records.length, childList: 0, attributes: 0, characterData: 0, added: 0, removed: 0, moved: 0};
	const added = new Set(), removed = new Set();
	for (const r of s.records) {
		c[r.type]++;
		c.added += r.addedNodes.length;
		c.removed += r.removedNodes.length;
		r.addedNodes.forEach(n => added.add(n));
		r.removedNodes.forEach(n => removed.add(n));
	}
	c.moved = [...added].filter(n => removed.has(n)).length;
	delete window.__keyed;
	return {count: c, ms: s.t1 - s.t0};
})()`

type listCount struct {
	Records, ChildList, Attributes, CharacterData, Added, Removed, Moved int
}

// TestKeyedListMutations counts what the DOM sees of each operation of a
// 1,000-row keyed list (testdata/keyed, built against a loopback backend):
// the counts a hand-written page gives. A swap moves 2 rows (each move a
// removal and an insertion record), select changes 2 class attributes,
// an update of every 10th row changes 100 texts (the refreshed items keep
// their rows), and clear empties the list in one record; create inserts
// all rows at once, and an append the new ones at once.
//
// Both kinds of rows are counted: testdata/keyed's are rows without
// effects, testdata/keyed-effects' have a scope and effects each.
func TestKeyedListMutations(t *testing.T) {
	for _, fx := range []string{"keyed", "keyed-effects"} {
		t.Run(fx, func(t *testing.T) { keyedMutations(t, fx) })
	}
}

func keyedMutations(t *testing.T, fixture string) {
	dir := copyTestdata(t, fixture)
	axiom(t, 0, "prepare", dir)
	backend := httptest.NewServer(&rowsBackend{})
	defer backend.Close()
	site := buildAndServe(t, dir, backend.URL)
	p := browsertest.New(t)
	p.Navigate(site.URL)
	p.WaitSelector("ul.rows")

	rowText := func(i int) string {
		return `document.querySelectorAll("ul.rows > li")[` + fmt.Sprint(i) + `]?.children[1]?.textContent`
	}
	for _, c := range []struct {
		name, button, done string
		want               listCount
	}{
		{"create", "Create", `document.querySelectorAll("ul.rows > li").length === 1000`,
			listCount{Records: 1, ChildList: 1, Added: 1000}},
		{"swap", "Swap", rowText(1) + ` === "row 999" && ` + rowText(998) + ` === "row 2"`,
			listCount{Records: 4, ChildList: 4, Added: 2, Removed: 2, Moved: 2}},
		{"select", "", `document.querySelectorAll("ul.rows > li.danger").length === 1 && document.querySelectorAll("ul.rows > li")[9].classList.contains("danger")`,
			listCount{Records: 2, Attributes: 2}},
		{"update every 10th", "Update", rowText(990) + ` === "row 991 !!!"`,
			listCount{Records: 100, CharacterData: 100}},
		{"append", "Append", `document.querySelectorAll("ul.rows > li").length === 2000`,
			listCount{Records: 1, ChildList: 1, Added: 1000}},
		{"clear", "Clear", `document.querySelectorAll("ul.rows > li").length === 0`,
			listCount{Records: 1, ChildList: 1, Removed: 2000}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "select" {
				// Row 5 first, so that the measured change both takes a
				// row's highlight away and gives one.
				p.ClickJS("Select of row 5", `document.querySelectorAll("ul.rows > li")[4].querySelector("button")`)
				p.WaitFor("row 5 selected", `document.querySelectorAll("ul.rows > li")[4].classList.contains("danger")`)
			}
			var heap, dom float64
			if c.name == "create" {
				heap, dom = p.HeapUsed(), p.EmbedderHeapUsed()
			}
			p.Eval(observeList, nil)
			if c.button != "" {
				p.ClickText("button", c.button)
			} else {
				p.ClickJS("Select of row 10", `document.querySelectorAll("ul.rows > li")[9].querySelector("button")`)
			}
			p.WaitFor(c.name, c.done)
			var got struct {
				Count listCount
				Ms    float64
			}
			p.Eval(listChanges, &got)
			if got.Count != c.want {
				t.Errorf("%s: the list saw %+v, want %+v", c.name, got.Count, c.want)
			}
			// Figures, not checked: times vary where counts do not.
			t.Logf("%s: %+v, click to last change %.1f ms", c.name, got.Count, got.Ms)
			if c.name == "create" {
				t.Logf("JS heap per row: %.0f bytes; the DOM's (embedder) heap per row: %.0f bytes", (p.HeapUsed()-heap)/1000, (p.EmbedderHeapUsed()-dom)/1000)
			}
		})
	}
	// Delegation: the rows' buttons have no listener of their own.
	p.ClickText("button", "Create")
	p.WaitFor("the rows", `document.querySelectorAll("ul.rows > li").length === 1000`)
	if n := p.Listeners(`document.querySelector("ul.rows")`); n != 0 {
		t.Errorf("1,000 rows have %d listeners, want none (one per event type at the document)", n)
	}
	t.Logf("listeners at the document: %d", p.Listeners("document"))
	if ex := p.Exceptions(); len(ex) > 0 {
		t.Errorf("exceptions: %q", ex)
	}
}
