package schema

import (
	"testing"

	"github.com/axiomcore/acore/third_party/jsonschema"
)

// TestMetaschemaStillChecks: the JSON Schema library (patched to compile
// its metaschemas when first needed, third_party/jsonschema) still
// refuses a schema its draft's metaschema refuses, on first use and from
// many goroutines at once.
func TestMetaschemaStillChecks(t *testing.T) {
	bad := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 5}
	good := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string"}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			c := jsonschema.NewCompiler()
			if err := c.AddResource("mem://bad.json", bad); err != nil {
				errs <- err
				return
			}
			if err := c.AddResource("mem://good.json", good); err != nil {
				errs <- err
				return
			}
			if _, err := c.Compile("mem://good.json"); err != nil {
				errs <- err
				return
			}
			_, err := c.Compile("mem://bad.json")
			if _, ok := err.(*jsonschema.SchemaValidationError); !ok {
				t.Errorf("a schema with \"type\": 5 compiled: %v", err)
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// The service's compilers skip the check (newCompiler).
	c := jsonschema.NewCompiler()
	c.SkipMetaschemaCheck()
	if err := c.AddResource("mem://bad.json", bad); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile("mem://bad.json"); err != nil {
		t.Errorf("SkipMetaschemaCheck: %v", err)
	}
}

// TestEveryFileMatchesItsMetaschema compiles each embedded file with a
// compiler that checks it against its draft's metaschema, which the
// service's compilers skip (newCompiler).
func TestEveryFileMatchesItsMetaschema(t *testing.T) {
	c := load()
	if c.err != nil {
		t.Fatal(c.err)
	}
	comp := jsonschema.NewCompiler()
	comp.UseLoader(embedded{c, nil})
	comp.AssertFormat()
	comp.DefaultDraft(jsonschema.Draft2020)
	for _, f := range wantFiles() {
		if _, err := comp.Compile(BaseID + f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
