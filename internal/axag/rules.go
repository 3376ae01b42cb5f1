package axag

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/axiomcore/acore/internal/lang/check"
)

// Rule ids. AXAG001–AXAG013 follow the numbering of the reference linter
// (the order of the rules in the AXAG facts); AXAG1xx are ours.
const (
	RuleMissingEntityOrType    = "AXAG001" // intent without entity or action type (error)
	RuleInvalidEnum            = "AXAG002" // invalid action type or risk level (error)
	RuleHighRiskConfirmation   = "AXAG003" // high/critical risk without confirmation_required (warning)
	RuleMutationIdempotent     = "AXAG004" // write/delete without idempotent (warning)
	RuleParameterBoth          = "AXAG005" // a name both required and optional (error)
	RuleInvalidJSON            = "AXAG006" // invalid JSON in an array attribute (error)
	RuleDrift                  = "AXAG007" // intent missing from the given manifest (warning)
	RuleApprovalRoles          = "AXAG008" // approval required without approval roles (error)
	RuleReadCritical           = "AXAG009" // read with critical risk (error)
	RuleMutationRisk           = "AXAG010" // write/delete without a risk level (error)
	RuleDeleteRisk             = "AXAG011" // delete rated below high (warning)
	RuleIntentPattern          = "AXAG012" // intent not matching ^[a-z_]+\.[a-z_]+$ (error)
	RuleEntityCase             = "AXAG013" // entity not lowercase (error)
	RuleDuplicateIntent        = "AXAG101" // a second annotation of an intent (warning)
	RuleContextLessRestrictive = "AXAG102" // a child less restrictive than its ancestor (error)
	RuleInvalidValue           = "AXAG103" // another invalid value: scope, boundary, boolean, parameter (error)
	RuleBelowLevel             = "AXAG104" // an action below the requested conformance level (error)
	RuleStaleManifest          = "AXAG105" // a manifest intent no longer in the sources (warning)
	RuleUnknownAttribute       = "AXAG106" // an unknown axag-* attribute (warning)
	RuleDynamicValue           = "AXAG107" // a value computed at run time (warning)
	RuleNoIntent               = "AXAG108" // axag-* attributes without axag-intent (warning)
	RuleUnreadable             = "AXAG109" // a source that cannot be read, or read only in part (error)
	RuleNoscript               = "AXAG111" // annotated elements inside <noscript>, not extracted (warning)
	RuleConflictingDuplicate   = "AXAG112" // two declarations of an intent that disagree on a safety fact (error)
	RuleNoActions              = "AXAG113" // a conformance level asked of sources or a manifest without actions (error)
)

