package features

import (
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/graph"
	"github.com/axiomcore/acore/internal/lang/refs"
	"github.com/axiomcore/acore/internal/lang/rename"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// frame is an open bracket before the cursor.
type frame struct {
	open   byte
	pos    int
	callee string   // for `(`, the dotted name before it: "Button", "Books.add_book"
	app    bool     // the `(` of `app Name(`: the app's arguments
	annot  bool     // the `(` of an annotation, `@axag(`
	named  []string // the argument names given so far
	commas int
	last   string // the name of the argument being written, if named
}

// site is what surrounds the cursor, read from the text itself so that
// the half-written code an editor completes needs no parse.
type site struct {
	frames   []frame
	inString bool
	strStart int // the opening quote, when inString
}

func (s *site) top() *frame {
	if len(s.frames) == 0 {
		return nil
	}
	return &s.frames[len(s.frames)-1]
}

// scan reads text up to off.
func scan(text []byte, off int) site {
	var s site
	for i := 0; i < off; i++ {
		c := text[i]
		switch {
		case s.inString:
			if c == '\\' {
				i++
			} else if c == '"' || c == '\n' {
				s.inString = false
			}
		case c == '"':
			s.inString, s.strStart = true, i
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < off && text[i] != '\n' {
				i++
			}
			if i >= off {
				return site{frames: s.frames}
			}
		case c == '(' || c == '{' || c == '[':
			f := frame{open: c, pos: i}
			if c == '(' {
				f.callee = chainBefore(text, i)
				f.app = appBefore(text, i, f.callee)
				f.annot = annotationBefore(text, i, f.callee)
			}
			s.frames = append(s.frames, f)
		case c == ')' || c == '}' || c == ']':
			if len(s.frames) > 0 {
				s.frames = s.frames[:len(s.frames)-1]
			}
		case c == ',':
			if t := s.top(); t != nil {
				t.commas++
				t.last = ""
			}
		case c == ':':
			if t := s.top(); t != nil && t.open == '(' {
				if name := chainBefore(text, i); rename.IsIdent(name) {
					t.named = append(t.named, name)
					t.last = name
				}
			}
		}
	}
	return s
}

// appBefore reports whether the name callee before the `(` at i follows
// the keyword app.
func appBefore(text []byte, i int, callee string) bool {
	if !rename.IsIdent(callee) {
		return false
	}
	j := i
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	j -= len(callee)
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	return j >= 3 && string(text[j-3:j]) == "app" && (j == 3 || !identByte(text[j-4]))
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// annotationBefore reports whether the name callee before the `(` at i
// follows an @.
func annotationBefore(text []byte, i int, callee string) bool {
	j := i
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	j -= len(callee)
	return callee != "" && j > 0 && text[j-1] == '@'
}

// chainBefore is the dotted name that ends just before i, spaces between
// them skipped: "Books.add_book" before `(`.
func chainBefore(text []byte, i int) string {
	j := i
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	end := j
	for j > 0 && (identByte(text[j-1]) || text[j-1] == '.') {
		j--
	}
	return string(text[j:end])
}

// Completion offers what may be written at p: after a dot the members of
// the value or the operations of the contract before it; in an element's,
// component's, action's or operation's argument list, or the app's, the
// names of its properties or parameters not given yet; in a string, the
// values a property or app argument allows and, for navigate and Link,
// the route paths; elsewhere
// the names in scope, the catalog's elements and the components.
func Completion(fs *Files, rel string, p protocol.Position) []protocol.CompletionItem {
	text, ok := fs.Snap.Text(rel)
	if !ok {
		return nil
	}
	off, _ := fs.Offset(rel, p)
	start := off
	for start > 0 && identByte(text[start-1]) {
		start--
	}
	ix := fs.Snap.Index()
	s := scan(text, start)
	c := &completer{fs: fs, ix: ix, rel: rel, text: text, off: off, start: start}
	switch {
	case s.inString:
		c.inString(&s)
	case start > 0 && text[start-1] == '.':
		c.members(chainBefore(text, start-1))
	default:
		// An argument's name or a positional value.
		if t := s.top(); t != nil && t.open == '(' && atArgName(text, t.pos, start) {
			c.arguments(t)
		}
		c.scope()
	}
	return c.items
}

// atArgName reports whether the text between an open parenthesis at open
// and start is blank after the last comma: where an argument's name goes.
func atArgName(text []byte, open, start int) bool {
	for i := start - 1; i > open; i-- {
		switch text[i] {
		case ' ', '\t', '\n', '\r':
		case ',':
			return true
		default:
			return false
		}
	}
	return true
}

type completer struct {
	fs         *Files
	ix         *refs.Index
	rel        string
	text       []byte
	off, start int
	items      []protocol.CompletionItem
	seen       map[string]bool
}

func (c *completer) add(label string, kind protocol.CompletionItemKind, detail, doc, insert string) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if c.seen[label] {
		return
	}
	c.seen[label] = true
	it := protocol.CompletionItem{Label: label, Kind: kind}
	if detail != "" {
		it.Detail = protocol.NewOptional(detail)
	}
	if doc != "" {
		it.Documentation = protocol.String(doc)
	}
	if insert != "" && insert != label {
		it.InsertText = protocol.NewOptional(insert)
	}
	c.items = append(c.items, it)
}

// inString offers a property's allowed values and, where a route is
// named, the app's route paths.
func (c *completer) inString(s *site) {
	t := s.top()
	if t == nil || t.open != '(' {
		return
	}
	if t.app {
		for _, a := range check.AppArgs {
			if a.Name == t.last {
				for _, v := range a.Values {
					c.add(v, protocol.CompletionItemKindEnumMember, "app."+a.Name, a.Doc, "")
				}
			}
		}
		return
	}
	if t.annot {
		for _, k := range axagKeys(t) {
			if k.Name == t.last {
				for _, v := range k.Values {
					c.add(v, protocol.CompletionItemKindEnumMember, "@axag "+k.Name, k.Doc, "")
				}
			}
		}
		return
	}
	if t.callee == "navigate" && t.commas == 0 || t.last == "to" {
		for _, r := range c.routes() {
			c.add(r, protocol.CompletionItemKindReference, "route", "", "")
		}
		return
	}
	if el, ok := catalog.Lookup(t.callee); ok {
		name := t.last
		if name == "" && t.commas == 0 {
			name = el.Primary
		}
		if pr, ok := el.Prop(name); ok {
			for _, v := range pr.Values {
				c.add(v, protocol.CompletionItemKindEnumMember, el.Name+"."+pr.Name, pr.Doc, "")
			}
		}
	}
}

// routes are the paths of the app's routes.
func (c *completer) routes() []string {
	g := c.graph()
	if g == nil {
		return nil
	}
	var out []string
	for i := 0; i < g.Len(); i++ {
		if n := g.At(int32(i)); n.Kind == "route" {
			_, path, _ := strings.Cut(n.ID, ":")
			out = append(out, path)
		}
	}
	sort.Strings(out)
	return out
}

// members offers the members of the value named by chain, or the
// operations of the contract it names.
func (c *completer) members(chain string) {
	parts := strings.Split(chain, ".")
	if len(parts) == 0 || !rename.IsIdent(parts[0]) {
		return
	}
	o := c.nearest(parts[0])
	if o == nil {
		return
	}
	if o.Kind == check.ObjContract && len(parts) == 1 && o.Contract != nil {
		for _, op := range o.Contract.Ops {
			c.add(op.Name, protocol.CompletionItemKindMethod, opSignature(op), "", "")
		}
		return
	}
	t := o.Type
	for _, name := range parts[1:] {
		var next *check.Type
		for _, m := range check.Members(t) {
			if m.Name == name {
				next = m.Type
			}
		}
		if next == nil {
			return
		}
		t = next
	}
	for _, m := range check.Members(t) {
		kind, insert := protocol.CompletionItemKindField, ""
		if m.Call {
			kind, insert = protocol.CompletionItemKindMethod, m.Name+"()"
		}
		detail := ""
		if m.Type != nil {
			detail = m.Type.String()
		}
		c.add(m.Name, kind, detail, "", insert)
	}
}

func opSignature(op *check.Operation) string {
	var b strings.Builder
	b.WriteString(op.Name + "(")
	for i, p := range op.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name + ": " + p.Type.String())
	}
	b.WriteString(")")
	if op.Result != nil && op.Result.Kind != check.TVoid {
		b.WriteString(": " + op.Result.String())
	}
	return b.String()
}

