package service_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/tools/projgen"
)

func hexSum(s string) *string {
	sum := sha256.Sum256([]byte(s))
	h := hex.EncodeToString(sum[:])
	return &h
}

// applyBase opens the workspace and returns the snapshot id of latest.
func applyBase(t testing.TB, s *service.Service) string {
	t.Helper()
	out := s.Handle(context.Background(), []byte(v1+`"operation": "workspace.open", "snapshot": "latest", "params": {"roots": [{"path": "`+s.Root()+`"}]}}`))
	var o struct {
		Snapshot struct{ ID string } `json:"snapshot"`
	}
	if err := json.Unmarshal(out, &o); err != nil || o.Snapshot.ID == "" {
		t.Fatalf("workspace.open: %s", out)
	}
	return o.Snapshot.ID
}

// putCandidate stores an open candidate of version 1 on base that writes
// files (path → new content; nil removes the file), with the compile check
// passed unless noChecks. Before digests are the files on disk now.
func putCandidate(t testing.TB, s *service.Service, base string, files map[string]*string, noChecks bool) *candidate.Candidate {
	t.Helper()
	id := candidate.NewID()
	c := &candidate.Candidate{ID: id, Workspace: s.WorkspaceID(), Version: 1, State: candidate.Open, Base: base,
		Snapshot: "snap-" + strings.Repeat("0", 32), RequestID: "propose-" + id, InputFingerprint: candidate.Fingerprint(id),
		ExpiresAt: time.Now().Add(candidate.CandidateTTL)}
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		content := files[path]
		f := candidate.File{Path: path}
		if b, err := os.ReadFile(filepath.Join(s.Root(), filepath.FromSlash(path))); err == nil {
			f.Before = hexSum(string(b))
		}
		if content != nil {
			f.After, f.Content = hexSum(*content), []byte(*content)
		}
		c.Files = append(c.Files, f)
	}
	if !noChecks {
		c.Checks = []candidate.Check{{Check: "compile", Status: "passed", Diagnostics: json.RawMessage("[]"), Version: 1}}
	}
	if err := s.Candidates().Put(c); err != nil {
		t.Fatal(err)
	}
	return c
}