// Check applies the per-action rules (everything but JSON syntax, drift,
// duplicates and context inheritance, which need the source or the set),
// after Normalize's defaults.
func Check(a Action) []Finding {
	a = Normalize(a)
	var fs []Finding
	add := func(rule, sev, msg, fix string) {
		fs = append(fs, Finding{Rule: rule, Severity: sev, File: a.SourceFile, Line: a.SourceLine, Column: a.SourceColumn, Message: Printable(msg), Fix: Printable(fix)})
	}
	name := a.Intent
	if name == "" {
		add(RuleNoIntent, SeverityError, "action without an intent", `add axag-intent="entity.verb"`)
		return fs
	}
	if !check.ValidIntent(a.Intent) {
		add(RuleIntentPattern, SeverityError, fmt.Sprintf("intent %q does not match ^[a-z_]+\\.[a-z_]+$", a.Intent), "use entity.verb in lowercase letters and underscores, for example task.create")
	}
	if a.Entity == "" {
		add(RuleMissingEntityOrType, SeverityError, fmt.Sprintf("intent %s has no entity", name), "add axag-entity, or an intent of the form entity.verb")
	} else if !check.ValidEntity(a.Entity) {
		add(RuleEntityCase, SeverityError, fmt.Sprintf("intent %s: entity %q is not lowercase snake_case (^[a-z_]+$)", name, a.Entity), fmt.Sprintf("use axag-entity=%q", snake(a.Entity)))
	}
	if a.ActionType == "" {
		add(RuleMissingEntityOrType, SeverityError, fmt.Sprintf("intent %s has no action type", name), "add axag-action-type: one of "+strings.Join(ActionTypes, ", "))
	} else if !slices.Contains(ActionTypes, a.ActionType) {
		add(RuleInvalidEnum, SeverityError, fmt.Sprintf("intent %s: action type %q is not one of %s", name, a.ActionType, strings.Join(ActionTypes, ", ")), "use one of "+strings.Join(ActionTypes, ", "))
	}
	if a.RiskLevel != "" && !slices.Contains(RiskLevels, a.RiskLevel) {
		add(RuleInvalidEnum, SeverityError, fmt.Sprintf("intent %s: risk level %q is not one of %s", name, a.RiskLevel, strings.Join(RiskLevels, ", ")), "use one of "+strings.Join(RiskLevels, ", "))
	}
	if a.Scope != "" && !slices.Contains(Scopes, a.Scope) {
		add(RuleInvalidValue, SeverityError, fmt.Sprintf("intent %s: scope %q is not one of %s", name, a.Scope, strings.Join(Scopes, ", ")), "use one of "+strings.Join(Scopes, ", "))
	}
	if a.TenantBoundary != "" && !slices.Contains(TenantBoundaries, a.TenantBoundary) {
		add(RuleInvalidValue, SeverityError, fmt.Sprintf("intent %s: tenant boundary %q is not one of %s", name, a.TenantBoundary, strings.Join(TenantBoundaries, ", ")), "use one of "+strings.Join(TenantBoundaries, ", "))
	}
	mutation := a.ActionType == "write" || a.ActionType == "delete"
	if (a.RiskLevel == "high" || a.RiskLevel == "critical") && (a.ConfirmationRequired == nil || !*a.ConfirmationRequired) {
		add(RuleHighRiskConfirmation, SeverityWarning, fmt.Sprintf("intent %s: %s risk without confirmation_required true (the spec says MUST)", name, a.RiskLevel), `add axag-confirmation-required="true"`)
	}
	if mutation && a.Idempotent == nil {
		add(RuleMutationIdempotent, SeverityWarning, fmt.Sprintf("intent %s: %s action does not declare idempotent", name, a.ActionType), `add axag-idempotent="true" or "false"`)
	}
	if a.ApprovalRequired != nil && *a.ApprovalRequired && len(a.ApprovalRoles) == 0 {
		add(RuleApprovalRoles, SeverityError, fmt.Sprintf("intent %s: approval required but no approval roles", name), `add axag-approval-roles='["role"]'`)
	}
	if a.ActionType == "read" && a.RiskLevel == "critical" {
		add(RuleReadCritical, SeverityError, fmt.Sprintf("intent %s: a read cannot be critical risk", name), "lower the risk level, or make the action a write if it changes state")
	}
	if mutation && a.RiskLevel == "" {
		add(RuleMutationRisk, SeverityError, fmt.Sprintf("intent %s: %s action without a risk level", name, a.ActionType), "add axag-risk-level: one of "+strings.Join(RiskLevels, ", "))
	}
	if a.ActionType == "delete" && slices.Contains([]string{"none", "low", "medium"}, a.RiskLevel) {
		add(RuleDeleteRisk, SeverityWarning, fmt.Sprintf("intent %s: delete rated %s, below high", name, a.RiskLevel), `use axag-risk-level="high" (or critical)`)
	}
	names := make([]string, 0, len(a.Parameters))
	for n := range a.Parameters {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := a.Parameters[n]
		if n == "" {
			add(RuleInvalidValue, SeverityError, fmt.Sprintf("intent %s: a parameter has an empty name", name), "give every parameter a name")
			continue
		}
		if p.Type != "" && !slices.Contains(ParameterTypes, p.Type) {
			add(RuleInvalidValue, SeverityError, fmt.Sprintf("intent %s: parameter %s has type %q, not one of %s", name, n, p.Type, strings.Join(ParameterTypes, ", ")), "use one of "+strings.Join(ParameterTypes, ", "))
		}
		if p.Format != "" && !slices.Contains(Formats, p.Format) {
			add(RuleInvalidValue, SeverityError, fmt.Sprintf("intent %s: parameter %s has format %q, not one of %s", name, n, p.Format, strings.Join(Formats, ", ")), "use one of "+strings.Join(Formats, ", "))
		}
	}
	return fs
}