// nearest is the declaration the name would mean at the cursor: the last
// identifier so named before it in the file that the checker resolved,
// else any declaration of the project so named.
func (c *completer) nearest(name string) *check.Object {
	var found *check.Object
	for _, id := range c.ix.Idents[c.rel] {
		if int(id.Ident.Pos) >= c.start {
			break
		}
		if id.Ident.Name == name && id.Obj != nil && c.visible(id.Obj) {
			found = id.Obj
		}
	}
	if found != nil {
		return found
	}
	for o := range c.ix.Refs {
		if o.Name == name && o.Kind != check.ObjLocal && o.Kind != check.ObjParam {
			return o
		}
	}
	return nil
}

// arguments offers the names of the properties or parameters of the
// callee of t not given yet.
func (c *completer) arguments(t *frame) {
	given := map[string]bool{}
	for _, n := range t.named {
		given[n] = true
	}
	for _, p := range c.frameParams(t) {
		if !given[p.name] {
			c.add(p.name, protocol.CompletionItemKindProperty, p.detail, p.doc, p.name+": ")
			c.items[len(c.items)-1].SortText = protocol.NewOptional("0" + p.name)
		}
	}
}

// frameParams are the parameters of the call t is the argument list of,
// or the app's arguments.
func (c *completer) frameParams(t *frame) []param {
	if t.annot {
		return axagParams(t)
	}
	if !t.app {
		return c.params(t.callee)
	}
	var out []param
	for _, a := range check.AppArgs {
		out = append(out, param{a.Name, `"` + strings.Join(a.Values, `" | "`) + `"`, a.Doc})
	}
	return out
}

