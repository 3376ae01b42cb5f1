package reason_test

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// serviceOnly are the reasons the service answers that the reference does
// not name, each with why it exists. The reference's reason is an open
// string that "can gain values"; each of these refines a code where the
// reference gives a case no reason of its own, so a client can tell the
// cases apart without parsing the message.
var serviceOnly = map[string]string{
	"overlay_mismatch":         "stale_snapshot of check.run: an overlay's base digest is not the snapshot's (base_not_head is about change.propose's base)",
	"candidate_errors":         "compile_failed of an edit on a validated base; the reference names the broken-base case (repair_regression) only",
	"unknown_check":            "unsupported_operation: a check name this build does not run is not a failed check",
	"purpose_unsupported":      "unsupported_operation: context.build purpose change_schema in a profile with no schema",
	"incompatible_value":       "invalid_arguments: new_value does not fit the property's type (incompatible_target is about the target)",
	"unknown_handle":           "invalid_arguments: a handle no earlier operation of the batch created",
	"handle_reused":            "invalid_arguments: a handle already used by an earlier operation of the batch",
	"base_latest":              "invalid_arguments: base_snapshot must be an id, not latest (the envelope table says so)",
	"base_mismatch":            "invalid_arguments: an extension's base_snapshot is not its candidate's base",
	"not_an_input":             "invalid_arguments: an overlay or candidate path that is not a project input",
	"duplicate_path":           "invalid_arguments: check.run names one path twice",
	"preconditions_incomplete": "invalid_arguments: change.apply preconditions leave out a file the candidate writes",
	"candidate_with_snapshot":  "invalid_arguments: check.run takes a candidate, or a snapshot with files, not both",
	"cursor_invalid":           "invalid_arguments: a continuation cursor the operation did not make",
	"cursor_mismatch":          "invalid_arguments: a cursor of another snapshot or request shape",
	"ref_invalid":              "invalid_arguments: params.expand holds something that is no expansion ref",
	"ref_snapshot_mismatch":    "invalid_arguments: an expansion ref of another snapshot",
	"invalid_name":             "invalid_arguments: a rename's new_name is no identifier or is reserved",
	"not_renamable":            "invalid_arguments: a rename of a name a contract or a route's text also holds",
	"name_taken":               "invalid_arguments: a rename's new_name is taken in the node's scope",
	"rename_breaks":            "invalid_arguments: a rename would change what another reference means or break the compile",
	"route_page_unknown":       "invalid_arguments: a route add names a page the project does not have",
	"route_duplicate":          "invalid_arguments: a route add's path is another route's already",
	"route_params_mismatch":    "invalid_arguments: a route add's :segments and args do not give the page exactly its parameters",
	"snapshot_evicted":         "snapshot_expired of a snapshot id this service issued and no longer holds (issue 12 keeps the code, and the reason tells it from candidate_unreadable)",
	"candidate_unreadable":     "snapshot_expired of a candidate stored by another compiler build (the reference's second snapshot_expired case)",
	"candidate_unknown":        "not_found: a candidate id this workspace never had (candidate_expired is one it had)",
	"node_unknown":             "not_found: a node id that is not a node of the snapshot (the reference's example has none; it is the commonest not_found)",
	"node_removed":             "not_found: a node an earlier operation of the batch removed",
	"path_unknown":             "not_found: a path that is not a module of the project",
	"workspace_unknown":        "not_found: a workspace id this service does not serve",
	"project_unknown":          "not_found: a project id that is not the workspace's",
	"root_not_found":           "not_found: workspace.open names a root that does not exist",
	"too_many_files":           "resource_limit of check_files_max, the one service bound the Limits table gives no reason",
	"snapshot_unavailable":     "resource_limit: check.run overlays on a snapshot the bounds kept from being captured",
	"max_bytes":                "resource_limit: the smallest answer of a read is over the request's own max_bytes",
	"panic":                    "internal: a handler panicked",
	"write_failed":             "internal: an apply's write failed and was rolled back (outcome not_applied)",
	"apply_interrupted":        "internal: an apply's write failed and could not be rolled back (outcome unknown)",
	"state_io":                 "internal: the service's own state under .axiom/state could not be read, written or decoded",
	"file_io":                  "internal: a project file could not be read or written, other than by a bound or a permission",
	"invariant":                "internal: the service broke a rule of its own (a bug to report)",
}

