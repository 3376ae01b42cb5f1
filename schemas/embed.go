// Package schemas embeds the published JSON Schema files of the
// axiom-agent-semantic/v1 protocol, so that they ship inside the binaries.
// The files are the authoritative definition of the wire format; package
// internal/agent/schema compiles and applies them.
package schemas

import "embed"

// FS holds every schema file (and index.json) under its path relative to
// this directory, for example "operations/node.find.request.json".
//
//go:embed *.json operations/*.json
var FS embed.FS
