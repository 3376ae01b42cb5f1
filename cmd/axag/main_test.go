package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/lang/scaffold"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "axag-cmd")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "axag")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const corpus = "../../internal/axag/testdata/web"

// axagRun runs the command in dir and returns stdout, stderr and the exit
// status.
func axagRun(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update to accept):\n%s", path, got)
	}
}

func TestGenerateWeb(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "m.json")
	stdout, stderr, code := axagRun(t, corpus, "generate", "src", "--manifest", out, "--validate", "--generated-at", "2026-01-02T03:04:05Z")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "10 actions, conformance basic (schema 1.1.0), 0 errors, 2 warnings; valid against the schema") ||
		!strings.Contains(stdout, "legacy.htm:4:3: warning: intent task.create is declared again here; the first declaration at index.html:12:5 is kept [AXAG101]") ||
		!strings.Contains(stdout, "    fix: ") {
		t.Errorf("output:\n%s", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "web-1.1.0.json", data)
	// Regenerating an unchanged source gives the same bytes.
	axagRun(t, corpus, "generate", "src", "--manifest", out, "--generated-at", "2026-01-02T03:04:05Z")
	again, _ := os.ReadFile(out)
	if !bytes.Equal(data, again) {
		t.Error("regeneration changed the manifest")
	}
	// A fixed time.
	axagRun(t, corpus, "generate", "src", "--manifest", out, "--generated-at", "2026-01-02T03:04:05Z")
	stamped, _ := os.ReadFile(out)
	if !bytes.Contains(stamped, []byte(`"generated_at": "2026-01-02T03:04:05Z"`)) {
		t.Errorf("no fixed time:\n%s", stamped)
	}
	// Standard output.
	stdout, stderr, code = axagRun(t, corpus, "generate", "src", "--manifest", "-", "--generated-at", "2026-01-02T03:04:05Z")
	if code != 0 || stdout != string(data) || !strings.Contains(stderr, "AXAG101") {
		t.Errorf("stdout manifest: %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestGenerate100(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "m.json")
	// The corpus has a navigate action, which 1.0.0 cannot express.
	_, stderr, code := axagRun(t, corpus, "generate", "src", "--manifest", out, "--schema-version", "1.0.0")
	if code != 1 || !strings.Contains(stderr, "navigate cannot be written in schema 1.0.0") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	stdout, stderr, code := axagRun(t, corpus, "generate", "src/index.html", "--manifest", out, "--schema-version", "1.0.0", "--validate", "--generated-at", "2026-01-02T03:04:05Z")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(out)
	golden(t, "index-1.0.0.json", data)
	if r, err := axag.Validate(data, ""); err != nil || !r.Valid || r.Version != "1.0.0" {
		t.Fatalf("%v %+v", err, r)
	}
}

func TestGenerateErrors(t *testing.T) {
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "a.html"), []byte(`<b axag-intent="task.go" axag-action-type="jump"
  axag-side-effects='["x" "y"]'></b>`), 0o644); err != nil {
		t.Fatal(err)
	}
	good := []byte("a good manifest of an earlier run\n")
	if err := os.WriteFile(filepath.Join(tmp, "m.json"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := axagRun(t, tmp, "generate", ".", "--manifest", "m.json", "--validate")
	if code != 1 || !strings.Contains(stdout, "m.json: not written (2 errors, 0 warnings)") {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	for _, want := range []string{
		`a.html:1:1: error: intent task.go: action type "jump" is not one of read, write, delete, navigate [AXAG002]`,
		`a.html:2:27: error: axag-side-effects: invalid JSON`,
		"[AXAG006]",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// A failed generate writes nothing: the earlier manifest stays, and
	// no tool registry or temporary file appears.
	stdout, _, code = axagRun(t, tmp, "generate", ".", "--manifest", "m.json", "--tools", "reg")
	if data, _ := os.ReadFile(filepath.Join(tmp, "m.json")); code != 1 || !bytes.Equal(data, good) {
		t.Fatalf("%d: manifest overwritten:\n%s\n%s", code, data, stdout)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 2 {
		t.Errorf("files written: %v", entries)
	}
	stdout, _, code = axagRun(t, tmp, "generate", ".", "--manifest", "-")
	if code != 1 || strings.Contains(stdout, `"version"`) {
		t.Errorf("standard output: %d\n%s", code, stdout)
	}
	if _, stderr, code := axagRun(t, tmp, "generate", "missing", "--manifest", "m.json"); code != 1 || !strings.Contains(stderr, "cannot read missing") {
		t.Errorf("missing source: %d %s", code, stderr)
	}
	for _, args := range [][]string{
		{"generate", "."},
		{"generate", "--manifest", "m.json"},
		{"generate", ".", "--manifest", "m.json", "--schema-version", "2.0.0"},
		{"generate", ".", "--manifest", "m.json", "--no-timestamp"},
		{"validate", ".", "--level", "gold"},
		{"validate"},
		{"tools", "--manifest", "m.json"},
		{"frobnicate"},
	} {
		if _, stderr, code := axagRun(t, tmp, args...); code != 2 || !strings.Contains(stderr, "usage:") {
			t.Errorf("%v: exit %d %s", args, code, stderr)
		}
	}
}

func TestValidateLevels(t *testing.T) {
	stdout, _, code := axagRun(t, corpus, "validate", "src", "--level", "basic")
	if code != 0 || !strings.Contains(stdout, "conformance basic (meets level basic), 0 errors, 2 warnings") {
		t.Fatalf("basic: %d\n%s", code, stdout)
	}
	if _, _, code := axagRun(t, corpus, "validate", "src", "--level", "basic", "--strict"); code != 1 {
		t.Fatalf("strict: exit %d", code)
	}
	stdout, _, code = axagRun(t, corpus, "validate", "src", "--level", "intermediate")
	if code != 1 || !strings.Contains(stdout, "components/Board.jsx:13:7: error: intent task.move is at basic, below intermediate: it lacks parameters.column.type, parameters.id.type for intermediate [AXAG104]") {
		t.Fatalf("intermediate: %d\n%s", code, stdout)
	}
	// Full on a basic action names everything up to full, and the fix
	// names the attributes to write.
	stdout, _, code = axagRun(t, corpus, "validate", "src", "--level", "full")
	for _, w := range []string{
		"intent task.move is at basic, below full: it lacks parameters.column.type, parameters.id.type for intermediate; preconditions or postconditions, side_effects, approval_required, tenant_boundary for full [AXAG104]",
		`fix: add axag-required-parameters='[{"name":"column","type":"string"},{"name":"id","type":"string"}]', axag-preconditions='["..."]'`,
		`axag-tenant-boundary="strict|relaxed"`,
	} {
		if code != 1 || !strings.Contains(stdout, w) {
			t.Errorf("full: %d, lacks %s\n%s", code, w, stdout)
		}
	}
	stdout, _, code = axagRun(t, corpus, "validate", "src/index.html", "--level", "full", "--format", "json")
	var s summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != 1 || s.OK || s.Conformance != "basic" || s.Actions != 3 || s.Errors != 1 || len(s.ActionLevels) != 3 {
		t.Fatalf("json: %d %+v", code, s)
	}
	if s.ActionLevels[0].Intent != "task.create" || s.ActionLevels[0].Level != "full" || s.ActionLevels[1].Level != "full" {
		t.Errorf("levels: %+v", s.ActionLevels)
	}
}

func TestValidateDrift(t *testing.T) {
	tmp := t.TempDir()
	copyDir(t, filepath.Join(corpus, "src"), filepath.Join(tmp, "src"))
	if _, _, code := axagRun(t, tmp, "generate", "src", "--manifest", "m.json"); code != 0 {
		t.Fatal(code)
	}
	stdout, _, code := axagRun(t, tmp, "validate", "src", "--manifest", "m.json", "--strict")
	if code != 1 || strings.Contains(stdout, "AXAG007") || strings.Contains(stdout, "AXAG105") {
		t.Fatalf("no drift expected (strict fails on the corpus warnings only): %d\n%s", code, stdout)
	}
	// Change one action, remove one, add one.
	idx := filepath.Join(tmp, "src", "index.html")
	data, _ := os.ReadFile(idx)
	data = bytes.Replace(data, []byte(`Create a task in the current board`), []byte(`Create a task`), 1)
	data = bytes.Replace(data, []byte(`axag-intent="task.list"`), []byte(`axag-intent="task.browse"`), 1)
	if err := os.WriteFile(idx, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code = axagRun(t, tmp, "validate", "src", "--manifest", "m.json")
	if code != 0 {
		t.Fatalf("drift is a warning: %d\n%s", code, stdout)
	}
	for _, want := range []string{
		"index.html:12:5: warning: intent task.create differs from m.json in description [AXAG007]",
		"index.html:28:5: warning: intent task.browse is missing from m.json [AXAG007]",
		"m.json: warning: intent task.list of the manifest is no longer in the sources [AXAG105]",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("lacks %q:\n%s", want, stdout)
		}
	}
}

func TestValidateManifest(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "m.json")
	axagRun(t, corpus, "generate", "src", "--manifest", out)
	stdout, _, code := axagRun(t, tmp, "validate", "--manifest", "m.json")
	if code != 0 || !strings.Contains(stdout, "m.json: valid against schema 1.1.0 (detected), 10 actions, conformance basic") {
		t.Fatalf("%d\n%s", code, stdout)
	}
	stdout, _, code = axagRun(t, tmp, "validate", "--manifest", "m.json", "--schema-version", "1.0.0")
	if code != 1 || !strings.Contains(stdout, "missing property 'entities'") || !strings.Contains(stdout, "(forced)") {
		t.Fatalf("%d\n%s", code, stdout)
	}
	bad := `{"version": "1.1.0", "conformance": "full", "actions": [{"intent": "task.create", "entity": "task", "action_type": "write", "description": "x", "risk_level": "extreme"}]}`
	os.WriteFile(filepath.Join(tmp, "bad.json"), []byte(bad), 0o644)
	stdout, _, code = axagRun(t, tmp, "validate", "--manifest", "bad.json")
	if code != 1 || !strings.Contains(stdout, "bad.json: schema 1.1.0: /actions/0/risk_level: value must be one of") {
		t.Fatalf("%d\n%s", code, stdout)
	}
	claim := `{"version": "1.1.0", "generated_at": "2026-01-02T03:04:05Z", "source": {}, "conformance": "full", "actions": [{"intent": "task.create", "entity": "task", "action_type": "write", "description": "x"}]}`
	os.WriteFile(filepath.Join(tmp, "claim.json"), []byte(claim), 0o644)
	stdout, _, code = axagRun(t, tmp, "validate", "--manifest", "claim.json")
	if code != 1 || !strings.Contains(stdout, "claim.json: error: the manifest claims conformance full, its actions reach basic: the claim misleads agents [AXAG110]") {
		t.Fatalf("%d\n%s", code, stdout)
	}
	os.WriteFile(filepath.Join(tmp, "nojson.json"), []byte("{"), 0o644)
	if _, stderr, code := axagRun(t, tmp, "validate", "--manifest", "nojson.json"); code != 1 || !strings.Contains(stderr, "not a JSON object") {
		t.Fatalf("%d %s", code, stderr)
	}
}

func TestTools(t *testing.T) {
	tmp := t.TempDir()
	axagRun(t, corpus, "generate", "src", "--manifest", filepath.Join(tmp, "m.json"), "--generated-at", "2026-01-02T03:04:05Z")
	stdout, stderr, code := axagRun(t, tmp, "tools", "--manifest", "m.json", "--output", "reg")
	if code != 0 || !strings.Contains(stdout, "reg/tools.json: 10 tools (board_archive, comment_add,") {
		t.Fatalf("%d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(tmp, "reg", "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "web-tools.json", data)
	// generate --tools writes the same registry.
	if _, _, code := axagRun(t, corpus, "generate", "src", "--manifest", filepath.Join(tmp, "m2.json"), "--tools", filepath.Join(tmp, "reg2")); code != 0 {
		t.Fatal(code)
	}
	if again, _ := os.ReadFile(filepath.Join(tmp, "reg2", "tools.json")); !bytes.Equal(again, data) {
		t.Errorf("generate --tools differs from tools:\n%s", again)
	}
	var reg axag.ToolRegistry
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	for _, tool := range reg.Tools {
		if tool.Name == "task_create" {
			if strings.Join(tool.InputSchema.Required, ",") != "title" || tool.InputSchema.Properties["due"]["format"] != "date" || tool.Metadata.SourceIntent != "task.create" ||
				tool.Metadata.Scope != "tenant" || tool.Metadata.RequiredRoles == nil || strings.Join(*tool.Metadata.RequiredRoles, ",") != "member" {
				t.Errorf("%+v", tool)
			}
		}
	}
	os.WriteFile(filepath.Join(tmp, "bad.json"), []byte(`{"version": "1.1.0", "actions": [{"intent": "x"}]}`), 0o644)
	if _, stderr, code := axagRun(t, tmp, "tools", "--manifest", "bad.json", "--output", "reg3"); code != 1 || !strings.Contains(stderr, "not a valid AXAG manifest") {
		t.Fatalf("%d %s", code, stderr)
	}
}

func TestAcoreProject(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "task-app")
	if _, err := scaffold.New(dir); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := axagRun(t, dir, "generate", ".", "--manifest", "axag.json", "--validate", "--format", "json")
	var s summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	if s.SourceKind != "acore" || s.Actions == 0 || s.Validation == nil || !s.Validation.Valid {
		t.Fatalf("%d %+v", code, s)
	}
	// The task-app passes generate --validate out of the box: its
	// contract declares risk, idempotency and scope.
	if code != 0 || s.Conformance != "intermediate" || s.Errors != 0 || s.Warnings != 0 {
		t.Errorf("task-app: %d %+v", code, s)
	}
	if stdout, _, code := axagRun(t, dir, "validate", ".", "--level", "intermediate", "--strict"); code != 0 {
		t.Errorf("validate intermediate: %d\n%s", code, stdout)
	}
	stdout, _, code = axagRun(t, dir, "validate", ".", "--level", "full")
	if code != 1 || !strings.Contains(stdout, "below full") || strings.Contains(stdout, "axag-") {
		t.Errorf("validate full: %d\n%s", code, stdout)
	}
	// Without its lock the project cannot be compiled: generate fails and
	// leaves the good manifest as it was.
	good, _ := os.ReadFile(filepath.Join(dir, "axag.json"))
	if err := os.Rename(filepath.Join(dir, ".axiom", "ui.lock"), filepath.Join(dir, "ui.lock.bak")); err != nil {
		t.Fatal(err)
	}
	stdout, _, code = axagRun(t, dir, "generate", ".", "--manifest", "axag.json")
	if after, _ := os.ReadFile(filepath.Join(dir, "axag.json")); code != 1 || len(good) == 0 || !bytes.Equal(after, good) || !strings.Contains(stdout, "AXAG150") {
		t.Fatalf("no lock: %d, manifest %d bytes before, %d after\n%s", code, len(good), len(after), stdout)
	}
	if err := os.Rename(filepath.Join(dir, "ui.lock.bak"), filepath.Join(dir, ".axiom", "ui.lock")); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1.0.0", "1.1.0"} {
		axagRun(t, dir, "generate", ".", "--manifest", "m.json", "--schema-version", v)
		data, _ := os.ReadFile(filepath.Join(dir, "m.json"))
		if r, err := axag.Validate(data, ""); err != nil || !r.Valid || r.Version != v {
			t.Fatalf("%s: %v %+v", v, err, r)
		}
	}
}

// TestValidateManifestLevel: --level is checked against the level the
// manifest's actions reach, not the one it claims; a claim above it is an
// error, one below a note; no actions never meet a level.
func TestValidateManifestLevel(t *testing.T) {
	tmp := t.TempDir()
	const head = `{"version": "1.1.0", "generated_at": "2026-01-02T03:04:05Z", "source": {}, `
	basic := `"actions": [{"intent": "task.create", "entity": "task", "action_type": "write", "description": "x"}]}`
	full := `"actions": [{"intent": "task.list", "entity": "task", "action_type": "read", "description": "List", "risk_level": "none",
	  "scope": "user", "preconditions": [], "side_effects": [], "approval_required": false, "tenant_boundary": "strict"}]}`
	for _, tc := range []struct {
		name, doc string
		args      []string
		code      int
		want      []string
	}{
		{"basic claiming basic, asked full", head + `"conformance": "basic", ` + basic, []string{"--level", "full"}, 1,
			[]string{"conformance basic (claimed basic), is below level full", "intent task.create is at basic, below full", "[AXAG104]"}},
		{"basic claiming full, asked basic", head + `"conformance": "full", ` + basic, []string{"--level", "basic"}, 1,
			[]string{"error: the manifest claims conformance full, its actions reach basic", "conformance basic (claimed full), meets level basic"}},
		{"full claiming basic, asked full", head + `"conformance": "basic", ` + full, []string{"--level", "full"}, 0,
			[]string{"info: the manifest claims conformance basic, its actions reach full", "conformance full (claimed basic), meets level full, 0 errors"}},
		{"full, strict", head + `"conformance": "full", ` + full, []string{"--level", "full", "--strict"}, 0,
			[]string{"conformance full (claimed full), meets level full"}},
		{"no actions, asked basic", head + `"conformance": "basic", "actions": []}`, []string{"--level", "basic"}, 1,
			[]string{"error: no AXAG actions in the manifest, so it cannot meet level basic [AXAG113]"}},
		{"no actions, no level", head + `"conformance": "basic", "actions": []}`, nil, 0,
			[]string{"0 actions, conformance basic (claimed basic)"}},
	} {
		os.WriteFile(filepath.Join(tmp, "m.json"), []byte(tc.doc), 0o644)
		stdout, stderr, code := axagRun(t, tmp, append([]string{"validate", "--manifest", "m.json"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.name, code, tc.code, stdout, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: lacks %q:\n%s", tc.name, w, stdout)
			}
		}
	}
	// The JSON summary carries both.
	os.WriteFile(filepath.Join(tmp, "m.json"), []byte(head+`"conformance": "full", `+basic), 0o644)
	stdout, _, _ := axagRun(t, tmp, "validate", "--manifest", "m.json", "--level", "full", "--format", "json")
	var s summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil || s.Conformance != "basic" || s.Claimed != "full" || s.Level != "full" || s.OK {
		t.Errorf("%v %+v", err, s)
	}
	// A manifest of an unknown major version is refused.
	os.WriteFile(filepath.Join(tmp, "m.json"), []byte(`{"version": "2.0.0", "generated_at": "2026-01-02T03:04:05Z", "source": {}, "conformance": "basic", "actions": []}`), 0o644)
	if _, stderr, code := axagRun(t, tmp, "validate", "--manifest", "m.json"); code != 1 || !strings.Contains(stderr, `manifest version "2.0.0" is not one this build reads (1.0.0 and 1.1.0`) {
		t.Errorf("2.0.0: %d %s", code, stderr)
	}
}

// TestValidateNoActions: sources without actions never meet an asked
// level, strict or not; without --level they are not an error.
func TestValidateNoActions(t *testing.T) {
	tmp := t.TempDir()
	os.WriteFile(filepath.Join(tmp, "plain.html"), []byte("<p>no actions here</p>\n"), 0o644)
	stdout, _, code := axagRun(t, tmp, "validate", ".", "--level", "full", "--strict")
	if code != 1 || !strings.Contains(stdout, "error: no AXAG actions in its sources, so it cannot meet level full [AXAG113]") || !strings.Contains(stdout, "is below level full") {
		t.Errorf("%d\n%s", code, stdout)
	}
	if stdout, _, code := axagRun(t, tmp, "validate", "."); code != 0 {
		t.Errorf("no level: %d\n%s", code, stdout)
	}
}

// TestFormats: validate writes SARIF 2.1.0 and GitHub workflow commands,
// naming files relative to the working directory, and answers a usage
// error in JSON when JSON was asked.
func TestFormats(t *testing.T) {
	stdout, _, code := axagRun(t, corpus, "validate", "src", "--level", "intermediate", "--format", "sarif")
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || code != 1 {
		t.Fatalf("%d %v\n%s", code, err, stdout)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "axag" {
		t.Fatalf("%+v", log)
	}
	var found bool
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "AXAG104" && r.Level == "error" && len(r.Locations) == 1 &&
			r.Locations[0].Physical.Artifact.URI == "src/components/Board.jsx" && r.Locations[0].Physical.Region.StartLine == 13 {
			found = true
		}
		if !slices.ContainsFunc(log.Runs[0].Tool.Driver.Rules, func(x sarifRule) bool { return x.ID == r.RuleID }) {
			t.Errorf("rule %s not in the driver's rules", r.RuleID)
		}
	}
	if !found {
		t.Errorf("no AXAG104 result for src/components/Board.jsx:13:\n%s", stdout)
	}

	stdout, _, code = axagRun(t, filepath.Dir(corpus), "validate", "web/src", "--format", "github")
	want := "::warning file=web/src/legacy.htm,line=2,col=3,title=AXAG004::intent task.archive: write action does not declare idempotent (fix: add axag-idempotent=\"true\" or \"false\")\n"
	if code != 0 || !strings.HasPrefix(stdout, want) {
		t.Errorf("github: %d\n%s", code, stdout)
	}
	if got := ghProperty("a:b,c%\n"); got != "a%3Ab%2Cc%25%0A" {
		t.Errorf("ghProperty %q", got)
	}
	if got := ghData("a:b\r\n%"); got != "a:b%0D%0A%25" {
		t.Errorf("ghData %q", got)
	}

	for _, args := range [][]string{
		{"validate", "src", "--level", "gold", "--format", "json"},
		{"validate", "--format=json"},
		{"generate", "src", "--format", "json", "--manifest", "-"},
		{"validate", "src", "--format", "xml"},
	} {
		stdout, stderr, code := axagRun(t, corpus, args...)
		if code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
		if args[len(args)-1] == "xml" {
			if stdout != "" || !strings.Contains(stderr, "usage:") {
				t.Errorf("%v: text usage expected: %q %q", args, stdout, stderr)
			}
			continue
		}
		var s summary
		if err := json.Unmarshal([]byte(stdout), &s); err != nil || !s.Usage || s.Error == "" || s.OK || stderr != "" {
			t.Errorf("%v: %v %+v %q", args, err, s, stderr)
		}
	}
}

// shopStrip removes, for each level below full, what that level does not
// need: the full level's attributes for intermediate, and the scopes too
// for basic.
var shopStrip = map[string]*regexp.Regexp{
	"intermediate": regexp.MustCompile(`\s+axag-(preconditions|postconditions|side-effects|approval-required|approval-roles|tenant-boundary)=('[^']*'|"[^"]*")`),
	"basic":        regexp.MustCompile(`\s+axag-(preconditions|postconditions|side-effects|approval-required|approval-roles|tenant-boundary|scope)=('[^']*'|"[^"]*")`),
}

// TestShopApp is the held-out style of app of the audit: a shop back
// office with ten actions in HTML, JSX, TSX, Vue and Angular templates, at
// each level, and the same app in Acore UI, whose manifest must carry the
// same actions with the same safety facts and parameters.
func TestShopApp(t *testing.T) {
	next := map[string]string{"basic": "intermediate", "intermediate": "full"}
	manifests := map[string]*axag.Manifest{}
	for _, level := range []string{"basic", "intermediate", "full"} {
		tmp := t.TempDir()
		copyDir(t, "testdata/shop/web", filepath.Join(tmp, "web"))
		if re := shopStrip[level]; re != nil {
			err := filepath.Walk(filepath.Join(tmp, "web"), func(p string, info os.FileInfo, err error) error {
				if err != nil || info.IsDir() {
					return err
				}
				data, _ := os.ReadFile(p)
				return os.WriteFile(p, re.ReplaceAll(data, nil), 0o644)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		stdout, _, code := axagRun(t, tmp, "generate", "web", "--manifest", "m.json", "--validate", "--generated-at", "2026-01-02T03:04:05Z", "--strict")
		if code != 0 || !strings.Contains(stdout, "10 actions, conformance "+level+" (schema 1.1.0), 0 errors, 0 warnings; valid against the schema") {
			t.Fatalf("%s: generate %d\n%s", level, code, stdout)
		}
		data, _ := os.ReadFile(filepath.Join(tmp, "m.json"))
		golden(t, "shop/manifest-"+level+".json", data)
		m, _, err := axag.ParseManifest(data)
		if err != nil {
			t.Fatal(err)
		}
		manifests[level] = m
		if stdout, _, code := axagRun(t, tmp, "validate", "web", "--level", level, "--strict"); code != 0 {
			t.Errorf("%s: validate %d\n%s", level, code, stdout)
		}
		if stdout, _, code := axagRun(t, tmp, "validate", "--manifest", "m.json", "--level", level, "--strict"); code != 0 {
			t.Errorf("%s: validate --manifest %d\n%s", level, code, stdout)
		}
		if n := next[level]; n != "" {
			if _, _, code := axagRun(t, tmp, "validate", "web", "--level", n); code != 1 {
				t.Errorf("%s passes --level %s", level, n)
			}
			if _, _, code := axagRun(t, tmp, "validate", "--manifest", "m.json", "--level", n); code != 1 {
				t.Errorf("%s manifest passes --level %s", level, n)
			}
		}
	}

	// The Acore UI version: contract facts, page context, one member that
	// narrows the roles.
	dir := filepath.Join(t.TempDir(), "shop")
	copyDir(t, "testdata/shop/acore", dir)
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := axagRun(t, dir, "generate", ".", "--manifest", "m.json", "--validate", "--generated-at", "2026-01-02T03:04:05Z", "--strict")
	if code != 0 || !strings.Contains(stdout, "10 actions, conformance full") {
		t.Fatalf("acore: %d\n%s", code, stdout)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	golden(t, "shop/manifest-acore.json", data)
	acore, _, err := axag.ParseManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	web := manifests["full"]
	if len(acore.Actions) != len(web.Actions) {
		t.Fatalf("acore %d actions, web %d", len(acore.Actions), len(web.Actions))
	}
	for i, w := range web.Actions {
		a := acore.Actions[i]
		if a.Intent != w.Intent {
			t.Errorf("action %d: %s in Acore UI, %s on the web", i, a.Intent, w.Intent)
			continue
		}
		if d := axag.SafetyDiff(w, a); len(d) > 0 {
			t.Errorf("%s: Acore UI and web differ in %v", w.Intent, d)
		}
		same := func(name string, x, y any) {
			if !reflect.DeepEqual(x, y) {
				t.Errorf("%s: %s %v in Acore UI, %v on the web", w.Intent, name, y, x)
			}
		}
		// A read is idempotent by nature: Acore UI says so, the web
		// source need not.
		eff := func(b *bool, read bool) string {
			if b == nil {
				return map[bool]string{true: "true", false: "undeclared"}[read]
			}
			return fmt.Sprint(*b)
		}
		same("idempotent", eff(w.Idempotent, w.ActionType == "read"), eff(a.Idempotent, a.ActionType == "read"))
		same("async", eff(w.Async, false), eff(a.Async, false))
		same("preconditions", w.Preconditions, a.Preconditions)
		same("postconditions", w.Postconditions, a.Postconditions)
		same("side_effects", w.SideEffects, a.SideEffects)
		same("parameters", w.Parameters, a.Parameters)
	}
}
