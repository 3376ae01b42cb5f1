package axag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// The wire structs: field order here is the key order of the output.

type out110 struct {
	Version        string          `json:"version"`
	GeneratedAt    string          `json:"generated_at"`
	Source         *source110      `json:"source"`
	Conformance    string          `json:"conformance"`
	Actions        []action110     `json:"actions"`
	DynamicActions []DynamicAction `json:"dynamic_actions,omitempty"`
}

type source110 struct {
	URL         string   `json:"url,omitempty"`
	Paths       []string `json:"paths,omitempty"`
	Tool        string   `json:"tool,omitempty"`
	ToolVersion string   `json:"tool_version,omitempty"`
}

type action110 struct {
	Intent               string     `json:"intent"`
	Entity               string     `json:"entity"`
	ActionType           string     `json:"action_type"`
	Description          string     `json:"description"`
	OperationID          string     `json:"operation_id,omitempty"`
	RequiredParameters   []param110 `json:"required_parameters,omitempty"`
	OptionalParameters   []param110 `json:"optional_parameters,omitempty"`
	RiskLevel            string     `json:"risk_level,omitempty"`
	ConfirmationRequired *bool      `json:"confirmation_required,omitempty"`
	ApprovalRequired     *bool      `json:"approval_required,omitempty"`
	ApprovalRoles        *[]string  `json:"approval_roles,omitempty"`
	Idempotent           *bool      `json:"idempotent,omitempty"`
	Scope                string     `json:"scope,omitempty"`
	SideEffects          *[]string  `json:"side_effects,omitempty"`
	Preconditions        *[]string  `json:"preconditions,omitempty"`
	Postconditions       *[]string  `json:"postconditions,omitempty"`
	ElementSelector      string     `json:"element_selector,omitempty"`
	SourceFile           string     `json:"source_file,omitempty"`
	SourceLine           int        `json:"source_line,omitempty"`
	Async                *bool      `json:"async,omitempty"`
	TenantBoundary       string     `json:"tenant_boundary,omitempty"`
	RequiredRoles        *[]string  `json:"required_roles,omitempty"`
}

type param110 struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Description string          `json:"description,omitempty"`
	Enum        []any           `json:"enum,omitempty"`
	Min         *float64        `json:"min,omitempty"`
	Max         *float64        `json:"max,omitempty"`
	MinLength   *int            `json:"minLength,omitempty"`
	MaxLength   *int            `json:"maxLength,omitempty"`
	Pattern     string          `json:"pattern,omitempty"`
	Format      string          `json:"format,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Items       map[string]any  `json:"items,omitempty"`
	Properties  map[string]any  `json:"properties,omitempty"`
	Source      string          `json:"source,omitempty"`
}

type out100 struct {
	Version     string      `json:"version"`
	Conformance string      `json:"conformance,omitempty"`
	Entities    []entity100 `json:"entities"`
	Metadata    *meta100    `json:"metadata,omitempty"`
}

type meta100 struct {
	Generator   string `json:"generator,omitempty"`
	GeneratedAt string `json:"generated_at,omitempty"`
	SourceURL   string `json:"source_url,omitempty"`
}

type entity100 struct {
	Name    string      `json:"name"`
	Actions []action100 `json:"actions"`
}

// action100 holds the fields of the 1.0.0 schema first, then the 1.1.0
// fields the schema allows as extra properties, so that nothing is lost.
type action100 struct {
	Intent               string              `json:"intent"`
	ActionType           string              `json:"action_type"`
	RiskLevel            string              `json:"risk_level,omitempty"`
	Idempotent           *bool               `json:"idempotent,omitempty"`
	ConfirmationRequired *bool               `json:"confirmation_required,omitempty"`
	ApprovalRequired     *bool               `json:"approval_required,omitempty"`
	Parameters           map[string]param100 `json:"parameters,omitempty"`
	Description          string              `json:"description,omitempty"`
	OperationID          string              `json:"operation_id,omitempty"`
	ApprovalRoles        *[]string           `json:"approval_roles,omitempty"`
	Scope                string              `json:"scope,omitempty"`
	SideEffects          *[]string           `json:"side_effects,omitempty"`
	Preconditions        *[]string           `json:"preconditions,omitempty"`
	Postconditions       *[]string           `json:"postconditions,omitempty"`
	ElementSelector      string              `json:"element_selector,omitempty"`
	SourceFile           string              `json:"source_file,omitempty"`
	SourceLine           int                 `json:"source_line,omitempty"`
	Async                *bool               `json:"async,omitempty"`
	TenantBoundary       string              `json:"tenant_boundary,omitempty"`
	RequiredRoles        *[]string           `json:"required_roles,omitempty"`
}

type param100 struct {
	Type        string          `json:"type"`
	Required    bool            `json:"required"`
	Enum        []any           `json:"enum,omitempty"`
	Minimum     *float64        `json:"minimum,omitempty"`
	Maximum     *float64        `json:"maximum,omitempty"`
	MaxLength   *int            `json:"maxLength,omitempty"`
	Format      string          `json:"format,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	MinLength   *int            `json:"minLength,omitempty"`
	Pattern     string          `json:"pattern,omitempty"`
}

