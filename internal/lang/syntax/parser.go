package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/axiomcore/acore/internal/lang/arena"
	"github.com/axiomcore/acore/internal/lang/diag"
)

// maxErrors bounds the syntax errors reported for one file; past it the
// parser still builds the tree but stays silent.
const maxErrors = 50

// maxRecursion bounds the parser's own recursion (unary chains, nested
// lambdas) beyond the bracket nesting bound, so no input exhausts the stack.
const maxRecursion = 2 * NestingMax

type parser struct {
	f      *File
	toks   []Token
	i      int
	tok    Token
	depth  int
	lastAt int32 // offset of the last error, to report one error per place
	quiet  bool

	// names interns identifier text: a file repeats few distinct names.
	names map[string]string
	// recent caches interned names by a cheap hash of their bytes, so
	// that the names a file repeats most skip the map.
	recent [256]string
	// sl allocates the most frequent nodes: from head outside views and
	// action bodies, from body inside them. A block of a slab lives as
	// long as any node in it, so keeping the bodies' nodes apart lets
	// DropBodies free their blocks.
	sl         *slabs
	head, body slabs
	// The stacks hold the lists being parsed, nested ones above the outer
	// ones, until each is complete and cut from a block.
	argStack    []*Arg
	itemStack   []ViewItem
	memberStack []Member
	stmtStack   []Stmt
	branchStack []*Branch
	identStack  []*Ident
}

// slabs hand out the nodes a file has most of, those a profile of the
// parser shows: one allocation per block of nodes instead of one per
// node. Declarations, blocks, statements and the rarer expressions are
// allocated one by one.
type slabs struct {
	idents  slab[Ident]
	args    slab[Arg]
	strs    slab[StringLit]
	members slab[MemberExpr]
	calls   slab[CallExpr]
	elems   slab[Element]
	numbers slab[NumberLit]
	// strings makes the values of string literals.
	strings arena.Strings
	// The lists, cut from blocks when complete (see cut).
	argLists    arena.Slices[*Arg]
	itemLists   arena.Slices[ViewItem]
	memberLists arena.Slices[Member]
	stmtLists   arena.Slices[Stmt]
	branchLists arena.Slices[*Branch]
	identLists  arena.Slices[*Ident]
}

// cut pops the list being parsed, stack[base:], as a list of the blocks
// of lists, or nil when it is empty.
func cut[T any](stack *[]T, base int, lists *arena.Slices[T]) []T {
	var out []T
	if len(*stack) > base {
		out = lists.Cut((*stack)[base:])
	}
	clear((*stack)[base:]) // no tree kept alive by the stack
	*stack = (*stack)[:base]
	return out
}

// slab hands out pointers into blocks of T.
type slab[T any] struct{ buf []T }

// inBody parses a view's items or an action's statements with the body
// slabs.
func inBody[T any](p *parser, parse func() T) T {
	p.sl = &p.body
	defer func() { p.sl = &p.head }()
	return parse()
}

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 64)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// name returns the interned text of token t.
func (p *parser) name(t Token) string {
	b := p.f.Src[t.Pos:t.End]
	if len(b) == 0 {
		return ""
	}
	h := (uint(len(b))*31 + uint(b[0])*7 + uint(b[len(b)-1])) & 255
	if s := p.recent[h]; s == string(b) {
		return s
	}
	s, ok := p.names[string(b)]
	if !ok {
		s = string(b)
		p.names[s] = s
	}
	p.recent[h] = s
	return s
}

func (p *parser) newIdent(sp Span, name string) *Ident {
	id := p.sl.idents.new()
	id.Span, id.Name = sp, name
	return id
}

func (p *parser) newString(t Token) *StringLit {
	s := p.sl.strs.new()
	s.Span = Span{t.Pos, t.End}
	if lit := p.f.Src[t.Pos:t.End]; len(lit) >= 2 && lit[len(lit)-1] == '"' && bytes.IndexByte(lit, '\\') < 0 {
		// Without escapes the value is the text between the quotes.
		s.Value = p.sl.strings.Bytes(lit[1 : len(lit)-1])
	} else {
		s.Value = Unquote(lit)
	}
	return s
}

// Parse parses one source file. It never fails: syntax errors are in
// File.Errors and the tree holds what could be parsed, with BadDecl nodes
// over skipped source.
func Parse(path string, src []byte) *File {
	return parse(path, src, nil)
}

// tokenBufs recycles the token slices of ParseTree.
var tokenBufs sync.Pool // of *[]Token

// ParseTree parses as Parse does, for a tree kept without its tokens, which
// only Compact would read and lexes again: the token slice, about three
// times the source's bytes, is reused by later calls instead of being
// garbage.
func ParseTree(path string, src []byte) *File {
	buf, _ := tokenBufs.Get().(*[]Token)
	if buf == nil {
		buf = new([]Token)
	}
	f := parse(path, src, *buf)
	*buf, f.Tokens = f.Tokens[:0], nil
	tokenBufs.Put(buf)
	return f
}

