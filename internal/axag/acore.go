package axag

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Rules of Acore UI sources (AXAG15x). The checker's AC401–AC404
// diagnostics about @axag annotations are findings too, with their code as
// the rule.
const (
	// RuleAcoreCompile: the project cannot be compiled (error), or has
	// compile errors, so that the manifest may miss actions (warning).
	RuleAcoreCompile = "AXAG150"
	// RuleAcoreContradiction: an annotation contradicts the contract, as
	// action_type "read" on a mutation (error); the contract's value is kept.
	RuleAcoreContradiction = "AXAG151"
	// RuleAcoreTrigger: an element's or action's @axag describes no query
	// or mutation it runs, or several without an intent that picks one
	// (warning).
	RuleAcoreTrigger = "AXAG152"
	// RuleAcoreConflict: two annotations give one action different values
	// (warning); the first, in the order of precedence, is kept.
	RuleAcoreConflict = "AXAG153"
)

// ScanAcore compiles the Acore UI project at root and returns the actions
// its queries and mutations offer, with findings. The error is for a root
// that cannot be read; a project that does not compile is a finding.
func ScanAcore(root string) ([]Action, []Finding, error) {
	// One compile, with the record AcoreActions reads.
	p, err := project.Options{Record: true}.Open(root)
	if err != nil {
		return nil, nil, err
	}
	actions, findings := AcoreActions(p)
	return actions, findings, nil
}

// ManifestFor builds the manifest of an already compiled project, with the
// findings of its sources and of Build, sorted.
func ManifestFor(p *project.Project, opt Options) (*Manifest, []Finding) {
	m, fs, _ := Describe(p, opt)
	return m, fs
}

// Describe is ManifestFor and MemberActions of p from one pass over its
// actions, for a consumer that shows both (an editor).
func Describe(p *project.Project, opt Options) (*Manifest, []Finding, map[string]Action) {
	actions, findings, byNode := acoreActions(p)
	m, more := Build(actions, opt)
	for _, f := range more {
		findings = append(findings, AcoreFix(f))
	}
	SortFindings(findings)
	return m, findings, memberActions(p, byNode)
}

// RuleFindings returns the findings of ManifestFor without the checker's
// own diagnostics about @axag annotations (AC4xx), which the compile
// reports already: what a tool that shows the compile's diagnostics adds
// to them. It reuses the array of fs.
func RuleFindings(fs []Finding) []Finding {
	out := fs[:0]
	for _, f := range fs {
		if !strings.HasPrefix(f.Rule, "AC") {
			out = append(out, f)
		}
	}
	return out
}

// acoreFixes are the fix hints of the per-action rules in the terms of
// @axag annotations.
var acoreFixes = map[string]string{
	RuleHighRiskConfirmation: "add confirmation_required: true to its @axag",
	RuleMutationIdempotent:   "add idempotent: true or false to the @axag of the mutation member",
	RuleApprovalRoles:        `add approval_roles: ["role"] to its @axag`,
	RuleReadCritical:         "lower risk_level in its @axag, or bind a mutation if it changes state",
	RuleMutationRisk:         `add risk_level: "none", "low", "medium", "high" or "critical" to the @axag of the mutation member`,
	RuleDeleteRisk:           `use risk_level: "high" (or "critical") in its @axag`,
}

// AcoreFix rewrites the fix hint of a finding about an Acore UI source
// (a .acore file) in the terms of @axag annotations instead of web
// attributes; other findings are returned as they are.
func AcoreFix(f Finding) Finding {
	if fix, ok := acoreFixes[f.Rule]; ok && strings.HasSuffix(f.File, ".acore") {
		f.Fix = fix
	}
	return f
}

