package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// TestQuick runs the benchmark's quick mode in Chromium: every operation
// gives a time for both apps, both were shown the same answers, and the
// MutationObserver counts of swap, select and update every 10th row are
// reported, vanilla's being exactly the DOM work its code does.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("drives Chromium")
	}
	if _, err := os.Stat(Chromium); err != nil {
		if os.Getenv(browsertest.RequiredEnv) == "1" {
			t.Fatalf("needs Chromium at %s: %v (%s=1 makes this a failure)", Chromium, err, browsertest.RequiredEnv)
		}
		t.Skipf("needs Chromium at %s: %v", Chromium, err)
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	res, err := run(options{Root: root, Quick: true, Seed: 27, Facts: true, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if !res.SameAnswers {
		t.Error("the two backends answered list_rows differently")
	}
	if len(res.Ops) != len(operations) {
		t.Fatalf("%d operations measured, want %d", len(res.Ops), len(operations))
	}
	for _, o := range res.Ops {
		for _, im := range []string{"vanilla", "acore", factless} {
			if len(o.Times[im]) != 1 || o.Median[im] <= 0 {
				t.Errorf("%s, %s: times %v", o.Name, im, o.Times[im])
			}
		}
	}
	want := map[string]mutations{
		// insertBefore of the two rows: each a removal and an insertion.
		"swap":       {Records: 4, Added: 2, Removed: 2},
		"select":     {Records: 1, Attributes: 1},
		"update10th": {Records: 100, Texts: 100},
	}
	for _, o := range res.Ops {
		w, ok := want[o.Name]
		if !ok {
			continue
		}
		if got := o.Mutations["vanilla"]; got != w {
			t.Errorf("%s, vanilla: mutations %+v, want %+v", o.Name, got, w)
		}
		if got := o.Mutations["acore"]; got.Records == 0 {
			t.Errorf("%s, acore: no mutation records reported", o.Name)
		}
		delete(want, o.Name)
	}
	if len(want) != 0 {
		t.Errorf("operations not measured: %v", want)
	}
	for _, im := range res.Impls {
		if im.Bytes.Raw == 0 || im.Bytes.Gzip == 0 || im.Memory.NodesPerRow <= 0 || im.Memory.HeapPerRow <= 0 {
			t.Errorf("%s: bytes %+v, memory %+v", im.Name, im.Bytes, im.Memory)
		}
	}
	// The live facts: vanilla has none, the Acore app's rows carry node
	// ids and the remove button's AXAG action, the factless copy the ids.
	if v, a, f := res.impl("vanilla"), res.impl("acore"), res.impl(factless); v.Memory.FactBytesPerRow != 0 || f.Name == "" || f.Memory.FactBytesPerRow <= 0 || a.Memory.FactBytesPerRow < f.Memory.FactBytesPerRow+100 {
		t.Errorf("fact attribute bytes per row: vanilla %v, acore %v, %s %v", v.Memory.FactBytesPerRow, a.Memory.FactBytesPerRow, factless, f.Memory.FactBytesPerRow)
	}
	dir := t.TempDir()
	md, js, err := res.write(dir, "quick")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{md, js} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", p, err)
		}
	}
}
