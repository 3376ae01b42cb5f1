package service_test

import (
	"encoding/json"
	"testing"

	"github.com/axiomcore/acore/internal/schema"
)

// checkSchema validates every v1 response a test receives against
// envelope.response.json and its operation's result schema.
func checkSchema(t *testing.T, req string, resp []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(resp, &v); err != nil {
		t.Fatalf("response is not JSON: %v", err)
	}
	if err := schema.ValidateResponse(v); err != nil {
		t.Errorf("response breaks the schema: %v\nrequest: %s\nresponse: %s", err, req, resp)
	}
}