// acoreAction is an action being assembled: the member it was inferred
// from, and which annotation set each field.
type acoreAction struct {
	a        Action
	mutation bool
	// own marks an action of an element or action member that runs no
	// query or mutation: no contract to contradict.
	own bool
	// set maps an annotation key to where it was set, for conflicts.
	set   map[string]string
	setBy map[string]any
	// inherited maps a key the contract operation's @axag gave, and no
	// binding replaced yet, to where. base and baseAt keep every value the
	// contract gave: a binding's annotation may replace one only with a
	// value at least as restrictive.
	inherited map[string]string
	base      map[string]any
	baseAt    map[string]string
}

// AcoreActions returns the actions of a compiled project: one per contract
// operation that a query or mutation member binds, inferred from the
// contract and completed by @axag annotations (docs/language.md, section
// 11).
func AcoreActions(p *project.Project) ([]Action, []Finding) {
	out, fs, _ := acoreActions(p)
	return out, fs
}

// MemberActions returns the action of each query and mutation member of a
// compiled project, by the member's node id: what a runtime agent is told
// about what the member runs (an editor shows it on the member).
func MemberActions(p *project.Project) map[string]Action {
	_, _, byNode := acoreActions(p)
	return memberActions(p, byNode)
}

func memberActions(p *project.Project, byNode map[int32]*acoreAction) map[string]Action {
	if byNode == nil {
		return nil
	}
	g := p.Recorded().Result.Graph
	m := map[string]Action{}
	for i, x := range byNode {
		if x.setBy["skip"] != true {
			m[g.At(i).ID] = x.a
		}
	}
	return m
}

func acoreActions(p *project.Project) ([]Action, []Finding, map[int32]*acoreAction) {
	var fs []Finding
	res := p.Result
	errs := 0
	for _, d := range res.Diagnostics {
		if d.Code >= "AC401" && d.Code <= "AC499" {
			fs = append(fs, Finding{Rule: d.Code, Severity: string(d.Severity), File: d.Path, Line: d.Line, Column: d.Column, Message: d.Message})
		} else if d.Severity == diag.Error {
			errs++
		}
	}
	if res.Graph == nil {
		f := Finding{Rule: RuleAcoreCompile, Severity: SeverityError, File: check.Entry, Line: 1, Column: 1,
			Message: "the project cannot be compiled (state " + res.State + "), so its actions are unknown"}
		for _, d := range res.Diagnostics {
			if d.Severity == diag.Error {
				f.File, f.Line, f.Column = d.Path, d.Line, d.Column
				f.Message += ": " + d.Message + " [" + d.Code + "]"
				break
			}
		}
		if len(res.Preparation) > 0 {
			f.Fix = "run `" + res.Preparation[0] + "`"
		}
		return nil, append(fs, f), nil
	}
	if errs > 0 {
		fs = append(fs, Finding{Rule: RuleAcoreCompile, Severity: SeverityWarning, File: check.Entry, Line: 1, Column: 1,
			Message: fmt.Sprintf("the project has %s (state %s); the manifest describes what resolves", strings.Replace(diag.Errors(errs), "error", "compile error", 1), res.State),
			Fix:     "fix the compile errors"})
	}
	// The record of the compile says which declaration or element each
	// node is, and what its operation is.
	p = p.Recorded()
	info := p.Info
	g := p.Result.Graph
	anns := func(i int32) []*syntax.Annotation { return annotationsOf(info.Syntax[i]) }
	byOp := map[int32]*acoreAction{}
	byNode := map[int32]*acoreAction{}
	var order []*acoreAction
	for i := range int32(g.Len()) {
		n := g.At(i)
		if n.Kind != graph.KindQuery && n.Kind != graph.KindMutation {
			continue
		}
		op := target(g, int32(i), graph.EdgeInvokes, graph.KindOperation)
		if op < 0 {
			continue
		}
		x := byOp[op]
		if x == nil {
			x = infer(info, g, n, g.At(op), &fs)
			byOp[op] = x
			order = append(order, x)
		}
		byNode[int32(i)] = x
		v := check.ReadAxag(anns(i))
		v, fs = inherit(g, anns, n, v, true, fs)
		if v != nil {
			fs = apply(x, v, n, fs)
		}
		fs = applyParams(x, check.ReadAxagParams(anns(i)), n, fs)
	}
	bulk := handlerActions(info, g, byNode, &order)
	// Elements and action members that trigger a query or mutation
	// complete its action; their annotations come after the member's.
	for i := range int32(g.Len()) {
		n := g.At(i)
		if n.Kind != graph.KindElement && n.Kind != graph.KindAction {
			continue
		}
		v := check.ReadAxag(anns(i))
		if v == nil {
			continue
		}
		// An element describes an action bound by a member, which has its
		// page's context already: the element may narrow it, not widen it.
		v, fs = inherit(g, anns, n, v, false, fs)
		reached := reach(g, int32(i))
		var xs []*acoreAction
		for _, r := range reached {
			for _, x := range append(bulk[r], byNode[r]) {
				if x != nil && !slices.Contains(xs, x) {
					xs = append(xs, x)
				}
			}
		}
		x := pick(xs, v)
		if x == nil && len(xs) == 0 {
			if x = standalone(g, n, v); x != nil {
				order = append(order, x)
				v, _ = inherit(g, anns, n, v, true, nil)
			}
		}
		if x == nil {
			what := "element " + n.Name
			if n.Kind == graph.KindAction {
				what = "action " + n.Name
			}
			f := Finding{Rule: RuleAcoreTrigger, Severity: SeverityWarning, File: n.Path, Line: int(n.Line), Column: int(n.Column)}
			if len(xs) == 0 {
				f.Message = fmt.Sprintf("@axag on %s describes nothing: it runs no query or mutation, and has no intent and action_type of its own", what)
				f.Fix = "annotate the query or mutation member it stands for, give an intent and an action_type, or remove the annotation"
			} else {
				f.Message = fmt.Sprintf("@axag on %s: it runs %d queries and mutations and its intent names none of them", what, len(xs))
				f.Fix = "give the intent of the one it describes, or annotate the members"
			}
			fs = append(fs, f)
			continue
		}
		if n.Kind == graph.KindElement && x.a.ElementSelector == "" {
			x.a.ElementSelector = n.ID
		}
		fs = apply(x, v, n, fs)
	}
	out := make([]Action, 0, len(order))
	for _, x := range order {
		if x.setBy["skip"] == true {
			continue
		}
		out = append(out, x.a)
	}
	return out, fs, byNode
}

