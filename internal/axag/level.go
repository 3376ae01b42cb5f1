package axag

import (
	"regexp"
	"slices"
	"sort"
)

var (
	intentRE = regexp.MustCompile(`^[a-z_]+\.[a-z_]+$`)
	entityRE = regexp.MustCompile(`^[a-z_]+$`)
)

// ValidIntent reports whether s matches ^[a-z_]+\.[a-z_]+$.
func ValidIntent(s string) bool { return intentRE.MatchString(s) }

// ValidEntity reports whether s matches ^[a-z_]+$.
func ValidEntity(s string) bool { return entityRE.MatchString(s) }

// Level returns the conformance level a single action reaches from what it
// declares: "none", "basic", "intermediate" or "full".
func Level(a Action) string {
	l, _ := Gaps(a)
	return l
}

// Gaps returns the level a reaches (after Normalize's defaults) and the fields that keep it from the
// next level (nil at full).
//
//   - basic: a valid intent, entity and action type.
//   - intermediate: basic, a description, a risk level, idempotency
//     declared (reads and navigations are idempotent by nature), a scope,
//     and a type on every parameter.
//   - full: intermediate, preconditions or postconditions, side effects
//     declared (an empty list counts), approval declared (with approval
//     roles when approval is required), a tenant boundary.
//
// The spec also names "error semantics" for full; neither schema has a
// field for them, so they cannot be declared and are not required.
func Gaps(a Action) (string, []string) {
	a = Normalize(a)
	var miss []string
	if !ValidIntent(a.Intent) {
		miss = append(miss, "intent")
	}
	if !ValidEntity(a.Entity) {
		miss = append(miss, "entity")
	}
	if !slices.Contains(ActionTypes, a.ActionType) {
		miss = append(miss, "action_type")
	}
	if len(miss) > 0 {
		return LevelNone, miss
	}
	if a.Description == "" {
		miss = append(miss, "description")
	}
	if !slices.Contains(RiskLevels, a.RiskLevel) {
		miss = append(miss, "risk_level")
	}
	if a.Idempotent == nil && a.ActionType != "read" && a.ActionType != "navigate" {
		miss = append(miss, "idempotent")
	}
	if !slices.Contains(Scopes, a.Scope) {
		miss = append(miss, "scope")
	}
	var untyped []string
	for name, p := range a.Parameters {
		if !slices.Contains(ParameterTypes, p.Type) {
			untyped = append(untyped, name)
		}
	}
	sort.Strings(untyped)
	for _, n := range untyped {
		miss = append(miss, "parameters."+n+".type")
	}
	if len(miss) > 0 {
		return LevelBasic, miss
	}
	if a.Preconditions == nil && a.Postconditions == nil {
		miss = append(miss, "preconditions or postconditions")
	}
	if a.SideEffects == nil {
		miss = append(miss, "side_effects")
	}
	if a.ApprovalRequired == nil {
		miss = append(miss, "approval_required")
	} else if *a.ApprovalRequired && len(a.ApprovalRoles) == 0 {
		miss = append(miss, "approval_roles")
	}
	if !slices.Contains(TenantBoundaries, a.TenantBoundary) {
		miss = append(miss, "tenant_boundary")
	}
	if len(miss) > 0 {
		return LevelIntermediate, miss
	}
	return LevelFull, nil
}

// LevelRank orders levels: none 0, basic 1, intermediate 2, full 3; -1 for
// anything else.
func LevelRank(l string) int {
	switch l {
	case LevelNone:
		return 0
	case LevelBasic:
		return 1
	case LevelIntermediate:
		return 2
	case LevelFull:
		return 3
	}
	return -1
}

// ManifestLevel is the lowest level of the actions; an empty list is
// basic (nothing declared).
func ManifestLevel(actions []Action) string {
	if len(actions) == 0 {
		return LevelBasic
	}
	low := LevelFull
	for _, a := range actions {
		if l := Level(a); LevelRank(l) < LevelRank(low) {
			low = l
		}
	}
	return low
}
