// Package mcp serves axiom-agent-semantic/v1 over MCP on stdio
// (acore-semantic mcp), with the MCP SDK's server on a newline-delimited
// JSON-RPC transport of its own (see lineTransport).
//
// Each operation is a tool named with _ for . (node_find). A tool's
// arguments are the request envelope without protocol and operation; the
// handler adds those two, the service fills in the workspace, and
// service.Handle answers, exactly as for the one-shot command and serve.
// The tool result's structuredContent is the response envelope, also given
// as JSON text content, and isError is set when the envelope has error.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/schema"
	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/schemas"
)

// Name is the MCP server name.
const Name = "acore-semantic"

// MaxLineLength bounds one JSON-RPC message. It leaves room for a tools/call
// whose arguments are over request_max_bytes, so that the service answers
// it with resource_limit (request_too_large) instead of the transport.
const MaxLineLength = 2 * protocol.RequestMaxBytes

// instructions are sent once, at initialization: what every tool shares,
// which the tool list leaves out (see compact.go).
const instructions = `acore-semantic serves axiom-agent-semantic/v1 for one Acore UI project, the --root it was started with. ` +
	`Each tool is one operation (node_find is node.find). Its arguments are the request envelope without protocol and operation: ` +
	`workspace is filled in; snapshot is a snapshot id from an earlier answer or latest; base_snapshot (change_propose, edit_plan) is the id the edits are written against, never latest; ` +
	`request_id is an idempotency key you choose; limits (max_bytes, max_depth, max_items, max_nodes) take the defaults capabilities lists; params are the operation's arguments. ` +
	`The result's structured content is the response envelope. Call capabilities first and use only what it lists. ` +
	`The workflow, request_id and what to do on each error are in the agent skill (resource ` + SkillURI + `, prompt ` + SkillPrompt + `); ` +
	`the element catalog (each element's properties, types and allowed values) and the graph's node and edge kinds are the resource ` + LanguageURI + ` (and capabilities' languages); ` +
	`the full published schemas, with every field's description, are resources under ` + SchemaBase + `.`

// ToolName is the MCP tool of an operation: node.find is node_find.
func ToolName(op string) string { return strings.ReplaceAll(op, ".", "_") }

var (
	schemasOnce sync.Once
	toolSchemas map[string]map[string]any
	schemasErr  error
)

// InputSchemas returns the input schema every operation's tool lists, by
// operation: bundled and compact (see compact.go). Callers must not modify
// them.
func InputSchemas() (map[string]map[string]any, error) {
	schemasOnce.Do(func() {
		set, err := loadSchemas(schemas.FS)
		if err != nil {
			schemasErr = fmt.Errorf("schemas: %w", err)
			return
		}
		toolSchemas = map[string]map[string]any{}
		for _, op := range schema.Operations() {
			full, err := set.toolSchema(op)
			if err == nil {
				toolSchemas[op], err = compactSchema(full, op)
			}
			if err != nil {
				schemasErr = fmt.Errorf("schemas: tool %s: %w", ToolName(op), err)
				return
			}
		}
	})
	return toolSchemas, schemasErr
}

// NewServer returns an MCP server with one tool per operation, answered by
// svc.
func NewServer(svc *service.Service) (*sdk.Server, error) {
	inputs, err := InputSchemas()
	if err != nil {
		return nil, err
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: Name, Version: service.Version},
		&sdk.ServerOptions{Instructions: instructions, Capabilities: &sdk.ServerCapabilities{}})
	closed := false
	for _, op := range service.Operations() {
		ann := &sdk.ToolAnnotations{ReadOnlyHint: op.ReadOnly, OpenWorldHint: &closed}
		if !op.ReadOnly {
			// Only a destructive operation overwrites project files, and it
			// is idempotent by request_id.
			destructive := op.Destructive
			ann.DestructiveHint, ann.IdempotentHint = &destructive, op.Destructive
		}
		srv.AddTool(&sdk.Tool{
			Name:        ToolName(op.Name),
			Description: op.Doc,
			InputSchema: inputs[op.Name],
			Annotations: ann,
		}, handler(svc, op.Name))
	}
	if err := addResources(srv); err != nil {
		return nil, err
	}
	return srv, nil
}

// Serve answers MCP on in and out (newline-delimited JSON-RPC) until in
// ends or ctx is cancelled.
func Serve(ctx context.Context, svc *service.Service, in io.Reader, out io.Writer) error {
	srv, err := NewServer(svc)
	if err != nil {
		return err
	}
	return srv.Run(ctx, &lineTransport{in: in, out: out, maxLine: MaxLineLength, stop: svc.Stopping()})
}

func handler(svc *service.Service, op string) sdk.ToolHandler {
	opJSON, _ := json.Marshal(op)
	protoJSON, _ := json.Marshal(protocol.Name)
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		env := map[string]json.RawMessage{}
		if args := bytes.TrimSpace(req.Params.Arguments); len(args) > 0 && !bytes.Equal(args, []byte("null")) {
			if err := json.Unmarshal(args, &env); err != nil || env == nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
					Message: fmt.Sprintf("%s: the arguments must be a JSON object, the request envelope without protocol and operation", ToolName(op))}
			}
		}
		// The tool chooses the operation, and MCP speaks one protocol.
		env["protocol"], env["operation"] = protoJSON, opJSON
		var raw bytes.Buffer
		enc := json.NewEncoder(&raw)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(env); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s: %v", ToolName(op), err)}
		}
		resp := svc.Handle(ctx, raw.Bytes())
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: string(resp)}},
			StructuredContent: json.RawMessage(resp),
			IsError:           hasError(resp),
		}, nil
	}
}

// hasError reports whether a response envelope is an error.
func hasError(resp []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(resp, &top) != nil {
		return true
	}
	e, ok := top["error"]
	return ok && !bytes.Equal(bytes.TrimSpace(e), []byte("null"))
}