func readFile(t testing.TB, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// renamed is the task-app's main.acore with the button label of the
// reference's example changed.
func renamed(t testing.TB, dir string) string {
	return strings.Replace(readFile(t, dir, "main.acore"), `Button(label: "Add"`, `Button(label: "Add task"`, 1)
}

func applyReq(requestID, cand string, version int, extra string) string {
	return fmt.Sprintf(v1+`"operation": "change.apply", "request_id": %q, "params": {"candidate": %q, "expected_candidate_version": %d%s}}`,
		requestID, cand, version, extra)
}

// noJournal fails when a journal or a temp file is left.
func noJournal(t *testing.T, dir string) {
	t.Helper()
	list, _ := os.ReadDir(filepath.Join(dir, filepath.FromSlash(publish.JournalDir)))
	if len(list) > 0 {
		t.Errorf("%d journals left", len(list))
	}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
}

func TestReferenceApplyAndReplay(t *testing.T) {
	s, dir := taskApp(t)
	base := applyBase(t, s)
	before := readFile(t, dir, "main.acore")
	after := renamed(t, dir)
	c := putCandidate(t, s, base, map[string]*string{"main.acore": &after}, false)

	o := do(t, s, applyReq("apply-rename-add-1", c.ID, 1, `, "require_checks": ["compile"]`))
	expect(t, o, "request_id", "apply-rename-add-1")
	expect(t, o, "result.replayed", false)
	expect(t, o, "result.receipt.outcome", "applied")
	expect(t, o, "result.receipt.candidate", c.ID)
	expect(t, o, "result.receipt.candidate_version", 1)
	expect(t, o, "result.receipt.base_snapshot", base)
	expect(t, o, "result.receipt.request_id", "apply-rename-add-1")
	expect(t, o, "result.receipt.journal.state", "committed")
	expect(t, o, "result.receipt.files.0.path", "main.acore")
	expect(t, o, "result.receipt.files.0.change", "modified")
	expect(t, o, "result.receipt.files.0.before_sha256", *hexSum(before))
	expect(t, o, "result.receipt.files.0.after_sha256", *hexSum(after))
	if o.get("result.base_changes") != nil {
		t.Errorf("base_changes on an unchanged base: %v", o.get("result.base_changes"))
	}
	for _, f := range []string{"receipt_id", "input_fingerprint", "recorded_at", "journal.id", "result_snapshot"} {
		if o.str("result.receipt."+f) == "" {
			t.Errorf("receipt.%s is missing", f)
		}
	}
	if !strings.HasPrefix(o.str("result.receipt.receipt_id"), "rcpt-") || !strings.HasPrefix(o.str("result.receipt.journal.id"), "jrnl-") {
		t.Errorf("ids %s %s", o.str("result.receipt.receipt_id"), o.str("result.receipt.journal.id"))
	}
	if !strings.HasSuffix(o.str("result.receipt.recorded_at"), "Z") {
		t.Errorf("recorded_at %s", o.str("result.receipt.recorded_at"))
	}
	if got := readFile(t, dir, "main.acore"); got != after {
		t.Fatalf("main.acore after apply:\n%s", got)
	}
	// The result snapshot is latest after the apply.
	if snap := applyBase(t, s); snap != o.str("result.receipt.result_snapshot") {
		t.Errorf("result_snapshot %s, latest %s", o.str("result.receipt.result_snapshot"), snap)
	}
	if got, _ := s.Candidates().Get(c.ID); got.State != candidate.Applied || got.Receipt != o.str("result.receipt.receipt_id") {
		t.Errorf("candidate after apply: %s %s", got.State, got.Receipt)
	}
	noJournal(t, dir)

	// The replay writes nothing: same content, same modification time.
	fi1, _ := os.Stat(filepath.Join(dir, "main.acore"))
	time.Sleep(10 * time.Millisecond)
	r := do(t, s, applyReq("apply-rename-add-1", c.ID, 1, `, "require_checks": ["compile"]`))
	expect(t, r, "result.replayed", true)
	expect(t, r, "result.receipt.outcome", "applied")
	expect(t, r, "result.receipt.receipt_id", o.str("result.receipt.receipt_id"))
	expect(t, r, "result.receipt.recorded_at", o.str("result.receipt.recorded_at"))
	fi2, _ := os.Stat(filepath.Join(dir, "main.acore"))
	if !fi1.ModTime().Equal(fi2.ModTime()) || readFile(t, dir, "main.acore") != after {
		t.Error("the replay wrote main.acore")
	}
	// A restarted service replays it too.
	s2, err := newService(t, service.Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	r = do(t, s2, applyReq("apply-rename-add-1", c.ID, 1, `, "require_checks": ["compile"]`))
	expect(t, r, "result.replayed", true)
	expect(t, r, "result.receipt.receipt_id", o.str("result.receipt.receipt_id"))

	// The same request_id with another input.
	r = do(t, s, applyReq("apply-rename-add-1", c.ID, 1, ``))
	expect(t, r, "error.code", "conflict")
	expect(t, r, "error.reason", "request_id_reused")
	// A new request_id for the applied candidate.
	r = do(t, s, applyReq("apply-rename-add-2", c.ID, 1, ``))
	expect(t, r, "error.code", "precondition_failed")
	expect(t, r, "error.reason", "candidate_applied")
	expect(t, r, "error.retryable", "none")
	expect(t, r, "error.details.receipt_id", o.str("result.receipt.receipt_id"))
}

func TestApplyRefusals(t *testing.T) {
	s, dir := taskApp(t)
	base := applyBase(t, s)
	after := renamed(t, dir)
	before := readFile(t, dir, "main.acore")

	unchecked := putCandidate(t, s, base, map[string]*string{"main.acore": &after}, true)
	o := do(t, s, applyReq("a1", unchecked.ID, 1, `, "require_checks": ["compile"]`))
	expect(t, o, "error.code", "precondition_failed")
	expect(t, o, "error.reason", "check_required")
	expect(t, o, "error.retryable", "after_refresh")
	expect(t, o, "error.next_actions.0.operation", "check.run")
	expect(t, o, "error.details.status", "not_run")

	failed := putCandidate(t, s, base, map[string]*string{"main.acore": &after}, true)
	failed.Checks = []candidate.Check{{Check: "compile", Status: "passed", Version: 0}, {Check: "compile", Status: "failed", Version: 1}}
	s.Candidates().Put(failed)
	o = do(t, s, applyReq("a2", failed.ID, 1, `, "require_checks": ["compile"]`))
	expect(t, o, "error.reason", "check_required")
	expect(t, o, "error.details.status", "failed")

	c := putCandidate(t, s, base, map[string]*string{"main.acore": &after}, false)
	o = do(t, s, applyReq("a3", c.ID, 2, ``))
	expect(t, o, "error.code", "precondition_failed")
	expect(t, o, "error.reason", "candidate_version_mismatch")
	expect(t, o, "error.next_actions.0.operation", "change.inspect")

	o = do(t, s, applyReq("a4", "cand-nothere", 1, ``))
	expect(t, o, "error.code", "not_found")

	o = do(t, s, applyReq("a5", c.ID, 1, `, "require_checks": ["lint"]`))
	expect(t, o, "error.reason", "unknown_check")

	// preconditions must name every written file and hold.
	o = do(t, s, applyReq("a6", c.ID, 1, `, "preconditions": [{"path": "other.acore", "sha256": null}]`))
	expect(t, o, "error.code", "invalid_arguments")
	expect(t, o, "error.reason", "preconditions_incomplete")
	o = do(t, s, applyReq("a7", c.ID, 1, `, "preconditions": [{"path": "main.acore", "sha256": "`+strings.Repeat("0", 64)+`"}]`))
	expect(t, o, "error.code", "precondition_failed")
	expect(t, o, "error.reason", "external_write")
	o = do(t, s, applyReq("a8", c.ID, 1, `, "preconditions": [{"path": "main.acore", "sha256": null}]`))
	expect(t, o, "error.reason", "external_write")

	// A file edited since the base.
	edited := strings.Replace(before, "Loading...", "Loading", 1)
	os.WriteFile(filepath.Join(dir, "main.acore"), []byte(edited), 0o644)
	o = do(t, s, applyReq("a9", c.ID, 1, ``))
	expect(t, o, "error.code", "precondition_failed")
	expect(t, o, "error.reason", "external_write")
	expect(t, o, "error.target.paths.0", "main.acore")
	expect(t, o, "error.next_actions.0.operation", "change.discard")
	if readFile(t, dir, "main.acore") != edited {
		t.Error("a refused apply wrote")
	}
	os.WriteFile(filepath.Join(dir, "main.acore"), []byte(before), 0o644)

	// A refused request_id can be sent again once the cause is gone.
	o = do(t, s, applyReq("a9", c.ID, 1, ``))
	expect(t, o, "result.receipt.outcome", "applied")
	noJournal(t, dir)
}

func TestApplyConcurrentCandidate(t *testing.T) {
	s, dir := taskApp(t)
	base := applyBase(t, s)
	a := renamed(t, dir)
	b := strings.Replace(readFile(t, dir, "main.acore"), `Button(label: "Add"`, `Button(label: "Create"`, 1)
	ca := putCandidate(t, s, base, map[string]*string{"main.acore": &a}, false)
	cb := putCandidate(t, s, base, map[string]*string{"main.acore": &b}, false)
	expect(t, do(t, s, applyReq("ra", ca.ID, 1, ``)), "result.receipt.outcome", "applied")
	o := do(t, s, applyReq("rb", cb.ID, 1, ``))
	expect(t, o, "error.code", "conflict")
	expect(t, o, "error.reason", "concurrent_candidate")
	expect(t, o, "error.retryable", "after_refresh")
	expect(t, o, "error.details.candidate", ca.ID)
	if readFile(t, dir, "main.acore") != a {
		t.Error("the second candidate wrote")
	}
}

func TestApplyBaseChanges(t *testing.T) {
	s, dir := taskApp(t)
	extra := "module tasks.app.extra\n\ncomponent Extra {\n  view { Text(\"x\") }\n}\n"
	os.WriteFile(filepath.Join(dir, "extra.acore"), []byte(extra), 0o644)
	os.WriteFile(filepath.Join(dir, "gone.acore"), []byte(extra), 0o644)
	base := applyBase(t, s)
	after := renamed(t, dir)
	added := "module tasks.app.added\n"

	c := putCandidate(t, s, base, map[string]*string{"main.acore": &after, "added.acore": &added}, false)
	os.Remove(filepath.Join(dir, "gone.acore"))
	o := do(t, s, applyReq("b1", c.ID, 1, ``))
	expect(t, o, "error.code", "precondition_failed")
	expect(t, o, "error.reason", "external_write")
	expect(t, o, "error.target.paths.0", "gone.acore")
	os.WriteFile(filepath.Join(dir, "gone.acore"), []byte(extra), 0o644)

	edited := strings.Replace(extra, `"x"`, `"y"`, 1)
	os.WriteFile(filepath.Join(dir, "extra.acore"), []byte(edited), 0o644)
	os.WriteFile(filepath.Join(dir, "new.acore"), []byte(added), 0o644)
	o = do(t, s, applyReq("b2", c.ID, 1, ``))
	expect(t, o, "result.receipt.outcome", "applied")
	expect(t, o, "result.receipt.files.0.path", "added.acore")
	expect(t, o, "result.receipt.files.0.change", "added")
	changes := o.list("result.base_changes")
	if len(changes) != 2 {
		t.Fatalf("base_changes %v", changes)
	}
	got := map[string]string{}
	for _, ch := range changes {
		m := ch.(map[string]any)
		got[m["path"].(string)] = m["change"].(string)
	}
	if got["extra.acore"] != "modified" || got["new.acore"] != "added" {
		t.Errorf("base_changes %v", got)
	}
	expect(t, o, "result.base_changes.0.before_sha256", *hexSum(extra))
	expect(t, o, "result.base_changes.0.after_sha256", *hexSum(edited))
	if readFile(t, dir, "added.acore") != added || readFile(t, dir, "main.acore") != after {
		t.Error("files not written")
	}
	// The replay has no base_changes.
	o = do(t, s, applyReq("b2", c.ID, 1, ``))
	expect(t, o, "result.replayed", true)
	if o.get("result.base_changes") != nil {
		t.Error("base_changes on a replay")
	}
}

func TestApplyTimeout(t *testing.T) {
	for _, tc := range []struct {
		point, outcome string
	}{{"before_journal", "not_applied"}, {"after_file_1", "unknown"}} {
		t.Run(tc.point, func(t *testing.T) {
			_, dir := taskApp(t)
			s, err := newService(t, service.Config{Root: dir, Timeout: time.Second, Failpoints: publish.ParseFailpoints(tc.point + ":sleep=1600ms")})
			if err != nil {
				t.Fatal(err)
			}
			base := applyBase(t, s)
			before, after := readFile(t, dir, "main.acore"), renamed(t, dir)
			c := putCandidate(t, s, base, map[string]*string{"main.acore": &after}, false)
			o := do(t, s, applyReq("slow-1", c.ID, 1, ``))
			expect(t, o, "error.code", "resource_limit")
			expect(t, o, "error.reason", "timeout")
			expect(t, o, "error.retryable", "same_request")
			expect(t, o, "error.target.candidate", c.ID)
			expect(t, o, "error.target.request_id", "slow-1")
			expect(t, o, "error.details.outcome", tc.outcome)
			expect(t, o, "error.details.timeout_ms", 1000)
			expect(t, o, "error.next_actions.0.operation", "change.apply")
			expect(t, o, "error.next_actions.0.params.candidate", c.ID)
			if tc.outcome == "unknown" {
				expect(t, o, "error.details.receipt.outcome", "unknown")
				expect(t, o, "error.details.receipt.journal.state", "pending_reconcile")
			} else if o.get("error.details.receipt") != nil {
				t.Error("a receipt before the journal")
			}
			select {
			case <-s.Stopping():
			default:
				t.Error("the service is not stopping after a timed-out apply")
			}
			settled(t, dir) // the attempt goes on, or gives up
			switch tc.outcome {
			case "not_applied":
				if readFile(t, dir, "main.acore") != before {
					t.Fatal("an attempt answered not_applied wrote")
				}
			}
			// The restarted service answers the resend: applied once.
			s2, err := newService(t, service.Config{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			o = do(t, s2, applyReq("slow-1", c.ID, 1, ``))
			expect(t, o, "result.receipt.outcome", "applied")
			if readFile(t, dir, "main.acore") != after {
				t.Error("not applied after the resend")
			}
			noJournal(t, dir)
		})
	}
}

// settled waits until no apply holds the publish lock of dir.
func settled(t *testing.T, dir string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if release, ok := publish.New(dir).TryLock(); ok {
			release()
			return
		}
	}
	t.Fatal("the publish lock is still held after 10s")
}

// TestApplyConcurrentClients applies candidates on separate files from
// many goroutines, each sent twice, as concurrent clients of serve do:
// every candidate is applied exactly once and every answer is valid.
func TestApplyConcurrentClients(t *testing.T) {
	s, dir := taskApp(t)
	const n = 7 // two requests each and one more: within the 16 in flight
	for i := 0; i < n; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%d.acore", i)), []byte(fmt.Sprintf("module tasks.app.m%d\n", i)), 0o644)
	}
	base := applyBase(t, s)
	var cands []*candidate.Candidate
	for i := 0; i < n; i++ {
		content := fmt.Sprintf("module tasks.app.m%d\n\n// edited\n", i)
		cands = append(cands, putCandidate(t, s, base, map[string]*string{fmt.Sprintf("m%d.acore", i): &content}, false))
	}
	// Two candidates on the same file: one wins.
	y := "module tasks.app.m0\n// y\n"
	clash := putCandidate(t, s, base, map[string]*string{"m0.acore": &y}, false)

	var wg sync.WaitGroup
	var mu sync.Mutex
	results := make([][]obj, n)
	for i := 0; i < n; i++ {
		for k := 0; k < 2; k++ {
			wg.Add(1)
			go func(i, k int) {
				defer wg.Done()
				o := do(t, s, applyReq(fmt.Sprintf("par-%d", i), cands[i].ID, 1, ``))
				mu.Lock()
				results[i] = append(results[i], o)
				mu.Unlock()
			}(i, k)
		}
	}
	var clashOut obj
	wg.Add(1)
	go func() { defer wg.Done(); clashOut = do(t, s, applyReq("clash", clash.ID, 1, ``)) }()
	wg.Wait()
	m0Won := clashOut.get("result") != nil
	for i := 0; i < n; i++ {
		if i == 0 && m0Won {
			continue
		}
		fresh := 0
		for _, o := range results[i] {
			if o.str("result.receipt.outcome") != "applied" {
				t.Fatalf("candidate %d: %v", i, o)
			}
			if o.get("result.replayed") == false {
				fresh++
			}
		}
		if fresh != 1 {
			t.Errorf("candidate %d applied %d times", i, fresh)
		}
	}
	if m0Won {
		for _, o := range results[0] {
			if o.str("error.reason") != "concurrent_candidate" {
				t.Errorf("m0 after the clash won: %v", o.get("error"))
			}
		}
	} else if clashOut.str("error.reason") != "concurrent_candidate" {
		t.Errorf("clash: %v", clashOut.get("error"))
	}
	noJournal(t, dir)
}

func TestCapabilitiesListApply(t *testing.T) {
	s, _ := taskApp(t)
	o := do(t, s, v1+`"operation": "capabilities", "params": {}}`)
	found := false
	for _, op := range o.list("result.manifest.operations") {
		m := op.(map[string]any)
		if m["name"] == "change.apply" {
			found = m["status"] == "implemented"
		}
	}
	if !found {
		t.Error("change.apply is not implemented in the manifest")
	}
	expect(t, o, "result.manifest.publication.0.status", "implemented")
}

// BenchmarkChangeApply applies a one-file candidate to the generated
// project at the bounds (64 files, about 4 MiB): the rechecks, journal,
// backups, fsyncs, receipt and the result snapshot's capture.
func BenchmarkChangeApply(b *testing.B) {
	dir := b.TempDir()
	if err := projgen.Write(dir, projgen.Project(64, 4<<20-64<<10)); err != nil {
		b.Fatal(err)
	}
	s, err := newService(b, service.Config{Root: dir})
	if err != nil {
		b.Fatal(err)
	}
	base := applyBase(b, s)
	orig := readFile(b, dir, "pages/p1.acore")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		next := orig + fmt.Sprintf("\n// %d\n", i)
		c := putCandidate(b, s, base, map[string]*string{"pages/p1.acore": &next}, false)
		b.StartTimer()
		out := s.Handle(context.Background(), []byte(applyReq(fmt.Sprintf("bench-%d", i), c.ID, 1, ``)))
		if !strings.Contains(string(out), `"outcome":"applied"`) {
			b.Fatalf("%s", out)
		}
	}
}

// TestReferenceProposeThenApply runs the reference's checked edit and its
// apply end to end: the digests are the reference's and the result
// snapshot is the candidate's snapshot.
func TestReferenceProposeThenApply(t *testing.T) {
	s, dir := taskApp(t)
	base := applyBase(t, s)
	o := do(t, s, v1+`"operation": "change.propose", "base_snapshot": "`+base+`", "request_id": "rename-add-1",
		"params": {"operations": [{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add", "new_value": "Add task"}]}}`)
	cand, candSnap := o.str("result.candidate.id"), o.str("result.candidate.snapshot")
	if cand == "" {
		t.Fatalf("change.propose: %v", o)
	}
	o = do(t, s, applyReq("apply-rename-add-1", cand, 1, `, "require_checks": ["compile"]`))
	expect(t, o, "result.replayed", false)
	expect(t, o, "result.receipt.outcome", "applied")
	expect(t, o, "result.receipt.result_snapshot", candSnap)
	if !strings.HasPrefix(o.str("result.receipt.files.0.after_sha256"), "6fa9d35dbcf8") || !strings.HasPrefix(o.str("result.receipt.files.0.before_sha256"), "c7ac07a1c507") {
		t.Errorf("digests %s %s", o.str("result.receipt.files.0.before_sha256"), o.str("result.receipt.files.0.after_sha256"))
	}
	if !strings.Contains(readFile(t, dir, "main.acore"), `Button(label: "Add task"`) {
		t.Error("main.acore not written")
	}
	o = do(t, s, v1+`"operation": "change.inspect", "params": {"candidate": "`+cand+`"}}`)
	expect(t, o, "result.candidate.state", "applied")
	o = do(t, s, applyReq("apply-rename-add-1", cand, 1, `, "require_checks": ["compile"]`))
	expect(t, o, "result.replayed", true)
	// Extending an applied candidate is refused.
	o = do(t, s, v1+`"operation": "change.propose", "base_snapshot": "`+base+`", "request_id": "rename-add-2",
		"params": {"candidate": "`+cand+`", "expected_candidate_version": 1, "operations": [{"kind": "set_property", "node": "element:Home/view/0/1", "property": "label", "old_value": "Add task", "new_value": "Add item"}]}}`)
	expect(t, o, "error.reason", "candidate_applied")
}