// parse parses src, lexing into buf when it has room.
func parse(path string, src []byte, buf []Token) *File {
	f := &File{Path: path, Src: src, Lines: lineStarts(src)}
	p := &parser{f: f, lastAt: -1, names: make(map[string]string, 256)}
	p.sl = &p.head
	f.Tokens, f.Comments = lex(src, buf, p.lexError)
	p.lastAt = -1 // the parser reports at a lexical error's place too
	if code, msg := bracketBounds(f); code != "" {
		f.Limit = code
		f.Errors = []Error{{Span: Span{0, 0}, Code: code, Msg: msg}}
		return f
	}
	p.toks = f.Tokens
	p.tok = p.toks[0]
	p.parseFile()
	return f
}

func lineStarts(src []byte) []int32 {
	lines := make([]int32, 1, 1+bytes.Count(src, []byte{'\n'}))
	for at := 0; ; {
		i := bytes.IndexByte(src[at:], '\n')
		if i < 0 {
			return lines
		}
		at += i + 1
		lines = append(lines, int32(at))
	}
}

// bracketBounds enforces nesting_max, brackets_max and brackets_total_max
// before parsing, so the recursive parser never sees deeper input.
func bracketBounds(f *File) (code, msg string) {
	depth, open, total := 0, 0, 0
	for _, t := range f.Tokens {
		switch t.Kind {
		case LBrace, LParen, LBrack:
			open++
			total++
			depth++
			if depth > NestingMax {
				return diag.NestingLimit, fmt.Sprintf("brackets are nested more than %d deep (nesting_max)", NestingMax)
			}
		case RBrace, RParen, RBrack:
			total++
			if depth > 0 {
				depth--
			}
		}
	}
	f.Brackets = open
	if open > BracketsMax {
		return diag.BracketLimit, fmt.Sprintf("the file has %d opening brackets, more than brackets_max (%d)", open, BracketsMax)
	}
	if total > BracketsTotalMax {
		return diag.BracketsTotalLimit, fmt.Sprintf("the file has %d bracket tokens, more than brackets_total_max (%d)", total, BracketsTotalMax)
	}
	return "", ""
}

func (p *parser) lexError(pos, end int, code, msg string) {
	// Lexical errors count toward maxErrors too: a file of illegal
	// characters must not yield one diagnostic per byte.
	p.errorAt(int32(pos), int32(end), code, msg)
}

func (p *parser) errorAt(pos, end int32, code, msg string) {
	if p.quiet || pos == p.lastAt {
		return
	}
	p.lastAt = pos
	if len(p.f.Errors) >= maxErrors {
		p.f.Errors = append(p.f.Errors, Error{Span: Span{pos, end}, Code: diag.TooManySyntaxErrors, Msg: fmt.Sprintf("more than %d syntax errors; the rest of the file is not reported", maxErrors)})
		p.quiet = true
		return
	}
	p.f.Errors = append(p.f.Errors, Error{Span: Span{pos, end}, Code: code, Msg: msg})
}

func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
	}
	p.tok = p.toks[p.i]
}

func (p *parser) peek(n int) Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) text(t Token) string { return string(p.f.Src[t.Pos:t.End]) }

func (p *parser) describe(t Token) string {
	switch t.Kind {
	case EOF:
		return "end of file"
	case Name:
		return "`" + p.text(t) + "`"
	case String, Int, Float:
		s := p.text(t)
		if len(s) > 24 {
			s = s[:24] + "…"
		}
		return s
	}
	return "`" + t.Kind.String() + "`"
}

// is reports whether the current token is the identifier kw.
func (p *parser) is(kw string) bool {
	return p.tok.Kind == Name && int(p.tok.End)-int(p.tok.Pos) == len(kw) && string(p.f.Src[int(p.tok.Pos):int(p.tok.End)]) == kw
}

// end is the end of a node that starts at pos: the end of the last token
// consumed, or pos itself when the node consumed nothing (after an error).
func (p *parser) end(pos int32) int32 {
	if e := p.prevEnd(); e > pos {
		return e
	}
	return pos
}

func (p *parser) prevEnd() int32 {
	if p.i == 0 {
		return 0
	}
	return p.toks[p.i-1].End
}

// missing is the empty span of a node that is absent from the source. It
// sits right after the previous token, inside the node being parsed, not
// at the next token, which may lie beyond the parent's end.
func (p *parser) missing() Span {
	e := p.prevEnd()
	return Span{e, e}
}

// span returns the span of a node that started at the token at pos; when
// the node consumed no token it is empty at the previous token's end (see
// missing), so that it stays inside its parent.
func (p *parser) span(pos int32) Span {
	if e := p.prevEnd(); e > pos {
		return Span{pos, e}
	} else if e < pos {
		return Span{e, e}
	}
	return Span{pos, pos}
}

func (p *parser) unexpected(want string) {
	p.errorAt(p.tok.Pos, p.tok.End, diag.UnexpectedToken, fmt.Sprintf("expected %s, found %s", want, p.describe(p.tok)))
}

// expect consumes a token of kind k or reports it missing without
// consuming anything.
func (p *parser) expect(k Kind, context string) bool {
	if p.tok.Kind == k {
		p.next()
		return true
	}
	code := diag.UnexpectedToken
	if k == RBrace || k == RParen || k == RBrack {
		code = diag.Unclosed
	}
	msg := fmt.Sprintf("expected `%s` %s, found %s", k, context, p.describe(p.tok))
	p.errorAt(p.tok.Pos, p.tok.End, code, msg)
	return false
}

