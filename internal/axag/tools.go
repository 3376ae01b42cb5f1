package axag

import (
	"strings"
)

// Tool is one entry of the MCP tool registry: one per action.
type Tool struct {
	Name        string       `json:"name"`
	Description string       `json:"description"`
	InputSchema ToolSchema   `json:"input_schema"`
	Metadata    ToolMetadata `json:"metadata"`
}

// ToolSchema is the JSON Schema of a tool's arguments.
type ToolSchema struct {
	Type       string                    `json:"type"`
	Properties map[string]map[string]any `json:"properties"`
	Required   []string                  `json:"required"`
}

// ToolMetadata carries the action's safety facts to the agent runtime.
type ToolMetadata struct {
	ActionType           string `json:"action_type"`
	RiskLevel            string `json:"risk_level,omitempty"`
	Idempotent           *bool  `json:"idempotent,omitempty"`
	ConfirmationRequired *bool  `json:"confirmation_required,omitempty"`
	ApprovalRequired     *bool  `json:"approval_required,omitempty"`
	SourceIntent         string `json:"source_intent"`
	SourceEntity         string `json:"source_entity"`
}

// ToolRegistry is the file axag tools writes.
type ToolRegistry struct {
	Version string `json:"version"`
	Tools   []Tool `json:"tools"`
}

// ToolName is the intent with "." replaced by "_".
func ToolName(intent string) string { return strings.ReplaceAll(intent, ".", "_") }

// Tools turns a manifest into the MCP tool registry, tools sorted by name.
func Tools(m *Manifest) *ToolRegistry {
	reg := &ToolRegistry{Version: Version110, Tools: []Tool{}}
	for _, a := range m.Actions {
		a = Normalize(a)
		t := Tool{
			Name:        ToolName(a.Intent),
			Description: a.Description,
			InputSchema: ToolSchema{Type: "object", Properties: map[string]map[string]any{}, Required: []string{}},
			Metadata: ToolMetadata{
				ActionType: a.ActionType, RiskLevel: a.RiskLevel, Idempotent: a.Idempotent,
				ConfirmationRequired: a.ConfirmationRequired, ApprovalRequired: a.ApprovalRequired,
				SourceIntent: a.Intent, SourceEntity: a.Entity,
			},
		}
		if t.Description == "" {
			t.Description = a.Intent
		}
		for _, n := range sortedParams(a.Parameters) {
			p := a.Parameters[n]
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
			t.InputSchema.Properties[n] = s
			if p.Required {
				t.InputSchema.Required = append(t.InputSchema.Required, n)
			}
		}
		reg.Tools = append(reg.Tools, t)
	}
	return reg
}
