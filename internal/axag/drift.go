package axag

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// CheckLevel returns an error finding (AXAG104) for every action below
// level, naming the fields it lacks for the next level.
func CheckLevel(actions []Action, level string) []Finding {
	var fs []Finding
	want := LevelRank(level)
	for _, a := range actions {
		l, gaps := Gaps(a)
		if l == LevelNone || LevelRank(l) >= want {
			continue
		}
		next := Levels[LevelRank(l)] // the level after l
		fs = append(fs, Finding{
			Rule: RuleBelowLevel, Severity: SeverityError,
			File: a.SourceFile, Line: a.SourceLine, Column: a.SourceColumn,
			Message: fmt.Sprintf("intent %s is at %s, below %s: it lacks %s for %s", Printable(a.Intent), l, level, strings.Join(gaps, ", "), next),
			Fix:     "declare " + strings.Join(gaps, ", "),
		})
	}
	return fs
}

// Drift compares the actions of the sources (already built) with those of
// a manifest: an intent of the sources missing from the manifest is
// AXAG007, one that differs names the fields (AXAG007 too), and an intent
// of the manifest no longer in the sources is AXAG105. All are warnings.
// manifestFile names the manifest in the findings about it.
func Drift(built *Manifest, manifest *Manifest, manifestFile string) []Finding {
	var fs []Finding
	have := map[string]Action{}
	for _, a := range manifest.Actions {
		have[a.Intent] = a
	}
	src := map[string]bool{}
	for _, a := range built.Actions {
		src[a.Intent] = true
		old, ok := have[a.Intent]
		if !ok {
			fs = append(fs, Finding{Rule: RuleDrift, Severity: SeverityWarning, File: a.SourceFile, Line: a.SourceLine, Column: a.SourceColumn,
				Message: fmt.Sprintf("intent %s is missing from %s", Printable(a.Intent), Printable(manifestFile)), Fix: "regenerate the manifest with axag generate"})
			continue
		}
		if diff := actionDiff(a, old); len(diff) > 0 {
			fs = append(fs, Finding{Rule: RuleDrift, Severity: SeverityWarning, File: a.SourceFile, Line: a.SourceLine, Column: a.SourceColumn,
				Message: fmt.Sprintf("intent %s differs from %s in %s", Printable(a.Intent), Printable(manifestFile), strings.Join(diff, ", ")), Fix: "regenerate the manifest with axag generate"})
		}
	}
	for _, a := range manifest.Actions {
		if !src[a.Intent] {
			fs = append(fs, Finding{Rule: RuleStaleManifest, Severity: SeverityWarning, File: manifestFile,
				Message: fmt.Sprintf("intent %s of the manifest is no longer in the sources", Printable(a.Intent)), Fix: "regenerate the manifest with axag generate"})
		}
	}
	SortFindings(fs)
	return fs
}

// actionDiff names the manifest fields (1.1.0 names) that differ between
// two actions, as they would be written.
func actionDiff(a, b Action) []string {
	ma, mb := actionFields(a), actionFields(b)
	keys := map[string]bool{}
	for k := range ma {
		keys[k] = true
	}
	for k := range mb {
		keys[k] = true
	}
	var diff []string
	for k := range keys {
		if !reflect.DeepEqual(ma[k], mb[k]) {
			diff = append(diff, k)
		}
	}
	sort.Strings(diff)
	return diff
}

func actionFields(a Action) map[string]any {
	m := &Manifest{Actions: []Action{a}}
	data, err := m.JSON(Version110)
	if err != nil {
		return nil
	}
	var doc struct {
		Actions []map[string]any `json:"actions"`
	}
	if json.Unmarshal(data, &doc) != nil || len(doc.Actions) != 1 {
		return nil
	}
	return doc.Actions[0]
}