// expectIn is expect with its context in parts, joined only when the
// token is missing: contexts that name a declaration, built for every
// declaration, were an allocation each.
func (p *parser) expectIn(k Kind, parts ...string) bool {
	if p.tok.Kind == k {
		p.next()
		return true
	}
	return p.expect(k, strings.Join(parts, ""))
}

func (p *parser) ident(context string) *Ident {
	if p.tok.Kind != Name {
		p.unexpected("a name " + context)
		return &Ident{Span: p.missing()}
	}
	id := p.newIdent(Span{p.tok.Pos, p.tok.End}, p.name(p.tok))
	p.next()
	return id
}

func (p *parser) stringLit(context string) *StringLit {
	if p.tok.Kind != String {
		p.unexpected("a string " + context)
		return &StringLit{Span: p.missing()}
	}
	s := p.newString(p.tok)
	p.next()
	return s
}

// skip advances past tokens until stop reports true for a token at the
// starting bracket level, or a closer of an enclosing bracket is reached.
// It always consumes at least one token unless at such a stop.
func (p *parser) skip(stop func() bool) {
	level := 0
	for p.tok.Kind != EOF {
		// stop is asked before an opener is counted, so that a caller
		// looking for `{` finds it.
		if level == 0 && stop() {
			return
		}
		switch p.tok.Kind {
		case LBrace, LParen, LBrack:
			level++
		case RBrace, RParen, RBrack:
			if level == 0 {
				return
			}
			level--
		}
		p.next()
	}
}

// bad skips to stop and returns a BadDecl over what was skipped, making
// progress even when the current token already satisfies stop.
func (p *parser) bad(stop func() bool) *BadDecl {
	start := p.tok.Pos
	// A stray closer is consumed too: every caller's loop stops at the
	// closer it expects before calling bad, so one here is unbalanced, and
	// leaving it would loop forever.
	if p.tok.Kind != EOF {
		p.next()
		if !stop() {
			p.skip(stop)
		}
	}
	// Empty at the previous token's end when nothing was skipped (at the
	// end of the file), so that it stays inside its parent.
	return &BadDecl{Span: p.span(start)}
}

var topKeywords = map[string]bool{"module": true, "use": true, "app": true, "page": true, "component": true, "model": true, "extern": true, "contract": true}

func (p *parser) atTopStart() bool {
	if p.tok.Kind == At {
		return p.tok.NewlineBefore
	}
	return p.tok.Kind == Name && p.tok.NewlineBefore && topKeywords[string(p.f.Src[p.tok.Pos:p.tok.End])]
}

// afterAnnotations returns the token that follows the annotations starting
// at the current token, so that an annotated member is not mistaken for
// the start of a top-level declaration.
func (p *parser) afterAnnotations() Token {
	i := p.i
	for i < len(p.toks) && p.toks[i].Kind == At {
		i++
		if i < len(p.toks) && p.toks[i].Kind == Name {
			i++
		}
		if i < len(p.toks) && p.toks[i].Kind == LParen && !p.toks[i].NewlineBefore {
			level := 0
			for ; i < len(p.toks) && p.toks[i].Kind != EOF; i++ {
				switch p.toks[i].Kind {
				case LParen, LBrace, LBrack:
					level++
				case RParen, RBrace, RBrack:
					level--
				}
				if level == 0 {
					i++
					break
				}
			}
		}
	}
	if i >= len(p.toks) {
		return p.toks[len(p.toks)-1]
	}
	return p.toks[i]
}

func (p *parser) parseFile() {
	f := p.f
	seenDecl := false
	for p.tok.Kind != EOF {
		start := p.tok.Pos
		var anns []*Annotation
		if p.tok.Kind == At {
			anns = p.annotations()
		}
		if len(anns) > 0 && (p.is("module") || p.is("use") || p.is("contract")) {
			// ModuleDecl, UseDecl and ContractDecl hold no annotations;
			// dropping them silently would lose the author's metadata.
			p.errorAt(anns[0].Pos, anns[len(anns)-1].End, diag.Misplaced, "annotations go on declarations, members and elements, not on "+p.text(p.tok))
		}
		switch {
		case p.is("module"):
			m := p.moduleDecl()
			if f.Module != nil || seenDecl || len(f.Uses) > 0 {
				p.errorAt(m.Pos, m.End, diag.Misplaced, "`module` must be the first line of a file, once")
			}
			if f.Module == nil {
				f.Module = m
			}
		case p.is("use"):
			u := p.useDecl()
			if seenDecl {
				p.errorAt(u.Pos, u.End, diag.Misplaced, "`use` lines come before the declarations of a file")
			}
			f.Uses = append(f.Uses, u)
		case p.is("app"):
			seenDecl = true
			d := p.appDecl()
			d.Annotations, d.Pos = anns, start
			f.Decls = append(f.Decls, d)
		case p.is("page"), p.is("component"):
			seenDecl = true
			d := p.ownerDecl()
			d.Annotations, d.Pos = anns, start
			f.Decls = append(f.Decls, d)
		case p.is("model"):
			seenDecl = true
			d := p.modelDecl()
			d.Annotations, d.Pos = anns, start
			f.Decls = append(f.Decls, d)
		case p.is("extern"):
			seenDecl = true
			d := p.externDecl()
			d.Annotations, d.Pos = anns, start
			f.Decls = append(f.Decls, d)
		case p.is("contract"):
			seenDecl = true
			f.Decls = append(f.Decls, p.contractDecl())
		default:
			p.unexpected("a declaration (module, use, app, page, component, model, extern or contract)")
			b := p.bad(p.atTopStart)
			b.Pos = start
			// Stray closers stop skip; one BadDecl and one error cover the
			// whole stretch of garbage up to the next declaration.
			for p.tok.Kind != EOF && !p.atTopStart() {
				b.End = p.bad(p.atTopStart).End
			}
			f.Decls = append(f.Decls, b)
		}
	}
}

