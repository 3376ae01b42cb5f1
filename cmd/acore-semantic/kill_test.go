//go:build unix

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/agent/candidate"
	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

// The kill tests run the real acore-semantic (one-shot) on a change.apply
// and kill it with SIGKILL: at each failpoint the process passes
// (ACORE_FAILPOINT), and, in the black-box test, at random moments. Then
// they resend the same request without failpoint, as a client does after a
// crash, and check that every run ends applied, with no half-written file,
// and that no file ever has content that is neither its base nor the
// candidate's.

// killCase is a project and a candidate writing n files.
type killCase struct {
	dir   string
	cand  *candidate.Candidate
	base  map[string]*string // content before; nil: absent
	after map[string]*string // content after; nil: absent
	req   string
}

func sp(s string) *string { return &s }

func digestOf(s *string) *string {
	if s == nil {
		return nil
	}
	sum := sha256.Sum256([]byte(*s))
	h := hex.EncodeToString(sum[:])
	return &h
}

// killTemplate is the project every kill case copies: the task-app with
// three more modules, opened once so that its snapshot is persisted.
var killTemplate struct {
	once sync.Once
	dir  string
	base string // its snapshot id
	err  error
}

func templateProject(t *testing.T) (string, string) {
	t.Helper()
	killTemplate.once.Do(func() {
		// Beside the binary: removed with it when the tests end.
		dir := filepath.Join(filepath.Dir(binary), "kill-template")
		killTemplate.dir = dir
		if _, err := scaffold.New(dir); err != nil {
			killTemplate.err = err
			return
		}
		for i := 1; i <= 3; i++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%d.acore", i)), []byte(fmt.Sprintf("module tasks.app.m%d\n", i)), 0o644); err != nil {
				killTemplate.err = err
				return
			}
		}
		cmd := exec.Command(binary, "--root", dir)
		cmd.Stdin = strings.NewReader(`{"protocol":"axiom-agent-semantic/v1","operation":"workspace.open","params":{"roots":[{"path":"` + dir + `"}]}}`)
		cmd.Env = killEnv("")
		out, err := cmd.Output()
		var open struct {
			Snapshot struct{ ID string } `json:"snapshot"`
		}
		if err == nil {
			err = json.Unmarshal(out, &open)
		}
		if err == nil && open.Snapshot.ID == "" {
			err = fmt.Errorf("workspace.open: %s", out)
		}
		killTemplate.base, killTemplate.err = open.Snapshot.ID, err
	})
	if killTemplate.err != nil {
		t.Fatal(killTemplate.err)
	}
	return killTemplate.dir, killTemplate.base
}

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// copyTemplate copies the template project to a new directory; it returns
// the directory and the template's snapshot id.
func copyTemplate(t *testing.T) (string, string) {
	t.Helper()
	tmpl, base := templateProject(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	copyTree(t, tmpl, dir)
	return dir, base
}

// newKillCase copies the template project and stores a candidate that
// writes n files (1, 2 or 5): main.acore modified; then a file added; then
// m1 modified, m2 removed, m3 modified.
func newKillCase(t *testing.T, n int) *killCase {
	t.Helper()
	dir, base := copyTemplate(t)
	main, err := os.ReadFile(filepath.Join(dir, "main.acore"))
	if err != nil {
		t.Fatal(err)
	}
	k := &killCase{dir: dir, base: map[string]*string{}, after: map[string]*string{}}
	all := []struct {
		path          string
		before, after *string
	}{
		{"main.acore", sp(string(main)), sp(strings.Replace(string(main), `Button(label: "Add"`, `Button(label: "Add task"`, 1))},
		{"added.acore", nil, sp("module tasks.app.added\n")},
		{"m1.acore", sp("module tasks.app.m1\n"), sp("module tasks.app.m1\n\n// edited\n")},
		{"m2.acore", sp("module tasks.app.m2\n"), nil},
		{"m3.acore", sp("module tasks.app.m3\n"), sp("module tasks.app.m3\n\n// edited too\n")},
	}[:n]
	svc, err := service.New(service.Config{Root: dir}) // for the workspace id; captures nothing
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Wait) // background saves end before the directory is removed
	id := candidate.NewID()
	c := &candidate.Candidate{ID: id, Workspace: svc.WorkspaceID(), Version: 1, State: candidate.Open, Base: base,
		Snapshot: "snap-" + strings.Repeat("0", 32), RequestID: "propose-" + id, InputFingerprint: candidate.Fingerprint(id),
		ExpiresAt: time.Now().Add(candidate.CandidateTTL),
		Checks:    []candidate.Check{{Check: "compile", Status: "passed", Diagnostics: json.RawMessage("[]"), Version: 1}}}
	for _, f := range all {
		k.base[f.path], k.after[f.path] = f.before, f.after
		cf := candidate.File{Path: f.path, Before: digestOf(f.before), After: digestOf(f.after)}
		if f.after != nil {
			cf.Content = []byte(*f.after)
		}
		c.Files = append(c.Files, cf)
	}
	if err := candidate.NewStore(dir).Put(c); err != nil {
		t.Fatal(err)
	}
	k.cand = c
	k.req = fmt.Sprintf(`{"protocol":"axiom-agent-semantic/v1","operation":"change.apply","request_id":"apply-kill","params":{"candidate":%q,"expected_candidate_version":1,"require_checks":["compile"]}}`, id)
	return k
}

