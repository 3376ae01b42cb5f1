package candidate

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// Writes through a reservation read back as Put and Remember's do, and
// releasing it leaves no spare file, used or not.
func TestReserved(t *testing.T) {
	root := t.TempDir()
	s := NewStore(root)
	unused := s.Reserve()
	unused.Release()
	rsv := s.Reserve()
	c := &Candidate{ID: NewID(), Workspace: "ws-1", Version: 1, State: Open, RequestID: "r1", ExpiresAt: time.Now().Add(CandidateTTL)}
	if err := rsv.Put(c); err != nil {
		t.Fatal(err)
	}
	c.Version = 2 // a second write has no spare left and writes as Put does
	if err := rsv.Put(c); err != nil {
		t.Fatal(err)
	}
	if err := rsv.Remember("ws-1", "r1", Record{Operation: "change.propose", Fingerprint: "f1"}); err != nil {
		t.Fatal(err)
	}
	rsv.Release()
	fresh := NewStore(root)
	if got, err := fresh.Get(c.ID); err != nil || got.Version != 2 {
		t.Fatalf("got %+v, %v", got, err)
	}
	if r, ok := fresh.Recall("ws-1", "r1"); !ok || r.Fingerprint != "f1" {
		t.Fatalf("recall %+v %v", r, ok)
	}
	for _, kind := range []string{"candidates", "requests"} {
		if left, _ := filepath.Glob(filepath.Join(root, StateDir, kind, ".*")); len(left) > 0 {
			t.Errorf("spares left in %s: %v", kind, left)
		}
	}
}

// Candidates and records are written without fsync: after a power loss
// a file may be cut short or hold zeros. Such a file is never taken for
// a candidate or an answer.
func TestTornFilesNeverRead(t *testing.T) {
	root := t.TempDir()
	s := NewStore(root)
	c := &Candidate{ID: NewID(), Workspace: "ws-1", Version: 1, State: Open, RequestID: "r1", ExpiresAt: time.Now().Add(CandidateTTL)}
	if err := s.Put(c); err != nil {
		t.Fatal(err)
	}
	if err := s.Remember("ws-1", "r1", Record{Operation: "change.propose", Fingerprint: "f1", Result: json.RawMessage(`{"x":1}`)}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, StateDir, "*", "*.json"))
	if len(files) != 2 {
		t.Fatalf("state files %v", files)
	}
	whole := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		whole[f] = b
	}
	for _, tear := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)/2] },
		func(b []byte) []byte { return make([]byte, len(b)) },
		func([]byte) []byte { return nil },
	} {
		for _, f := range files {
			if err := os.WriteFile(f, tear(whole[f]), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		fresh := NewStore(root)
		if got, err := fresh.Get(c.ID); err == nil {
			t.Errorf("a torn candidate was read: %+v", got)
		}
		if r, ok := fresh.Recall("ws-1", "r1"); ok {
			t.Errorf("a torn record was recalled: %+v", r)
		}
	}
}
