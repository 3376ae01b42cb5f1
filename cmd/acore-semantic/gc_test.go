package main

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// gcSetting reads the GC percent and the memory limit without changing
// them.
func gcSetting() (percent int, limit int64) {
	percent = debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// A service process starts with the collector off under a memory limit
// and, after its first collection, collects at the setting it had before.
func TestServiceGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: serviceGC leaves the collector alone")
	}
	percent, limit := gcSetting()
	defer func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}()
	serviceGC()
	if p, l := gcSetting(); p != -1 || l != serviceStartHeap {
		t.Fatalf("after serviceGC: GC percent %d, memory limit %d; want -1 and %d", p, l, int64(serviceStartHeap))
	}
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, l := gcSetting()
		if p == percent && l == limit {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the first collection: GC percent %d, memory limit %d; want %d and %d", p, l, percent, limit)
		}
		runtime.GC() // cleanups run after a collection's sweep, on their own goroutine
		time.Sleep(time.Millisecond)
	}
	if limit != math.MaxInt64 {
		t.Logf("the test process had a memory limit of %d", limit)
	}
}

// The MCP program and the bench set the collector with the same code as
// acore-semantic serve.
func TestServiceGCSameInEveryMain(t *testing.T) {
	want := serviceGCSource(t, "main.go")
	for _, other := range []string{"../acore-semantic-mcp/main.go", "../acore-bench/main.go"} {
		if got := serviceGCSource(t, other); got != want {
			t.Errorf("%s: serviceGC and serviceStartHeap differ from acore-semantic's:\n%s\nwant:\n%s", other, got, want)
		}
	}
}

// serviceGCSource prints the body of serviceGC and the declaration of
// serviceStartHeap in the Go file at path.
func serviceGCSource(t *testing.T, path string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.FromSlash(path), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "serviceGC" {
				printer.Fprint(&b, fset, d.Body)
				b.WriteString("\n")
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if v, ok := s.(*ast.ValueSpec); ok && len(v.Names) == 1 && v.Names[0].Name == "serviceStartHeap" {
					printer.Fprint(&b, fset, v)
					b.WriteString("\n")
				}
			}
		}
	}
	if b.Len() == 0 {
		t.Fatalf("%s has no serviceGC", path)
	}
	return b.String()
}
