package suggest

import "testing"

func TestClosest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"drafts", []string{"draft", "tasks"}, "draft"},
		{"Txt", []string{"Text", "View"}, "Text"},
		{"list_taks", []string{"list_tasks", "create_task"}, "list_tasks"},
		{"ab", []string{"xy"}, ""}, // distance 2 is more than half of a short name
		{"colour", []string{"color", "label"}, "color"},
		{"zzzzzz", []string{"Text"}, ""},
		{"abcd", []string{"abce", "abcf"}, "abce"}, // a tie goes to the first in order
	} {
		if got := Closest(tc.name, tc.cands); got != tc.want {
			t.Errorf("Closest(%q, %v) = %q, want %q", tc.name, tc.cands, got, tc.want)
		}
	}
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance = %d", d)
	}
}
