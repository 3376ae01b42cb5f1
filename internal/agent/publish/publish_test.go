package publish

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func digest(s string) *string { return sum([]byte(s)) }

// project lays out files and returns the root.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, data := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func read(t *testing.T, root, rel string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// threeFiles modifies a.acore, adds sub/new.acore and removes old.acore.
func threeFiles() Plan {
	return Plan{Workspace: "ws-1", RequestID: "r1", Fingerprint: strings.Repeat("f", 64), Candidate: "cand-1",
		CandidateVersion: 1, BaseSnapshot: "snap-1", Files: []File{
			{Path: "a.acore", Before: digest("a0"), After: digest("a1"), Content: []byte("a1")},
			{Path: "sub/new.acore", After: digest("n1"), Content: []byte("n1")},
			{Path: "old.acore", Before: digest("o0")},
		}}
}

func TestApplyWritesAndCommits(t *testing.T) {
	root := project(t, map[string]string{"a.acore": "a0", "old.acore": "o0"})
	p := New(root)
	release, err := p.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	plan := threeFiles()
	if bad, err := p.Check(plan.Files); err != nil || len(bad) > 0 {
		t.Fatalf("check: %v %v", bad, err)
	}
	var started *Entry
	e, err := p.Apply(plan, func(e *Entry) bool { started = e; return true })
	if err != nil {
		t.Fatal(err)
	}
	if e.State != Committed || started != e {
		t.Fatalf("entry %+v", e)
	}
	if s, _ := read(t, root, "a.acore"); s != "a1" {
		t.Errorf("a.acore = %q", s)
	}
	if fi, _ := os.Stat(filepath.Join(root, "a.acore")); fi.Mode().Perm() != 0o640 {
		t.Errorf("a.acore mode %v, want the old 0640", fi.Mode().Perm())
	}
	if s, _ := read(t, root, "sub/new.acore"); s != "n1" {
		t.Errorf("sub/new.acore = %q", s)
	}
	if _, ok := read(t, root, "old.acore"); ok {
		t.Error("old.acore not removed")
	}
	r := e.Receipt(Applied, "snap-2")
	if r.Journal.State != "committed" || len(r.Files) != 3 || r.Files[1].Change != "added" || r.Files[2].Change != "removed" || string(r.IDMap) != "[]" {
		t.Errorf("receipt %+v", r)
	}
	if err := p.WriteReceipt(r); err != nil {
		t.Fatal(err)
	}
	if got, err := p.ReadReceipt(r.ReceiptID); err != nil || got.ResultSnapshot != "snap-2" {
		t.Errorf("read receipt %+v %v", got, err)
	}
	if err := p.Remove(e); err != nil {
		t.Fatal(err)
	}
	if es, err := p.Entries(); err != nil || len(es) != 0 {
		t.Errorf("entries after remove: %v %v", es, err)
	}
	// The second apply of the same plan no longer matches the base.
	if bad, _ := p.Check(plan.Files); len(bad) != 3 {
		t.Errorf("check after apply: %v", bad)
	}
}

func TestApplyRollsBackAnInjectedError(t *testing.T) {
	for _, point := range Points(3)[:len(Points(3))-4] {
		t.Run(point, func(t *testing.T) {
			root := project(t, map[string]string{"a.acore": "a0", "old.acore": "o0"})
			p := New(root).Arm(ParseFailpoints(point + ":error"))
			e, err := p.Apply(threeFiles(), nil)
			if !errors.Is(err, ErrInjected) || e != nil {
				t.Fatalf("apply: %v %v", e, err)
			}
			if s, _ := read(t, root, "a.acore"); s != "a0" {
				t.Errorf("a.acore = %q", s)
			}
			if _, ok := read(t, root, "sub/new.acore"); ok {
				t.Error("sub/new.acore left")
			}
			if s, _ := read(t, root, "old.acore"); s != "o0" {
				t.Errorf("old.acore = %q", s)
			}
			if es, _ := p.Entries(); len(es) != 0 {
				t.Errorf("journals left: %d", len(es))
			}
			leftovers(t, root)
		})
	}
}

// leftovers fails on temp files left in the project.
func leftovers(t *testing.T, root string) {
	t.Helper()
	filepath.Walk(root, func(path string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(path, ".tmp") {
			t.Errorf("temp file left: %s", path)
		}
		return nil
	})
}