var (
	word  = `[a-z]+(?:_[a-z]+)*`
	list  = word + `(?:(?:, | and | or |,\n| and\n| or\n)` + word + `)*`
	codes = `unsupported_operation|invalid_arguments|ambiguous_owner|read_only_origin|stale_snapshot|precondition_failed|` +
		`compile_failed|conflict|insufficient_context|snapshot_expired|permission_denied|resource_limit|not_found|internal`
	// Where prose names reasons: a JSON example's "reason", a code with
	// its reason in parentheses (also "(code, reason, ...)"), and "reason
	// x", "Reasons: x, y", "Reasons include x and y".
	prose = []*regexp.Regexp{
		regexp.MustCompile(`"reason": "(` + word + `)"`),
		regexp.MustCompile(`\b(?:` + codes + `)\s?\((` + list + `)\)`),
		regexp.MustCompile(`\((?:` + codes + `), (` + word + `)`),
		regexp.MustCompile(`(?:for example reason|\(reason|with reason|reason:)\s+(` + list + `)`),
		regexp.MustCompile(`Reasons(?: include)?:? (` + list + `)`),
	}
	snake      = regexp.MustCompile(`(?:^|[^.a-z_])([a-z]+(?:_[a-z]+)+)\b`)
	parenList  = regexp.MustCompile(`\((` + word + `(?:, ` + word + `)+)\)`)
	splitWords = regexp.MustCompile(`, | and | or |,\n| and\n| or\n`)
)

// specReasons are the reasons the reference names: in prose, in the
// meaning column of "Error codes and what to do" (every snake_case word
// that is not a details field, and parenthesized lists), and in the first
// column of the Limits table of reasons.
func specReasons(t *testing.T) map[string]bool {
	data, err := os.ReadFile("testdata/semantic-service-protocol.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	out := map[string]bool{}
	add := func(l string) {
		for _, w := range splitWords.Split(l, -1) {
			out[w] = true
		}
	}
	for _, re := range prose {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			add(m[1])
		}
	}
	isCode := regexp.MustCompile(`^(?:` + codes + `)$`)
	section := func(head string) []string {
		_, rest, ok := strings.Cut(text, "\n"+head+"\n")
		if !ok {
			t.Fatalf("the reference has no %q", head)
		}
		var rows []string
		for _, line := range strings.Split(rest, "\n")[2:] { // past the header and |---|
			if !strings.Contains(line, " | ") {
				break
			}
			rows = append(rows, line)
		}
		return rows
	}
	for _, row := range section("Error codes and what to do") {
		cells := strings.Split(row, " | ")
		if !isCode.MatchString(cells[0]) {
			t.Fatalf("Error codes table: row %q", row)
		}
		for _, m := range snake.FindAllStringSubmatch(cells[1], -1) {
			out[m[1]] = true
		}
		for _, m := range parenList.FindAllStringSubmatch(cells[1], -1) {
			add(m[1])
		}
	}
	_, limits, _ := strings.Cut(text, "\n| Reason | Bound |\n|---|---|\n")
	for _, line := range strings.Split(limits, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 2 {
			break
		}
		add(cells[0])
	}
	for r := range out {
		if isCode.MatchString(r) {
			delete(out, r) // "(invalid_arguments, region_alone, ...)" names the code first
		}
	}
	return out
}

