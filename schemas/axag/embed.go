// Package axag embeds the two JSON Schemas (draft 2020-12) of the AXAG
// semantic manifest: 1.0.0, the "entities" shape printed in the AXAG
// schema-conformance specification, and 1.1.0, the "actions" shape the
// reference tooling emits. Package internal/axag compiles and applies them.
//
// The files end in .schema rather than .json so that they stay out of the
// protocol schema set of the parent directory (whose index lists every
// .json file under schemas/).
package axag

import _ "embed"

// V100 is the 1.0.0 schema, $id https://axag.org/schema/manifest/1.0.0.
//
//go:embed axag-manifest-1.0.0.schema
var V100 []byte

// V110 is the 1.1.0 schema, $id https://axag.org/schema/v1.1/axag-manifest.schema.json.
//
//go:embed axag-manifest-1.1.0.schema
var V110 []byte
