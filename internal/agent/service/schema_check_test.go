package service_test

import (
	"encoding/json"
	"testing"

	"github.com/axiomcore/acore/internal/agent/schema"
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
	// A next action's params are a request an agent sends as they are.
	e, _ := v.(map[string]any)["error"].(map[string]any)
	nas, _ := e["next_actions"].([]any)
	for _, na := range nas {
		na := na.(map[string]any)
		if p, ok := na["params"]; ok {
			if fe := schema.ValidateParams(na["operation"].(string), p); fe != nil {
				t.Errorf("next action %v: params break %s's schema: %v\nresponse: %s", na["operation"], na["operation"], fe, resp)
			}
		}
	}
}