// inherit merges into v, the @axag of node n, the context its page or
// component declares (scope, tenant boundary, required roles): a value of
// n's may be more restrictive, never less (AXAG102, the owner's value is
// kept), as on the web. With fill, what n does not give is taken from the
// owner; without, n's own values are only checked.
func inherit(g *graph.Graph, anns func(int32) []*syntax.Annotation, n *graph.Node, v map[string]any, fill bool, fs []Finding) (map[string]any, []Finding) {
	on, ok := g.Node(n.Owner)
	if !ok {
		return v, fs
	}
	ctx := check.ReadAxag(anns(on.Index))
	if ctx == nil {
		return v, fs
	}
	out := maps.Clone(v)
	if out == nil && fill {
		out = map[string]any{}
	}
	for _, k := range check.AxagContextKeys {
		cv, ok := ctx[k]
		if !ok {
			continue
		}
		mine, given := v[k]
		switch {
		case !given:
			if fill {
				out[k] = cv
			}
		default:
			if why := lessRestrictive(k, cv, mine); why != "" {
				fs = append(fs, Finding{Rule: RuleContextLessRestrictive, Severity: SeverityError, File: n.Path, Line: int(n.Line), Column: int(n.Column), Key: k,
					Message: fmt.Sprintf("@axag gives %s as %s, less restrictive than %s declared by %s %s at %s: %s", k, show(mine), show(cv), on.Kind, on.Name, Where(on.Path, int(on.Line), int(on.Column)), why),
					Fix:     fmt.Sprintf("leave %s out to inherit it, or make it more restrictive", k)})
				out[k] = cv
			}
		}
	}
	return out, fs
}