// killEnv is the environment of the subprocess: the test's, with
// failpoint as the only failpoint.
func killEnv(failpoint string) []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, publish.FailpointEnv+"=") {
			env = append(env, e)
		}
	}
	if failpoint != "" {
		env = append(env, publish.FailpointEnv+"="+failpoint)
	}
	return env
}

func killedBySIGKILL(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// send runs one one-shot request with the failpoint armed.
func (k *killCase) send(t *testing.T, failpoint string) (out []byte, killed bool) {
	t.Helper()
	cmd := exec.Command(binary, "--root", k.dir)
	cmd.Stdin = strings.NewReader(k.req)
	cmd.Env = killEnv(failpoint)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if killedBySIGKILL(err) {
		return out, true
	}
	if err != nil {
		t.Fatalf("acore-semantic: %v\n%s", err, stderr.Bytes())
	}
	return out, false
}

// state classifies the files: base, candidate or mixed (each file one of
// the two). A file with other content, or a temp file outside the state
// folder after a finished request, fails the test.
func (k *killCase) state(t *testing.T) string {
	t.Helper()
	nBase, nAfter := 0, 0
	for path := range k.base {
		b, err := os.ReadFile(filepath.Join(k.dir, path))
		var cur *string
		if err == nil {
			cur = sp(string(b))
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		isBase, isAfter := same(cur, k.base[path]), same(cur, k.after[path])
		switch {
		case isAfter:
			nAfter++
		case isBase:
			nBase++
		default:
			t.Fatalf("%s matches neither the base nor the candidate: %q", path, deref(cur))
		}
	}
	switch {
	case nAfter == len(k.base):
		return "candidate"
	case nBase == len(k.base):
		return "base"
	}
	return "mixed"
}

func same(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func deref(s *string) string {
	if s == nil {
		return "(absent)"
	}
	return *s
}

// response decodes and validates one answer.
func response(t *testing.T, out []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, out)
	}
	if err := schema.ValidateResponse(v); err != nil {
		t.Errorf("answer breaks the schema: %v\n%s", err, out)
	}
	return v
}

func field(v any, path string) any {
	for _, p := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// finish resends the request until it is answered (a kill during a
// restart's reconcile is not expected here) and checks the end state:
// applied once, every file the candidate's, no journal or temp file, the
// candidate marked applied; a second resend replays the same receipt.
func (k *killCase) finish(t *testing.T) {
	t.Helper()
	out, killed := k.send(t, "")
	if killed {
		t.Fatal("killed without failpoint")
	}
	v := response(t, out)
	if field(v, "result.receipt.outcome") != "applied" {
		t.Fatalf("the resend did not end applied: %s", out)
	}
	if st := k.state(t); st != "candidate" {
		t.Fatalf("files are %s after the resend answered applied", st)
	}
	filepath.Walk(k.dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") && !strings.Contains(p, "/.axiom/") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
	if list, _ := os.ReadDir(filepath.Join(k.dir, filepath.FromSlash(publish.JournalDir))); len(list) != 0 {
		t.Errorf("%d journals left", len(list))
	}
	if c, err := candidate.NewStore(k.dir).Get(k.cand.ID); err != nil || c.State != candidate.Applied {
		t.Errorf("candidate after the resend: %+v %v", c, err)
	}
	again, _ := k.send(t, "")
	w := response(t, again)
	if field(w, "result.replayed") != true || field(w, "result.receipt.receipt_id") != field(v, "result.receipt.receipt_id") {
		t.Errorf("second resend: %s\nfirst: %s", again, out)
	}
}

// killStats counts what kills left, for the log.
var killStats = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

func count(key string) {
	killStats.Lock()
	killStats.m[key]++
	killStats.Unlock()
}

func logStats(t *testing.T, prefix string) {
	killStats.Lock()
	defer killStats.Unlock()
	var keys []string
	for k := range killStats.m {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", strings.TrimPrefix(k, prefix), killStats.m[k]))
	}
	t.Logf("%s", strings.Join(parts, " "))
}

// TestKillAtEveryFailpoint kills the service at every failpoint of an
// apply of one, two and five files, and during the rollback a restart
// makes of a half-applied change; each run ends applied on the resend.
func TestKillAtEveryFailpoint(t *testing.T) {
	t.Run("all", func(t *testing.T) {
		for _, n := range []int{1, 2, 5} {
			for _, point := range publish.Points(n) {
				t.Run(fmt.Sprintf("%d/%s", n, point), func(t *testing.T) {
					t.Parallel()
					k := newKillCase(t, n)
					if _, killed := k.send(t, point); !killed {
						t.Fatalf("not killed at %s", point)
					}
					st := k.state(t)
					count("matrix:" + st)
					k.finish(t)
				})
			}
		}
		// A restart rolls back a half-applied change from the backups; kill
		// it while it restores.
		for _, tc := range []struct {
			n             int
			point, during string
		}{{2, "after_file_1", "reconcile_restore_1"}, {5, "after_file_3", "reconcile_restore_1"}, {5, "after_file_3", "reconcile_restore_2"}, {5, "file_5_temp", "reconcile_restore_3"}} {
			t.Run(fmt.Sprintf("%d/%s+%s", tc.n, tc.point, tc.during), func(t *testing.T) {
				t.Parallel()
				k := newKillCase(t, tc.n)
				if _, killed := k.send(t, tc.point); !killed {
					t.Fatalf("not killed at %s", tc.point)
				}
				if st := k.state(t); st != "mixed" {
					t.Fatalf("files are %s after a kill at %s", st, tc.point)
				}
				if _, killed := k.send(t, tc.during); !killed {
					t.Fatalf("not killed at %s", tc.during)
				}
				count("matrix:" + k.state(t) + "-after-restore-kill")
				k.finish(t)
			})
		}
	})
	logStats(t, "matrix:")
}

// TestKillRecoveryRequired: a file edited by hand after a kill left the
// apply half done matches neither the base nor the candidate; the resend
// answers recovery_required, names it and writes nothing; once the file
// has its base content again, the resend applies.
func TestKillRecoveryRequired(t *testing.T) {
	k := newKillCase(t, 2)
	if _, killed := k.send(t, "after_file_1"); !killed {
		t.Fatal("not killed")
	}
	main := filepath.Join(k.dir, "main.acore")
	if err := os.WriteFile(main, []byte("module edited.by.hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the state is stable: the same answer twice
		out, _ := k.send(t, "")
		v := response(t, out)
		if field(v, "error.code") != "conflict" || field(v, "error.reason") != "recovery_required" {
			t.Fatalf("resend: %s", out)
		}
		if paths, _ := field(v, "error.target.paths").([]any); len(paths) != 1 || paths[0] != "main.acore" {
			t.Errorf("paths %v", field(v, "error.target.paths"))
		}
		if field(v, "error.retryable") != "none" || field(v, "error.details.receipt.outcome") != "unknown" {
			t.Errorf("resend: %s", out)
		}
		if b, _ := os.ReadFile(main); string(b) != "module edited.by.hand\n" {
			t.Fatal("recovery_required wrote main.acore")
		}
		if _, err := os.Stat(filepath.Join(k.dir, "added.acore")); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("recovery_required wrote added.acore")
		}
	}
	if err := os.WriteFile(main, []byte(*k.base["main.acore"]), 0o644); err != nil {
		t.Fatal(err)
	}
	k.finish(t)
}

// TestKillAtRandom kills the service at random moments of the apply,
// without failpoints: ACORE_KILL_RUNS runs (default 12; raise it for a
// soak: ACORE_KILL_RUNS=500 go test -run KillAtRandom ./cmd/acore-semantic).
func TestKillAtRandom(t *testing.T) {
	runs := 12
	if v, err := strconv.Atoi(os.Getenv("ACORE_KILL_RUNS")); err == nil && v > 0 {
		runs = v
	}
	// Most of a one-shot's time is the process starting; the apply is at
	// the end. Kills are spread from about when a request that writes
	// nothing would be answered to when the apply is.
	timed := func(k *killCase, req string) time.Duration {
		cmd := exec.Command(binary, "--root", k.dir)
		cmd.Stdin = strings.NewReader(req)
		cmd.Env = killEnv("")
		start := time.Now()
		if out, err := cmd.Output(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return time.Since(start)
	}
	var idle, apply []time.Duration
	for i := 0; i < 3; i++ {
		k := newKillCase(t, 5)
		idle = append(idle, timed(k, `{"protocol":"axiom-agent-semantic/v1","operation":"capabilities","params":{}}`))
		apply = append(apply, timed(k, k.req))
	}
	median := func(d []time.Duration) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	from, to := median(idle)*9/10, median(apply)*11/10
	if to <= from {
		to = from + time.Millisecond
	}
	t.Logf("one-shot answer without apply %v, with the apply of 5 files %v: kills between %v and %v", median(idle), median(apply), from, to)
	for i := 0; i < runs; i++ {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			n := []int{1, 2, 5}[rand.IntN(3)]
			k := newKillCase(t, n)
			cmd := exec.Command(binary, "--root", k.dir)
			cmd.Stdin = strings.NewReader(k.req)
			cmd.Env = killEnv("")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(from + time.Duration(rand.Int64N(int64(to-from))))
			cmd.Process.Signal(syscall.SIGKILL)
			err := cmd.Wait()
			outcome := "finished"
			if killedBySIGKILL(err) {
				outcome = "killed"
			}
			st := k.state(t)
			count("random:" + outcome + "-" + st)
			k.finish(t)
		})
	}
	logStats(t, "random:")
}

// TestServeExitsAfterApplyTimeout: serve answers a timed-out change.apply
// and exits without reading on.
func TestServeExitsAfterApplyTimeout(t *testing.T) {
	k := newKillCase(t, 1)
	svc, err := service.New(service.Config{Root: k.dir, Timeout: time.Second, Failpoints: publish.ParseFailpoints("after_file_1:sleep=1600ms")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Wait) // background saves end before the directory is removed
	in := strings.NewReader(k.req + "\n" + `{"protocol":"axiom-agent-semantic/v1","operation":"capabilities","params":{}}` + "\n")
	var out, errOut bytes.Buffer
	code := serve(context.Background(), svc, in, &out, &errOut)
	if code == 0 {
		t.Errorf("serve exited 0 after a timed-out apply")
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d answers, want the timeout only:\n%s", len(lines), out.String())
	}
	v := response(t, []byte(lines[0]))
	if field(v, "error.reason") != "timeout" || field(v, "error.details.outcome") != "unknown" {
		t.Errorf("answer: %s", lines[0])
	}
	// The attempt goes on in this process; wait until it lets go.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if release, ok := publish.New(k.dir).TryLock(); ok {
			release()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the publish lock is still held after 10s")
		}
	}
	k.finish(t)
}

// TestConcurrentServeProcesses runs two serve processes on one root, as
// two clients do, each applying candidates and resending requests the
// other sent: the publish lock serializes them across processes, every
// candidate is applied once, and of two candidates writing the same file
// one wins and the other is concurrent_candidate.
func TestConcurrentServeProcesses(t *testing.T) {
	k := newKillCase(t, 1) // the project; its candidate is not used
	svc, err := service.New(service.Config{Root: k.dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Wait) // background saves end before the directory is removed
	store := candidate.NewStore(k.dir)
	put := func(path, content string) string {
		b, err := os.ReadFile(filepath.Join(k.dir, path))
		if err != nil {
			t.Fatal(err)
		}
		id := candidate.NewID()
		c := &candidate.Candidate{ID: id, Workspace: svc.WorkspaceID(), Version: 1, State: candidate.Open, Base: k.cand.Base,
			Snapshot: k.cand.Snapshot, RequestID: "propose-" + id, InputFingerprint: candidate.Fingerprint(id),
			ExpiresAt: time.Now().Add(candidate.CandidateTTL),
			Files:     []candidate.File{{Path: path, Before: digestOf(sp(string(b))), After: digestOf(&content), Content: []byte(content)}}}
		if err := store.Put(c); err != nil {
			t.Fatal(err)
		}
		return id
	}
	c1 := put("m1.acore", "module tasks.app.m1\n// one\n")
	c2 := put("m2.acore", "module tasks.app.m2\n// two\n")
	c3 := put("m3.acore", "module tasks.app.m3\n// three\n")
	c4 := put("m1.acore", "module tasks.app.m1\n// four\n")
	req := func(rid, cand string) string {
		return fmt.Sprintf(`{"protocol":"axiom-agent-semantic/v1","operation":"change.apply","request_id":%q,"params":{"candidate":%q,"expected_candidate_version":1}}`, rid, cand)
	}
	scripts := [][]string{
		{req("r1", c1), req("r2", c2), req("r3", c3), req("r1", c1)},
		{req("r4", c4), req("r3", c3), req("r2", c2), req("r4", c4)},
	}
	answers := make([][]map[string]any, len(scripts))
	var wg sync.WaitGroup
	for i, lines := range scripts {
		wg.Add(1)
		go func(i int, lines []string) {
			defer wg.Done()
			cmd := exec.Command(binary, "serve", "--root", k.dir)
			cmd.Env = killEnv("")
			cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("serve: %v", err)
				return
			}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				answers[i] = append(answers[i], response(t, []byte(line)))
			}
		}(i, lines)
	}
	wg.Wait()
	fresh := map[string]int{}
	clash := 0
	for _, as := range answers {
		for _, a := range as {
			rid, _ := a["request_id"].(string)
			switch {
			case field(a, "result.receipt.outcome") == "applied":
				if field(a, "result.replayed") == false {
					fresh[rid]++
				}
			case field(a, "error.reason") == "concurrent_candidate":
				clash++
			default:
				t.Errorf("answer: %v", a)
			}
		}
	}
	if fresh["r2"] != 1 || fresh["r3"] != 1 || fresh["r1"]+fresh["r4"] != 1 {
		t.Errorf("applied %v", fresh)
	}
	if clash != 2 { // the losing candidate, sent twice
		t.Errorf("%d concurrent_candidate answers, want 2", clash)
	}
	m1, _ := os.ReadFile(filepath.Join(k.dir, "m1.acore"))
	if want := map[bool]string{true: "// one", false: "// four"}[fresh["r1"] == 1]; !strings.Contains(string(m1), want) {
		t.Errorf("m1.acore = %q", m1)
	}
}
