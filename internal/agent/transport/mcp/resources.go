package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/docs"
	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/schemas"
)

// What the tool list leaves out is offered once, on demand: the agent
// skill as a resource and a prompt, and every published schema as a
// resource under its $id.

// SkillURI is the agent skill's resource.
const SkillURI = "acore-semantic:///docs/agent-skill.md"

// SkillPrompt is the prompt that hands an agent the skill.
const SkillPrompt = "acore_semantic_skill"

// LanguageURI is the resource of the acore-ui profile's language: its
// element catalog and its graph's node and edge kinds, as capabilities
// returns them in languages.
const LanguageURI = "acore-semantic:///languages/acore-ui.json"

// SchemaBase is the $id prefix of the published schemas, which are
// resources at their $id.
const SchemaBase = "https://schemas.axiomcore.dev/agent-semantic/v1/"

// addResources adds the skill (resource and prompt) and the published
// schemas to srv.
func addResources(srv *sdk.Server) error {
	skill := docs.AgentSkill
	srv.AddResource(&sdk.Resource{
		URI:         SkillURI,
		Name:        "agent-skill",
		Title:       "Working on an Acore UI project with acore-semantic",
		Description: "The workflow from capabilities to change_apply, request_id, acting on errors, recovery after an interrupted apply.",
		MIMEType:    "text/markdown",
		Size:        int64(len(skill)),
	}, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: SkillURI, MIMEType: "text/markdown", Text: skill}}}, nil
	})
	srv.AddPrompt(&sdk.Prompt{
		Name:        SkillPrompt,
		Title:       "acore-semantic skill",
		Description: "How to read and change this Acore UI project through these tools: the agent skill.",
	}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{
			Description: "The acore-semantic agent skill.",
			Messages:    []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: skill}}},
		}, nil
	})

	lang, err := json.MarshalIndent(service.ProfileLanguage, "", "  ")
	if err != nil {
		return err
	}
	srv.AddResource(&sdk.Resource{
		URI:         LanguageURI,
		Name:        "language-acore-ui",
		Title:       "The acore-ui element catalog and graph kinds",
		Description: "Every built-in element with its properties, their types, whether required, allowed values and minimums; the node kinds and edge kinds of graph answers (a language entry of common.json).",
		MIMEType:    "application/json",
		Size:        int64(len(lang)),
	}, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: LanguageURI, MIMEType: "application/json", Text: string(lang)}}}, nil
	})

	var files []string
	err = fs.WalkDir(schemas.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	for _, p := range files {
		b, err := fs.ReadFile(schemas.FS, p)
		if err != nil {
			return err
		}
		var head struct {
			ID    string `json:"$id"`
			Title string `json:"title"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		uri := head.ID
		if uri == "" {
			uri = SchemaBase + p // index.json
		}
		text := string(b)
		srv.AddResource(&sdk.Resource{
			URI:      uri,
			Name:     p,
			Title:    head.Title,
			MIMEType: "application/schema+json",
			Size:     int64(len(b)),
		}, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/schema+json", Text: text}}}, nil
		})
	}
	return nil
}
