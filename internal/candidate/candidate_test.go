package candidate

import (
	"encoding/json"
	"testing"
	"time"
)

func TestStorePersistsAcrossStores(t *testing.T) {
	root := t.TempDir()
	a := NewStore(root)
	sha := "6fa9d35dbcf8" + "0000000000000000000000000000000000000000000000000000"
	c := &Candidate{ID: NewID(), Workspace: "ws-1", Version: 1, State: Open, Base: "snap-1", Snapshot: "snap-2",
		RequestID: "r1", InputFingerprint: Fingerprint("x"), ExpiresAt: time.Now().Add(CandidateTTL),
		Files: []File{{Path: "main.acore", Before: &sha, After: &sha, Content: []byte("module m\n")}}}
	if err := a.Put(c); err != nil {
		t.Fatal(err)
	}
	b := NewStore(root) // a restarted service
	got, err := b.Get(c.ID)
	if err != nil || got.Version != 1 || string(got.Files[0].Content) != "module m\n" || got.Files[0].Change() != "modified" {
		t.Fatalf("got %+v, %v", got, err)
	}
	b.now = func() time.Time { return time.Now().Add(2 * CandidateTTL) }
	if got, _ := b.Get(c.ID); got.State != Expired {
		t.Errorf("state %s after expiry", got.State)
	}
	if _, err := b.Get("../../etc"); err != ErrNotFound {
		t.Errorf("a path as id: %v", err)
	}
	if err := a.Remember("ws-1", "req-1", Record{Operation: "change.propose", Fingerprint: "f1", Result: json.RawMessage(`{"x":1}`)}); err != nil {
		t.Fatal(err)
	}
	r, ok := b.Recall("ws-1", "req-1")
	if !ok || r.Fingerprint != "f1" || string(r.Result) != `{"x":1}` {
		t.Fatalf("recall %+v %v", r, ok)
	}
	if _, ok := b.Recall("ws-2", "req-1"); ok {
		t.Error("a request_id recalled in another workspace")
	}
}

// CanonicalJSON writes the same value one way: keys sorted, no blanks,
// numbers as written.
func TestCanonicalJSON(t *testing.T) {
	for raw, want := range map[string]string{`{"b": 1, "a": [2.50, "x"]}`: `{"a":[2.50,"x"],"b":1}`, ``: `null`, `{bad`: `{bad`} {
		if got := CanonicalJSON([]byte(raw)); got != want {
			t.Errorf("CanonicalJSON(%s) = %s, want %s", raw, got, want)
		}
	}
}
