package backend

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func rowsOf(t *testing.T, b *Backend) []Row {
	t.Helper()
	var rows []Row
	if err := json.Unmarshal(b.List(), &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestApply(t *testing.T) {
	labels := Labels(1)
	tests := []struct {
		name  string
		ops   []string
		check func(t *testing.T, rows []Row)
	}{
		{"run", []string{"run"}, func(t *testing.T, rows []Row) {
			if len(rows) != 1000 || rows[0] != (Row{1, labels[0]}) || rows[999] != (Row{1000, labels[999]}) {
				t.Errorf("rows %d, first %v, last %v", len(rows), rows[0], rows[len(rows)-1])
			}
		}},
		{"replace", []string{"run", "run"}, func(t *testing.T, rows []Row) {
			if len(rows) != 1000 || rows[0] != (Row{1001, labels[1000]}) {
				t.Errorf("rows %d, first %v", len(rows), rows[0])
			}
		}},
		{"runlots", []string{"runlots"}, func(t *testing.T, rows []Row) {
			if len(rows) != 10000 || rows[9999].ID != 10000 {
				t.Errorf("rows %d", len(rows))
			}
		}},
		{"add", []string{"run", "add"}, func(t *testing.T, rows []Row) {
			if len(rows) != 2000 || rows[1000] != (Row{1001, labels[1000]}) {
				t.Errorf("rows %d, 1001st %v", len(rows), rows[1000])
			}
		}},
		{"update", []string{"run", "update"}, func(t *testing.T, rows []Row) {
			for i, r := range rows {
				if want := labels[i] + map[bool]string{true: " !!!"}[i%10 == 0]; r.Label != want {
					t.Fatalf("row %d: %q, want %q", i, r.Label, want)
				}
			}
		}},
		{"swap", []string{"run", "swaprows"}, func(t *testing.T, rows []Row) {
			if rows[1].ID != 999 || rows[998].ID != 2 || rows[0].ID != 1 {
				t.Errorf("rows 1 and 998: %v %v", rows[1], rows[998])
			}
		}},
		{"swap of too few rows does nothing", []string{"swaprows"}, func(t *testing.T, rows []Row) {
			if len(rows) != 0 {
				t.Errorf("rows %d", len(rows))
			}
		}},
		{"clear", []string{"run", "clear"}, func(t *testing.T, rows []Row) {
			if rows == nil || len(rows) != 0 {
				t.Errorf("rows %v, want []", rows)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New(1)
			for _, op := range tt.ops {
				if err := b.Apply(op, 0); err != nil {
					t.Fatal(err)
				}
			}
			tt.check(t, rowsOf(t, b))
		})
	}
}

func TestRemove(t *testing.T) {
	b := New(1)
	if err := b.Apply("run", 0); err != nil {
		t.Fatal(err)
	}
	before := rowsOf(t, b)
	if err := b.Apply("remove", 4); err != nil {
		t.Fatal(err)
	}
	after := rowsOf(t, b)
	if want := slices.Delete(slices.Clone(before), 3, 4); !slices.Equal(after, want) {
		t.Errorf("after removing id 4: %d rows, row 3 %v", len(after), after[3])
	}
	if err := b.Apply("remove", 4); err == nil || !strings.Contains(err.Error(), "no row has id 4") {
		t.Errorf("removing it again: %v", err)
	}
	if err := b.Apply("sort", 0); err == nil || !strings.Contains(err.Error(), `unknown operation "sort"`) {
		t.Errorf("unknown operation: %v", err)
	}
}

// The same seed gives the same answers, which the run's log shows.
func TestSeed(t *testing.T) {
	a, b, c := New(27), New(27), New(28)
	for _, x := range []*Backend{a, b, c} {
		x.Apply("run", 0)
		x.List()
	}
	if !slices.Equal(a.Log(), b.Log()) {
		t.Errorf("seed 27 twice: %v, %v", a.Log(), b.Log())
	}
	if slices.Equal(a.Log(), c.Log()) {
		t.Errorf("seeds 27 and 28 gave the same answer %v", a.Log())
	}
	if got := a.Log()[0]; !strings.HasPrefix(got, "1000 rows ") {
		t.Errorf("log line %q", got)
	}
}

func TestServeHTTP(t *testing.T) {
	srv := httptest.NewServer(New(1))
	defer srv.Close()
	tests := []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", "/rows/apply_op", `{"op":"run","id":0}`, 200, "null"},
		{"POST", "/rows/list_rows", `{}`, 200, `{"id":1000,"label":`},
		{"POST", "/rows/apply_op", `{"op":"remove","id":5000}`, 400, `{"error":{"message":"remove: no row has id 5000"}}`},
		{"POST", "/rows/apply_op", `{"op":`, 400, `apply_op: `},
		{"POST", "/rows/sort_rows", `{}`, 404, `no operation /rows/sort_rows`},
		{"GET", "/rows/list_rows", ``, 405, `answers POST`},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		_, err = io.Copy(&sb, resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != tt.status || !strings.Contains(sb.String(), tt.want) || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %d %s %q, want %d with %q", tt.method, tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), sb.String(), tt.status, tt.want)
		}
	}
}