// axagKeys are the arguments of the @axag whose argument list t is: a
// parameter's once it names one, else the action's; none for another
// annotation.
func axagKeys(t *frame) []check.AxagKey {
	if t.callee != check.AxagAnnotation {
		return nil
	}
	for _, n := range t.named {
		if n == check.AxagParameter {
			return check.AxagParamKeys
		}
	}
	return check.AxagKeys
}

// axagParams are axagKeys as the parameters of t.
func axagParams(t *frame) []param {
	keys := axagKeys(t)
	out := make([]param, 0, len(keys))
	for _, k := range keys {
		d := check.AxagKindWords[k.Kind]
		if len(k.Values) > 0 {
			d = `"` + strings.Join(k.Values, `" | "`) + `"`
		}
		out = append(out, param{k.Name, d, k.Doc})
	}
	return out
}

// param is a property or parameter a call may name.
type param struct {
	name, detail, doc string
}

// params are those of an element of the catalog, a component, an action
// or a contract operation called name.
func (c *completer) params(callee string) []param {
	if el, ok := catalog.Lookup(callee); ok {
		var out []param
		for _, p := range el.Props {
			d := string(p.Type)
			if len(p.Values) > 0 {
				d = `"` + strings.Join(p.Values, `" | "`) + `"`
			}
			if p.Required {
				d += " (required)"
			}
			out = append(out, param{p.Name, d, p.Doc})
		}
		return out
	}
	if k, op, ok := strings.Cut(callee, "."); ok {
		if o := c.nearest(k); o != nil && o.Contract != nil {
			if operation := o.Contract.Op(op); operation != nil {
				var out []param
				for _, p := range operation.Params {
					d := p.Type.String()
					if p.Required {
						d += " (required)"
					}
					out = append(out, param{p.Name, d, ""})
				}
				return out
			}
		}
		return nil
	}
	o := c.nearest(callee)
	if o == nil {
		return nil
	}
	var ps []*syntax.Param
	switch d := o.Decl.(type) {
	case *syntax.OwnerDecl:
		ps = d.Params
	case *syntax.ActionDecl:
		ps = d.Params
	case *syntax.ExternDecl:
		ps = d.Params
	}
	var out []param
	for _, p := range ps {
		if p.Name == nil {
			continue
		}
		d := ""
		if p.Type != nil {
			d = c.source(o, p.Type)
		}
		if p.Default == nil {
			d += " (required)"
		}
		out = append(out, param{p.Name.Name, d, docOf(o.Decl)})
	}
	return out
}

// source is the text of n, a node of the file where o is declared.
func (c *completer) source(o *check.Object, n syntax.Node) string {
	for _, r := range c.ix.Refs[o] {
		if f := c.ix.Trees[r.Path]; r.Def && f != nil {
			if b := n.Bounds(); int(b.End) <= len(f.Src) {
				return string(f.Src[b.Pos:b.End])
			}
		}
	}
	return ""
}

// scope offers the names visible at the cursor: the locals and members of
// the page or component it is in, the components, the extern actions, the
// catalog's elements and navigate.
func (c *completer) scope() {
	for _, id := range c.ix.Idents[c.rel] {
		o := id.Obj
		if !id.Def || o == nil || !c.visible(o) {
			continue
		}
		detail := o.Kind.String()
		if o.Type != nil {
			detail += ": " + o.Type.String()
		}
		c.add(o.Name, objCompletion[o.Kind], detail, docOf(o.Decl), "")
	}
	for o := range c.ix.Refs {
		switch o.Kind {
		case check.ObjComponent, check.ObjExtern, check.ObjContract:
			c.add(o.Name, objCompletion[o.Kind], o.Kind.String(), docOf(o.Decl), "")
		}
	}
	for _, el := range catalog.All() {
		c.add(el.Name, protocol.CompletionItemKindClass, "element", el.Doc, "")
	}
	c.add("navigate", protocol.CompletionItemKindFunction, "navigate(path)", "goes to the route of path", "")
}

