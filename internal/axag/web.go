package axag

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/axiomcore/acore/internal/suggest"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The axag-* attributes of web sources (without the prefix).
var webAttributes = []string{
	"intent", "entity", "action-type", "description", "required-parameters", "optional-parameters",
	"scope", "risk-level", "confirmation-required", "approval-required", "approval-roles",
	"idempotent", "preconditions", "postconditions", "side-effects", "required-roles",
	"tenant-boundary", "async", "operation-id", "skip",
}

// contextAttributes apply to the annotated elements inside the element
// that carries them.
var contextAttributes = []string{"scope", "tenant-boundary", "required-roles"}

// WebScan is the outcome of scanning web sources.
type WebScan struct {
	Actions  []Action
	Dynamic  []DynamicAction
	Findings []Finding
	// Files lists the scanned files, slash-separated, relative to the root.
	Files []string
}

// IsWebSource reports whether a file name is a web source the scanner
// reads: .html, .htm (including *.component.html), .jsx, .tsx, .vue.
func IsWebSource(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".html", ".htm", ".jsx", ".tsx", ".vue":
		return true
	}
	return false
}

// MaxWebFileBytes bounds the size of a web source ScanWeb reads from a
// directory; a larger file is a finding (AXAG109) and is not scanned.
var MaxWebFileBytes int64 = 8 << 20

// skippedDirs are never entered.
var skippedDirs = map[string]bool{"node_modules": true, "dist": true, "build": true}

