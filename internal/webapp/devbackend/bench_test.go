package devbackend

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// benchBackend is the task-app's backend holding n tasks.
func benchBackend(b *testing.B, n int) *Backend {
	b.Helper()
	root := filepath.Join(b.TempDir(), "app")
	if _, err := scaffold.New(root); err != nil {
		b.Fatal(err)
	}
	be, err := Open(root)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { be.Close() })
	for i := range n {
		call(b, be, "/tasks/create_task", fmt.Sprintf(`{"title": "task %d"}`, i))
	}
	return be
}

// call runs one request in process and fails unless it answers 200.
func call(b *testing.B, be *Backend, path, body string) {
	rec := httptest.NewRecorder()
	be.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
	if rec.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
	}
}

// BenchmarkCreate measures create_task on a table of 100 rows: a write
// transaction that reads and raises the id counter, looks the new id up in
// the index, inserts a row and commits.
func BenchmarkCreate(b *testing.B) {
	be := benchBackend(b, 100)
	for b.Loop() {
		call(b, be, "/tasks/create_task", `{"title": "Buy milk"}`)
	}
}

// BenchmarkList1000 measures list_tasks of 1000 rows.
func BenchmarkList1000(b *testing.B) {
	be := benchBackend(b, 1000)
	for b.Loop() {
		call(b, be, "/tasks/list_tasks", `{}`)
	}
}