func (p *parser) annotations() []*Annotation {
	var out []*Annotation
	for p.tok.Kind == At {
		a := &Annotation{Span: Span{Pos: p.tok.Pos}}
		p.next()
		a.Name = p.ident("after @")
		if p.tok.Kind == LParen && !p.tok.NewlineBefore {
			a.Args = p.args()
		}
		a.End = p.end(a.Pos)
		out = append(out, a)
	}
	return out
}

func (p *parser) moduleDecl() *ModuleDecl {
	m := &ModuleDecl{Span: Span{Pos: p.tok.Pos}}
	p.next()
	m.Name = p.qualName()
	m.End = p.end(m.Pos)
	return m
}

func (p *parser) qualName() *QualName {
	q := &QualName{Span: Span{Pos: p.tok.Pos}}
	if p.tok.Kind != Name {
		// The first part is missing and sits at the previous token's end;
		// the name starts there too, so that it contains its parts.
		q.Pos = p.prevEnd()
	}
	q.Parts = append(q.Parts, p.ident("after module"))
	for p.tok.Kind == Dot && !p.tok.NewlineBefore {
		p.next()
		q.Parts = append(q.Parts, p.ident("after ."))
	}
	q.Span = p.span(q.Pos)
	return q
}

func (p *parser) useDecl() *UseDecl {
	u := &UseDecl{Span: Span{Pos: p.tok.Pos}}
	p.next()
	switch {
	case p.is("contract"):
		u.Kind = UseContract
	case p.is("component"):
		u.Kind = UseComponent
	case p.is("model"):
		u.Kind = UseModel
	default:
		p.unexpected("contract, component or model after use")
		u.Name = &Ident{Span: p.missing()}
		u.From = &StringLit{Span: p.missing()}
		p.skip(p.atTopStart)
		u.End = p.end(u.Pos)
		return u
	}
	p.next()
	u.Name = p.ident("to import")
	if p.is("from") {
		p.next()
	} else {
		p.unexpected("`from`")
	}
	u.From = p.stringLit("after from")
	if p.is("audience") && !p.tok.NewlineBefore {
		if u.Kind != UseContract {
			p.errorAt(p.tok.Pos, p.tok.End, diag.UnexpectedToken, "only a contract import has an audience")
		}
		p.next()
		u.Audience = p.stringLit("after audience")
	}
	u.End = p.end(u.Pos)
	return u
}

func (p *parser) appDecl() *AppDecl {
	d := &AppDecl{}
	p.next()
	d.Name = p.ident("after app")
	if p.tok.Kind == LParen {
		d.Args = p.args()
	}
	if p.expect(LBrace, "to open the app") {
		for p.tok.Kind != RBrace && p.tok.Kind != EOF {
			if !p.is("route") {
				p.unexpected("`route` or `}`")
				p.bad(func() bool { return p.is("route") || p.atTopStart() })
				if p.atTopStart() {
					break
				}
				continue
			}
			r := new(RouteDecl)
			r.Pos = p.tok.Pos
			p.next()
			r.Path = p.stringLit("after route")
			p.expect(Arrow, "after the route path")
			r.Target = p.ident("after =>")
			if p.tok.Kind == LParen {
				r.Args = p.args()
			}
			r.End = p.end(r.Pos)
			d.Routes = append(d.Routes, r)
		}
		p.expect(RBrace, "to close the app")
	}
	d.End = p.end(d.Pos)
	return d
}

func (p *parser) ownerDecl() *OwnerDecl {
	d := new(OwnerDecl)
	d.Kind, d.RBrace = Page, -1
	if p.is("component") {
		d.Kind = Component
	}
	p.next()
	d.Name = p.ident("after " + d.Kind.String())
	if p.tok.Kind == LParen {
		// A page's parameters are given by the routes that show it.
		d.Params = p.params(true)
	}
	d.LBrace = p.tok.Pos
	if !p.expectIn(LBrace, "to open the ", d.Kind.String()) {
		p.skip(func() bool { return p.tok.Kind == LBrace || p.atTopStart() })
		if p.tok.Kind != LBrace {
			d.End = p.end(d.Pos)
			return d
		}
		d.LBrace = p.tok.Pos
		p.next()
	}
	base := len(p.memberStack)
	for p.tok.Kind != RBrace && p.tok.Kind != EOF {
		if p.atTopStart() {
			kw := p.tok
			if kw.Kind == At {
				kw = p.afterAnnotations()
			}
			if k := p.text(kw); kw.Kind == Name && topKeywords[k] && k != "model" && k != "component" {
				break
			}
		}
		p.memberStack = append(p.memberStack, p.member())
	}
	d.Members = cut(&p.memberStack, base, &p.sl.memberLists)
	if p.tok.Kind == RBrace {
		d.RBrace = p.tok.Pos
	}
	p.expectIn(RBrace, "to close ", d.Kind.String(), " ", d.Name.Name)
	d.End = p.end(d.Pos)
	return d
}

