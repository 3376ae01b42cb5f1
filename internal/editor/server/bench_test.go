package server_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/axiomcore/acore/internal/editor/position"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

// BenchmarkDiagnosticsAfterEdit measures, on the bench's project at the
// service bounds (64 files, 4 MiB of sources), the time from a
// one-character didChange to the diagnostics of the file it changed,
// through a real client: the edit makes a name unknown, the next one
// mends it, so that every edit changes what is published. It reports the
// median and the 90th percentile.
func BenchmarkDiagnosticsAfterEdit(b *testing.B) {
	root := b.TempDir()
	if err := projgen.Write(root, projgen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	if _, err := prepare.Run(root); err != nil {
		b.Fatal(err)
	}
	c, _ := start(b, root, protocol.ClientCapabilities{})
	const rel = "pages/p10.acore"
	text := c.open(rel)
	c.waitDiags(rel, func(ds []protocol.Diagnostic) bool { return errorCount(ds) == 0 })
	off := strings.Index(text, "!expanded") + len("!expanded") - 1
	p := position.New([]byte(text)).Position(off, position.UTF16)
	r := rng(p.Line, p.Character, p.Line, p.Character+1)
	var times []time.Duration
	version := int32(1)
	for b.Loop() {
		version++
		broken := version%2 == 0
		ch := "d"
		if broken {
			ch = "x"
		}
		start := time.Now()
		change(c, rel, version, &protocol.TextDocumentContentChangePartial{Range: r, Text: ch})
		c.waitDiags(rel, func(ds []protocol.Diagnostic) bool { return (errorCount(ds) > 0) == broken })
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-p50")
	b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "ms-p90")
}

func errorCount(ds []protocol.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == protocol.DiagnosticSeverityError {
			n++
		}
	}
	return n
}
