// Package docs embeds the documents the binaries serve: the agent skill,
// which acore-semantic mcp offers as a resource and a prompt.
package docs

import _ "embed"

// AgentSkill is agent-skill.md: how an agent reads and changes a project
// through acore-semantic.
//
//go:embed agent-skill.md
var AgentSkill string
