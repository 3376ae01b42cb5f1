package service

import "testing"

// newForTest starts a service whose background work (persisting
// snapshots, saving compiles to the cache) ends before the test's
// temporary directories are removed.
func newForTest(t testing.TB, c Config) (*Service, error) {
	s, err := New(c)
	if err == nil {
		t.Cleanup(s.Wait)
	}
	return s, err
}