// ScanWeb reads the web sources under root (a directory, or a single
// file) and returns their annotated actions in file order, not yet built
// (see Build). Directories named node_modules, dist or build, and hidden
// directories, are skipped. A file that cannot be read is a finding; the
// error is for a root that cannot be walked.
func ScanWeb(root string) (*WebScan, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	res := &WebScan{}
	if !st.IsDir() {
		if !IsWebSource(root) {
			return nil, fmt.Errorf("%s: not a web source (.html, .htm, .jsx, .tsx, .vue)", root)
		}
		data, err := os.ReadFile(root)
		if err != nil {
			return nil, err
		}
		scanFile(res, filepath.Base(root), data)
		SortFindings(res.Findings)
		return res, nil
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == root {
				return err
			}
			res.Findings = append(res.Findings, Finding{Rule: RuleUnreadable, Severity: SeverityError, File: rel, Message: "cannot read: " + err.Error(), Fix: "check the permissions"})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != root && (skippedDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !IsWebSource(d.Name()) {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Size() > MaxWebFileBytes {
			res.Findings = append(res.Findings, Finding{Rule: RuleUnreadable, Severity: SeverityError, File: rel,
				Message: fmt.Sprintf("%d bytes, more than the %d a web source may have; not scanned", info.Size(), MaxWebFileBytes),
				Fix:     "move generated or bundled files into dist or build, which are skipped"})
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			res.Findings = append(res.Findings, Finding{Rule: RuleUnreadable, Severity: SeverityError, File: rel, Message: "cannot read: " + err.Error(), Fix: "check the permissions"})
			return nil
		}
		scanFile(res, rel, data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	SortFindings(res.Findings)
	return res, nil
}

// ScanWebSource scans one file's content; name decides the syntax (by
// extension) and is the file recorded in actions and findings.
func ScanWebSource(name string, data []byte) *WebScan {
	res := &WebScan{}
	scanFile(res, name, data)
	SortFindings(res.Findings)
	return res
}

type webFile struct {
	name  string
	src   string
	lines []int // offsets of line starts
	res   *WebScan
}

func (f *webFile) pos(off int) (int, int) {
	if off < 0 {
		off = 0
	}
	if off > len(f.src) {
		off = len(f.src)
	}
	n := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	return n + 1, utf8.RuneCountInString(f.src[f.lines[n]:off]) + 1
}

func (f *webFile) finding(off int, rule, sev, msg, fix string) {
	l, c := f.pos(off)
	f.res.Findings = append(f.res.Findings, Finding{Rule: rule, Severity: sev, File: f.name, Line: l, Column: c, Message: msg, Fix: fix})
}

func scanFile(res *WebScan, name string, data []byte) {
	res.Files = append(res.Files, name)
	f := &webFile{name: name, src: string(data), lines: []int{0}, res: res}
	for i := 0; i < len(f.src); i++ {
		if f.src[i] == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	var root *element
	var problems []parseProblem
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".jsx") || strings.HasSuffix(lower, ".tsx"):
		root, problems = parseJSX(f.src)
	default:
		root, problems = parseMarkup(f.src)
	}
	for _, p := range problems {
		f.finding(p.Pos, RuleUnreadable, SeverityError, p.Msg, "close the comment or tag")
	}
	if strings.HasSuffix(lower, ".vue") {
		// Only the top-level <template> is markup; the rest is script and style.
		var tpl *element
		for _, c := range root.Children {
			if c.Name == "template" {
				tpl = c
				break
			}
		}
		if tpl == nil {
			return
		}
		root = &element{Pos: -1, Children: tpl.Children}
	}
	for _, c := range root.Children {
		f.walk(c, webContext{})
	}
}

// webContext is what ancestors declare for the elements inside them.
type webContext struct {
	scope, scopeAt       string // value, where (file:line:col)
	boundary, boundaryAt string
	roles                []string
	rolesAt              string
}

// scopeRank orders scopes from the least to the most restrictive (ours):
// public (anyone), global (across tenants), tenant, user (one user's own).
var scopeRank = map[string]int{"public": 0, "global": 1, "tenant": 2, "user": 3}

func (f *webFile) where(off int) string {
	l, c := f.pos(off)
	return Where(f.name, l, c)
}

type attrValue struct {
	a       attr
	value   string
	dynamic bool
}

// attrs collects the element's axag-* attributes by short name (without
// the prefix), with static values resolved; unknown ones are findings.
func (f *webFile) attrs(el *element) (map[string]attrValue, []string) {
	m := map[string]attrValue{}
	var order []string
	for _, a := range el.Attrs {
		if a.Kind == attrSpread {
			continue
		}
		n := boundName(a.Name)
		if !strings.HasPrefix(strings.ToLower(n), "axag-") {
			continue
		}
		short := strings.ToLower(n[5:])
		if !slices.Contains(webAttributes, short) {
			fix := "remove it, or use one of axag-" + strings.Join(webAttributes, ", axag-")
			if s := suggest.Closest(short, webAttributes); s != "" {
				fix = "did you mean axag-" + s + "?"
			}
			f.finding(a.Pos, RuleUnknownAttribute, SeverityWarning, fmt.Sprintf("unknown attribute %s", a.Name), fix)
			continue
		}
		v := attrValue{a: a, value: a.Value}
		switch a.Kind {
		case attrBare:
			v.value = "true"
		case attrExpr:
			s, ok := staticValue(a.Value)
			v.value, v.dynamic = s, !ok
		}
		if _, dup := m[short]; dup {
			continue
		}
		m[short] = v
		order = append(order, short)
	}
	return m, order
}

// staticValue evaluates an expression attribute that is a literal: a
// string ("x", 'x', `x` without substitutions), a boolean, a number, or a
// JSON array or object (returned as JSON text).
func staticValue(expr string) (string, bool) {
	e := strings.TrimSpace(expr)
	if e == "" {
		return "", false
	}
	if n := len(e); n >= 2 && (e[0] == '\'' && e[n-1] == '\'' || e[0] == '`' && e[n-1] == '`') {
		inner := e[1 : n-1]
		if !strings.ContainsAny(inner, "\\'`") && !strings.Contains(inner, "${") {
			return inner, true
		}
		return "", false
	}
	var v any
	if err := json.Unmarshal([]byte(e), &v); err != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return e, true
}

func (f *webFile) walk(el *element, ctx webContext) {
	attrs, order := f.attrs(el)
	if v, ok := attrs["skip"]; ok && v.value != "false" {
		return
	}
	for _, short := range order {
		v := attrs[short]
		if v.dynamic && short != "intent" {
			f.finding(v.a.Pos, RuleDynamicValue, SeverityWarning, fmt.Sprintf("%s is computed at run time; the value is ignored", v.a.Name), "use a literal value so that the manifest can be generated statically")
		}
	}
	inner := f.context(el, attrs, ctx)
	intent, hasIntent := attrs["intent"]
	switch {
	case hasIntent && intent.dynamic:
		l, _ := f.pos(intent.a.Pos)
		f.res.Dynamic = append(f.res.Dynamic, DynamicAction{SourceFile: f.name, SourceLine: l, Reason: "axag-intent is computed at run time: " + strings.TrimSpace(intent.a.Value)})
		f.finding(intent.a.Pos, RuleDynamicValue, SeverityWarning, "axag-intent is computed at run time; the action is listed under dynamic_actions", "use a literal intent")
	case hasIntent:
		f.action(el, attrs, inner)
	default:
		for _, short := range order {
			v := attrs[short]
			if short != "skip" && !slices.Contains(contextAttributes, short) {
				f.finding(v.a.Pos, RuleNoIntent, SeverityWarning, fmt.Sprintf("%s on an element without axag-intent has no effect", v.a.Name), `add axag-intent="entity.verb" to this element, or remove the attribute`)
				break
			}
		}
	}
	for _, c := range el.Children {
		f.walk(c, inner)
	}
}

// context applies the element's context attributes to ctx, with a finding
// when the element is less restrictive than an ancestor (the ancestor's
// value is then kept).
func (f *webFile) context(el *element, attrs map[string]attrValue, ctx webContext) webContext {
	out := ctx
	here := f.where(el.Pos)
	if v, ok := attrs["scope"]; ok && !v.dynamic {
		s := v.value
		switch {
		case !slices.Contains(Scopes, s):
			// reported by Check on actions; report here for context-only elements
			if _, isAction := attrs["intent"]; !isAction {
				f.finding(v.a.Pos, RuleInvalidValue, SeverityError, fmt.Sprintf("axag-scope %q is not one of %s", s, strings.Join(Scopes, ", ")), "use one of "+strings.Join(Scopes, ", "))
			}
		case ctx.scope != "" && scopeRank[s] < scopeRank[ctx.scope]:
			f.finding(v.a.Pos, RuleContextLessRestrictive, SeverityError, fmt.Sprintf("axag-scope %q is less restrictive than %q declared at %s", s, ctx.scope, ctx.scopeAt), fmt.Sprintf("use %q or a more restrictive scope (order: public, global, tenant, user)", ctx.scope))
		default:
			out.scope, out.scopeAt = s, here
		}
	}
	if v, ok := attrs["tenant-boundary"]; ok && !v.dynamic {
		b := v.value
		switch {
		case !slices.Contains(TenantBoundaries, b):
			if _, isAction := attrs["intent"]; !isAction {
				f.finding(v.a.Pos, RuleInvalidValue, SeverityError, fmt.Sprintf("axag-tenant-boundary %q is not one of %s", b, strings.Join(TenantBoundaries, ", ")), "use strict or relaxed")
			}
		case ctx.boundary == "strict" && b == "relaxed":
			f.finding(v.a.Pos, RuleContextLessRestrictive, SeverityError, fmt.Sprintf("axag-tenant-boundary relaxed inside strict declared at %s", ctx.boundaryAt), `use "strict" or leave the attribute out to inherit it`)
		default:
			out.boundary, out.boundaryAt = b, here
		}
	}
	if v, ok := attrs["required-roles"]; ok && !v.dynamic {
		roles, ok := f.stringList(v)
		if ok {
			var missing []string
			for _, r := range ctx.roles {
				if !slices.Contains(roles, r) {
					missing = append(missing, r)
				}
			}
			if len(missing) > 0 {
				f.finding(v.a.Pos, RuleContextLessRestrictive, SeverityError, fmt.Sprintf("axag-required-roles leaves out %s, required at %s", strings.Join(missing, ", "), ctx.rolesAt), "include every role an ancestor requires, or leave the attribute out to inherit them")
				roles = append(roles, missing...)
			}
			out.roles, out.rolesAt = roles, here
		}
	}
	return out
}

// jsonErrorOffset returns the byte offset of a JSON error in the value.
func jsonErrorOffset(err error) int {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return int(se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return int(te.Offset)
	}
	return 0
}

func (f *webFile) badJSON(v attrValue, err error) {
	off := v.a.ValPos + max(jsonErrorOffset(err)-1, 0)
	f.finding(off, RuleInvalidJSON, SeverityError, fmt.Sprintf("%s: invalid JSON: %v", v.a.Name, err), `write a JSON array in single quotes, for example `+v.a.Name+`='["a", "b"]'`)
}

// stringList reads a JSON array of strings.
func (f *webFile) stringList(v attrValue) ([]string, bool) {
	var list []string
	if err := json.Unmarshal([]byte(v.value), &list); err != nil {
		f.badJSON(v, err)
		return nil, false
	}
	if list == nil {
		list = []string{}
	}
	return list, true
}

func (f *webFile) boolean(v attrValue) *bool {
	switch v.value {
	case "true":
		return Bool(true)
	case "false":
		return Bool(false)
	}
	f.finding(v.a.ValPos, RuleInvalidValue, SeverityError, fmt.Sprintf("%s: %q is not a boolean; allowed: true, false", v.a.Name, v.value), `use "true" or "false"`)
	return nil
}

// rawParam is one entry of axag-required-parameters/optional-parameters.
type rawParam struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Description string          `json:"description"`
	Enum        []any           `json:"enum"`
	Min         *float64        `json:"min"`
	Max         *float64        `json:"max"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinLength   *float64        `json:"minLength"`
	MaxLength   *float64        `json:"maxLength"`
	Pattern     string          `json:"pattern"`
	Format      string          `json:"format"`
	Default     json.RawMessage `json:"default"`
	Items       map[string]any  `json:"items"`
	Properties  map[string]any  `json:"properties"`
	Source      string          `json:"source"`
}

func intPtr(f *float64) *int {
	if f == nil || *f < 0 || *f != math.Trunc(*f) {
		return nil
	}
	n := int(*f)
	return &n
}

// params reads a parameter list attribute into a, marking them required
// or not. It reports names already declared.
func (f *webFile) params(a *Action, v attrValue, required bool) {
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(v.value), &items); err != nil {
		f.badJSON(v, err)
		return
	}
	if a.Parameters == nil {
		a.Parameters = map[string]Parameter{}
	}
	for _, it := range items {
		var p Parameter
		var name string
		if err := json.Unmarshal(it, &name); err != nil {
			var rp rawParam
			if err := json.Unmarshal(it, &rp); err != nil || rp.Name == "" {
				f.finding(v.a.ValPos, RuleInvalidValue, SeverityError, fmt.Sprintf("%s: each entry must be a name or an object with a name: %s", v.a.Name, string(it)), `write '["title"]' or '[{"name": "title", "type": "string"}]'`)
				continue
			}
			name = rp.Name
			p = Parameter{Type: rp.Type, Description: rp.Description, Enum: rp.Enum, Minimum: rp.Min, Maximum: rp.Max,
				MinLength: intPtr(rp.MinLength), MaxLength: intPtr(rp.MaxLength), Pattern: rp.Pattern, Format: rp.Format,
				Items: rp.Items, Properties: rp.Properties, Source: rp.Source}
			if p.Minimum == nil {
				p.Minimum = rp.Minimum
			}
			if p.Maximum == nil {
				p.Maximum = rp.Maximum
			}
			if len(rp.Default) > 0 {
				var d any
				if json.Unmarshal(rp.Default, &d) == nil {
					p.Default, p.HasDefault = d, true
				}
			}
		}
		if name == "" {
			f.finding(v.a.ValPos, RuleInvalidValue, SeverityError, fmt.Sprintf("%s: a parameter has an empty name", v.a.Name), "give every parameter a name")
			continue
		}
		p.Required = required
		if old, dup := a.Parameters[name]; dup {
			if old.Required != required {
				f.finding(v.a.Pos, RuleParameterBoth, SeverityError, fmt.Sprintf("parameter %s is both required and optional", name), "list it in axag-required-parameters or axag-optional-parameters, not both")
			}
			continue
		}
		a.Parameters[name] = p
	}
}

func (f *webFile) action(el *element, attrs map[string]attrValue, ctx webContext) {
	l, c := f.pos(el.Pos)
	a := Action{SourceFile: f.name, SourceLine: l, SourceColumn: c}
	str := func(short string) string {
		if v, ok := attrs[short]; ok && !v.dynamic {
			return strings.TrimSpace(v.value)
		}
		return ""
	}
	a.Intent = str("intent")
	a.Entity = str("entity")
	a.ActionType = str("action-type")
	a.Description = str("description")
	a.RiskLevel = str("risk-level")
	a.OperationID = str("operation-id")
	a.Scope = ctx.scope
	a.TenantBoundary = ctx.boundary
	if v, ok := attrs["scope"]; ok && !v.dynamic && !slices.Contains(Scopes, v.value) {
		a.Scope = v.value // invalid: reported by Check
	}
	if v, ok := attrs["tenant-boundary"]; ok && !v.dynamic && !slices.Contains(TenantBoundaries, v.value) {
		a.TenantBoundary = v.value
	}
	if ctx.roles != nil {
		a.RequiredRoles = slices.Clone(ctx.roles)
	}
	for short, dst := range map[string]**bool{
		"confirmation-required": &a.ConfirmationRequired, "approval-required": &a.ApprovalRequired,
		"idempotent": &a.Idempotent, "async": &a.Async,
	} {
		if v, ok := attrs[short]; ok && !v.dynamic {
			*dst = f.boolean(v)
		}
	}
	for short, dst := range map[string]*[]string{
		"approval-roles": &a.ApprovalRoles, "preconditions": &a.Preconditions,
		"postconditions": &a.Postconditions, "side-effects": &a.SideEffects,
	} {
		if v, ok := attrs[short]; ok && !v.dynamic {
			if list, ok := f.stringList(v); ok {
				*dst = list
			}
		}
	}
	if v, ok := attrs["required-parameters"]; ok && !v.dynamic {
		f.params(&a, v, true)
	}
	if v, ok := attrs["optional-parameters"]; ok && !v.dynamic {
		f.params(&a, v, false)
	}
	if a.Intent != "" {
		a.ElementSelector = fmt.Sprintf("[axag-intent=%q]", a.Intent)
	}
	f.res.Actions = append(f.res.Actions, a)
}
