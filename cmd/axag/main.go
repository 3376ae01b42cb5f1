// Command axag generates, validates and uses AXAG semantic manifests: what
// an application can do, described for runtime agents.
//
// Usage:
//
//	axag generate <src> --manifest <file> [--validate] [--schema-version V] [--generated-at T] [--tools <dir>] [--strict]
//	axag validate <src> [--level basic|intermediate|full] [--strict] [--manifest <file>]
//	axag validate --manifest <file> [--schema-version V] [--level L] [--strict]
//	axag tools --manifest <file> --output <dir>
//
// <src> is a directory of web sources (.html, .htm, .jsx, .tsx, .vue,
// *.component.html), a single such file, or an Acore UI project (a
// directory with main.acore). Every command takes --format
// text|json|sarif|github.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/axiomcore/acore/internal/axag"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// toolVersion is written in the manifests' source block.
const toolVersion = "0.1.0"

const usage = `usage: axag <command> [arguments]

commands:
  generate <src> --manifest <file> [--validate] [--schema-version 1.0.0|1.1.0]
           [--generated-at <RFC 3339>] [--source-url <url>] [--tools <dir>] [--strict]
      scan <src> and write its manifest (--manifest - for standard output);
      with --validate, validate it against the schema in the same step;
      with --tools, also write the MCP tool registry (<dir>/tools.json);
      a generate that fails writes nothing
  validate <src> [--level basic|intermediate|full] [--strict] [--manifest <file>]
      check the annotations against a conformance level and the rules;
      with --manifest, report drift between the manifest and the sources
  validate --manifest <file> [--schema-version V] [--level L] [--strict]
      validate a manifest against the schema of its version (or V); with
      --level, check the level its actions reach (not the one it claims)
  tools --manifest <file> --output <dir>
      write the MCP tool registry of a manifest (<dir>/tools.json)

every command takes --format text|json|sarif|github (default text); json,
sarif and github name files relative to the working directory, and a usage
error is answered in JSON when --format json is given.
<src>: web sources (.html .htm .jsx .tsx .vue, *.component.html; node_modules,
dist and build are skipped; <template> content is scanned, <noscript> content
is not; files over 8 MiB or nested deeper than 512 elements are findings) or an
Acore UI project (a directory with main.acore). A manifest must be a regular
file of at most 16 MiB.
exit status: 0 ok, 1 errors (or warnings with --strict), 2 usage.
SOURCE_DATE_EPOCH or --generated-at fixes generated_at (reproducible output).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	jsonUsage = nil
	if wantsJSON(args[1:]) {
		jsonUsage = &struct {
			command string
			stdout  io.Writer
		}{args[0], stdout}
	}
	switch args[0] {
	case "generate":
		return generate(args[1:], stdout, stderr)
	case "validate":
		return validate(args[1:], stdout, stderr)
	case "tools", "generate-tools":
		return tools(args[1:], stdout, stderr)
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "axag: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// parse parses flags that may come before or after the positional
// arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func newFlags(name string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("axag "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "output: text, json, sarif or github")
	return fs, format
}

// usageError reports a usage error: as a JSON summary on standard output
// when the arguments ask for JSON, else with the usage on standard error.
func usageError(stderr io.Writer, err error) int {
	if jsonUsage != nil {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		_ = enc.Encode(summary{Command: jsonUsage.command, Findings: []axag.Finding{}, Error: err.Error(), Usage: true})
		_, _ = jsonUsage.stdout.Write(buf.Bytes())
		return exitUsage
	}
	fmt.Fprintf(stderr, "axag: %v\n\n%s", err, usage)
	return exitUsage
}

// jsonUsage is set when the arguments ask for --format json: usage errors
// are then answered in JSON on stdout.
var jsonUsage *struct {
	command string
	stdout  io.Writer
}

func checkVersion(v string) error {
	if v != "" && v != axag.Version100 && v != axag.Version110 {
		return fmt.Errorf("--schema-version %q: want %s or %s", v, axag.Version100, axag.Version110)
	}
	return nil
}

// scanned is what a source gives.
type scanned struct {
	kind     string // "web" or "acore"
	actions  []axag.Action
	dynamic  []axag.DynamicAction
	findings []axag.Finding
}

// fix rewrites the fix hints of an Acore UI project's findings in @axag
// terms (web sources keep the axag-* attribute terms).
func (sc *scanned) fix(fs []axag.Finding) []axag.Finding {
	if sc.kind != "acore" {
		return fs
	}
	for i := range fs {
		fs[i] = axag.AcoreFix(fs[i])
	}
	return fs
}

func scan(src string) (*scanned, error) {
	st, err := os.Stat(src)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", src, errors.Unwrap(err))
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(src, "main.acore")); err == nil {
			actions, findings, err := axag.ScanAcore(src)
			if err != nil {
				return nil, fmt.Errorf("acore UI project %s: %v", src, err)
			}
			return &scanned{kind: "acore", actions: actions, findings: findings}, nil
		}
	}
	res, err := axag.ScanWeb(src)
	if err != nil {
		return nil, err
	}
	return &scanned{kind: "web", actions: res.Actions, dynamic: res.Dynamic, findings: res.Findings}, nil
}

func generatedAt(at string) (time.Time, error) {
	if at != "" {
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			return time.Time{}, fmt.Errorf("--generated-at %q: want an RFC 3339 time such as 2026-01-02T15:04:05Z", at)
		}
		return t.UTC(), nil
	}
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a number of seconds", s)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Now().UTC().Truncate(time.Second), nil
}

type summary struct {
	Command       string `json:"command"`
	Source        string `json:"source,omitempty"`
	SourceKind    string `json:"source_kind,omitempty"`
	Manifest      string `json:"manifest,omitempty"`
	SchemaVersion string `json:"schema_version,omitempty"`
	Level         string `json:"level,omitempty"`
	Conformance   string `json:"conformance,omitempty"`
	// Claimed is the conformance a validated manifest claims; Conformance
	// is the one its actions reach.
	Claimed      string                 `json:"claimed_conformance,omitempty"`
	Actions      int                    `json:"actions"`
	ActionLevels []actionLevel          `json:"action_levels,omitempty"`
	Findings     []axag.Finding         `json:"findings"`
	Errors       int                    `json:"errors"`
	Warnings     int                    `json:"warnings"`
	Validation   *axag.ValidationReport `json:"validation,omitempty"`
	Output       string                 `json:"output,omitempty"`
	OK           bool                   `json:"ok"`
	Error        string                 `json:"error,omitempty"`
	// Usage marks an error in the command line (exit status 2).
	Usage bool `json:"usage_error,omitempty"`
	extra []string
}

type actionLevel struct {
	Intent string   `json:"intent"`
	Level  string   `json:"level"`
	Next   []string `json:"missing_for_next,omitempty"`
}

func levels(actions []axag.Action) []actionLevel {
	var out []actionLevel
	for _, a := range actions {
		l, gaps := axag.Gaps(a)
		out = append(out, actionLevel{Intent: a.Intent, Level: l, Next: gaps})
	}
	return out
}

func count(s *summary) {
	s.Errors, s.Warnings = 0, 0
	for _, f := range s.Findings {
		switch f.Severity {
		case axag.SeverityError:
			s.Errors++
		case axag.SeverityWarning:
			s.Warnings++
		}
	}
}

// report prints s and returns the exit status.
func report(s *summary, format string, stdout, stderr io.Writer) int {
	if s.Findings == nil {
		s.Findings = []axag.Finding{}
	}
	count(s)
	code := exitOK
	if !s.OK {
		code = exitFail
	}
	switch format {
	case "sarif":
		writeSARIF(stdout, s)
		return code
	case "github":
		writeGitHub(stdout, s)
		return code
	}
	if format == "json" {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(s)
		_, _ = stdout.Write(buf.Bytes())
		return code
	}
	w := stdout
	if s.Manifest == "-" {
		w = stderr // the manifest is on standard output
	}
	// Every line goes through Printable: findings, schema problems and
	// errors quote sources, manifests and file names, which must not
	// reach the terminal as control characters.
	p := axag.Printable
	for _, f := range s.Findings {
		fmt.Fprintln(w, f)
	}
	if s.Validation != nil && !s.Validation.Valid {
		for _, pr := range s.Validation.Problems {
			fmt.Fprintf(w, "%s: schema %s: %s%s\n", p(orNone(s.Manifest)), s.Validation.Version, p(pointer(pr.Path)), p(pr.Message))
		}
	}
	for _, l := range s.extra {
		fmt.Fprintln(w, p(l))
	}
	if s.Error != "" {
		fmt.Fprintf(stderr, "axag: %s\n", p(s.Error))
	}
	return code
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func pointer(p string) string {
	if p == "" {
		return "(root): "
	}
	return p + ": "
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func generate(args []string, stdout, stderr io.Writer) int {
	fs, format := newFlags("generate", stderr)
	manifest := fs.String("manifest", "", "manifest file to write (- for standard output)")
	doValidate := fs.Bool("validate", false, "validate the manifest against its schema")
	version := fs.String("schema-version", axag.DefaultVersion, "1.0.0 or 1.1.0")
	noTS := fs.Bool("no-timestamp", false, "refused: generated_at is required")
	at := fs.String("generated-at", "", "generated_at to write (RFC 3339)")
	sourceURL := fs.String("source-url", "", "source url to record")
	strict := fs.Bool("strict", false, "fail on warnings too")
	toolsDir := fs.String("tools", "", "also write the MCP tool registry into this directory")
	pos, err := parse(fs, args)
	if err != nil {
		return usageError(stderr, err)
	}
	if len(pos) != 1 {
		return usageError(stderr, errors.New("generate takes one <src>"))
	}
	if *manifest == "" {
		return usageError(stderr, errors.New("generate needs --manifest <file> (- for standard output)"))
	}
	for _, err := range []error{checkFormat(*format), checkVersion(*version)} {
		if err != nil {
			return usageError(stderr, err)
		}
	}
	if *manifest == "-" && *format != "text" {
		return usageError(stderr, fmt.Errorf("--manifest - and --format %s both use standard output", *format))
	}
	if *noTS {
		return usageError(stderr, errors.New("--no-timestamp would leave out generated_at, which the 1.1.0 schema requires; for reproducible output set SOURCE_DATE_EPOCH or --generated-at"))
	}
	ts, err := generatedAt(*at)
	if err != nil {
		return usageError(stderr, err)
	}
	s := &summary{Command: "generate", Source: pos[0], Manifest: *manifest, SchemaVersion: *version}
	sc, err := scan(pos[0])
	if err != nil {
		s.Error = err.Error()
		return report(s, *format, stdout, stderr)
	}
	s.SourceKind = sc.kind
	m, findings := axag.Build(sc.actions, axag.Options{
		GeneratedAt: ts, SourceURL: *sourceURL, Paths: []string{filepath.ToSlash(pos[0])},
		ToolVersion: toolVersion, DynamicActions: sc.dynamic,
	})
	s.Findings = sc.fix(append(sc.findings, findings...))
	if *format != "text" {
		s.Findings = fromCwd(pos[0], s.Findings)
	}
	axag.SortFindings(s.Findings)
	s.Conformance, s.Actions, s.ActionLevels = m.Conformance, len(m.Actions), levels(m.Actions)
	data, err := m.JSON(*version)
	if err != nil {
		s.Error = err.Error()
		return report(s, *format, stdout, stderr)
	}
	if *doValidate {
		r, err := axag.Validate(data, *version)
		if err != nil {
			s.Error = err.Error()
			return report(s, *format, stdout, stderr)
		}
		s.Validation = r
	}
	count(s)
	s.OK = !axag.HasErrors(s.Findings, *strict) && (s.Validation == nil || s.Validation.Valid)
	// A failed generate writes nothing: a good manifest from an earlier
	// run is worth more than one that lost its actions to an error.
	switch {
	case !s.OK:
		s.extra = append(s.extra, fmt.Sprintf("%s: not written (%s, %s%s)", orNone(*manifest), plural(s.Errors, "error"), plural(s.Warnings, "warning"), invalidNote(s.Validation)))
		return report(s, *format, stdout, stderr)
	case *manifest == "-":
		_, _ = stdout.Write(data)
	default:
		if err := fsutil.WriteFileAtomic(*manifest, data, 0o644); err != nil {
			s.Error = fmt.Sprintf("cannot write %s: %v", *manifest, err)
			s.OK = false
			return report(s, *format, stdout, stderr)
		}
	}
	if *toolsDir != "" {
		out, n, err := writeTools(m, *toolsDir)
		if err != nil {
			s.Error, s.OK = err.Error(), false
			return report(s, *format, stdout, stderr)
		}
		s.Output = out
		s.extra = append(s.extra, fmt.Sprintf("%s: %s", out, plural(n, "tool")))
	}
	line := fmt.Sprintf("%s: %s, conformance %s (schema %s), %s, %s", orNone(*manifest), plural(s.Actions, "action"), s.Conformance, *version, plural(s.Errors, "error"), plural(s.Warnings, "warning"))
	if s.Validation != nil {
		if s.Validation.Valid {
			line += "; valid against the schema"
		} else {
			line += fmt.Sprintf("; %s against the schema", plural(len(s.Validation.Problems), "problem"))
		}
	}
	s.extra = append(s.extra, line)
	return report(s, *format, stdout, stderr)
}

// invalidNote is ", N problems against the schema" for an invalid
// validation report, else "".
func invalidNote(r *axag.ValidationReport) string {
	if r == nil || r.Valid {
		return ""
	}
	return ", " + plural(len(r.Problems), "problem") + " against the schema"
}

func validate(args []string, stdout, stderr io.Writer) int {
	fs, format := newFlags("validate", stderr)
	manifest := fs.String("manifest", "", "manifest to validate, or to compare with the sources")
	level := fs.String("level", axag.LevelBasic, "basic, intermediate or full")
	strict := fs.Bool("strict", false, "fail on warnings too")
	version := fs.String("schema-version", "", "force the schema version (default: from the manifest)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageError(stderr, err)
	}
	if len(pos) > 1 {
		return usageError(stderr, errors.New("validate takes at most one <src>"))
	}
	if len(pos) == 0 && *manifest == "" {
		return usageError(stderr, errors.New("validate needs <src> or --manifest <file>"))
	}
	if axag.LevelRank(*level) < 1 {
		return usageError(stderr, fmt.Errorf("--level %q: want basic, intermediate or full", *level))
	}
	for _, err := range []error{checkFormat(*format), checkVersion(*version)} {
		if err != nil {
			return usageError(stderr, err)
		}
	}
	asked := ""
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "level" {
			asked = *level
		}
	})
	if len(pos) == 0 {
		return validateManifest(*manifest, *version, asked, *strict, *format, stdout, stderr)
	}
	s := &summary{Command: "validate", Source: pos[0], Level: *level, Manifest: *manifest}
	sc, err := scan(pos[0])
	if err != nil {
		s.Error = err.Error()
		return report(s, *format, stdout, stderr)
	}
	s.SourceKind = sc.kind
	m, findings := axag.Build(sc.actions, axag.Options{DynamicActions: sc.dynamic})
	s.Findings = sc.fix(append(append(sc.findings, findings...), axag.CheckLevel(m.Actions, *level)...))
	s.Conformance, s.Actions, s.ActionLevels = m.Conformance, len(m.Actions), levels(m.Actions)
	if *format != "text" {
		s.Findings = fromCwd(pos[0], s.Findings)
	}
	if asked != "" && len(m.Actions) == 0 {
		s.Findings = append(s.Findings, noActions(filepath.ToSlash(pos[0]), asked, "its sources"))
	}
	if *manifest != "" {
		data, err := axag.ReadManifest(*manifest)
		if err != nil {
			s.Error = fmt.Sprintf("cannot read %s: %v", *manifest, err)
			return report(s, *format, stdout, stderr)
		}
		old, _, err := axag.ParseManifest(data)
		if err != nil {
			s.Error = fmt.Sprintf("%s: %v", *manifest, err)
			return report(s, *format, stdout, stderr)
		}
		s.Findings = append(s.Findings, axag.Drift(m, old, *manifest)...)
	}
	axag.SortFindings(s.Findings)
	count(s)
	s.OK = !axag.HasErrors(s.Findings, *strict)
	verdict := "meets"
	if axag.LevelRank(s.Conformance) < axag.LevelRank(*level) || len(m.Actions) == 0 && asked != "" {
		verdict = "is below"
	}
	s.extra = append(s.extra, fmt.Sprintf("%s: %s, conformance %s (%s level %s), %s, %s", pos[0], plural(s.Actions, "action"), s.Conformance, verdict, *level, plural(s.Errors, "error"), plural(s.Warnings, "warning")))
	return report(s, *format, stdout, stderr)
}

// noActions is the finding of a level asked of sources or a manifest that
// declare no action: nothing is not "full".
func noActions(file, level, what string) axag.Finding {
	return axag.Finding{Rule: axag.RuleNoActions, Severity: axag.SeverityError, File: file,
		Message: fmt.Sprintf("no AXAG actions in %s, so it cannot meet level %s", what, level),
		Fix:     "annotate the actions of the application (axag-intent, or @axag in Acore UI), or check the path"}
}

// ruleConformanceClaim: a manifest's conformance field differs from what
// its actions declare (an error when it claims more, a note when less).
const ruleConformanceClaim = "AXAG110"

// validateManifest validates a manifest against its schema and, when a
// level is asked, checks the level its actions reach (not the one it
// claims) against it.
func validateManifest(file, version, level string, strict bool, format string, stdout, stderr io.Writer) int {
	s := &summary{Command: "validate", Manifest: file, Level: level}
	data, err := axag.ReadManifest(file)
	if err != nil {
		s.Error = fmt.Sprintf("cannot read %s: %v", file, err)
		return report(s, format, stdout, stderr)
	}
	r, err := axag.Validate(data, version)
	if err != nil {
		s.Error = fmt.Sprintf("%s: %v", file, err)
		return report(s, format, stdout, stderr)
	}
	s.Validation, s.SchemaVersion = r, r.Version
	var m *axag.Manifest
	if r.Valid {
		if m, _, err = axag.ParseManifest(data); err != nil {
			s.Error = fmt.Sprintf("%s: %v", file, err)
			return report(s, format, stdout, stderr)
		}
		// The level is computed from what the manifest's actions declare;
		// the conformance field is only a claim. A generator can see more
		// than its manifest shows (an untyped parameter is written as a
		// string), so a claim below the computed level is only a note.
		s.Conformance, s.Claimed = axag.ManifestLevel(m.Actions), m.Conformance
		s.Actions, s.ActionLevels = len(m.Actions), levels(m.Actions)
		switch c := axag.LevelRank(m.Conformance); {
		case m.Conformance == "":
		case c > axag.LevelRank(s.Conformance):
			s.Findings = append(s.Findings, axag.Finding{Rule: ruleConformanceClaim, Severity: axag.SeverityError, File: file,
				Message: fmt.Sprintf("the manifest claims conformance %s, its actions reach %s: the claim misleads agents", m.Conformance, s.Conformance),
				Fix:     "regenerate the manifest with axag generate"})
		case c < axag.LevelRank(s.Conformance):
			s.Findings = append(s.Findings, axag.Finding{Rule: ruleConformanceClaim, Severity: axag.SeverityInfo, File: file,
				Message: fmt.Sprintf("the manifest claims conformance %s, its actions reach %s", m.Conformance, s.Conformance)})
		}
		if level != "" {
			if len(m.Actions) == 0 {
				s.Findings = append(s.Findings, noActions(file, level, "the manifest"))
			}
			s.Findings = append(s.Findings, axag.CheckLevel(m.Actions, level)...)
		}
	}
	count(s)
	s.OK = r.Valid && !axag.HasErrors(s.Findings, strict)
	how := "detected"
	if r.Forced {
		how = "forced"
	}
	if !r.Valid {
		s.extra = append(s.extra, fmt.Sprintf("%s: invalid against schema %s (%s): %s", file, r.Version, how, plural(len(r.Problems), "problem")))
		return report(s, format, stdout, stderr)
	}
	line := fmt.Sprintf("%s: valid against schema %s (%s), %s, conformance %s (claimed %s)", file, r.Version, how, plural(s.Actions, "action"), s.Conformance, orNone(s.Claimed))
	if level != "" {
		verdict := "meets"
		if axag.LevelRank(s.Conformance) < axag.LevelRank(level) || len(m.Actions) == 0 {
			verdict = "is below"
		}
		line += fmt.Sprintf(", %s level %s", verdict, level)
	}
	s.extra = append(s.extra, line+fmt.Sprintf(", %s, %s", plural(s.Errors, "error"), plural(s.Warnings, "warning")))
	return report(s, format, stdout, stderr)
}

func tools(args []string, stdout, stderr io.Writer) int {
	fs, format := newFlags("tools", stderr)
	manifest := fs.String("manifest", "", "manifest to read")
	output := fs.String("output", "", "directory to write tools.json into")
	pos, err := parse(fs, args)
	if err != nil {
		return usageError(stderr, err)
	}
	if len(pos) != 0 || *manifest == "" || *output == "" {
		return usageError(stderr, errors.New("tools takes --manifest <file> and --output <dir>"))
	}
	if err := checkFormat(*format); err != nil {
		return usageError(stderr, err)
	}
	s := &summary{Command: "tools", Manifest: *manifest}
	data, err := axag.ReadManifest(*manifest)
	if err != nil {
		s.Error = fmt.Sprintf("cannot read %s: %v", *manifest, err)
		return report(s, *format, stdout, stderr)
	}
	r, err := axag.Validate(data, "")
	if err != nil {
		s.Error = fmt.Sprintf("%s: %v", *manifest, err)
		return report(s, *format, stdout, stderr)
	}
	if !r.Valid {
		s.Validation = r
		s.Error = fmt.Sprintf("%s is not a valid AXAG manifest (schema %s); run axag validate --manifest %s", *manifest, r.Version, *manifest)
		return report(s, *format, stdout, stderr)
	}
	m, _, err := axag.ParseManifest(data)
	if err != nil {
		s.Error = err.Error()
		return report(s, *format, stdout, stderr)
	}
	out, n, err := writeTools(m, *output)
	if err != nil {
		s.Error = err.Error()
		return report(s, *format, stdout, stderr)
	}
	s.Output, s.Actions, s.OK = out, n, true
	names := make([]string, len(m.Actions))
	for i, a := range m.Actions {
		names[i] = axag.ToolName(a.Intent)
	}
	sort.Strings(names)
	s.extra = append(s.extra, fmt.Sprintf("%s: %s (%s)", out, plural(n, "tool"), strings.Join(names, ", ")))
	return report(s, *format, stdout, stderr)
}

// writeTools writes dir/tools.json, the MCP tool registry of m, and returns
// its path and the number of tools.
func writeTools(m *axag.Manifest, dir string) (string, int, error) {
	reg := axag.Tools(m)
	sort.Slice(reg.Tools, func(i, j int) bool { return reg.Tools[i].Name < reg.Tools[j].Name })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(reg); err != nil {
		return "", 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", 0, fmt.Errorf("cannot create %s: %v", dir, err)
	}
	out := filepath.Join(dir, "tools.json")
	if err := fsutil.WriteFileAtomic(out, buf.Bytes(), 0o644); err != nil {
		return "", 0, fmt.Errorf("cannot write %s: %v", out, err)
	}
	return out, len(reg.Tools), nil
}
