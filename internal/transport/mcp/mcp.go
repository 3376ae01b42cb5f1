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

	"github.com/axiomcore/acore/internal/protocol"
	"github.com/axiomcore/acore/internal/service"
	"github.com/axiomcore/acore/schemas"
)

// Name is the MCP server name.
const Name = "acore-semantic"

// MaxLineLength bounds one JSON-RPC message. It leaves room for a tools/call
// whose arguments are over request_max_bytes, so that the service answers
// it with resource_limit (request_too_large) instead of the transport.
const MaxLineLength = 2 * protocol.RequestMaxBytes

const instructions = `acore-semantic serves axiom-agent-semantic/v1 for one Acore UI project, the --root it was started with. ` +
	`Each tool is one operation (node_find is node.find). Its arguments are the request envelope without protocol and operation ` +
	`(workspace is filled in; snapshot, base_snapshot, request_id, limits and params as the operation takes them). ` +
	`The result's structured content is the response envelope. Call capabilities first and use only what it lists.`

// descriptions are the first sentence of each operation in the protocol
// reference.
var descriptions = map[string]string{
	"capabilities":     "The manifest of what this service serves: each operation and edit kind with its status (implemented, partial or planned), profiles, checks, limits, publication guarantees and error codes; call it first.",
	"workspace.open":   "Attaches the project root and captures a snapshot.",
	"project.overview": "Modules with their owners (pages and components), imports and diagnostic counts, entry points, imported contracts and diagnostics.",
	"node.find":        "Finds nodes by a case-insensitive substring of their name, id or a string literal property value, with optional kind, owner and path filters.",
	"node.get":         "Properties, edges, source and an edit summary for up to 50 node ids.",
	"node.edits":       "The edits each node accepts now.",
	"graph.query":      "Relationships from compiler facts: dependencies (outgoing), dependents (incoming), references (incoming use sites) or paths (from from to to).",
	"context.build":    "A bounded slice of the project for a task.",
	"impact.analyze":   "Everything that depends on the targets, transitively up to limits.max_depth levels, with the edge that links each impacted node.",
	"changes.since":    "What changed between an older snapshot (since) and the request's snapshot: changed files with digests, and where the nodes you hold (scope.nodes) are now.",
	"node.relocate":    "Maps up to 200 node ids from an older snapshot (from_snapshot) to the request's snapshot, one entry per id in request order.",
	"edit.plan":        "A dry run of change.propose: the same operations, checked by the same rules, returning the owners, files and required checks.",
	"change.propose":   "Applies 1 to 50 edit operations, in order, to a private copy of base_snapshot, compiles the result and returns a candidate.",
	"change.inspect":   "What a candidate changes: a semantic diff (each changed node and property, with expected: false for a change no operation asked for), a source diff or full content, affected nodes, risks and checks.",
	"check.run":        "Runs checks on a candidate, or on a snapshot plus unsaved file contents (files, each with the SHA-256 of the file it replaces).",
	"change.apply":     "Writes a candidate to the project and returns a receipt.",
	"change.discard":   "Closes an open candidate and releases it.",
}

// readOnly are the operations that change nothing: neither the project nor
// the service's candidates.
var readOnly = map[string]bool{
	"capabilities": true, "workspace.open": true, "project.overview": true, "node.find": true, "node.get": true,
	"node.edits": true, "graph.query": true, "context.build": true, "impact.analyze": true, "changes.since": true,
	"node.relocate": true, "edit.plan": true, "change.inspect": true, "check.run": true,
}

// ToolName is the MCP tool of an operation: node.find is node_find.
func ToolName(op string) string { return strings.ReplaceAll(op, ".", "_") }

var (
	schemasOnce sync.Once
	toolSchemas map[string]map[string]any
	schemasErr  error
)

// InputSchemas returns the bundled input schema of every operation's tool,
// by operation. Callers must not modify them.
func InputSchemas() (map[string]map[string]any, error) {
	schemasOnce.Do(func() {
		set, err := loadSchemas(schemas.FS)
		if err != nil {
			schemasErr = fmt.Errorf("schemas: %w", err)
			return
		}
		toolSchemas = map[string]map[string]any{}
		for _, op := range protocol.Operations {
			s, err := set.toolSchema(op)
			if err != nil {
				schemasErr = fmt.Errorf("schemas: tool %s: %w", ToolName(op), err)
				return
			}
			toolSchemas[op] = s
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
	for _, op := range protocol.Operations {
		ann := &sdk.ToolAnnotations{Title: op, ReadOnlyHint: readOnly[op], OpenWorldHint: &closed}
		switch op {
		case "change.apply":
			destructive := true // it overwrites project files
			ann.DestructiveHint, ann.IdempotentHint = &destructive, true
		case "change.propose", "change.discard":
			ann.DestructiveHint = &closed
		}
		srv.AddTool(&sdk.Tool{
			Name:        ToolName(op),
			Title:       op,
			Description: descriptions[op],
			InputSchema: inputs[op],
			Annotations: ann,
		}, handler(svc, op))
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
