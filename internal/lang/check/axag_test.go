package check

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// TestValidIntentEntity compares the AXAG intent and entity forms with the
// patterns the AXAG standard gives for them, on chosen and random strings.
func TestValidIntentEntity(t *testing.T) {
	intent := regexp.MustCompile(`^[a-z_]+\.[a-z_]+$`)
	entity := regexp.MustCompile(`^[a-z_]+$`)
	cases := []string{"", "task", "task.create", "a_b.c_d", "a.b.c", ".x", "x.", "Task.create", "task.Create", "tâche.créer", "task .create", "_._", "task.create\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(8))
		for i := range b {
			b[i] = "ab_.Z9 "[r.IntN(7)]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := ValidIntent(s), intent.MatchString(s); got != want {
			t.Errorf("ValidIntent(%q) = %v, want %v", s, got, want)
		}
		if got, want := ValidEntity(s), entity.MatchString(s); got != want {
			t.Errorf("ValidEntity(%q) = %v, want %v", s, got, want)
		}
	}
}
