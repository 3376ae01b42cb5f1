package service

import (
	"strings"
	"testing"
)

func TestContainsFold(t *testing.T) {
	for _, tc := range []struct {
		s, q string
		want bool
	}{
		{"Button", "but", true}, {"element:Home/view/0/1", "home/view", true}, {"Add", "add", true},
		{"Add", "adds", false}, {"", "a", false}, {"x", "", true}, {"Éclair", "éclair", true}, {"ÉCLAIR", "clair", true},
		{"Straße", "strasse", false}, {"abc", "bd", false},
	} {
		if got := containsFold(tc.s, tc.q); got != tc.want {
			t.Errorf("containsFold(%q, %q) = %v", tc.s, tc.q, got)
		}
		if want := strings.Contains(strings.ToLower(tc.s), tc.q); want != tc.want {
			t.Errorf("table wrong for %q %q", tc.s, tc.q)
		}
	}
}