func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r - 'A' + 'a')
		case r >= 'a' && r <= 'z', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Where formats a source position as file:line:col (parts left out when
// unknown), the file name made printable.
func Where(file string, line, col int) string {
	s := Printable(file)
	if line > 0 {
		s += fmt.Sprintf(":%d", line)
		if col > 0 {
			s += fmt.Sprintf(":%d", col)
		}
	}
	return s
}

// String is the finding as axag validate prints it: where ("-" for no
// file), severity, message and rule on one line, then its fix on the next
// when it has one; through Printable, since findings quote sources.
func (f Finding) String() string {
	p := Printable
	where := Where(f.File, f.Line, f.Column)
	if where == "" {
		where = "-"
	}
	s := fmt.Sprintf("%s: %s: %s [%s]", where, p(f.Severity), p(f.Message), p(f.Rule))
	if f.Fix != "" {
		s += "\n    fix: " + p(f.Fix)
	}
	return s
}

// Build turns actions into a manifest: the entity defaults to the part of
// the intent before the dot and the operation id to the intent with "."
// replaced by "_"; one action per intent (a later duplicate is dropped with
// a warning naming both places); actions that cannot be written under
// either schema (no valid intent, entity or action type) are left out with
// their error findings; invalid optional values are dropped from the
// manifest after their finding. Actions are sorted by intent.
func Build(actions []Action, opt Options) (*Manifest, []Finding) {
	var findings []Finding
	seen := map[string]Action{}
	var kept []Action
	for _, a := range actions {
		a = Normalize(a)
		findings = append(findings, Check(a)...)
		if a.Intent != "" {
			if first, dup := seen[a.Intent]; dup {
				f := Finding{
					Rule: RuleDuplicateIntent, Severity: SeverityWarning,
					File: a.SourceFile, Line: a.SourceLine, Column: a.SourceColumn,
					Message: fmt.Sprintf("intent %s is declared again here; the first declaration at %s is kept", Printable(a.Intent), Where(first.SourceFile, first.SourceLine, first.SourceColumn)),
					Fix:     "remove one of the two annotations, or give them different intents",
				}
				// Keeping either one silently could hide the riskier
				// declaration from the agent, so a disagreement on a
				// safety fact is an error.
				if diff := SafetyDiff(first, a); len(diff) > 0 {
					f.Rule, f.Severity = RuleConflictingDuplicate, SeverityError
					f.Message = fmt.Sprintf("intent %s is declared at %s and at %s with different %s; an agent would see only one of them", Printable(a.Intent), Where(first.SourceFile, first.SourceLine, first.SourceColumn), Where(a.SourceFile, a.SourceLine, a.SourceColumn), strings.Join(diff, ", "))
					f.Fix = "declare the intent once, or give both declarations the same safety facts"
				}
				findings = append(findings, f)
				continue
			}
			seen[a.Intent] = a
		}
		if Level(a) == LevelNone {
			continue
		}
		kept = append(kept, sanitize(a))
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Intent < kept[j].Intent })
	sortFindings(findings)
	tool := opt.Tool
	if tool == "" {
		tool = "acore-axag"
	}
	m := &Manifest{
		GeneratedAt:    opt.GeneratedAt,
		SourceURL:      opt.SourceURL,
		Paths:          slices.Clone(opt.Paths),
		Tool:           tool,
		ToolVersion:    opt.ToolVersion,
		Actions:        kept,
		DynamicActions: slices.Clone(opt.DynamicActions),
	}
	m.Conformance = ManifestLevel(kept)
	return m, findings
}

