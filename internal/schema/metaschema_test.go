package schema

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
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
}
