package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/platform/gcpolicy"
	"github.com/axiomcore/acore/internal/tools/bench"
)

// TestMain lets the benchmark start this binary to measure peak RSS.
func TestMain(m *testing.M) {
	bench.Child(project.ServiceOptions(), gcpolicy.Service)
	os.Exit(m.Run())
}

// TestQuick runs the whole benchmark quickly on the smallest project and
// the wide shape, and requires every operation on both, in process,
// through serve, on fresh files and after an apply, and every floor.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("builds acore-semantic and runs the benchmark")
	}
	dir := t.TempDir()
	js, svg := filepath.Join(dir, "out.json"), filepath.Join(dir, "plot.svg")
	if code := run([]string{"--quick", "--sizes", "1", "--json", js, "--svg", svg}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var res bench.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, r := range res.Rows {
		if r.N == 0 || r.P50ms <= 0 || r.P99ms < r.P50ms {
			t.Errorf("row %+v", r)
		}
		have[r.Shape+" "+r.Transport+" "+r.Op] = true
	}
	for _, shape := range []string{"", bench.Wide.Name} {
		for _, op := range append(append([]string{}, bench.ReadOps...), bench.EditOps...) {
			if !have[shape+" in_process "+op] {
				t.Errorf("no in-process row for %s on shape %q", op, shape)
			}
		}
		for _, op := range bench.ReadOps {
			for _, tr := range []string{"serve", bench.TransportFresh, bench.TransportAfterApply} {
				if !have[shape+" "+tr+" "+op] {
					t.Errorf("no %s row for %s on shape %q", tr, op, shape)
				}
			}
		}
		if !have[shape+" "+bench.TransportFresh+" workspace.open.process"] {
			t.Errorf("no fresh workspace.open row on shape %q", shape)
		}
	}
	floors := map[string]bool{}
	for _, f := range res.Floors {
		floors[f.Name] = f.Value > 0
	}
	for _, name := range []string{"cold_open_over_read_hash.1", "acore.parse", "go.parser", "acore.parse+check", "go.parser+types", "go.parser+types.no_imports", "acore.parse+check.one_core", "peak_rss.20_snapshots_candidates", "peak_rss.agent_loop", "one_shot.task_app.node.find", "one_shot.wide.node.find.cache", "one_shot.wide.node.find.no_cache", "one_shot.wide.workspace.open.cache", "one_shot.wide.workspace.open.no_cache", "context_economy.change_input.1", "context_economy.change_behavior.1", "mcp.tools_list.bytes", "mcp.tools_list.bytes.change_propose"} {
		if !floors[name] {
			t.Errorf("floor %s missing or zero", name)
		}
	}
	s, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(s), "<svg") || !strings.Contains(string(s), "</svg>") {
		t.Errorf("svg: %v %.100s", err, s)
	}
}
