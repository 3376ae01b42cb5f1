package axag

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// CheckLevel returns an error finding (AXAG104) for every action below
// level, naming everything it lacks up to level (not only for the next
// one), with a fix that names what to write: axag-* attributes in web
// sources, @axag arguments in Acore UI sources (.acore).
func CheckLevel(actions []Action, level string) []Finding {
	var fs []Finding
	want := LevelRank(level)
	for _, a := range actions {
		l := Level(a)
		if l == LevelNone || LevelRank(l) >= want {
			continue
		}
		gaps := GapsTo(a, level)
		acore := strings.HasSuffix(a.SourceFile, ".acore")
		var parts, fixes []string
		params := map[string][]string{} // attribute → {"name":…,"type":"string"} objects
		for _, lv := range Levels {
			miss := gaps[lv]
			if len(miss) == 0 {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s for %s", strings.Join(miss, ", "), lv))
			for _, m := range miss {
				if name, ok := strings.CutPrefix(m, "parameters."); ok {
					name = strings.TrimSuffix(name, ".type")
					attr := "axag-optional-parameters"
					if a.Parameters[name].Required {
						attr = "axag-required-parameters"
					}
					if len(params[attr]) == 0 {
						fixes = append(fixes, attr) // placeholder, filled below
					}
					params[attr] = append(params[attr], fmt.Sprintf(`{"name":%q,"type":"string"}`, name))
					continue
				}
				fixes = append(fixes, fieldHint(m, acore))
			}
		}
		for i, f := range fixes {
			if ps, ok := params[f]; ok {
				fixes[i] = fmt.Sprintf("%s='[%s]'", f, strings.Join(ps, ","))
			}
		}
		fix := "add " + strings.Join(fixes, ", ")
		if acore {
			fix = "add " + strings.Join(fixes, ", ") + " to the @axag of the contract operation or of the query or mutation member"
		}
		fs = append(fs, Finding{
			Rule: RuleBelowLevel, Severity: SeverityError,
			File: a.SourceFile, Line: a.SourceLine, Column: a.SourceColumn,
			Message: fmt.Sprintf("intent %s is at %s, below %s: it lacks %s", Printable(a.Intent), l, level, Printable(strings.Join(parts, "; "))),
			Fix:     Printable(fix),
		})
	}
	return fs
}

// fieldHint names what declares a missing field (not a parameter's
// type): the attribute to write in a web source, the @axag argument in an
// Acore UI one.
func fieldHint(field string, acore bool) string {
	if acore {
		return map[string]string{
			"description": `description: "..."`, "risk_level": `risk_level: "low"`, "idempotent": "idempotent: true or false",
			"scope": `scope: "user"`, "preconditions or postconditions": `preconditions: ["..."]`, "side_effects": "side_effects: [] (none) or a list",
			"approval_required": "approval_required: false (or true with approval_roles)", "approval_roles": `approval_roles: ["role"]`,
			"tenant_boundary": `tenant_boundary: "strict"`, "intent": `intent: "entity.verb"`, "entity": `entity: "name"`, "action_type": `action_type: "write"`,
		}[field]
	}
	return map[string]string{
		"description": `axag-description="..."`, "risk_level": `axag-risk-level="none|low|medium|high|critical"`,
		"idempotent": `axag-idempotent="true|false"`, "scope": `axag-scope="public|user|tenant|global"`,
		"preconditions or postconditions": `axag-preconditions='["..."]'`, "side_effects": `axag-side-effects='[]' (none) or a list`,
		"approval_required": `axag-approval-required="false" (or "true" with axag-approval-roles)`, "approval_roles": `axag-approval-roles='["role"]'`,
		"tenant_boundary": `axag-tenant-boundary="strict|relaxed"`, "intent": `axag-intent="entity.verb"`, "entity": `axag-entity="name"`,
		"action_type": `axag-action-type="read|write|delete|navigate"`,
	}[field]
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
