package schema

import "testing"

// ValueAt follows a field name as schema errors give it.
func TestValueAt(t *testing.T) {
	v := map[string]any{"params": map[string]any{"scope": map[string]any{"paths": []any{"a", "b"}}}}
	tests := []struct {
		field string
		want  any
	}{
		{"params.scope.paths[1]", "b"},
		{"params.scope.paths[2]", nil},
		{"params.nope", nil},
	}
	for _, tt := range tests {
		if got := ValueAt(v, tt.field); got != tt.want {
			t.Errorf("ValueAt(%s) = %v, want %v", tt.field, got, tt.want)
		}
	}
}