// TestRegistryMatchesReference: every reason the reference names is in the
// registry, and every reason of the registry is the reference's or one of
// serviceOnly.
func TestRegistryMatchesReference(t *testing.T) {
	spec := specReasons(t)
	registry := map[string]bool{}
	for _, r := range reason.All() {
		if r.String() == "" || registry[r.String()] {
			t.Errorf("reason %d: name %q is empty or not unique", r, r)
		}
		registry[r.String()] = true
	}
	var missing, unjustified, named []string
	for r := range spec {
		if !registry[r] {
			missing = append(missing, r)
		}
		if _, ok := serviceOnly[r]; ok {
			named = append(named, r)
		}
	}
	for r := range registry {
		if _, ok := serviceOnly[r]; !spec[r] && !ok {
			unjustified = append(unjustified, r)
		}
	}
	for r := range serviceOnly {
		if !registry[r] {
			unjustified = append(unjustified, r+" (not in the registry)")
		}
	}
	sort.Strings(missing)
	sort.Strings(unjustified)
	sort.Strings(named)
	if len(missing) > 0 {
		t.Errorf("reasons the reference names that the registry lacks: %v", missing)
	}
	if len(unjustified) > 0 {
		t.Errorf("reasons neither the reference's nor justified in serviceOnly: %v", unjustified)
	}
	if len(named) > 0 {
		t.Errorf("serviceOnly lists reasons the reference names: %v", named)
	}
	if len(spec) < 50 {
		t.Errorf("found %d reasons in the reference, want its 50 at least: %v", len(spec), spec)
	}
}

// TestBoundsHaveReasons: every bound the compiler and the loader name has
// a reason, whose code is resource_limit.
func TestBoundsHaveReasons(t *testing.T) {
	bounds := []reason.Reason{reason.FileTooLarge, reason.SourcesTooLarge, reason.TooManyModules, reason.SnapshotTooLarge} // the loader's
	for _, i := range diag.All() {
		if i.Reason != reason.None {
			bounds = append(bounds, i.Reason)
		}
	}
	if len(bounds) < 4+8 {
		t.Errorf("%d bounds, want the loader's 4 and the compiler's 8 at least", len(bounds))
	}
	for _, b := range bounds {
		if b.String() == "" || b.Code() != reason.CodeResourceLimit {
			t.Errorf("bound %q: code %q", b, b.Code())
		}
	}
}

// TestReasonsDetermineCodes: every reason refines one code, and the code
// of each reason the reference's Error codes table and Limits table name
// is the code they give it.
func TestReasonsDetermineCodes(t *testing.T) {
	byName := map[string]reason.Reason{}
	for _, r := range reason.All() {
		if r.Code() == reason.NoCode || r.Code().String() == "" {
			t.Errorf("reason %s has no code", r)
		}
		byName[r.String()] = r
	}
	if reason.None.Code() != reason.NoCode {
		t.Errorf("None has code %q", reason.None.Code())
	}
	data, err := os.ReadFile("testdata/semantic-service-protocol.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	_, rows, _ := strings.Cut(text, "\nError codes and what to do\n| Code | Meaning | Default retryable | What a client should do |\n|---|---|---|---|\n")
	checked := 0
	for _, row := range strings.Split(rows, "\n") {
		cells := strings.Split(row, " | ")
		if len(cells) < 2 {
			break
		}
		for _, m := range snake.FindAllStringSubmatch(cells[1], -1) {
			if r, ok := byName[m[1]]; ok {
				checked++
				if r.Code().String() != cells[0] {
					t.Errorf("%s: code %s, the reference's table gives %s", r, r.Code(), cells[0])
				}
			}
		}
	}
	_, limits, _ := strings.Cut(text, "\n| Reason | Bound |\n|---|---|\n")
	for _, line := range strings.Split(limits, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 2 {
			break
		}
		if r, ok := byName[cells[0]]; ok {
			checked++
			if r.Code() != reason.CodeResourceLimit {
				t.Errorf("%s: code %s, the Limits table makes it resource_limit", r, r.Code())
			}
		}
	}
	if checked < 30 {
		t.Errorf("checked %d reasons against the reference, want 30 at least", checked)
	}
	var names []string
	for _, c := range reason.Codes() {
		names = append(names, c.String())
	}
	if got := strings.Join(names, "|"); got != codes {
		t.Errorf("codes %s, want the reference's %s", got, codes)
	}
}
