// Package axag builds, checks and validates AXAG semantic manifests: what an
// application can do, described for runtime agents (intents, entities,
// action types, risk, approval, scope, parameters).
//
// Sources produce []Action (web sources through ScanWeb, Acore UI projects
// through the acore*.go files); Build turns them into a Manifest with
// findings; Manifest.JSON writes either schema shape (1.0.0 "entities" or
// 1.1.0 "actions") deterministically; Validate checks bytes against the
// embedded JSON Schemas.
package axag

import (
	"time"
)

// Schema versions this package writes and validates.
const (
	Version100 = "1.0.0"
	Version110 = "1.1.0"
	// DefaultVersion is the shape written when none is asked for.
	DefaultVersion = Version110
)

// Conformance levels, lowest first. LevelNone is below basic: the action
// lacks an intent, an entity or a valid action type.
const (
	LevelNone         = "none"
	LevelBasic        = "basic"
	LevelIntermediate = "intermediate"
	LevelFull         = "full"
)

// Allowed values of the enumerated fields.
var (
	ActionTypes      = []string{"read", "write", "delete", "navigate"}
	RiskLevels       = []string{"none", "low", "medium", "high", "critical"}
	Scopes           = []string{"public", "user", "tenant", "global"}
	TenantBoundaries = []string{"strict", "relaxed"}
	ParameterTypes   = []string{"string", "number", "integer", "boolean", "array", "object"}
	Formats          = []string{"email", "url", "date", "datetime", "uuid"}
	Levels           = []string{LevelBasic, LevelIntermediate, LevelFull}
)

// Action is one thing an application can do. Optional booleans are
// pointers: nil means "not declared", which matters for the conformance
// level. Optional lists distinguish nil (not declared) from empty (declared
// as none: "side_effects": []).
type Action struct {
	Intent               string               `json:"intent"`
	Entity               string               `json:"entity,omitempty"`
	ActionType           string               `json:"action_type,omitempty"`
	Description          string               `json:"description,omitempty"`
	OperationID          string               `json:"operation_id,omitempty"`
	RiskLevel            string               `json:"risk_level,omitempty"`
	Idempotent           *bool                `json:"idempotent,omitempty"`
	ConfirmationRequired *bool                `json:"confirmation_required,omitempty"`
	ApprovalRequired     *bool                `json:"approval_required,omitempty"`
	ApprovalRoles        []string             `json:"approval_roles,omitempty"`
	RequiredRoles        []string             `json:"required_roles,omitempty"`
	Scope                string               `json:"scope,omitempty"`
	TenantBoundary       string               `json:"tenant_boundary,omitempty"`
	Preconditions        []string             `json:"preconditions,omitempty"`
	Postconditions       []string             `json:"postconditions,omitempty"`
	SideEffects          []string             `json:"side_effects,omitempty"`
	Async                *bool                `json:"async,omitempty"`
	ElementSelector      string               `json:"element_selector,omitempty"`
	Parameters           map[string]Parameter `json:"parameters,omitempty"`
	// SourceFile is slash-separated and relative to the scanned root.
	SourceFile   string `json:"source_file,omitempty"`
	SourceLine   int    `json:"source_line,omitempty"`
	SourceColumn int    `json:"source_column,omitempty"`
}

// Parameter describes one parameter of an action. Type is empty when the
// source only names the parameter (which keeps the action below
// intermediate).
type Parameter struct {
	Type        string   `json:"type,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Description string   `json:"description,omitempty"`
	Enum        []any    `json:"enum,omitempty"`
	Minimum     *float64 `json:"minimum,omitempty"`
	Maximum     *float64 `json:"maximum,omitempty"`
	MinLength   *int     `json:"min_length,omitempty"`
	MaxLength   *int     `json:"max_length,omitempty"`
	Pattern     string   `json:"pattern,omitempty"`
	Format      string   `json:"format,omitempty"`
	// Default is the default value; HasDefault tells a null default from
	// none.
	Default    any            `json:"default,omitempty"`
	HasDefault bool           `json:"-"`
	Items      map[string]any `json:"items,omitempty"`
	Properties map[string]any `json:"properties,omitempty"`
	Source     string         `json:"source,omitempty"`
}

// DynamicAction records a place where an action could not be read
// statically (an intent computed at run time, for example).
type DynamicAction struct {
	SourceFile string `json:"source_file"`
	SourceLine int    `json:"source_line,omitempty"`
	Reason     string `json:"reason"`
}

// Finding is one diagnostic about a source or a manifest. Severity is
// "error", "warning" or "info". File is slash-separated, relative to the
// scanned root; Line and Column are 1-based (0 when unknown).
type Finding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Message  string `json:"message"`
	Fix      string `json:"fix,omitempty"`
	// Key is the @axag argument of an Acore UI source that the finding is
	// about, when the fix is to leave it out (AXAG102, AXAG151).
	Key string `json:"key,omitempty"`
}

// Severities.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Options control Build.
type Options struct {
	// GeneratedAt is written as generated_at, which the 1.1.0 schema
	// requires; the zero time is written as the Unix epoch
	// (1970-01-01T00:00:00Z), as SOURCE_DATE_EPOCH=0 would.
	GeneratedAt time.Time
	// SourceURL, Paths, Tool and ToolVersion fill the source block
	// (metadata in 1.0.0). Tool defaults to "acore-axag".
	SourceURL   string
	Paths       []string
	Tool        string
	ToolVersion string
	// DynamicActions are copied into the manifest.
	DynamicActions []DynamicAction
}

// Manifest is a built manifest: actions sorted by intent, one per intent.
type Manifest struct {
	GeneratedAt    time.Time
	SourceURL      string
	Paths          []string
	Tool           string
	ToolVersion    string
	Conformance    string
	Actions        []Action
	DynamicActions []DynamicAction
}

// Bool returns a pointer to b, for the optional booleans of Action.
func Bool(b bool) *bool { return &b }