var memberKeywords = map[string]bool{"let": true, "state": true, "query": true, "mutation": true, "action": true, "view": true}

func (p *parser) atMemberStart() bool {
	return p.tok.NewlineBefore && (p.tok.Kind == At || p.tok.Kind == Name && memberKeywords[string(p.f.Src[p.tok.Pos:p.tok.End])])
}

func (p *parser) member() Member {
	start := p.tok.Pos
	var anns []*Annotation
	if p.tok.Kind == At {
		anns = p.annotations()
	}
	var m Member
	switch {
	case p.is("state"):
		s := new(StateDecl)
		s.Annotations = anns
		p.next()
		s.Name = p.ident("after state")
		if p.expect(Colon, "and a type after the state name") {
			s.Type = p.typeExpr()
		}
		if p.tok.Kind == Assign {
			p.next()
			s.Init = p.expr()
		}
		m = s
	case p.is("let"):
		m = p.letDecl(anns)
	case p.is("query"), p.is("mutation"):
		d := new(DataDecl)
		d.Annotations = anns
		if p.is("mutation") {
			d.Kind = Mutation
		}
		p.next()
		d.Name = p.ident("after " + d.Kind.String())
		if p.expectIn(Assign, "after the ", d.Kind.String(), " name") {
			d.Value = p.expr()
		} else {
			d.Value = &BadExpr{Span: p.missing()}
		}
		m = d
	case p.is("action"):
		a := new(ActionDecl)
		a.Annotations = anns
		p.next()
		a.Name = p.ident("after action")
		if p.tok.Kind == LParen {
			a.Params = p.params(true)
		} else {
			p.expect(LParen, "after the action name")
		}
		a.Body = inBody(p, p.block)
		m = a
	case p.is("view"):
		v := new(ViewDecl)
		p.next()
		if p.expect(LBrace, "after view") {
			v.Items = inBody(p, p.viewItems)
			p.expect(RBrace, "to close the view")
		}
		m = v
		if len(anns) > 0 {
			p.errorAt(anns[0].Pos, anns[0].End, diag.Misplaced, "annotations go on declarations and elements, not on a view")
		}
	default:
		p.unexpected("a member (state, let, query, mutation, action or view)")
		b := p.bad(func() bool { return p.atMemberStart() || p.atTopStart() })
		b.Pos = start
		return b
	}
	setSpan(m, start, p.end(start))
	if p.tok.Kind != RBrace && p.tok.Kind != EOF && !p.tok.NewlineBefore {
		p.errorAt(p.tok.Pos, p.tok.End, diag.StatementSeparator, fmt.Sprintf("expected a new line after the member, found %s", p.describe(p.tok)))
		p.skip(func() bool { return p.tok.NewlineBefore })
	}
	return m
}

func setSpan(n Node, pos, end int32) {
	switch n := n.(type) {
	case *StateDecl:
		n.Pos, n.End = pos, end
	case *LetDecl:
		n.Pos, n.End = pos, end
	case *DataDecl:
		n.Pos, n.End = pos, end
	case *ActionDecl:
		n.Pos, n.End = pos, end
	case *ViewDecl:
		n.Pos, n.End = pos, end
	}
}

func (p *parser) modelDecl() *ModelDecl {
	d := &ModelDecl{}
	p.next()
	d.Name = p.ident("after model")
	if p.expect(LBrace, "to open the model") {
		for p.tok.Kind != RBrace && p.tok.Kind != EOF {
			if p.tok.Kind != Name {
				p.unexpected("a field name or `}`")
				p.bad(func() bool { return p.tok.NewlineBefore && p.tok.Kind == Name })
				continue
			}
			d.Fields = append(d.Fields, p.param(true))
			if p.tok.Kind == Comma {
				p.next()
			} else if p.tok.Kind != RBrace && p.tok.Kind != EOF && !p.tok.NewlineBefore {
				p.errorAt(p.tok.Pos, p.tok.End, diag.StatementSeparator, fmt.Sprintf("expected a new line or `,` after the field, found %s", p.describe(p.tok)))
				p.skip(func() bool { return p.tok.NewlineBefore })
			}
		}
		p.expectIn(RBrace, "to close model ", d.Name.Name)
	}
	d.End = p.end(d.Pos)
	return d
}

func (p *parser) externDecl() *ExternDecl {
	d := &ExternDecl{}
	p.next()
	if p.is("action") {
		p.next()
	} else {
		p.unexpected("`action` after extern")
	}
	d.Name = p.ident("of the extern action")
	if p.tok.Kind == LParen {
		d.Params = p.params(true)
	} else {
		p.expect(LParen, "after the extern action name")
	}
	if p.is("from") && !p.tok.NewlineBefore {
		p.next()
		d.From = p.stringLit("after from")
	}
	d.End = p.end(d.Pos)
	return d
}