var objCompletion = map[check.ObjKind]protocol.CompletionItemKind{
	check.ObjState: protocol.CompletionItemKindVariable, check.ObjLet: protocol.CompletionItemKindConstant, check.ObjQuery: protocol.CompletionItemKindVariable,
	check.ObjMutation: protocol.CompletionItemKindVariable, check.ObjAction: protocol.CompletionItemKindFunction,
	check.ObjProp: protocol.CompletionItemKindProperty, check.ObjParam: protocol.CompletionItemKindVariable,
	check.ObjLocal: protocol.CompletionItemKindVariable, check.ObjExtern: protocol.CompletionItemKindFunction,
	check.ObjPage: protocol.CompletionItemKindClass, check.ObjComponent: protocol.CompletionItemKindClass,
	check.ObjModel: protocol.CompletionItemKindStruct, check.ObjContract: protocol.CompletionItemKindModule,
	check.ObjOperation: protocol.CompletionItemKindMethod,
}

// visible reports whether o, declared in this file, may be named at the
// cursor: a member of the page or component the cursor is in, or a
// local or parameter whose scope holds it.
func (c *completer) visible(o *check.Object) bool {
	for _, r := range c.ix.Refs[o] {
		if !r.Def || r.Path != c.rel {
			continue
		}
		switch o.Kind {
		case check.ObjLocal, check.ObjParam:
			return c.inScopeOf(r)
		case check.ObjState, check.ObjLet, check.ObjQuery, check.ObjMutation, check.ObjAction, check.ObjProp:
			return c.sameOwner(r)
		}
		return false
	}
	return false
}

// inScopeOf reports whether the cursor is inside the lambda, item
// template or action that declares the local r.
func (c *completer) inScopeOf(r refs.Ref) bool {
	for i := len(r.Stack) - 1; i >= 0; i-- {
		switch n := r.Stack[i].(type) {
		case *syntax.LambdaExpr, *syntax.Children, *syntax.ActionDecl:
			b := n.Bounds()
			return int(b.Pos) <= c.start && c.start <= int(b.End)
		}
	}
	return false
}

func (c *completer) sameOwner(r refs.Ref) bool {
	for _, n := range r.Stack {
		if d, ok := n.(*syntax.OwnerDecl); ok {
			return int(d.Pos) <= c.start && (c.start <= int(d.End) || d.RBrace < 0)
		}
	}
	return false
}

func (c *completer) graph() *graph.Graph {
	if r := c.ix.Recorded; r != nil && r.Result != nil {
		return r.Result.Graph
	}
	return nil
}

// SignatureHelp shows the properties or parameters of the element,
// component, action or contract operation whose argument list holds p,
// the one being written active.
func SignatureHelp(fs *Files, rel string, p protocol.Position) *protocol.SignatureHelp {
	text, ok := fs.Snap.Text(rel)
	if !ok {
		return nil
	}
	off, _ := fs.Offset(rel, p)
	s := scan(text, off)
	var t *frame
	for i := len(s.frames) - 1; i >= 0; i-- {
		if s.frames[i].open == '(' {
			t = &s.frames[i]
			break
		}
		// A block or list between the cursor and a parenthesis is
		// another context (an element's children).
		if s.frames[i].open == '{' {
			return nil
		}
	}
	if t == nil || t.callee == "" {
		return nil
	}
	c := &completer{fs: fs, ix: fs.Snap.Index(), rel: rel, text: text, off: off, start: off}
	ps := c.frameParams(t)
	if len(ps) == 0 {
		return nil
	}
	label := t.callee + "("
	var infos []protocol.ParameterInformation
	active := uint32(min(t.commas, len(ps)-1))
	for i, p := range ps {
		if i > 0 {
			label += ", "
		}
		from := utf16Len(label)
		label += p.name + ": " + p.detail
		info := protocol.ParameterInformation{Label: protocol.ParameterInformationLabelTuple{from, utf16Len(label)}}
		if p.doc != "" {
			info.Documentation = protocol.String(p.doc)
		}
		infos = append(infos, info)
		if p.name == t.last {
			active = uint32(i)
		}
	}
	label += ")"
	zero := uint32(0)
	return &protocol.SignatureHelp{
		Signatures:      []protocol.SignatureInformation{{Label: label, Parameters: infos, ActiveParameter: protocol.NewNullable(active)}},
		ActiveSignature: &zero,
	}
}

// utf16Len is the length of s in UTF-16 code units, in which clients
// count parameter label offsets.
func utf16Len(s string) uint32 {
	n := uint32(0)
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
