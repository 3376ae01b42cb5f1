package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/axiomcore/acore/internal/axag"
)

// formats are the values of --format: text for people, json for programs,
// sarif (2.1.0) for code-scanning tools, github for GitHub Actions
// workflow commands (annotations on the pull request).
var formats = []string{"text", "json", "sarif", "github"}

func checkFormat(f string) error {
	if !slices.Contains(formats, f) {
		return fmt.Errorf("--format %q: want text, json, sarif or github", f)
	}
	return nil
}

// wantsJSON reports whether args ask for --format json, read before the
// flags are parsed so that a usage error can be answered in JSON too.
func wantsJSON(args []string) bool {
	for i, a := range args {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if a == "format=json" || a == "format" && i+1 < len(args) && args[i+1] == "json" {
			return true
		}
	}
	return false
}

// fromCwd rewrites the files of findings about the sources at src, which
// are relative to src (its directory when src is a file), to be relative
// to the working directory, as code-scanning tools and GitHub want them.
func fromCwd(src string, fs []axag.Finding) []axag.Finding {
	root := src
	if st, err := os.Stat(src); err == nil && !st.IsDir() {
		root = filepath.Dir(src)
	}
	for i := range fs {
		if fs[i].File == "" {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(fs[i].File))
		if abs, err := filepath.Abs(p); err == nil {
			if wd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(wd, abs); err == nil {
					p = rel
				}
			}
		}
		fs[i].File = filepath.ToSlash(p)
	}
	return fs
}

// sarifLevel maps a severity to a SARIF result level.
func sarifLevel(sev string) string {
	switch sev {
	case axag.SeverityError:
		return "error"
	case axag.SeverityWarning:
		return "warning"
	}
	return "note"
}

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifLocation struct {
	Physical sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// writeSARIF writes s's findings, and its schema problems and error, as a
// SARIF 2.1.0 log with one run.
func writeSARIF(w io.Writer, s *summary) {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "axag", Version: toolVersion, InformationURI: "https://axag.org", Rules: []sarifRule{}}}, Results: []sarifResult{}}
	for _, f := range allFindings(s) {
		if !slices.ContainsFunc(run.Tool.Driver.Rules, func(r sarifRule) bool { return r.ID == f.Rule }) {
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: f.Rule})
		}
		msg := f.Message
		if f.Fix != "" {
			msg += " (fix: " + f.Fix + ")"
		}
		r := sarifResult{RuleID: f.Rule, Level: sarifLevel(f.Severity), Message: sarifText{Text: msg}}
		if f.File != "" {
			loc := sarifLocation{Physical: sarifPhysical{Artifact: sarifArtifact{URI: f.File}}}
			if f.Line > 0 {
				loc.Physical.Region = &sarifRegion{StartLine: f.Line, StartColumn: f.Column}
			}
			r.Locations = []sarifLocation{loc}
		}
		run.Results = append(run.Results, r)
	}
	slices.SortFunc(run.Tool.Driver.Rules, func(a, b sarifRule) int { return strings.Compare(a.ID, b.ID) })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(sarifLog{Version: "2.1.0", Schema: "https://json.schemastore.org/sarif-2.1.0.json", Runs: []sarifRun{run}})
	_, _ = w.Write(buf.Bytes())
}

// writeGitHub writes s's findings as GitHub Actions workflow commands
// (::error, ::warning, ::notice), then its summary as a plain line.
func writeGitHub(w io.Writer, s *summary) {
	for _, f := range allFindings(s) {
		cmd := map[string]string{axag.SeverityError: "error", axag.SeverityWarning: "warning"}[f.Severity]
		if cmd == "" {
			cmd = "notice"
		}
		var props []string
		if f.File != "" {
			props = append(props, "file="+ghProperty(axag.Printable(f.File)))
			if f.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.Line))
				if f.Column > 0 {
					props = append(props, fmt.Sprintf("col=%d", f.Column))
				}
			}
		}
		props = append(props, "title="+ghProperty(f.Rule))
		msg := f.Message
		if f.Fix != "" {
			msg += " (fix: " + f.Fix + ")"
		}
		// Printable first: the log that shows these lines is a terminal too.
		fmt.Fprintf(w, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghData(axag.Printable(msg)))
	}
	for _, l := range s.extra {
		fmt.Fprintln(w, axag.Printable(l))
	}
}

// allFindings are s's findings, its schema problems and its error, as
// findings (schema problems are AXAG-SCHEMA, the error AXAG-ERROR).
func allFindings(s *summary) []axag.Finding {
	out := slices.Clone(s.Findings)
	if s.Validation != nil && !s.Validation.Valid {
		for _, p := range s.Validation.Problems {
			out = append(out, axag.Finding{Rule: "AXAG-SCHEMA", Severity: axag.SeverityError, File: s.Manifest,
				Message: fmt.Sprintf("schema %s: %s%s", s.Validation.Version, pointer(p.Path), p.Message)})
		}
	}
	if s.Error != "" {
		out = append(out, axag.Finding{Rule: "AXAG-ERROR", Severity: axag.SeverityError, Message: s.Error})
	}
	return out
}

// ghData escapes the message of a workflow command; ghProperty a
// property value, which also cannot hold : or ,.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