// standalone returns the action of an element or action member that runs
// no query or mutation, when its annotation gives an intent and an action
// type (navigate when it navigates), else nil.
func standalone(g *graph.Graph, n *graph.Node, v map[string]any) *acoreAction {
	intent, _ := v["intent"].(string)
	if intent == "" {
		return nil
	}
	route := target(g, n.Index, graph.EdgeNavigatesTo, graph.KindRoute)
	if _, ok := v["action_type"]; !ok && route < 0 {
		return nil
	}
	a := Action{ActionType: "navigate", SourceFile: n.Path, SourceLine: int(n.Line), SourceColumn: int(n.Column),
		Description: fmt.Sprintf("%s %s of %s.", n.Kind, n.Name, strings.Replace(n.Owner, ":", " ", 1))}
	if route >= 0 {
		a.Parameters = routeParameters(g.At(route))
	}
	a.Description = strings.ToUpper(a.Description[:1]) + a.Description[1:]
	if n.Kind == graph.KindElement {
		a.ElementSelector = n.ID
	}
	return &acoreAction{a: a, own: true, set: map[string]string{}, setBy: map[string]any{}}
}

// pick chooses the action an element's or action member's annotation
// describes among those it runs: the one whose intent it names, else the
// most dangerous mutation (a bulk or extern action among them), else the
// only query.
func pick(xs []*acoreAction, v map[string]any) *acoreAction {
	if intent, ok := v["intent"].(string); ok {
		for _, x := range xs {
			if x.a.Intent == intent {
				return x
			}
		}
	}
	var muts, queries []*acoreAction
	for _, x := range xs {
		if x.mutation {
			muts = append(muts, x)
		} else {
			queries = append(queries, x)
		}
	}
	switch {
	case len(muts) > 0:
		// A handler that may run several carries the facts of the most
		// dangerous (Danger), the first of equals.
		best := muts[0]
		for _, x := range muts[1:] {
			if Danger(x.a.ActionType, x.a.RiskLevel) > Danger(best.a.ActionType, best.a.RiskLevel) {
				best = x
			}
		}
		return best
	case len(queries) == 1:
		return queries[0]
	}
	return nil
}

// reach returns the queries, mutations and extern actions node i runs,
// and itself and the actions it runs (whose bulk actions it runs too):
// through triggers and calls to actions, and invokes.
func reach(g *graph.Graph, from int32) []int32 {
	seen := map[int32]bool{from: true}
	queue := []int32{from}
	out := []int32{from}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, ei := range g.Out(i) {
			e := g.Edges[ei]
			if e.Kind() != graph.EdgeTriggers && e.Kind() != graph.EdgeCalls && e.Kind() != graph.EdgeInvokes {
				continue
			}
			if seen[e.To] {
				continue
			}
			seen[e.To] = true
			switch g.At(e.To).Kind {
			case graph.KindQuery, graph.KindMutation, graph.KindExtension:
				out = append(out, e.To)
			case graph.KindAction:
				out = append(out, e.To)
				queue = append(queue, e.To)
			}
		}
	}
	return out
}

// target returns the node an edge of kind leads to from i, of node kind
// nodeKind, or -1.
func target(g *graph.Graph, i int32, kind, nodeKind string) int32 {
	for _, ei := range g.Out(i) {
		e := g.Edges[ei]
		if e.Kind() == kind && g.At(e.To).Kind == nodeKind {
			return e.To
		}
	}
	return -1
}

// annotationsOf returns the annotations of a page or component, a query,
// mutation or action member, or an element.
func annotationsOf(n syntax.Node) []*syntax.Annotation {
	switch n := n.(type) {
	case *syntax.OwnerDecl:
		return n.Annotations
	case *syntax.DataDecl:
		return n.Annotations
	case *syntax.ActionDecl:
		return n.Annotations
	case *syntax.Element:
		return n.Annotations
	}
	return nil
}