// SafetyDiff names the safety facts on which two declarations of an
// action disagree: action type, risk level, confirmation, approval and its
// roles, required roles, scope and tenant boundary (after Normalize).
func SafetyDiff(a, b Action) []string {
	a, b = Normalize(a), Normalize(b)
	var diff []string
	add := func(name string, same bool) {
		if !same {
			diff = append(diff, name)
		}
	}
	add("action_type", a.ActionType == b.ActionType)
	add("risk_level", a.RiskLevel == b.RiskLevel)
	add("confirmation_required", sameBool(a.ConfirmationRequired, b.ConfirmationRequired))
	add("approval_required", sameBool(a.ApprovalRequired, b.ApprovalRequired))
	add("approval_roles", sameSet(a.ApprovalRoles, b.ApprovalRoles))
	add("required_roles", sameSet(a.RequiredRoles, b.RequiredRoles))
	add("scope", a.Scope == b.Scope)
	add("tenant_boundary", a.TenantBoundary == b.TenantBoundary)
	return diff
}

func sameBool(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// sameSet compares role lists as sets: ["a", "b"] and ["b", "a"] grant the
// same; nil (not declared) differs from an empty list.
func sameSet(a, b []string) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

// Normalize fills the defaults: the entity from the intent, the operation
// id from the intent.
func Normalize(a Action) Action {
	if a.Entity == "" {
		if i := strings.IndexByte(a.Intent, '.'); i > 0 {
			a.Entity = a.Intent[:i]
		}
	}
	if a.OperationID == "" && a.Intent != "" {
		a.OperationID = strings.ReplaceAll(a.Intent, ".", "_")
	}
	return a
}

// sanitize drops invalid optional values (already reported by Check) so
// that the manifest stays valid.
func sanitize(a Action) Action {
	if !slices.Contains(RiskLevels, a.RiskLevel) {
		a.RiskLevel = ""
	}
	if !slices.Contains(Scopes, a.Scope) {
		a.Scope = ""
	}
	if !slices.Contains(TenantBoundaries, a.TenantBoundary) {
		a.TenantBoundary = ""
	}
	if a.Parameters != nil {
		ps := make(map[string]Parameter, len(a.Parameters))
		for n, p := range a.Parameters {
			if n == "" {
				continue
			}
			if p.Type != "" && !slices.Contains(ParameterTypes, p.Type) {
				p.Type = ""
			}
			if p.Format != "" && !slices.Contains(Formats, p.Format) {
				p.Format = ""
			}
			ps[n] = p
		}
		a.Parameters = ps
	}
	return a
}

// sortFindings orders findings by file, line, column, rule, message.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}

// SortFindings orders findings by file, line, column, rule and message.
func SortFindings(fs []Finding) { sortFindings(fs) }

// HasErrors reports whether any finding is an error; with strict, whether
// any is an error or a warning.
func HasErrors(fs []Finding, strict bool) bool {
	for _, f := range fs {
		if f.Severity == SeverityError || (strict && f.Severity == SeverityWarning) {
			return true
		}
	}
	return false
}

// Printable returns s with what a terminal would act on instead of showing
// escaped: control characters (C0, DEL, C1; tab and newline too, which
// would forge lines of the text output), bidirectional formatting
// characters, line and paragraph separators, and bytes that are not UTF-8.
// Messages print source text (intents, attribute names, values, file
// names) through it, so a hostile source cannot write escape sequences to
// the terminal of whoever reads its findings.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if unprintable(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r < 0x100 && unprintable(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		case unprintable(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func unprintable(r rune) bool {
	switch {
	case r == utf8.RuneError, unicode.IsControl(r):
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidirectional formatting
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}
