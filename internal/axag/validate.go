package axag

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	axagschemas "github.com/axiomcore/acore/schemas/axag"
	"github.com/axiomcore/acore/third_party/jsonschema"
)

// Schema $ids.
const (
	SchemaID100 = "https://axag.org/schema/manifest/1.0.0"
	SchemaID110 = "https://axag.org/schema/v1.1/axag-manifest.schema.json"
)

// SchemaFor returns the embedded schema bytes of a version.
func SchemaFor(version string) ([]byte, error) {
	switch version {
	case Version100:
		return axagschemas.V100, nil
	case Version110:
		return axagschemas.V110, nil
	}
	return nil, fmt.Errorf("unknown schema version %q (want %s or %s)", version, Version100, Version110)
}

type offline struct{}

func (offline) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema %s is not one of the embedded AXAG schemas (no network or file loading)", url)
}

var compiled = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	comp := jsonschema.NewCompiler()
	comp.UseLoader(offline{})
	comp.AssertFormat()
	comp.DefaultDraft(jsonschema.Draft2020)
	ids := map[string]string{Version100: SchemaID100, Version110: SchemaID110}
	for _, v := range []string{Version100, Version110} {
		data, _ := SchemaFor(v)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("axag schema %s: %v", v, err)
		}
		if id, _ := doc.(map[string]any)["$id"].(string); id != ids[v] {
			return nil, fmt.Errorf("axag schema %s: $id %q, want %q", v, id, ids[v])
		}
		if err := comp.AddResource(ids[v], doc); err != nil {
			return nil, fmt.Errorf("axag schema %s: %v", v, err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for v, id := range ids {
		s, err := comp.Compile(id)
		if err != nil {
			return nil, fmt.Errorf("axag schema %s: %v", v, err)
		}
		out[v] = s
	}
	return out, nil
})

// Problem is one schema violation: where in the manifest (a JSON pointer,
// "" for the root) and what is wrong.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// ValidationReport is the outcome of Validate.
type ValidationReport struct {
	// Version is the schema used; Forced says it was asked for rather
	// than detected.
	Version  string    `json:"schema_version"`
	Forced   bool      `json:"forced,omitempty"`
	Valid    bool      `json:"valid"`
	Problems []Problem `json:"problems,omitempty"`
}

// Validate checks a manifest against the embedded schema of version, or,
// when version is "", of the version and shape the document declares (see
// DetectVersion). The error is for input that is not JSON or an unknown
// version; schema violations are in the report.
func Validate(manifest []byte, version string) (*ValidationReport, error) {
	r := &ValidationReport{Version: version, Forced: version != ""}
	// Detect even when forced: a manifest of an unknown major version is
	// refused whichever schema is asked for.
	v, err := DetectVersion(manifest)
	if err != nil {
		return nil, err
	}
	if version == "" {
		r.Version = v
	}
	if _, err := SchemaFor(r.Version); err != nil {
		return nil, err
	}
	schemas, err := compiled()
	if err != nil {
		return nil, err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(manifest))
	if err != nil {
		return nil, fmt.Errorf("manifest is not valid JSON: %v", err)
	}
	verr := schemas[r.Version].Validate(inst)
	if verr == nil {
		r.Valid = true
		return r, nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return nil, verr
	}
	seen := map[Problem]bool{}
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			p := Problem{Path: "/" + strings.Join(escapePointer(e.InstanceLocation), "/"), Message: e.ErrorKind.LocalizedString(printer)}
			if p.Path == "/" {
				p.Path = ""
			}
			if !seen[p] {
				seen[p] = true
				r.Problems = append(r.Problems, p)
			}
			return
		}
		for _, c := range e.Causes {
			leaves(c)
		}
	}
	leaves(ve)
	if len(r.Problems) == 0 {
		r.Problems = []Problem{{Message: ve.Error()}}
	}
	sort.SliceStable(r.Problems, func(i, j int) bool { return r.Problems[i].Path < r.Problems[j].Path })
	return r, nil
}

var printer = message.NewPrinter(language.English)

func escapePointer(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return out
}
