// Package backend is the benchmark's loopback backend: both apps of
// bench/web (Acore and vanilla) call it over the wire format of docs/web.md
// section 6, and get the same answers for the same sequence of operations,
// because the labels are drawn in order from one pool made from a seed.
package backend

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
)

// Row is one row of the benchmark's table, the contract's model Row.
type Row struct {
	ID    int    `json:"id"`
	Label string `json:"label"`
}

// The words of js-framework-benchmark's labels, so that label lengths match
// the ones every framework there is measured with.
var (
	adjectives = []string{"pretty", "large", "big", "small", "tall", "short", "long", "handsome", "plain", "quaint", "clean", "elegant", "easy", "angry", "crazy", "helpful", "mushy", "odd", "unsightly", "adorable", "important", "inexpensive", "cheap", "expensive", "fancy"}
	colours    = []string{"red", "yellow", "blue", "green", "pink", "brown", "purple", "brown", "white", "black", "orange"}
	nouns      = []string{"table", "chair", "house", "bbq", "desk", "car", "pony", "cookie", "sandwich", "burger", "pizza", "mouse", "keyboard"}
)

// PoolSize is how many labels are drawn from the seed; operations take them
// in order and wrap around.
const PoolSize = 1 << 16

// Labels returns the label pool of seed: the same seed, the same labels.
func Labels(seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]string, PoolSize)
	for i := range out {
		out[i] = adjectives[r.IntN(len(adjectives))] + " " + colours[r.IntN(len(colours))] + " " + nouns[r.IntN(len(nouns))]
	}
	return out
}

// Backend holds one app's rows. Each app gets its own Backend, made from
// the same seed, so that interleaving the two does not mix their rows.
type Backend struct {
	labels []string

	mu     sync.Mutex
	rows   []Row
	nextID int
	next   int      // the next label of the pool
	log    []string // one line per answer of list_rows: its length and SHA-256
}

// New returns a backend with no rows whose labels come from seed.
func New(seed uint64) *Backend {
	return &Backend{labels: Labels(seed), nextID: 1}
}

func (b *Backend) build(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{ID: b.nextID, Label: b.labels[b.next%len(b.labels)]}
		b.nextID++
		b.next++
	}
	return rows
}

// Apply performs op (the apply_op mutation) on the rows: run, runlots, add,
// update, clear, swaprows, or remove (of the row with id).
func (b *Backend) Apply(op string, id int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch op {
	case "run":
		b.rows = b.build(1000)
	case "runlots":
		b.rows = b.build(10000)
	case "add":
		b.rows = append(b.rows, b.build(1000)...)
	case "update":
		// A new slice, so that an answer already encoded is not changed.
		rows := append([]Row(nil), b.rows...)
		for i := 0; i < len(rows); i += 10 {
			rows[i].Label += " !!!"
		}
		b.rows = rows
	case "clear":
		b.rows = nil
	case "swaprows":
		// js-framework-benchmark swaps the second and the second-to-last
		// row of 1,000 (indices 1 and 998).
		if len(b.rows) > 998 {
			rows := append([]Row(nil), b.rows...)
			rows[1], rows[998] = rows[998], rows[1]
			b.rows = rows
		}
	case "remove":
		for i, r := range b.rows {
			if r.ID == id {
				b.rows = append(append([]Row(nil), b.rows[:i]...), b.rows[i+1:]...)
				return nil
			}
		}
		return fmt.Errorf("remove: no row has id %d", id)
	default:
		return fmt.Errorf("unknown operation %q (run, runlots, add, update, clear, swaprows, remove)", op)
	}
	return nil
}

// List is the answer of list_rows, encoded, and records its digest.
func (b *Backend) List() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	rows := b.rows
	if rows == nil {
		rows = []Row{}
	}
	body, err := json.Marshal(rows)
	if err != nil {
		panic(err) // rows of ints and strings always encode
	}
	sum := sha256.Sum256(body)
	b.log = append(b.log, fmt.Sprintf("%d rows %s", len(rows), hex.EncodeToString(sum[:8])))
	return body
}

// Log returns one line per list_rows answer so far: the number of rows and
// the start of the answer's SHA-256, by which a run shows that both apps got
// the same bytes.
func (b *Backend) Log() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.log...)
}

// ServeHTTP answers POST /rows/list_rows and POST /rows/apply_op
// ({"op": ..., "id": ...}) as docs/web.md section 6 describes.
func (b *Backend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		body, _ := json.Marshal(map[string]any{"error": map[string]string{"message": msg}})
		w.Write(body)
	}
	if r.Method != http.MethodPost {
		fail(http.StatusMethodNotAllowed, "the benchmark backend answers POST /rows/<operation>")
		return
	}
	switch r.URL.Path {
	case "/rows/list_rows":
		w.Header().Set("Content-Type", "application/json")
		w.Write(b.List())
	case "/rows/apply_op":
		var args struct {
			Op string `json:"op"`
			ID int    `json:"id"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&args); err != nil {
			fail(http.StatusBadRequest, "apply_op: "+err.Error())
			return
		}
		if err := b.Apply(args.Op, args.ID); err != nil {
			fail(http.StatusBadRequest, err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("null"))
	default:
		fail(http.StatusNotFound, "no operation "+r.URL.Path+" (rows/list_rows, rows/apply_op)")
	}
}
