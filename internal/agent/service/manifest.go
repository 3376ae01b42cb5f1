package service

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/axiomcore/acore/internal/agent/publish"

	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/lang/load"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// EditKinds are the edit families of v1.
var EditKinds = []string{"set_property", "bind_property", "list_element", "declaration", "set_reference", "import", "replace_region",
	"file", "rename", "route"}

// editKindDetails are additive fields of edit_kinds entries: the node
// kinds the declaration family creates, updates or removes, and that
// set_property also adds a property not written yet.
var editKindDetails = map[string]map[string]any{
	"declaration":  {"declaration_kinds": []string{"page", "component", "model", "extension", "prop", "state", "let", "query", "mutation", "action", "contract_operation"}},
	"set_property": {"adds_unwritten": true},
	// rename covers every kind issue 28 lists; prop includes a page's
	// parameter, with its routes' :segments.
	"rename": {"rename_kinds": []string{"page", "component", "prop", "state", "let", "query", "mutation", "action", "model", "field", "extension", "route"}},
}

// buildManifest returns the capability manifest and its fingerprint: the
// SHA-256 of the manifest's compact JSON with sorted keys.
func buildManifest() (map[string]any, string) {
	var ops []any
	for _, op := range table {
		// Every operation of the table has a handler: all are implemented.
		ops = append(ops, map[string]any{"name": op.Name, "status": "implemented", "since": Version})
	}
	var kinds []any
	for _, k := range EditKinds {
		// The edit engine (internal/agent/edit) applies every family.
		kind := map[string]any{"kind": k, "status": "implemented"}
		for f, v := range editKindDetails[k] {
			kind[f] = v
		}
		kinds = append(kinds, kind)
	}
	m := map[string]any{
		"protocol":   map[string]any{"name": protocol.Name, "status": "frozen", "frozen_operations": FrozenOperations()},
		"service":    map[string]any{"name": "acore-semantic", "version": Version},
		"operations": ops,
		"edit_kinds": kinds,
		"profiles":   []any{map[string]any{"name": "acore-ui", "status": "implemented", "targets": []string{"web"}}},
		"limits": map[string]any{
			"defaults": protocol.DefaultLimits,
			"maximums": protocol.MaxLimits,
			"bounds": map[string]any{
				"request_max_bytes":       protocol.RequestMaxBytes,
				"timeout_ms":              protocol.TimeoutMS,
				"group_compile_budget_ms": protocol.GroupCompileBudgetMS,
				"brackets_max":            syntax.BracketsMax,
				"brackets_total_max":      syntax.BracketsTotalMax,
				"check_content_max_bytes": protocol.CheckContentMaxBytes,
				"check_files_max":         protocol.CheckFilesMax,
				"import_depth_max":        16,
				"json_depth_max":          protocol.JSONDepthMax,
				"nesting_max":             syntax.NestingMax,
				"operations_max":          protocol.OperationsMax,
				"snapshot_bytes_max":      load.SnapshotBytesMax,
				"source_file_bytes_max":   load.SourceFileBytesMax,
				"source_files_max":        load.SourceFilesMax,
				"sources_bytes_max":       load.SourcesBytesMax,
			},
		},
		"checks":      []any{map[string]any{"name": "compile", "status": "implemented"}, map[string]any{"name": "repair", "status": "implemented"}, map[string]any{"name": "axag", "status": "implemented"}},
		"publication": []any{map[string]any{"profile": "local_filesystem", "status": "implemented", "guarantees": publish.Guarantees}},
		"error_codes": protocol.ErrorCodes,
		"external_writes": map[string]any{
			"detection": "content_hash",
			"detail":    "every read compares the snapshot's SHA-256 of each input with the files on disk and reports snapshot.disk.state",
		},
	}
	b, _ := json.Marshal(m) // map keys marshal sorted: a canonical form
	sum := sha256.Sum256(b)
	return m, hex.EncodeToString(sum[:])
}

// Manifest returns the capability manifest of this build.
func Manifest() map[string]any {
	m, _ := buildManifest()
	return m
}
