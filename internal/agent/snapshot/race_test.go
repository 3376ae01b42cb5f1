//go:build unix

package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/platform/fsutil/swaptest"
)

// TestCaptureRacingSymlinkSwaps captures and persists snapshots while a
// source and a folder of sources keep being swapped for symlinks to files
// outside the root: no snapshot holds, and .axiom/state/blobs never
// stores, an outside file's content (issue 15: node.find returned it and
// the blobs kept it).
func TestCaptureRacingSymlinkSwaps(t *testing.T) {
	secret := []byte("// SECRET-OUTSIDE-THE-ROOT\n")
	sum := sha256.Sum256(secret)
	secretSum := hex.EncodeToString(sum[:])
	dir := scaffolded(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "leak.acore"), secret, 0o644)
	os.MkdirAll(filepath.Join(outside, "sub"), 0o755)
	os.WriteFile(filepath.Join(outside, "sub", "leak.acore"), secret, 0o644)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "inside.acore"), []byte("// inside\n"), 0o644)

	s := persistent(t, dir)
	sw := swaptest.New(t)
	sw.File(filepath.Join(dir, "leak.acore"), "// inside\n", filepath.Join(outside, "leak.acore"))
	sw.Dir(filepath.Join(dir, "sub"), filepath.Join(outside, "sub"))
	deadline := time.Now().Add(swaptest.Duration(t))
	captures, leaks := 0, 0
	for time.Now().Before(deadline) {
		snap, err := s.Latest()
		captures++
		if err != nil {
			continue
		}
		for p, sha := range snap.Files {
			if sha == secretSum {
				leaks++
				t.Errorf("capture %d holds %s from outside the root", captures, p)
			}
		}
	}
	sw.Stop()
	stored := 0
	filepath.WalkDir(filepath.Join(dir, ".axiom", "state", "blobs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			stored++
			if b, _ := os.ReadFile(p); bytes.Contains(b, secret) {
				leaks++
				t.Errorf("blob %s holds an outside file's content", p)
			}
		}
		return nil
	})
	t.Logf("%d captures (%d blobs stored) against %d swaps: %d read or stored from outside", captures, stored, sw.Swaps(), leaks)
}
