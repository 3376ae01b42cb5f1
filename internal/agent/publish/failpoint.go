package publish

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// FailpointEnv names the environment variable from which a command arms
// failpoints (ParseFailpoints, Publisher.Arm), for the kill tests; the
// library reads no environment itself. Its value is a comma-separated list of
// point[:action], where action is kill (the default: the process sends
// itself SIGKILL at that point),
// sleep=<duration> (for timeout tests) or error (the step fails as an I/O
// error would). For example ACORE_FAILPOINT=after_file_1 or
// ACORE_FAILPOINT=file_2_temp:error.
//
// The points, in the order an apply of n files passes them (Points lists
// them):
//
//	before_journal        the prechecks passed; nothing written yet
//	after_backups         backups written, the journal entry not yet
//	after_journal         the journal entry (pending) is durable; no project file touched
//	file_<i>_temp         file i's temp file written and synced, not renamed (i from 1)
//	file_<i>_renamed      file i renamed into place, its directory not synced
//	after_file_<i>        file i replaced and its directory synced
//	after_files           every file replaced; the journal still pending
//	after_commit          the journal marked committed; no receipt yet
//	after_receipt         the receipt written; the request record not yet
//	after_record          the request_id record written; the candidate not marked applied
//	after_candidate       the candidate marked applied; the journal not yet removed
//	reconcile_restore_<i> during a rollback, file i restored from its backup
const FailpointEnv = "ACORE_FAILPOINT"

// Points lists the failpoints an apply of n files passes, in order.
// reconcile_restore_<i> points are passed only while rolling back.
func Points(n int) []string {
	out := []string{"before_journal", "after_backups", "after_journal"}
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("file_%d_temp", i), fmt.Sprintf("file_%d_renamed", i), fmt.Sprintf("after_file_%d", i))
	}
	return append(out, "after_files", "after_commit", "after_receipt", "after_record", "after_candidate")
}

// ErrInjected is the error of a failpoint armed with the error action.
var ErrInjected = errors.New("failpoint: injected error")

// Failpoints are the failpoints armed in one publisher (Publisher.Arm),
// parsed from a spec as FailpointEnv holds. A nil *Failpoints arms none.
type Failpoints struct {
	armed map[string]string // point → action
}

// ParseFailpoints parses spec; "" arms none.
func ParseFailpoints(spec string) *Failpoints {
	m := map[string]string{}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, action, _ := strings.Cut(item, ":")
		if action == "" {
			action = "kill"
		}
		m[name] = action
	}
	if len(m) == 0 {
		return nil
	}
	return &Failpoints{armed: m}
}

// pass passes the failpoint name: it kills the process, sleeps or returns
// ErrInjected when the point is armed, and does nothing otherwise.
func (f *Failpoints) pass(name string) error {
	if f == nil {
		return nil
	}
	action, ok := f.armed[name]
	if !ok {
		return nil
	}
	switch {
	case action == "kill":
		p, err := os.FindProcess(os.Getpid())
		if err == nil {
			_ = p.Kill() // SIGKILL on Unix: no deferred function runs
		}
		select {} // the signal is on its way
	case action == "error":
		return fmt.Errorf("%s: %w", name, ErrInjected)
	case strings.HasPrefix(action, "sleep="):
		if d, err := time.ParseDuration(strings.TrimPrefix(action, "sleep=")); err == nil {
			time.Sleep(d)
		}
	}
	return nil
}
