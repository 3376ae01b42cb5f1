package main

import (
	"os"
	"testing"
)

// TestDocsAreFresh fails when docs/protocol.md or docs/support-matrix.md
// differ from what the schemas and the manifest generate.
func TestDocsAreFresh(t *testing.T) {
	for name, gen := range map[string]func() (string, error){"../../../docs/protocol.md": protocolDoc, "../../../docs/support-matrix.md": supportMatrix} {
		want, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is stale; run go generate ./internal/tools/protodoc", name)
		}
	}
}