// infer builds the action of the contract operation op that member n
// binds, from the contract alone.
func infer(info *check.Info, g *graph.Graph, n, opn *graph.Node, fs *[]Finding) *acoreAction {
	o := info.Defs[info.Syntax[opn.Index].(*syntax.OpDecl).Name]
	op, contract := o.Op, o.Contract.Name
	mutation := n.Kind == graph.KindMutation
	model := ""
	if mi := target(g, opn.Index, graph.EdgeUsesType, graph.KindModel); mi >= 0 {
		model = g.At(mi).Name
	}
	words := strings.Split(op.Name, "_")
	verb, noun := words[0], strings.Join(words[1:], "_")
	if len(words) == 1 {
		noun = ""
		switch {
		case mutation:
			verb = op.Name
		case op.Result.Kind == check.TList:
			verb = "list"
		default:
			verb = "get"
		}
	}
	entity := ""
	switch {
	case model != "":
		entity = snake(model)
	case noun != "":
		entity = singular(noun)
	default:
		entity = singular(snake(contract))
	}
	entity, verb = clean(entity), clean(strings.ToLower(verb))
	a := Action{
		Intent:       entity + "." + verb,
		Entity:       entity,
		ActionType:   "read",
		OperationID:  op.Name,
		SourceFile:   n.Path,
		SourceLine:   int(n.Line),
		SourceColumn: int(n.Column),
		Description:  fmt.Sprintf("Runs the contract %s %s.%s, bound as %s in %s.", n.Kind, contract, op.Name, n.Name, strings.Replace(n.Owner, ":", " ", 1)),
	}
	if mutation {
		// What the operation does is what the development backend
		// implements for it (check.OperationKind).
		a.ActionType = "write"
		if op.Does() == check.OpDelete {
			a.ActionType = "delete"
		}
	} else {
		a.Idempotent = Bool(true)
	}
	for _, pd := range op.Params {
		if pd.Type.Kind == check.Invalid {
			continue
		}
		if a.Parameters == nil {
			a.Parameters = map[string]Parameter{}
		}
		prm := paramOf(pd.Type)
		prm.Required = pd.Required
		if v, ok := info.Values[pd.Default]; ok && pd.Default != nil {
			prm.Default, prm.HasDefault = v, true
		}
		a.Parameters[pd.Name] = prm
	}
	x := &acoreAction{a: a, mutation: mutation, set: map[string]string{}, setBy: map[string]any{}, inherited: map[string]string{}}
	at := &graph.Node{Path: opn.Path, Line: opn.Line, Column: opn.Column}
	if v := check.ReadAxag(op.Decl.Annotations); v != nil {
		// The contract's facts come first; they become inherited, so
		// that bindings may refine them but not weaken them.
		*fs = apply(x, v, at, *fs)
		x.inherited, x.baseAt, x.set = x.set, maps.Clone(x.set), map[string]string{}
		x.base = maps.Clone(x.setBy)
	}
	*fs = applyParams(x, check.ReadAxagParams(op.Decl.Annotations), at, *fs)
	return x
}