func (p *parser) contractDecl() *ContractDecl {
	d := &ContractDecl{Span: Span{Pos: p.tok.Pos}}
	p.next()
	d.Name = p.ident("after contract")
	if p.is("audience") {
		p.next()
		d.Audiences = append(d.Audiences, p.stringLit("after audience"))
		for p.tok.Kind == Comma {
			p.next()
			d.Audiences = append(d.Audiences, p.stringLit("after ,"))
		}
	}
	if p.expect(LBrace, "to open the contract") {
		for p.tok.Kind != RBrace && p.tok.Kind != EOF {
			start := p.tok.Pos
			var anns []*Annotation
			if p.tok.Kind == At {
				anns = p.annotations()
			}
			switch {
			case p.is("model"):
				m := p.modelDecl()
				m.Pos, m.Annotations = start, anns
				d.Models = append(d.Models, m)
			case p.is("query"), p.is("mutation"):
				op := &OpDecl{Span: Span{Pos: start}, Annotations: anns}
				if p.is("mutation") {
					op.Kind = Mutation
				}
				p.next()
				op.Name = p.ident("of the operation")
				if p.tok.Kind == LParen {
					op.Params = p.params(true)
				} else {
					p.expect(LParen, "after the operation name")
				}
				if p.tok.Kind == Colon {
					p.next()
					op.Result = p.typeExpr()
				}
				op.End = p.end(op.Pos)
				d.Ops = append(d.Ops, op)
			default:
				p.unexpected("model, query, mutation or `}` in the contract")
				p.bad(func() bool {
					return p.tok.NewlineBefore && (p.is("model") || p.is("query") || p.is("mutation") || p.tok.Kind == At)
				})
			}
		}
		p.expectIn(RBrace, "to close contract ", d.Name.Name)
	}
	d.End = p.end(d.Pos)
	return d
}

// params parses `(name: Type [= default], ...)`.
func (p *parser) params(typed bool) []*Param {
	p.next() // (
	out := []*Param{}
	for p.tok.Kind != RParen && p.tok.Kind != EOF {
		if p.tok.Kind != Name {
			p.unexpected("a parameter name or `)`")
			// A keyword at the start of a line means the `)` is missing;
			// stopping there keeps the next declarations.
			p.skip(func() bool {
				return p.tok.Kind == Comma || p.tok.NewlineBefore && (p.atMemberStart() || p.atTopStart() || p.is("model") || p.is("query") || p.is("mutation"))
			})
			if p.tok.Kind == Comma {
				p.next()
				continue
			}
			break
		}
		out = append(out, p.param(typed))
		if p.tok.Kind != Comma {
			break
		}
		p.next()
	}
	p.expect(RParen, "to close the parameters")
	return out
}

func (p *parser) param(typed bool) *Param {
	pr := &Param{Span: Span{Pos: p.tok.Pos}}
	pr.Name = p.ident("")
	if p.tok.Kind == Colon {
		p.next()
		pr.Type = p.typeExpr()
	} else if typed {
		p.expectIn(Colon, "and a type after ", pr.Name.Name)
	}
	if p.tok.Kind == Assign {
		p.next()
		pr.Default = p.expr()
	}
	pr.Span = p.span(pr.Pos)
	return pr
}

func (p *parser) typeExpr() *TypeExpr {
	t := new(TypeExpr)
	t.Pos = p.tok.Pos
	switch p.tok.Kind {
	case LBrack:
		p.next()
		if !p.enter() {
			t.End = p.end(t.Pos)
			return t
		}
		t.Elem = p.typeExpr()
		p.depth--
		p.expect(RBrack, "to close the list type")
	case Name:
		t.Name = p.ident("")
	default:
		p.unexpected("a type")
		t.Name = &Ident{Span: p.missing()}
		t.Pos = t.Name.Pos // a following `?` must not start before the name
	}
	if p.tok.Kind == Question && !p.tok.NewlineBefore {
		p.next()
		t.Optional = true
	}
	t.Span = p.span(t.Pos)
	return t
}

// enter counts one level of recursion; past maxRecursion it reports the
// nesting limit once and tells the caller to stop descending.
func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxRecursion {
		p.depth--
		p.errorAt(p.tok.Pos, p.tok.End, diag.NestingLimit, fmt.Sprintf("expression nested more than %d deep", maxRecursion))
		return false
	}
	return true
}

func (p *parser) block() *Block {
	b := new(Block)
	b.Pos = p.tok.Pos
	if !p.expect(LBrace, "to open the block") {
		b.Span = p.missing()
		return b
	}
	if !p.enter() {
		p.skip(func() bool { return false })
		p.expect(RBrace, "")
		b.End = p.end(b.Pos)
		return b
	}
	base := len(p.stmtStack)
	for p.tok.Kind != RBrace && p.tok.Kind != EOF {
		if p.atMemberStart() || p.atTopStart() {
			break
		}
		p.stmtStack = append(p.stmtStack, p.stmt())
	}
	b.Stmts = cut(&p.stmtStack, base, &p.sl.stmtLists)
	p.depth--
	p.expect(RBrace, "to close the block")
	b.End = p.end(b.Pos)
	return b
}

