package assets

import (
	"strings"
	"testing"
)

func TestTheme(t *testing.T) {
	all := string(Theme(func(string) bool { return true }))
	// Everything used: the stylesheet as it is, without its comment.
	want := strings.TrimSpace(string(AppCSS[strings.Index(string(AppCSS), "*/")+2:]))
	if strings.TrimSpace(all) != want {
		t.Errorf("with every name used, Theme is not the stylesheet:\n%s", all)
	}
	list := map[string]bool{"ac-list": true, "ac-page": true}
	for _, tt := range []struct {
		name     string
		used     func(string) bool
		has, not []string
	}{
		{"nothing", func(string) bool { return false },
			[]string{":root{", "body{", "h1,h2,h3,h4,h5,h6,p{", "@media (prefers-color-scheme:dark){", "@media (max-width:480px){#app{", "[hidden]{"},
			[]string{".ac-", "@keyframes", "input", "button{", "a{", "hr{", "img{", "prefers-reduced-motion"}},
		{"a list", func(n string) bool { return list[n] },
			[]string{".ac-list{", ".ac-list>li{", ".ac-list:empty{", ".ac-page{"},
			[]string{".ac-list>li.ac-end", ".ac-list.ac-grid", ".ac-view"}},
		{"a spinner", func(n string) bool { return n == "ac-spinner" },
			[]string{".ac-spinner{", "@keyframes ac-spin{", "@media (prefers-reduced-motion:reduce){.ac-spinner{"},
			[]string{".ac-spinner.ac-large", ".ac-view"}},
		{"a selector list keeps its used selectors", func(n string) bool { return n == "ac-column" || n == "button" },
			[]string{".ac-column{display:flex", ".ac-column>button{"},
			[]string{".ac-view,", ".ac-form>button"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Theme(tt.used))
			for _, s := range tt.has {
				if !strings.Contains(got, s) {
					t.Errorf("no %q in\n%s", s, got)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(got, s) {
					t.Errorf("%q is left in\n%s", s, got)
				}
			}
		})
	}
}

// TestPruneRuleNot: a class under :not(…) is not needed for the selector
// to match.
func TestPruneRuleNot(t *testing.T) {
	r := cssBlocks(`.ac-list:not(:has(li:not(.ac-end))),.ac-end>b{x:y}`)[0]
	got, ok := pruneRule(r, func(n string) bool { return n == "ac-list" })
	if want := `.ac-list:not(:has(li:not(.ac-end))){x:y}`; !ok || got != want {
		t.Errorf("pruneRule = %q, %v; want %q", got, ok, want)
	}
}

func FuzzCSSBlocks(f *testing.F) {
	f.Add(string(AppCSS))
	f.Add(`a{b:"}"}@media x{c{d:e}}/* x */`)
	f.Fuzz(func(t *testing.T, css string) {
		for _, b := range cssBlocks(css) {
			if !strings.Contains(css, b.at+b.selectors) || !strings.Contains(css, "{"+b.body+"}") {
				t.Fatalf("block %q is not in the input", b.text)
			}
		}
	})
}
