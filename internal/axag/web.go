package axag

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/axiomcore/acore/internal/lang/suggest"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
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
		data, err := ReadRegular(root, MaxWebFileBytes, "a web source")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", root, err)
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
		data, err := ReadRegular(p, MaxWebFileBytes, "a web source")
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
	// chars[k] counts the characters before offset k*charStep, so that a
	// column costs at most charStep bytes of counting, however long the
	// line (a minified page is one line).
	chars []int
	res   *WebScan
	// required holds the roles the elements being walked require, each
	// with the offset of the outermost element that requires it, and
	// requiredOrder the same roles outermost first: every element shares
	// them instead of copying its ancestors' roles.
	required      map[string]int
	requiredOrder []string
}

const charStep = 1024

func newWebFile(res *WebScan, name string, src string) *webFile {
	f := &webFile{name: name, src: src, lines: []int{0}, res: res, chars: make([]int, 0, len(src)/charStep+1)}
	n := 0
	for i := 0; i < len(src); i++ {
		if i%charStep == 0 {
			f.chars = append(f.chars, n)
		}
		if src[i]&0xC0 != 0x80 { // not a UTF-8 continuation byte
			n++
		}
		if src[i] == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// charsBefore counts the characters (UTF-8 sequences, or stray bytes)
// before offset off.
func (f *webFile) charsBefore(off int) int {
	k := off / charStep
	if k >= len(f.chars) {
		k = len(f.chars) - 1
	}
	if k < 0 {
		return 0
	}
	n := f.chars[k]
	for i := k * charStep; i < off; i++ {
		if f.src[i]&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

func (f *webFile) pos(off int) (int, int) {
	off = min(max(off, 0), len(f.src))
	n := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	return n + 1, f.charsBefore(off) - f.charsBefore(f.lines[n]) + 1
}

func (f *webFile) finding(off int, rule, sev, msg, fix string) {
	l, c := f.pos(off)
	f.res.Findings = append(f.res.Findings, Finding{Rule: rule, Severity: sev, File: f.name, Line: l, Column: c, Message: Printable(msg), Fix: Printable(fix)})
}

func scanFile(res *WebScan, name string, data []byte) {
	res.Files = append(res.Files, name)
	f := newWebFile(res, name, string(data))
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
		fix := "close it: nothing after it in the file is scanned"
		if p.Msg == nestingProblem {
			fix = fmt.Sprintf("nest elements at most %d deep, or split the page into components in their own files", MaxWebNesting)
		}
		f.finding(p.Pos, RuleUnreadable, SeverityError, p.Msg, fix)
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

// webContext is what ancestors declare for the elements inside them: a
// few words, the same size at any depth.
type webContext struct {
	scope      string
	scopeAt    int // offset of the element that declares it
	boundary   string
	boundaryAt int
	roles      *roleScope // the nearest element declaring axag-required-roles, or nil
}

// roleScope is an element's axag-required-roles. The roles required there
// are its own, then those its ancestors require that it leaves out
// (webFile.required holds them all while its elements are walked).
type roleScope struct {
	own    []string // without repeats
	ownSet map[string]bool
	count  int // roles required here: own and ancestors' together
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
		if strings.HasPrefix(short, "x-") && len(short) > 2 {
			continue // the extension form, axag-x-*: not ours to read
		}
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
	if el.Name == "noscript" {
		f.noscript(el)
		return
	}
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
	inner, pushed := f.context(el, attrs, ctx)
	intent, hasIntent := attrs["intent"]
	switch {
	case hasIntent && intent.dynamic:
		l, _ := f.pos(intent.a.Pos)
		f.res.Dynamic = append(f.res.Dynamic, DynamicAction{SourceFile: f.name, SourceLine: l, Reason: "axag-intent is computed at run time: " + Printable(strings.TrimSpace(intent.a.Value))})
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
	for _, r := range pushed {
		delete(f.required, r)
	}
	f.requiredOrder = f.requiredOrder[:len(f.requiredOrder)-len(pushed)]
}

// noscript reports the annotated elements inside a <noscript>, which are
// not extracted: a browser that runs scripts, as an agent's does, never
// builds them, so the manifest must not promise them.
func (f *webFile) noscript(el *element) {
	n := 0
	var count func(e *element)
	count = func(e *element) {
		for _, a := range e.Attrs {
			if strings.HasPrefix(strings.ToLower(boundName(a.Name)), "axag-") {
				n++
				break
			}
		}
		for _, c := range e.Children {
			count(c)
		}
	}
	for _, c := range el.Children {
		count(c)
	}
	if n > 0 {
		what := fmt.Sprintf("%d annotated elements inside <noscript> are", n)
		if n == 1 {
			what = "an annotated element inside <noscript> is"
		}
		f.finding(el.Pos, RuleNoscript, SeverityWarning,
			what+" not extracted: a browser that runs scripts never builds the content of <noscript>",
			"annotate the elements the page shows with scripting on; keep <noscript> for the fallback")
	}
}

// context applies the element's context attributes to ctx, with a finding
// when the element is less restrictive than an ancestor (the ancestor's
// value is then kept). It returns the roles it added to f.required, which
// the caller removes after the element's children.
func (f *webFile) context(el *element, attrs map[string]attrValue, ctx webContext) (webContext, []string) {
	out := ctx
	if v, ok := attrs["scope"]; ok && !v.dynamic {
		s := v.value
		switch {
		case !slices.Contains(Scopes, s):
			// reported by Check on actions; report here for context-only elements
			if _, isAction := attrs["intent"]; !isAction {
				f.finding(v.a.Pos, RuleInvalidValue, SeverityError, fmt.Sprintf("axag-scope %q is not one of %s", s, strings.Join(Scopes, ", ")), "use one of "+strings.Join(Scopes, ", "))
			}
		case ctx.scope != "" && scopeRank[s] < scopeRank[ctx.scope]:
			f.finding(v.a.Pos, RuleContextLessRestrictive, SeverityError, fmt.Sprintf("axag-scope %q is less restrictive than %q declared at %s", s, ctx.scope, f.where(ctx.scopeAt)), fmt.Sprintf("use %q or a more restrictive scope (order: public, global, tenant, user)", ctx.scope))
		default:
			out.scope, out.scopeAt = s, el.Pos
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
			f.finding(v.a.Pos, RuleContextLessRestrictive, SeverityError, fmt.Sprintf("axag-tenant-boundary relaxed inside strict declared at %s", f.where(ctx.boundaryAt)), `use "strict" or leave the attribute out to inherit it`)
		default:
			out.boundary, out.boundaryAt = b, el.Pos
		}
	}
	var pushed []string
	if v, ok := attrs["required-roles"]; ok && !v.dynamic {
		if roles, ok := f.stringList(v); ok {
			rs := &roleScope{ownSet: make(map[string]bool, len(roles))}
			inherited := 0 // ancestors' roles this element repeats
			for _, r := range roles {
				if rs.ownSet[r] {
					continue
				}
				rs.ownSet[r] = true
				rs.own = append(rs.own, r)
				if _, ok := f.required[r]; ok {
					inherited++
				}
			}
			if missing := len(f.required) - inherited; missing > 0 {
				f.missingRoles(v, rs, missing)
			}
			if f.required == nil {
				f.required = map[string]int{}
			}
			for _, r := range rs.own {
				if _, ok := f.required[r]; !ok {
					f.required[r] = el.Pos
					f.requiredOrder = append(f.requiredOrder, r)
					pushed = append(pushed, r)
				}
			}
			rs.count = len(f.required)
			out.roles = rs
		}
	}
	return out, pushed
}

// maxListed bounds the roles a finding names.
const maxListed = 5

// missingRoles reports the roles ancestors require that an element's
// axag-required-roles leaves out: the first maxListed, outermost first,
// each with where it is required, and how many more.
func (f *webFile) missingRoles(v attrValue, rs *roleScope, missing int) {
	var named []string
	for _, r := range f.requiredOrder {
		if len(named) == min(missing, maxListed) {
			break
		}
		if !rs.ownSet[r] {
			named = append(named, fmt.Sprintf("%s (required at %s)", r, f.where(f.required[r])))
		}
	}
	msg := "axag-required-roles leaves out " + strings.Join(named, ", ")
	if missing > len(named) {
		msg += fmt.Sprintf(" and %d more", missing-len(named))
	}
	f.finding(v.a.Pos, RuleContextLessRestrictive, SeverityError, msg, "include every role an ancestor requires, or leave the attribute out to inherit them")
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
	if rs := ctx.roles; rs != nil {
		// Its own roles, then its ancestors' it leaves out: the roles
		// required where the scope was declared (f.requiredOrder also
		// holds roles its descendants add, after those).
		a.RequiredRoles = make([]string, 0, rs.count)
		a.RequiredRoles = append(a.RequiredRoles, rs.own...)
		for _, r := range f.requiredOrder {
			if len(a.RequiredRoles) == rs.count {
				break
			}
			if !rs.ownSet[r] {
				a.RequiredRoles = append(a.RequiredRoles, r)
			}
		}
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