func (p *parser) stmt() Stmt {
	start := p.tok.Pos
	var s Stmt
	if p.is("if") {
		s = p.ifStmt()
	} else if p.atFor() {
		s = p.forStmt()
	} else {
		switch p.tok.Kind {
		case Name, LParen, Not, Minus, String, Int, Float, LBrack:
		default:
			p.unexpected("a statement")
			b := p.bad(func() bool { return p.tok.NewlineBefore })
			b.Pos = start
			return b
		}
		x := p.expr()
		if p.tok.Kind == Assign {
			p.next()
			a := new(AssignStmt)
			a.Span, a.Target, a.Value = Span{start, 0}, x, p.expr()
			s = a
		} else {
			e := new(ExprStmt)
			e.Span, e.X = Span{start, 0}, x
			s = e
		}
		end := p.end(start)
		switch s := s.(type) {
		case *AssignStmt:
			s.End = end
		case *ExprStmt:
			s.End = end
		}
	}
	if p.tok.Kind == Semi {
		p.next()
		return s
	}
	if p.tok.Kind != RBrace && p.tok.Kind != EOF && !p.tok.NewlineBefore {
		p.errorAt(p.tok.Pos, p.tok.End, diag.StatementSeparator, fmt.Sprintf("expected a new line or ; after the statement, found %s", p.describe(p.tok)))
		p.skip(func() bool { return p.tok.NewlineBefore })
	}
	return s
}

func (p *parser) ifStmt() *IfStmt {
	s := &IfStmt{Span: Span{Pos: p.tok.Pos}}
	p.next()
	s.Cond = p.expr()
	s.Then = p.block()
	if p.is("else") {
		p.next()
		if p.is("if") {
			if p.enter() {
				s.Else = p.ifStmt()
				p.depth--
			}
		} else {
			s.Else = p.block()
		}
	}
	s.End = p.end(s.Pos)
	return s
}

func (p *parser) atViewItemStart() bool {
	return p.tok.NewlineBefore && (p.tok.Kind == Name || p.tok.Kind == At)
}

func (p *parser) viewItems() []ViewItem {
	if !p.enter() {
		p.skip(func() bool { return false })
		return nil
	}
	base := len(p.itemStack)
	for p.tok.Kind != RBrace && p.tok.Kind != EOF {
		if p.atMemberStart() && !p.is("view") || p.atTopStart() {
			if p.tok.Kind != At {
				break
			}
		}
		p.itemStack = append(p.itemStack, p.viewItem())
	}
	items := cut(&p.itemStack, base, &p.sl.itemLists)
	p.depth--
	return items
}

func (p *parser) viewItem() ViewItem {
	start := p.tok.Pos
	if p.is("if") {
		return p.ifView()
	}
	var anns []*Annotation
	if p.tok.Kind == At {
		anns = p.annotations()
	}
	if p.tok.Kind != Name {
		p.unexpected("an element, `if` or `}`")
		b := p.bad(p.atViewItemStart)
		b.Pos = start
		return b
	}
	if p.is("else") {
		p.errorAt(p.tok.Pos, p.tok.End, diag.UnexpectedToken, "`else` without a preceding `if` branch")
		b := p.bad(p.atViewItemStart)
		b.Pos = start
		return b
	}
	e := p.sl.elems.new()
	e.Span, e.Annotations = Span{Pos: start}, anns
	e.Name = p.ident("")
	if p.tok.Kind == LParen && !p.tok.NewlineBefore {
		e.Parens = true
		e.Args = p.args()
	}
	if p.tok.Kind == LBrace && !p.tok.NewlineBefore {
		e.Children = p.children()
	}
	e.End = p.end(e.Pos)
	return e
}

func (p *parser) children() *Children {
	c := new(Children)
	c.Pos = p.tok.Pos
	p.next()
	if p.tok.Kind == Name && p.peek(1).Kind == Arrow {
		c.Param = p.ident("")
		p.next()
	}
	c.Items = p.viewItems()
	p.expect(RBrace, "to close the children")
	c.End = p.end(c.Pos)
	return c
}

func (p *parser) ifView() *IfView {
	v := new(IfView)
	v.Pos = p.tok.Pos
	base := len(p.branchStack)
	for {
		br := new(Branch)
		br.Pos = p.tok.Pos
		if p.is("if") {
			p.next()
			br.Cond = p.expr()
		}
		if p.expect(LBrace, "to open the branch") {
			br.Items = p.viewItems()
			p.expect(RBrace, "to close the branch")
		}
		br.End = p.end(br.Pos)
		p.branchStack = append(p.branchStack, br)
		if br.Cond == nil || !p.is("else") {
			break
		}
		p.next()
		if !p.is("if") && p.tok.Kind != LBrace {
			p.unexpected("`if` or `{` after else")
			break
		}
	}
	v.Branches = cut(&p.branchStack, base, &p.sl.branchLists)
	v.End = p.end(v.Pos)
	return v
}

// args parses `(arg, ...)` where arg is `name: value` or a value.
func (p *parser) args() []*Arg {
	p.next() // (
	base := len(p.argStack)
	for p.tok.Kind != RParen && p.tok.Kind != EOF {
		a := p.sl.args.new()
		a.Span = Span{Pos: p.tok.Pos}
		if p.tok.Kind == Name && p.peek(1).Kind == Colon {
			a.Name = p.ident("")
			p.next()
		}
		a.Value = p.expr()
		a.Span = p.span(a.Pos)
		if v := a.Value.Bounds(); v.Pos < a.Pos {
			// A missing operand sits before the operator that follows it
			// ("f( % x)"), so the argument starts with its value.
			a.Pos = v.Pos
		}
		p.argStack = append(p.argStack, a)
		if p.tok.Kind == Comma {
			p.next()
			continue
		}
		if p.tok.Kind != RParen {
			if p.tok.NewlineBefore {
				// The `)` is most likely missing: stop here, so that the
				// following lines (sibling elements) are not swallowed.
				break
			}
			p.unexpected("`,` or `)` in the arguments")
			p.skip(func() bool { return p.tok.Kind == Comma })
			if p.tok.Kind == Comma {
				p.next()
				continue
			}
		}
		break
	}
	out := p.sl.argLists.Cut(p.argStack[base:])
	clear(p.argStack[base:]) // no tree kept alive by the stack
	p.argStack = p.argStack[:base]
	p.expect(RParen, "to close the arguments")
	return out
}

