package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/schemas"
)

// TestSkillAndSchemasAreOffered reads what the tool list leaves out: the
// agent skill as a resource and a prompt, and the published schemas at
// their $id, each the file as it is on disk.
func TestSkillAndSchemasAreOffered(t *testing.T) {
	cs := connect(t, taskApp(t))
	ctx := context.Background()
	skill, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "agent-skill.md"))
	if err != nil {
		t.Fatal(err)
	}
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, SkillURI) || !strings.Contains(ins, SkillPrompt) || !strings.Contains(ins, SchemaBase) {
		t.Errorf("the instructions do not say where the skill and the schemas are: %s", ins)
	}

	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, r := range list.Resources {
		uris[r.URI] = true
	}
	for _, tc := range []struct{ uri, file string }{
		{SkillURI, string(skill)},
		{SchemaBase + "edits.json", readSchema(t, "edits.json")},
		{SchemaBase + "operations/change.propose.request.json", readSchema(t, "operations/change.propose.request.json")},
		{SchemaBase + "index.json", readSchema(t, "index.json")},
	} {
		if !uris[tc.uri] {
			t.Errorf("%s is not listed", tc.uri)
		}
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: tc.uri})
		if err != nil {
			t.Errorf("%s: %v", tc.uri, err)
			continue
		}
		if len(res.Contents) != 1 || res.Contents[0].Text != tc.file || res.Contents[0].URI != tc.uri {
			t.Errorf("%s: the contents are not the file", tc.uri)
		}
	}
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: SchemaBase + "nothing.json"}); err == nil {
		t.Error("an unknown resource was read")
	}

	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != SkillPrompt {
		t.Fatalf("prompts %+v", prompts.Prompts)
	}
	p, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: SkillPrompt})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Messages) != 1 || p.Messages[0].Role != "user" {
		t.Fatalf("prompt messages %+v", p.Messages)
	}
	if text, ok := p.Messages[0].Content.(*sdk.TextContent); !ok || text.Text != string(skill) {
		t.Errorf("the prompt is not the skill")
	}
}

func readSchema(t *testing.T, p string) string {
	t.Helper()
	b, err := schemas.FS.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