// lessRestrictive says why replacing the inherited value old of key k by
// val would weaken what the contract declares, or "". Facts that are not
// about safety (description, intent, async, ...) may be replaced freely.
func lessRestrictive(k string, old, val any) string {
	oldS, _ := old.(string)
	vs, _ := val.(string)
	ob, _ := old.(bool)
	vb, _ := val.(bool)
	ol, _ := old.([]string)
	vl, _ := val.([]string)
	missing := func() string {
		var out []string
		for _, o := range ol {
			if !slices.Contains(vl, o) {
				out = append(out, o)
			}
		}
		if len(out) == 0 {
			return ""
		}
		return "it leaves out " + Printable(strings.Join(out, ", "))
	}
	switch k {
	case "risk_level":
		if slices.Index(RiskLevels, vs) < slices.Index(RiskLevels, oldS) {
			return "a lower risk"
		}
	case "action_type":
		if oldS == "delete" && vs != "delete" {
			return "a delete is not a " + vs
		}
	case "confirmation_required", "approval_required":
		if ob && !vb {
			return "it drops the requirement"
		}
	case "idempotent":
		if !ob && vb {
			return "an agent would retry what must not run twice"
		}
	case "scope":
		if scopeRank[vs] < scopeRank[oldS] {
			return "a wider scope (order: public, global, tenant, user)"
		}
	case "tenant_boundary":
		if oldS == "strict" && vs == "relaxed" {
			return "it crosses tenants"
		}
	case "required_roles", "side_effects", "preconditions", "postconditions":
		return missing()
	case "approval_roles":
		var extra []string
		for _, v := range vl {
			if !slices.Contains(ol, v) {
				extra = append(extra, v)
			}
		}
		if len(extra) > 0 {
			return "it lets " + Printable(strings.Join(extra, ", ")) + " approve too"
		}
	}
	return ""
}

// paramOf maps a type to a parameter: String string, Int integer, Float
// number, Bool boolean, a list array (with its items), a model object.
func paramOf(t *check.Type) Parameter {
	switch t.Kind {
	case check.TList:
		item := paramOf(t.Elem)
		return Parameter{Type: "array", Items: map[string]any{"type": item.Type}}
	case check.TString:
		return Parameter{Type: "string"}
	case check.TInt:
		return Parameter{Type: "integer"}
	case check.TFloat:
		return Parameter{Type: "number"}
	case check.TBool:
		return Parameter{Type: "boolean"}
	}
	return Parameter{Type: "object"}
}

// singular drops a plural s: tasks → task (not address → addres).
func singular(s string) string {
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 3:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "ss"), strings.HasSuffix(s, "us"):
		return s
	case strings.HasSuffix(s, "s") && len(s) > 1:
		return s[:len(s)-1]
	}
	return s
}

// clean keeps lowercase letters and _, as intents and entities allow.
func clean(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r == '_' {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "action"
	}
	return b.String()
}

// apply merges the valid @axag arguments v, written on node n, into x.
func apply(x *acoreAction, v map[string]any, n *graph.Node, fs []Finding) []Finding {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	// intent first: an entity given with it names the entity.
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == "intent") != (keys[j] == "intent") {
			return keys[i] == "intent"
		}
		return keys[i] < keys[j]
	})
	at := Where(n.Path, int(n.Line), int(n.Column))
	for _, k := range keys {
		val := v[k]
		if k == "action_type" && !x.own {
			t := val.(string)
			if (x.mutation && (t == "read" || t == "navigate")) || (!x.mutation && t != "read") {
				kind := "query"
				if x.mutation {
					kind = "mutation"
				}
				fs = append(fs, Finding{Rule: RuleAcoreContradiction, Severity: SeverityError, File: n.Path, Line: int(n.Line), Column: int(n.Column), Key: k,
					Message: fmt.Sprintf("@axag says action_type %q, but %s runs a contract %s (%s)", t, Printable(x.a.Intent), kind, x.a.ActionType),
					Fix:     fmt.Sprintf("remove action_type, or use %q", allowedTypes(x.mutation))})
				continue
			}
		}
		if from, ok := x.baseAt[k]; ok {
			if why := lessRestrictive(k, x.base[k], val); why != "" {
				fs = append(fs, Finding{Rule: RuleContextLessRestrictive, Severity: SeverityError, File: n.Path, Line: int(n.Line), Column: int(n.Column), Key: k,
					Message: fmt.Sprintf("@axag gives %s of %s as %s, less restrictive than %s declared by the contract at %s: %s", k, Printable(x.a.Intent), show(val), show(x.base[k]), from, why),
					Fix:     fmt.Sprintf("leave %s out to inherit the contract's value, or make it more restrictive", k)})
				continue
			}
		}
		if _, ok := x.inherited[k]; ok {
			delete(x.inherited, k)
		} else if prev, ok := x.set[k]; ok {
			if !equal(x.setBy[k], val) {
				fs = append(fs, Finding{Rule: RuleAcoreConflict, Severity: SeverityWarning, File: n.Path, Line: int(n.Line), Column: int(n.Column),
					Message: fmt.Sprintf("@axag gives %s of %s another value than at %s, which is kept", k, Printable(x.a.Intent), prev),
					Fix:     "give the value once, or the same value"})
			}
			continue
		}
		x.set[k], x.setBy[k] = at, val
		setField(&x.a, k, val)
		// The entity follows an intent that names another one, unless an
		// annotation gives it.
		if _, given := x.set["entity"]; k == "intent" && !given {
			x.a.Entity = strings.SplitN(x.a.Intent, ".", 2)[0]
		}
	}
	return fs
}

