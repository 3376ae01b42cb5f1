package change

import "testing"

// The cache keeps the newest versions, releases a candidate's versions
// and drops one.
func TestCache(t *testing.T) {
	c := NewCache(2)
	a1, a2, b1 := &Compiled{}, &Compiled{}, &Compiled{}
	c.Put("a", 1, a1)
	c.Put("a", 2, a2)
	c.Put("b", 1, b1)
	if c.Get("a", 1) != nil || c.Get("a", 2) != a2 || c.Get("b", 1) != b1 {
		t.Fatal("the oldest version is not the one dropped")
	}
	c.Release("a")
	if c.Get("a", 2) != nil || c.Get("b", 1) != b1 {
		t.Fatal("Release dropped the wrong versions")
	}
	c.Drop("b", 1)
	if c.Get("b", 1) != nil {
		t.Fatal("Drop kept the version")
	}
	c.Put("c", 1, a1)
	c.Put("d", 1, a2)
	if c.Get("c", 1) != a1 || c.Get("d", 1) != a2 {
		t.Fatal("released entries still count against the bound")
	}
}
