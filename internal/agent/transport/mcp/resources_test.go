package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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

// TestLanguageIsOffered reads the element catalog and the graph kinds as
// the resource and through the capabilities tool: the same document, with
// what an agent needs to write a Button without docs/language.md.
func TestLanguageIsOffered(t *testing.T) {
	cs := connect(t, taskApp(t))
	ctx := context.Background()
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, LanguageURI) {
		t.Errorf("the instructions do not name %s", LanguageURI)
	}
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: LanguageURI})
	if err != nil {
		t.Fatal(err)
	}
	var resource map[string]any
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" {
		t.Fatalf("contents %+v", res.Contents)
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &resource); err != nil {
		t.Fatal(err)
	}
	call, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "capabilities", Arguments: map[string]any{"params": map[string]any{}}})
	if err != nil || call.IsError {
		t.Fatalf("capabilities: %v %v", err, call)
	}
	b, _ := json.Marshal(call.StructuredContent)
	var env struct {
		Result struct {
			Languages []map[string]any `json:"languages"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatal(err)
	}
	if len(env.Result.Languages) != 1 || !reflect.DeepEqual(env.Result.Languages[0], resource) {
		t.Fatalf("capabilities' languages differ from the resource:\n%s\n%s", b, res.Contents[0].Text)
	}
	var button map[string]any
	for _, e := range resource["elements"].([]any) {
		if e := e.(map[string]any); e["name"] == "Button" {
			button = e
		}
	}
	props := map[string]map[string]any{}
	for _, p := range button["properties"].([]any) {
		p := p.(map[string]any)
		props[p["name"].(string)] = p
	}
	if button["primary"] != "label" || props["label"]["type"] != "String" || props["label"]["required"] != true ||
		props["on_press"]["type"] != "Action" || !reflect.DeepEqual(props["variant"]["values"], []any{"primary", "secondary", "danger", "link"}) {
		t.Errorf("Button is %v", button)
	}
	kinds := map[string]bool{}
	for _, k := range resource["node_kinds"].([]any) {
		kinds[k.(string)] = true
	}
	deps := map[string]bool{}
	for _, k := range resource["edge_kinds"].([]any) {
		k := k.(map[string]any)
		deps[k["kind"].(string)] = k["dependency"].(bool)
	}
	if !kinds["element"] || !kinds["prop"] || !deps["triggers"] || deps["child_of"] {
		t.Errorf("node kinds %v, edge kinds %v", resource["node_kinds"], resource["edge_kinds"])
	}
}