// RuleAcoreParameter: a parameter's @axag names no parameter of the
// operation, or gives a constraint its type cannot have (error).
const RuleAcoreParameter = "AXAG154"

// applyParams merges the parameter annotations ps, written on n, into the
// parameters of x: the first to give a constraint keeps it (the contract's
// come first), a later different value is AXAG153. Each constraint is
// checked against the parameter's type.
func applyParams(x *acoreAction, ps map[string]map[string]any, n *graph.Node, fs []Finding) []Finding {
	names := slices.Sorted(maps.Keys(ps))
	at := Where(n.Path, int(n.Line), int(n.Column))
	bad := func(msg, fix string) {
		fs = append(fs, Finding{Rule: RuleAcoreParameter, Severity: SeverityError, File: n.Path, Line: int(n.Line), Column: int(n.Column), Message: msg, Fix: fix})
	}
	for _, name := range names {
		p, ok := x.a.Parameters[name]
		if !ok {
			have := sortedParams(x.a.Parameters)
			fix := "the operation has no parameters; remove the annotation"
			if len(have) > 0 {
				fix = "use one of " + strings.Join(have, ", ")
			}
			bad(fmt.Sprintf("@axag describes parameter %s, which %s does not have", Printable(name), x.a.OperationID), fix)
			continue
		}
		v := ps[name]
		for _, k := range slices.Sorted(maps.Keys(v)) {
			val := v[k]
			if why := paramFits(p, k, val); why != "" {
				bad(fmt.Sprintf("@axag gives %s to parameter %s of %s, of type %s: %s", k, Printable(name), Printable(x.a.Intent), p.Type, why), "give constraints the parameter's type can have")
				continue
			}
			id := "parameter " + name + " " + k
			if prev, ok := x.set[id]; ok {
				if !reflect.DeepEqual(x.setBy[id], val) {
					fs = append(fs, Finding{Rule: RuleAcoreConflict, Severity: SeverityWarning, File: n.Path, Line: int(n.Line), Column: int(n.Column),
						Message: fmt.Sprintf("@axag gives %s of parameter %s of %s another value than at %s, which is kept", k, Printable(name), Printable(x.a.Intent), prev),
						Fix:     "give the value once, or the same value"})
				}
				continue
			}
			x.set[id], x.setBy[id] = at, val
			setParam(&p, k, val)
		}
		if p.Minimum != nil && p.Maximum != nil && *p.Minimum > *p.Maximum || p.MinLength != nil && p.MaxLength != nil && *p.MinLength > *p.MaxLength {
			bad(fmt.Sprintf("parameter %s of %s: its minimum is above its maximum, so no value is allowed", Printable(name), Printable(x.a.Intent)), "swap or correct the bounds")
		}
		x.a.Parameters[name] = p
	}
	return fs
}

