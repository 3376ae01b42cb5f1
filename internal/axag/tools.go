package axag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Tool is one tool definition as the Model Context Protocol defines it
// (the Tool of a tools/list result): one per action. The safety facts are
// in Metadata (the tool's _meta, keys prefixed "axag/"), the ones an agent
// must not miss in the description too, and the MCP hints in Annotations.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema ToolSchema      `json:"inputSchema"`
	Annotations ToolAnnotations `json:"annotations"`
	Metadata    ToolMetadata    `json:"_meta"`
}

// ToolSchema is the JSON Schema of a tool's arguments.
type ToolSchema struct {
	Type       string                    `json:"type"`
	Properties map[string]map[string]any `json:"properties"`
	Required   []string                  `json:"required"`
}

// ToolAnnotations are the MCP tool annotations: hints for clients, derived
// from the action's type, risk and idempotency.
type ToolAnnotations struct {
	// Title is the action's intent, a readable name.
	Title string `json:"title,omitempty"`
	// ReadOnlyHint: the action is a read or a navigation.
	ReadOnlyHint bool `json:"readOnlyHint"`
	// DestructiveHint (meaningful only when not read-only): true for a
	// delete, and for a write unless its risk is declared none or low; an
	// undeclared risk counts as destructive.
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	// IdempotentHint: reads and navigations, and actions declaring
	// idempotent true; false when undeclared.
	IdempotentHint bool `json:"idempotentHint"`
}

// ToolMetadata carries every safety fact of the action to the agent
// runtime. The three booleans are always written (false when the manifest
// does not declare them); lists are written when declared, an empty list
// meaning "declared as none".
type ToolMetadata struct {
	ActionType           string    `json:"axag/action_type"`
	RiskLevel            string    `json:"axag/risk_level,omitempty"`
	Idempotent           *bool     `json:"axag/idempotent"`
	ConfirmationRequired *bool     `json:"axag/confirmation_required"`
	ApprovalRequired     *bool     `json:"axag/approval_required"`
	ApprovalRoles        *[]string `json:"axag/approval_roles,omitempty"`
	RequiredRoles        *[]string `json:"axag/required_roles,omitempty"`
	Scope                string    `json:"axag/scope,omitempty"`
	TenantBoundary       string    `json:"axag/tenant_boundary,omitempty"`
	Preconditions        *[]string `json:"axag/preconditions,omitempty"`
	Postconditions       *[]string `json:"axag/postconditions,omitempty"`
	SideEffects          *[]string `json:"axag/side_effects,omitempty"`
	Async                *bool     `json:"axag/async,omitempty"`
	OperationID          string    `json:"axag/operation_id,omitempty"`
	SourceIntent         string    `json:"axag/source_intent"`
	SourceEntity         string    `json:"axag/source_entity"`
}

// ToolRegistry is the file axag tools writes: an MCP tools/list result,
// {"_meta": {"axag/version": Version}, "tools": [...]}.
type ToolRegistry struct {
	// Version is the AXAG manifest version the tools were made from.
	Version string
	Tools   []Tool
}

type registryJSON struct {
	Meta  map[string]string `json:"_meta"`
	Tools []Tool            `json:"tools"`
}

// MarshalJSON writes the registry as an MCP tools/list result.
func (r ToolRegistry) MarshalJSON() ([]byte, error) {
	tools := r.Tools
	if tools == nil {
		tools = []Tool{}
	}
	// Descriptions and patterns quote sources: keep <, > and & as they are.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(registryJSON{Meta: map[string]string{"axag/version": r.Version}, Tools: tools}); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *ToolRegistry) UnmarshalJSON(data []byte) error {
	var w registryJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	r.Version, r.Tools = w.Meta["axag/version"], w.Tools
	return nil
}

// ToolName is the intent with "." replaced by "_".
func ToolName(intent string) string { return strings.ReplaceAll(intent, ".", "_") }

