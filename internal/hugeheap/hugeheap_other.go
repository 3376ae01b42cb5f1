//go:build !linux

package hugeheap

// Reserve does nothing where huge pages are not advised this way; it
// reports false.
func Reserve(n int) bool { return false }

func advice() string { return "" }