func list(s []string) *[]string {
	if s == nil {
		return nil
	}
	c := append([]string{}, s...)
	return &c
}

func unlist(p *[]string) []string {
	if p == nil {
		return nil
	}
	return append([]string{}, (*p)...)
}

func rawDefault(p Parameter) json.RawMessage {
	if !p.HasDefault && p.Default == nil {
		return nil
	}
	b, err := json.Marshal(p.Default)
	if err != nil {
		return nil
	}
	return b
}

func paramType(t string) string {
	if t == "" {
		return "string"
	}
	return t
}

func sortedParams(ps map[string]Parameter) []string {
	names := make([]string, 0, len(ps))
	for n := range ps {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// JSON writes the manifest in the shape of version ("1.0.0" or "1.1.0",
// "" for the default): two-space indentation, a final newline, a fixed key
// order, actions sorted by intent, parameters by name. An untyped
// parameter is written with type "string" (both schemas require a type).
// A navigate action cannot be written as 1.0.0.
func (m *Manifest) JSON(version string) ([]byte, error) {
	if version == "" {
		version = DefaultVersion
	}
	actions := append([]Action{}, m.Actions...)
	sort.SliceStable(actions, func(i, j int) bool { return actions[i].Intent < actions[j].Intent })
	// generated_at is required by the 1.1.0 schema: the zero time is
	// written as the Unix epoch (SOURCE_DATE_EPOCH=0), never left out.
	at := m.GeneratedAt
	if at.IsZero() {
		at = time.Unix(0, 0)
	}
	ts := at.UTC().Format(time.RFC3339)
	conformance := m.Conformance
	if conformance == "" {
		conformance = ManifestLevel(actions)
	}
	var doc any
	switch version {
	case Version110:
		// generated_at, source and conformance are required: written
		// always, source possibly empty, conformance computed when unset.
		o := out110{Version: Version110, GeneratedAt: ts, Conformance: conformance, Actions: []action110{}, DynamicActions: m.DynamicActions,
			Source: &source110{URL: m.SourceURL, Paths: m.Paths, Tool: m.Tool, ToolVersion: m.ToolVersion}}
		for _, a := range actions {
			w := action110{
				Intent: a.Intent, Entity: a.Entity, ActionType: a.ActionType, Description: a.Description,
				OperationID: a.OperationID, RiskLevel: a.RiskLevel,
				ConfirmationRequired: a.ConfirmationRequired, ApprovalRequired: a.ApprovalRequired,
				ApprovalRoles: list(a.ApprovalRoles), Idempotent: a.Idempotent, Scope: a.Scope,
				SideEffects: list(a.SideEffects), Preconditions: list(a.Preconditions), Postconditions: list(a.Postconditions),
				ElementSelector: a.ElementSelector, SourceFile: a.SourceFile, SourceLine: a.SourceLine,
				Async: a.Async, TenantBoundary: a.TenantBoundary, RequiredRoles: list(a.RequiredRoles),
			}
			w.RequiredParameters, w.OptionalParameters = params110(a.Parameters)
			o.Actions = append(o.Actions, w)
		}
		doc = o
	case Version100:
		o := out100{Version: Version100, Conformance: conformance, Entities: []entity100{}}
		gen := m.Tool
		if m.ToolVersion != "" {
			gen += "/" + m.ToolVersion
		}
		if gen != "" || ts != "" || m.SourceURL != "" {
			o.Metadata = &meta100{Generator: gen, GeneratedAt: ts, SourceURL: m.SourceURL}
		}
		byEntity := map[string]int{}
		var names []string
		for _, a := range actions {
			if _, ok := byEntity[a.Entity]; !ok {
				byEntity[a.Entity] = 0
				names = append(names, a.Entity)
			}
		}
		sort.Strings(names)
		for i, n := range names {
			byEntity[n] = i
			o.Entities = append(o.Entities, entity100{Name: n, Actions: []action100{}})
		}
		for _, a := range actions {
			if a.ActionType == "navigate" {
				return nil, fmt.Errorf("intent %s: action type navigate cannot be written in schema 1.0.0 (read, write, delete); use --schema-version 1.1.0", a.Intent)
			}
			w := action100{
				Intent: a.Intent, ActionType: a.ActionType, RiskLevel: a.RiskLevel, Idempotent: a.Idempotent,
				ConfirmationRequired: a.ConfirmationRequired, ApprovalRequired: a.ApprovalRequired,
				Description: a.Description, OperationID: a.OperationID, ApprovalRoles: list(a.ApprovalRoles),
				Scope: a.Scope, SideEffects: list(a.SideEffects), Preconditions: list(a.Preconditions),
				Postconditions: list(a.Postconditions), ElementSelector: a.ElementSelector,
				SourceFile: a.SourceFile, SourceLine: a.SourceLine, Async: a.Async,
				TenantBoundary: a.TenantBoundary, RequiredRoles: list(a.RequiredRoles),
			}
			if len(a.Parameters) > 0 {
				w.Parameters = map[string]param100{}
				for n, p := range a.Parameters {
					w.Parameters[n] = param100{
						Type: paramType(p.Type), Required: p.Required, Enum: p.Enum, Minimum: p.Minimum, Maximum: p.Maximum,
						MaxLength: p.MaxLength, Format: p.Format, Default: rawDefault(p), Description: p.Description,
						MinLength: p.MinLength, Pattern: p.Pattern,
					}
				}
			}
			e := &o.Entities[byEntity[a.Entity]]
			e.Actions = append(e.Actions, w)
		}
		doc = o
	default:
		return nil, fmt.Errorf("unknown schema version %q (want %s or %s)", version, Version100, Version110)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// DetectVersion names the shape of a manifest document: "1.0.0" when it
// has entities, "1.1.0" when it has actions, otherwise from its version
// field ("1.0.x" is 1.0.0, anything else 1.1.0). A version field whose
// major version is not 1 is an error: its shape is unknown to this build.
func DetectVersion(data []byte) (string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return "", fmt.Errorf("manifest is not a JSON object: %v", err)
	}
	if err := knownMajor(top["version"]); err != nil {
		return "", err
	}
	if _, ok := top["entities"]; ok {
		return Version100, nil
	}
	if _, ok := top["actions"]; ok {
		return Version110, nil
	}
	var v string
	_ = json.Unmarshal(top["version"], &v)
	if strings.HasPrefix(v, "1.0.") {
		return Version100, nil
	}
	return Version110, nil
}

// ParseManifest reads a manifest of either shape (not validated: use
// Validate first for a strict check). It returns the shape it read.
func ParseManifest(data []byte) (*Manifest, string, error) {
	version, err := DetectVersion(data)
	if err != nil {
		return nil, "", err
	}
	m := &Manifest{}
	switch version {
	case Version110:
		var o out110
		if err := json.Unmarshal(data, &o); err != nil {
			return nil, "", fmt.Errorf("manifest: %v", err)
		}
		if o.GeneratedAt != "" {
			m.GeneratedAt, _ = time.Parse(time.RFC3339, o.GeneratedAt)
		}
		if o.Source != nil {
			m.SourceURL, m.Paths, m.Tool, m.ToolVersion = o.Source.URL, o.Source.Paths, o.Source.Tool, o.Source.ToolVersion
		}
		m.Conformance, m.DynamicActions = o.Conformance, o.DynamicActions
		for _, w := range o.Actions {
			a := Action{
				Intent: w.Intent, Entity: w.Entity, ActionType: w.ActionType, Description: w.Description,
				OperationID: w.OperationID, RiskLevel: w.RiskLevel, ConfirmationRequired: w.ConfirmationRequired,
				ApprovalRequired: w.ApprovalRequired, ApprovalRoles: unlist(w.ApprovalRoles), Idempotent: w.Idempotent,
				Scope: w.Scope, SideEffects: unlist(w.SideEffects), Preconditions: unlist(w.Preconditions),
				Postconditions: unlist(w.Postconditions), ElementSelector: w.ElementSelector, SourceFile: w.SourceFile,
				SourceLine: w.SourceLine, Async: w.Async, TenantBoundary: w.TenantBoundary, RequiredRoles: unlist(w.RequiredRoles),
			}
			for i, ps := range [][]param110{w.RequiredParameters, w.OptionalParameters} {
				for _, p := range ps {
					if a.Parameters == nil {
						a.Parameters = map[string]Parameter{}
					}
					a.Parameters[p.Name] = Parameter{
						Type: p.Type, Required: i == 0, Description: p.Description, Enum: p.Enum,
						Minimum: p.Min, Maximum: p.Max, MinLength: p.MinLength, MaxLength: p.MaxLength,
						Pattern: p.Pattern, Format: p.Format, Items: p.Items, Properties: p.Properties, Source: p.Source,
					}
					setDefault(a.Parameters, p.Name, p.Default)
				}
			}
			m.Actions = append(m.Actions, a)
		}
	case Version100:
		var o out100
		if err := json.Unmarshal(data, &o); err != nil {
			return nil, "", fmt.Errorf("manifest: %v", err)
		}
		m.Conformance = o.Conformance
		if o.Metadata != nil {
			if o.Metadata.GeneratedAt != "" {
				m.GeneratedAt, _ = time.Parse(time.RFC3339, o.Metadata.GeneratedAt)
			}
			m.SourceURL = o.Metadata.SourceURL
			m.Tool, m.ToolVersion, _ = strings.Cut(o.Metadata.Generator, "/")
		}
		for _, e := range o.Entities {
			for _, w := range e.Actions {
				a := Action{
					Intent: w.Intent, Entity: e.Name, ActionType: w.ActionType, Description: w.Description,
					OperationID: w.OperationID, RiskLevel: w.RiskLevel, ConfirmationRequired: w.ConfirmationRequired,
					ApprovalRequired: w.ApprovalRequired, ApprovalRoles: unlist(w.ApprovalRoles), Idempotent: w.Idempotent,
					Scope: w.Scope, SideEffects: unlist(w.SideEffects), Preconditions: unlist(w.Preconditions),
					Postconditions: unlist(w.Postconditions), ElementSelector: w.ElementSelector, SourceFile: w.SourceFile,
					SourceLine: w.SourceLine, Async: w.Async, TenantBoundary: w.TenantBoundary, RequiredRoles: unlist(w.RequiredRoles),
				}
				for n, p := range w.Parameters {
					if a.Parameters == nil {
						a.Parameters = map[string]Parameter{}
					}
					a.Parameters[n] = Parameter{
						Type: p.Type, Required: p.Required, Description: p.Description, Enum: p.Enum,
						Minimum: p.Minimum, Maximum: p.Maximum, MinLength: p.MinLength, MaxLength: p.MaxLength,
						Pattern: p.Pattern, Format: p.Format,
					}
					setDefault(a.Parameters, n, p.Default)
				}
				m.Actions = append(m.Actions, a)
			}
		}
	}
	sort.SliceStable(m.Actions, func(i, j int) bool { return m.Actions[i].Intent < m.Actions[j].Intent })
	return m, version, nil
}

func setDefault(ps map[string]Parameter, name string, raw json.RawMessage) {
	if len(raw) == 0 {
		return
	}
	p := ps[name]
	var v any
	if json.Unmarshal(raw, &v) == nil {
		p.Default, p.HasDefault = v, true
	}
	ps[name] = p
}

// knownMajor refuses a version string whose major version this build does
// not read; a missing or non-string version is left to the schema.
func knownMajor(raw json.RawMessage) error {
	var v string
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	if major, _, _ := strings.Cut(v, "."); major != "1" {
		return fmt.Errorf("manifest version %q is not one this build reads (%s and %s, and their 1.x.y revisions)", Printable(v), Version100, Version110)
	}
	return nil
}

// params110 writes an action's parameters in the 1.1.0 shape, required and
// optional apart, in name order: the manifest and the web attributes share it.
func params110(ps map[string]Parameter) (req, opt []param110) {
	for _, n := range sortedParams(ps) {
		p := ps[n]
		wp := param110{
			Name: n, Type: paramType(p.Type), Description: p.Description, Enum: p.Enum,
			Min: p.Minimum, Max: p.Maximum, MinLength: p.MinLength, MaxLength: p.MaxLength,
			Pattern: p.Pattern, Format: p.Format, Default: rawDefault(p),
			Items: p.Items, Properties: p.Properties, Source: p.Source,
		}
		if p.Required {
			req = append(req, wp)
		} else {
			opt = append(opt, wp)
		}
	}
	return req, opt
}