func TestReconcile(t *testing.T) {
	// A pending journal is made by an apply whose start hook records the
	// entry; the files are then set by hand to each state.
	cases := []struct {
		name  string
		files map[string]string // "" removes
		state string
		stuck []string
	}{
		{"all candidate", map[string]string{"a.acore": "a1", "sub/new.acore": "n1", "old.acore": ""}, Committed, nil},
		{"all base", map[string]string{"a.acore": "a0", "sub/new.acore": "", "old.acore": "o0"}, RolledBack, nil},
		{"mixed", map[string]string{"a.acore": "a1", "sub/new.acore": "", "old.acore": ""}, RolledBack, nil},
		{"other content", map[string]string{"a.acore": "edited", "sub/new.acore": "n1", "old.acore": ""}, Pending, []string{"a.acore"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t, map[string]string{"a.acore": "a0", "old.acore": "o0"})
			p := New(root)
			e := pendingEntry(t, p)
			for rel, data := range tc.files {
				abs := filepath.Join(root, filepath.FromSlash(rel))
				os.Remove(abs)
				if data != "" {
					os.MkdirAll(filepath.Dir(abs), 0o755)
					os.WriteFile(abs, []byte(data), 0o644)
				}
			}
			os.WriteFile(tempName(filepath.Join(root, "a.acore"), e.ID), []byte("half"), 0o600)
			state, stuck, err := p.Reconcile(e)
			if err != nil || state != tc.state || strings.Join(stuck, ",") != strings.Join(tc.stuck, ",") {
				t.Fatalf("reconcile: %s %v %v", state, stuck, err)
			}
			switch state {
			case RolledBack:
				if s, _ := read(t, root, "a.acore"); s != "a0" {
					t.Errorf("a.acore = %q", s)
				}
				if s, _ := read(t, root, "old.acore"); s != "o0" {
					t.Errorf("old.acore = %q", s)
				}
				if _, ok := read(t, root, "sub/new.acore"); ok {
					t.Error("sub/new.acore left")
				}
				if es, _ := p.Entries(); len(es) != 0 {
					t.Errorf("journal left after rollback")
				}
			case Pending:
				if s, _ := read(t, root, "a.acore"); s != "edited" {
					t.Errorf("a.acore = %q: a stuck reconcile wrote", s)
				}
			}
			leftovers(t, root)
		})
	}
}

// pendingEntry leaves a pending journal of threeFiles with its backups
// and the files still at the base, as a kill after the journal does.
func pendingEntry(t *testing.T, p *Publisher) *Entry {
	t.Helper()
	p.Arm(ParseFailpoints("file_1_temp:error"))
	defer p.Arm(nil)
	var e *Entry
	if _, err := p.Apply(threeFiles(), func(x *Entry) bool { e = x; return true }); !errors.Is(err, ErrInjected) {
		t.Fatalf("apply: %v", err)
	}
	// The rollback removed the journal; write it back as the kill left it.
	e.State = Pending
	dir := filepath.Join(p.root, filepath.FromSlash(JournalDir), e.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, backupName(0)), []byte("a0"), 0o600)
	os.WriteFile(filepath.Join(dir, backupName(2)), []byte("o0"), 0o600)
	r, err := p.open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := writeEntry(r, e); err != nil {
		t.Fatal(err)
	}
	es, err := p.Entries()
	if err != nil || len(es) != 1 || es[0].ID != e.ID || es[0].State != Pending || es[0].Files[0].Mode != 0o640 {
		t.Fatalf("entries: %+v %v", es, err)
	}
	return es[0]
}

func TestEntriesDropsAJournalWithoutEntry(t *testing.T) {
	root := project(t, map[string]string{"a.acore": "a0", "old.acore": "o0"})
	p := New(root).Arm(ParseFailpoints("after_backups:error"))
	dir := filepath.Join(root, filepath.FromSlash(JournalDir), "jrnl-x")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "0.bak"), []byte("a0"), 0o600)
	if es, err := p.Entries(); err != nil || len(es) != 0 {
		t.Fatalf("entries %v %v", es, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Error("a journal folder without entry was kept")
	}
}

func TestApplyRefusesChangedFilesAndAbandons(t *testing.T) {
	root := project(t, map[string]string{"a.acore": "edited", "old.acore": "o0"})
	p := New(root)
	var me *MismatchError
	if _, err := p.Apply(threeFiles(), nil); !errors.As(err, &me) || me.Paths[0] != "a.acore" {
		t.Fatalf("apply on a changed file: %v", err)
	}
	root = project(t, map[string]string{"a.acore": "a0", "old.acore": "o0", "sub/new.acore": "x"})
	if _, err := New(root).Apply(threeFiles(), nil); !errors.As(err, &me) || me.Paths[0] != "sub/new.acore" {
		t.Fatalf("apply over an existing file: %v", err)
	}
	root = project(t, map[string]string{"a.acore": "a0", "old.acore": "o0"})
	if _, err := New(root).Apply(threeFiles(), func(*Entry) bool { return false }); !errors.Is(err, ErrAbandoned) {
		t.Fatalf("abandoned: %v", err)
	}
	if s, _ := read(t, root, "a.acore"); s != "a0" {
		t.Errorf("an abandoned apply wrote")
	}
}

func TestLockIsExclusive(t *testing.T) {
	root := t.TempDir()
	a, b := New(root), New(root) // two processes, as far as the file lock goes
	release, err := a.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.TryLock(); ok {
		t.Fatal("a second publisher took the lock")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Lock(ctx); err == nil {
		t.Fatal("the lock was taken twice in one publisher")
	}
	release()
	r2, ok := b.TryLock()
	if !ok {
		t.Fatal("the lock was not released")
	}
	r2()
}

func TestPoints(t *testing.T) {
	got := strings.Join(Points(1), " ")
	want := "before_journal after_backups after_journal file_1_temp file_1_renamed after_file_1 after_files after_commit after_receipt after_record after_candidate"
	if got != want {
		t.Errorf("Points(1) = %s", got)
	}
}