// paramFits says why constraint k with value val does not suit p's type,
// or "".
func paramFits(p Parameter, k string, val any) string {
	numeric := p.Type == "integer" || p.Type == "number"
	switch k {
	case "minLength", "maxLength", "pattern", "format":
		if p.Type != "string" {
			return k + " applies to strings"
		}
	case "min", "max":
		if !numeric {
			return k + " applies to numbers"
		}
		if f := val.(float64); p.Type == "integer" && f != float64(int64(f)) {
			return fmt.Sprintf("%v is not a whole number", f)
		}
	case "enum":
		for _, e := range val.([]any) {
			ok := false
			switch e := e.(type) {
			case string:
				ok = p.Type == "string"
			case bool:
				ok = p.Type == "boolean"
			case float64:
				ok = p.Type == "number" || p.Type == "integer" && e == float64(int64(e))
			}
			if !ok {
				return fmt.Sprintf("the value %s is not of type %s", show(e), p.Type)
			}
		}
	}
	return ""
}

func setParam(p *Parameter, k string, val any) {
	switch k {
	case "description":
		p.Description = val.(string)
	case "enum":
		p.Enum = val.([]any)
		if p.Type == "integer" {
			for i, e := range p.Enum {
				p.Enum[i] = int64(e.(float64))
			}
		}
	case "min":
		p.Minimum = new(val.(float64))
	case "max":
		p.Maximum = new(val.(float64))
	case "minLength":
		p.MinLength = new(val.(int))
	case "maxLength":
		p.MaxLength = new(val.(int))
	case "pattern":
		p.Pattern = val.(string)
	case "format":
		p.Format = val.(string)
	}
}

// show writes an @axag value as it is written in a source.
func show(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(Printable(v))
	case []any:
		q := make([]string, len(v))
		for i, e := range v {
			q[i] = show(e)
		}
		return "[" + strings.Join(q, ", ") + "]"
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = strconv.Quote(Printable(s))
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func allowedTypes(mutation bool) string {
	if mutation {
		return "write or delete"
	}
	return "read"
}

func equal(a, b any) bool {
	as, aok := a.([]string)
	bs, bok := b.([]string)
	if aok && bok {
		return slices.Equal(as, bs)
	}
	return a == b
}

func setField(a *Action, k string, val any) {
	s, _ := val.(string)
	b, _ := val.(bool)
	l, _ := val.([]string)
	switch k {
	case "intent":
		a.Intent = s
	case "entity":
		a.Entity = s
	case "action_type":
		a.ActionType = s
	case "description":
		a.Description = s
	case "operation_id":
		a.OperationID = s
	case "risk_level":
		a.RiskLevel = s
	case "confirmation_required":
		a.ConfirmationRequired = Bool(b)
	case "approval_required":
		a.ApprovalRequired = Bool(b)
	case "approval_roles":
		a.ApprovalRoles = l
	case "required_roles":
		a.RequiredRoles = l
	case "idempotent":
		a.Idempotent = Bool(b)
	case "async":
		a.Async = Bool(b)
	case "scope":
		a.Scope = s
	case "tenant_boundary":
		a.TenantBoundary = s
	case "preconditions":
		a.Preconditions = l
	case "postconditions":
		a.Postconditions = l
	case "side_effects":
		a.SideEffects = l
	}
}

// routeParameters are the parameters of a navigation to route r: its
// `:name` segments (the route node's param.<name> properties), each
// required, or nil.
func routeParameters(r *graph.Node) map[string]Parameter {
	var out map[string]Parameter
	for _, p := range r.Props {
		name, ok := strings.CutPrefix(p.Name, "param.")
		if !ok {
			continue
		}
		if out == nil {
			out = map[string]Parameter{}
		}
		prm := Parameter{Type: "string"}
		if p.Value == "Int" {
			prm.Type = "integer"
		}
		prm.Required = true
		out[name] = prm
	}
	return out
}
