package axag

import (
	"slices"
	"sort"

	"github.com/axiomcore/acore/internal/lang/check"
)

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
	t := tiers(a)
	for i, miss := range t {
		if len(miss) > 0 {
			return []string{LevelNone, LevelBasic, LevelIntermediate}[i], miss
		}
	}
	return LevelFull, nil
}

// GapsTo returns, for an action below level, what it lacks for each level
// above the one it reaches, up to level: one list per level, keyed by the
// level's name (a level includes the lower ones, so the lists add up).
func GapsTo(a Action, level string) map[string][]string {
	t := tiers(a)
	out := map[string][]string{}
	for i := LevelRank(Level(a)); i < LevelRank(level) && i < len(t); i++ {
		if len(t[i]) > 0 {
			out[Levels[i]] = t[i]
		}
	}
	return out
}

// tiers returns what a lacks for basic, for intermediate and for full,
// each list on its own (they do not depend on each other).
func tiers(a Action) [3][]string {
	a = Normalize(a)
	var t [3][]string
	if !check.ValidIntent(a.Intent) {
		t[0] = append(t[0], "intent")
	}
	if !check.ValidEntity(a.Entity) {
		t[0] = append(t[0], "entity")
	}
	if !slices.Contains(ActionTypes, a.ActionType) {
		t[0] = append(t[0], "action_type")
	}
	if a.Description == "" {
		t[1] = append(t[1], "description")
	}
	if !slices.Contains(RiskLevels, a.RiskLevel) {
		t[1] = append(t[1], "risk_level")
	}
	if a.Idempotent == nil && a.ActionType != "read" && a.ActionType != "navigate" {
		t[1] = append(t[1], "idempotent")
	}
	if !slices.Contains(Scopes, a.Scope) {
		t[1] = append(t[1], "scope")
	}
	var untyped []string
	for name, p := range a.Parameters {
		if !slices.Contains(ParameterTypes, p.Type) {
			untyped = append(untyped, name)
		}
	}
	sort.Strings(untyped)
	for _, n := range untyped {
		t[1] = append(t[1], "parameters."+n+".type")
	}
	if a.Preconditions == nil && a.Postconditions == nil {
		t[2] = append(t[2], "preconditions or postconditions")
	}
	if a.SideEffects == nil {
		t[2] = append(t[2], "side_effects")
	}
	if a.ApprovalRequired == nil {
		t[2] = append(t[2], "approval_required")
	} else if *a.ApprovalRequired && len(a.ApprovalRoles) == 0 {
		t[2] = append(t[2], "approval_roles")
	}
	if !slices.Contains(TenantBoundaries, a.TenantBoundary) {
		t[2] = append(t[2], "tenant_boundary")
	}
	return t
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
