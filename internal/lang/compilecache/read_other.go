//go:build !unix

package compilecache

import "github.com/axiomcore/acore/internal/platform/fsutil"

// readEntry reads the entry rel whole.
func readEntry(r *fsutil.Root, rel string) ([]byte, error) { return r.ReadFile(rel) }

// release lets the garbage collector free an entry that was not used.
func release([]byte) {}