// Tools turns a manifest into the MCP tool registry, tools sorted by name.
func Tools(m *Manifest) *ToolRegistry {
	reg := &ToolRegistry{Version: Version110, Tools: []Tool{}}
	for _, a := range m.Actions {
		a = Normalize(a)
		readOnly := a.ActionType == "read" || a.ActionType == "navigate"
		t := Tool{
			Name:        ToolName(a.Intent),
			Description: toolDescription(a),
			InputSchema: ToolSchema{Type: "object", Properties: map[string]map[string]any{}, Required: []string{}},
			Annotations: ToolAnnotations{Title: a.Intent, ReadOnlyHint: readOnly},
			Metadata: ToolMetadata{
				ActionType: a.ActionType, RiskLevel: a.RiskLevel,
				Idempotent:           Bool(readOnly && a.Idempotent == nil || declared(a.Idempotent)),
				ConfirmationRequired: Bool(declared(a.ConfirmationRequired)),
				ApprovalRequired:     Bool(declared(a.ApprovalRequired)),
				ApprovalRoles:        list(a.ApprovalRoles), RequiredRoles: list(a.RequiredRoles),
				Scope: a.Scope, TenantBoundary: a.TenantBoundary,
				Preconditions: list(a.Preconditions), Postconditions: list(a.Postconditions), SideEffects: list(a.SideEffects),
				Async: a.Async, OperationID: a.OperationID, SourceIntent: a.Intent, SourceEntity: a.Entity,
			},
		}
		t.Annotations.IdempotentHint = *t.Metadata.Idempotent
		if !readOnly {
			t.Annotations.DestructiveHint = Bool(a.ActionType == "delete" || !slices.Contains([]string{"none", "low"}, a.RiskLevel))
		}
		for _, n := range sortedParams(a.Parameters) {
			p := a.Parameters[n]
			t.InputSchema.Properties[n] = paramSchema(p)
			if p.Required {
				t.InputSchema.Required = append(t.InputSchema.Required, n)
			}
		}
		reg.Tools = append(reg.Tools, t)
	}
	return reg
}

func declared(b *bool) bool { return b != nil && *b }

// toolDescription is the action's description (its intent when it has
// none) followed by the facts an agent must not miss: confirmation,
// approval and who approves, required roles, and the risk of a mutation.
// Agents read descriptions even when they ignore metadata.
func toolDescription(a Action) string {
	d := strings.TrimSpace(a.Description)
	if d == "" {
		d = a.Intent
	}
	var facts []string
	if a.RiskLevel != "" && a.ActionType != "read" && a.ActionType != "navigate" {
		facts = append(facts, "risk "+a.RiskLevel)
	}
	if declared(a.ConfirmationRequired) {
		facts = append(facts, "the user must confirm before it runs")
	}
	if declared(a.ApprovalRequired) {
		s := "it needs approval"
		if len(a.ApprovalRoles) > 0 {
			s += " by " + strings.Join(a.ApprovalRoles, " or ")
		}
		facts = append(facts, s)
	}
	if len(a.RequiredRoles) > 0 {
		facts = append(facts, "only for the roles "+strings.Join(a.RequiredRoles, ", "))
	}
	if a.ActionType == "write" || a.ActionType == "delete" {
		if !declared(a.Idempotent) {
			facts = append(facts, "not idempotent: do not retry blindly")
		}
	}
	if len(facts) == 0 {
		return d
	}
	if !strings.HasSuffix(d, ".") {
		d += "."
	}
	return fmt.Sprintf("%s Safety: %s.", d, strings.Join(facts, "; "))
}

// paramSchema is the JSON Schema of one parameter (formats in JSON Schema
// terms: datetime is date-time, url is uri).
func paramSchema(p Parameter) map[string]any {
	s := map[string]any{"type": paramType(p.Type)}
	if p.Description != "" {
		s["description"] = p.Description
	}
	if p.Enum != nil {
		s["enum"] = p.Enum
	}
	if p.Minimum != nil {
		s["minimum"] = *p.Minimum
	}
	if p.Maximum != nil {
		s["maximum"] = *p.Maximum
	}
	if p.MinLength != nil {
		s["minLength"] = *p.MinLength
	}
	if p.MaxLength != nil {
		s["maxLength"] = *p.MaxLength
	}
	if p.Pattern != "" {
		s["pattern"] = p.Pattern
	}
	switch p.Format {
	case "":
	case "datetime":
		s["format"] = "date-time"
	case "url":
		s["format"] = "uri"
	default:
		s["format"] = p.Format
	}
	if p.HasDefault || p.Default != nil {
		s["default"] = p.Default
	}
	if p.Items != nil {
		s["items"] = p.Items
	}
	if p.Properties != nil {
		s["properties"] = p.Properties
	}
	return s
}