// Binary operator precedence; 0 is not a binary operator.
func precedence(k Kind) int {
	switch k {
	case OrOr:
		return 1
	case AndAnd:
		return 2
	case Eq, NotEq:
		return 3
	case Less, LessEq, Greater, GreatEq:
		return 4
	case Coalesce:
		return 5
	case Plus, Minus:
		return 6
	case Star, Slash, Percent:
		return 7
	}
	return 0
}

func (p *parser) expr() Expr {
	if !p.enter() {
		start := p.tok.Pos
		p.skip(func() bool { return p.tok.NewlineBefore || p.tok.Kind == Comma })
		return &BadExpr{Span: p.span(start)}
	}
	x := p.binary(1)
	p.depth--
	return x
}

func (p *parser) binary(minPrec int) Expr {
	x := p.unary()
	for {
		prec := precedence(p.tok.Kind)
		if prec < minPrec || prec == 0 {
			return x
		}
		op := p.tok.Kind
		p.next()
		next := prec + 1
		if op == Coalesce {
			// Right-associative: a ?? b ?? c is a ?? (b ?? c).
			next = prec
		}
		y := p.binary(next)
		x = &BinaryExpr{Span: Span{x.Bounds().Pos, y.Bounds().End}, Op: op, X: x, Y: y}
	}
}

func (p *parser) unary() Expr {
	if p.tok.Kind == Not || p.tok.Kind == Minus {
		start, op := p.tok.Pos, p.tok.Kind
		p.next()
		if !p.enter() {
			return &BadExpr{Span: Span{start, p.end(start)}}
		}
		x := p.unary()
		p.depth--
		return &UnaryExpr{Span: Span{start, x.Bounds().End}, Op: op, X: x}
	}
	return p.postfix(p.primary())
}

func (p *parser) postfix(x Expr) Expr {
	for !p.tok.NewlineBefore {
		switch p.tok.Kind {
		case Dot:
			p.next()
			sel := p.ident("after .")
			m := p.sl.members.new()
			m.Span, m.X, m.Sel = Span{x.Bounds().Pos, p.prevEnd()}, x, sel
			x = m
		case LBrack:
			x = p.index(x)
		case LParen:
			args := p.args()
			c := p.sl.calls.new()
			c.Span, c.Fun, c.Args = Span{x.Bounds().Pos, p.prevEnd()}, x, args
			x = c
		default:
			return x
		}
	}
	return x
}

func (p *parser) primary() Expr {
	t := p.tok
	sp := Span{t.Pos, t.End}
	switch t.Kind {
	case Name:
		p.next()
		switch string(p.f.Src[t.Pos:t.End]) {
		case "true":
			return &BoolLit{Span: sp, Value: true}
		case "false":
			return &BoolLit{Span: sp}
		case "null":
			return &NullLit{Span: sp}
		case "if":
			return p.condExpr(t.Pos)
		}
		return p.newIdent(sp, p.name(t))
	case Int, Float:
		p.next()
		n := p.sl.numbers.new()
		n.Span, n.Raw, n.Float = sp, p.name(t), t.Kind == Float
		return n
	case String:
		p.next()
		return p.newString(t)
	case LParen:
		p.next()
		x := p.expr()
		p.expect(RParen, "to close the parenthesis")
		return &ParenExpr{Span: Span{t.Pos, p.prevEnd()}, X: x}
	case LBrack:
		p.next()
		l := &ListLit{Span: Span{Pos: t.Pos}}
		for p.tok.Kind != RBrack && p.tok.Kind != EOF {
			l.Elems = append(l.Elems, p.expr())
			if p.tok.Kind != Comma {
				break
			}
			p.next()
		}
		p.expect(RBrack, "to close the list")
		l.End = p.end(l.Pos)
		return l
	case Pipe, OrOr:
		p.next()
		lam := new(LambdaExpr)
		lam.Pos = t.Pos
		if t.Kind == Pipe {
			base := len(p.identStack)
			for p.tok.Kind == Name {
				p.identStack = append(p.identStack, p.ident(""))
				if p.tok.Kind != Comma {
					break
				}
				p.next()
			}
			lam.Params = cut(&p.identStack, base, &p.sl.identLists)
			p.expect(Pipe, "to close the lambda parameters")
		}
		if p.tok.Kind == LBrace {
			lam.Body = p.blockExpr()
		} else {
			lam.Body = p.expr()
			if p.tok.Kind == Assign && !p.tok.NewlineBefore {
				p.assignInLambda(lam)
			}
		}
		lam.End = p.end(lam.Pos)
		return lam
	}
	p.unexpected("an expression")
	return &BadExpr{Span: p.missing()}
}
