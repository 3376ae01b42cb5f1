package axag

import (
	"fmt"
	"html"
	"strings"
)

// A small tolerant tag scanner for HTML-like markup (HTML, Vue templates,
// Angular templates) and for JSX inside JavaScript/TypeScript. It builds a
// tree of elements with their attributes and byte offsets; text content is
// skipped. It never fails: what it cannot read as a tag it skips, and it
// records problems with their offsets: an unterminated comment, tag,
// <script> (or another raw text element), string or template literal, after
// which nothing more of the file is read, and nesting deeper than
// MaxWebNesting, where reading stops too.

// MaxWebNesting bounds how deep elements (and, in JSX, template literals
// and expressions holding elements) may nest in one web source. Reading
// stops at an element nested deeper, with a finding (AXAG109): the scanner
// works in time and memory linear in the file, and 512 is the depth at
// which browsers' HTML parsers stop nesting too.
const MaxWebNesting = 512

var nestingProblem = fmt.Sprintf("elements nested deeper than %d; the rest of the file is not scanned", MaxWebNesting)

type attrKind int

const (
	attrString attrKind = iota // name="v", name='v', name=v
	attrBare                   // name
	attrExpr                   // name={expr} (JSX) or a bound attribute (:name, [name])
	attrSpread                 // {...x} (JSX)
)

type attr struct {
	Name   string
	Value  string // decoded value (string), expression text (expr)
	Kind   attrKind
	Pos    int // offset of the name
	ValPos int // offset of the value's first character
}

type element struct {
	Name     string
	Attrs    []attr
	Pos      int
	Parent   *element
	Children []*element
}

type parseProblem struct {
	Pos int
	Msg string
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '_' || c == ':' || c == '.' || c == '$' || c >= 0x80
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

var rawTextElements = map[string]bool{"script": true, "style": true, "textarea": true, "title": true}

// impliedEnds lists, for a start tag, the open elements it ends when they
// are the current element: HTML lets a page leave out the end tags of list
// items, paragraphs, table rows and cells and options, and a list of 600
// items written so is not 600 levels deep.
var impliedEnds = func() map[string]map[string]bool {
	set := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	m := map[string]map[string]bool{
		"li": set("p", "li"), "dt": set("p", "dt", "dd"), "dd": set("p", "dt", "dd"),
		"option": set("option"), "optgroup": set("option", "optgroup"),
		"tr": set("td", "th", "tr"), "td": set("td", "th"), "th": set("td", "th"),
		"thead": set("td", "th", "tr", "thead", "tbody", "tfoot"), "tbody": set("td", "th", "tr", "thead", "tbody", "tfoot"),
		"tfoot": set("td", "th", "tr", "thead", "tbody", "tfoot"), "rt": set("rt", "rp"), "rp": set("rt", "rp"),
	}
	for _, n := range strings.Fields("address article aside blockquote details div dl fieldset figcaption figure footer form " +
		"h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre section table ul") {
		m[n] = set("p")
	}
	return m
}()

// parseMarkup reads HTML-like markup. Element and attribute names are
// lowercased except in Vue/Angular-style bound names, which keep their
// prefixes (":", "v-bind:", "[...]").
func parseMarkup(src string) (*element, []parseProblem) {
	root := &element{Pos: -1}
	var problems []parseProblem
	stack := []*element{root}
	i := 0
	for i < len(src) {
		j := strings.IndexByte(src[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := src[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				problems = append(problems, parseProblem{i, "unterminated comment <!--"})
				return root, problems
			}
			i += 4 + end + 3
		case strings.HasPrefix(rest, "<!") || strings.HasPrefix(rest, "<?"):
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				problems = append(problems, parseProblem{i, "unterminated " + rest[:2]})
				return root, problems
			}
			i += end + 1
		case strings.HasPrefix(rest, "</"):
			k := i + 2
			for k < len(src) && isNameByte(src[k]) {
				k++
			}
			name := strings.ToLower(src[i+2 : k])
			end := strings.IndexByte(src[k:], '>')
			if end < 0 {
				problems = append(problems, parseProblem{i, "unterminated end tag </" + name})
				return root, problems
			}
			i = k + end + 1
			for n := len(stack) - 1; n > 0; n-- {
				if stack[n].Name == name {
					stack = stack[:n]
					break
				}
			}
		case len(rest) > 1 && isLetter(rest[1]):
			el, next, self, ok := readTag(src, i, false)
			if !ok {
				problems = append(problems, parseProblem{i, "unterminated tag <" + el.Name})
				return root, problems
			}
			el.Name = strings.ToLower(el.Name)
			for ends := impliedEnds[el.Name]; len(stack) > 1 && ends[stack[len(stack)-1].Name]; {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > MaxWebNesting {
				problems = append(problems, parseProblem{i, nestingProblem})
				return root, problems
			}
			parent := stack[len(stack)-1]
			el.Parent = parent
			parent.Children = append(parent.Children, el)
			i = next
			if self || voidElements[el.Name] {
				continue
			}
			if rawTextElements[el.Name] {
				end := indexFold(src[i:], "</"+el.Name)
				if end < 0 {
					problems = append(problems, parseProblem{el.Pos, fmt.Sprintf("unterminated <%s>: no </%s> follows", el.Name, el.Name)})
					return root, problems
				}
				i += end
				continue
			}
			stack = append(stack, el)
		default:
			i++
		}
	}
	return root, problems
}

// indexFold is the index of the first instance of lower (ASCII, lowercase)
// in s, ignoring ASCII case, or -1; unlike lowering s first, it allocates
// nothing.
func indexFold(s, lower string) int {
	for i := 0; i+len(lower) <= len(s); i++ {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if i+len(lower) <= len(s) && strings.EqualFold(s[i:i+len(lower)], lower) {
			return i
		}
	}
	return -1
}

// readTag reads a start tag at src[start] == '<' in markup mode (jsx
// false) or JSX mode (expression attributes and spreads, comments between
// attributes; p is used for nested expressions). It returns the element,
// the offset after the tag, whether it is self-closing, and ok false when
// the input ends inside the tag.
func readTag(src string, start int, jsx bool) (*element, int, bool, bool) {
	return readTagWith(src, start, jsx, nil)
}

func readTagWith(src string, start int, jsx bool, p *jsxParser) (*element, int, bool, bool) {
	i := start + 1
	k := i
	for k < len(src) && isNameByte(src[k]) {
		k++
	}
	el := &element{Name: src[i:k], Pos: start}
	i = k
	for {
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if jsx && i+1 < len(src) && src[i] == '/' && (src[i+1] == '*' || src[i+1] == '/') {
			i = p.comment(i)
			continue
		}
		if i >= len(src) {
			return el, i, false, false
		}
		c := src[i]
		if c == '>' {
			return el, i + 1, false, true
		}
		if c == '/' && i+1 < len(src) && src[i+1] == '>' {
			return el, i + 2, true, true
		}
		if c == '/' {
			i++
			continue
		}
		if jsx && c == '{' {
			// spread {...x} (or a stray expression)
			vs := i + 1
			end := p.skipExpr(vs, el)
			el.Attrs = append(el.Attrs, attr{Value: strings.TrimSpace(src[vs:end]), Kind: attrSpread, Pos: i, ValPos: vs})
			i = end
			if i < len(src) && src[i] == '}' {
				i++
			}
			continue
		}
		ns := i
		if c == '[' || c == '(' || c == '#' || c == '*' || c == '@' {
			// Angular [prop], (event), [(x)], #ref, *ngIf; Vue @event.
			for i < len(src) && !isSpace(src[i]) && src[i] != '=' && src[i] != '>' && !(src[i] == '/' && i+1 < len(src) && src[i+1] == '>') {
				i++
			}
		} else {
			for i < len(src) && !isSpace(src[i]) && src[i] != '=' && src[i] != '>' && src[i] != '"' && src[i] != '\'' && !(src[i] == '/' && i+1 < len(src) && src[i+1] == '>') && !(jsx && src[i] == '{') {
				i++
			}
		}
		if i == ns {
			// a quote or '=' where a name should be: skip the byte.
			i++
			continue
		}
		name := src[ns:i]
		if jsx && !validJSXAttrName(name) {
			return el, i, false, false
		}
		a := attr{Name: name, Kind: attrBare, Pos: ns}
		j := i
		for j < len(src) && isSpace(src[j]) {
			j++
		}
		if j < len(src) && src[j] == '=' {
			j++
			for j < len(src) && isSpace(src[j]) {
				j++
			}
			if j >= len(src) {
				return el, j, false, false
			}
			switch q := src[j]; {
			case q == '"' || q == '\'':
				end := strings.IndexByte(src[j+1:], q)
				if end < 0 {
					return el, len(src), false, false
				}
				a.Kind, a.ValPos, a.Value = attrString, j+1, html.UnescapeString(src[j+1:j+1+end])
				j += end + 2
			case jsx && q == '{':
				vs := j + 1
				end := p.skipExpr(vs, el)
				a.Kind, a.ValPos, a.Value = attrExpr, vs, src[vs:end]
				j = end
				if j < len(src) && src[j] == '}' {
					j++
				}
			default:
				vs := j
				for j < len(src) && !isSpace(src[j]) && src[j] != '>' {
					j++
				}
				a.Kind, a.ValPos, a.Value = attrString, vs, html.UnescapeString(src[vs:j])
			}
			i = j
		}
		if !jsx {
			a.Name = markupAttrName(a.Name)
			if strings.HasPrefix(a.Name, ":") || strings.HasPrefix(a.Name, "v-bind:") || strings.HasPrefix(a.Name, "[") {
				a.Kind = attrExpr
			}
		}
		el.Attrs = append(el.Attrs, a)
	}
}

func validJSXAttrName(name string) bool {
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return name != ""
}

// markupAttrName lowercases a markup attribute name, keeping Vue and
// Angular binding syntax recognisable.
func markupAttrName(n string) string { return strings.ToLower(n) }

// boundName returns the axag attribute a (possibly bound) attribute name
// refers to: "axag-scope" for axag-scope, :axag-scope, v-bind:axag-scope,
// [axag-scope] and [attr.axag-scope].
func boundName(n string) string {
	n = strings.TrimPrefix(n, "v-bind:")
	n = strings.TrimPrefix(n, ":")
	if strings.HasPrefix(n, "[") && strings.HasSuffix(n, "]") {
		n = strings.TrimPrefix(n[1:len(n)-1], "attr.")
	}
	return n
}

// comment skips the JS comment at src[i:] ("//" or "/*"); an unterminated
// block comment is a problem and ends the file.
func (p *jsxParser) comment(i int) int {
	src := p.src
	if src[i+1] == '/' {
		end := strings.IndexByte(src[i:], '\n')
		if end < 0 {
			return len(src)
		}
		return i + end + 1
	}
	end := strings.Index(src[i+2:], "*/")
	if end < 0 {
		return p.fail(i, "unterminated comment /*")
	}
	return i + 2 + end + 2
}

// jsxParser reads JavaScript/TypeScript with JSX: it skips strings,
// template literals, comments and code, and reads JSX elements where an
// expression may start.
type jsxParser struct {
	src      string
	problems []parseProblem
	depth    int  // elements and template literals open
	stopped  bool // a problem ended reading
}

// fail records a problem after which nothing more is read, and returns
// the end of the source so that every caller stops.
func (p *jsxParser) fail(pos int, msg string) int {
	if !p.stopped {
		p.stopped = true
		p.problems = append(p.problems, parseProblem{pos, msg})
	}
	return len(p.src)
}

func parseJSX(src string) (*element, []parseProblem) {
	p := &jsxParser{src: src}
	root := &element{Pos: -1}
	p.code(0, root, false)
	return root, p.problems
}

// skipExpr reads a JS expression from i up to its closing '}' (not
// consumed), attaching JSX elements found inside to parent, and returns the
// offset of the '}' (or len(src)).
func (p *jsxParser) skipExpr(i int, parent *element) int {
	return p.code(i, parent, true)
}

// code scans JS from i. With stopAtBrace it returns at the first
// unbalanced '}'; otherwise it runs to the end.
func (p *jsxParser) code(i int, parent *element, stopAtBrace bool) int {
	src := p.src
	depth := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			i = p.comment(i)
		case c == '"' || c == '\'':
			i = p.str(i)
		case c == '`':
			i = p.template(i, parent)
		case c == '{':
			depth++
			i++
		case c == '}':
			if depth == 0 && stopAtBrace {
				return i
			}
			depth--
			i++
		case c == '<' && i+1 < len(src) && (isLetter(src[i+1]) || src[i+1] == '>') && jsxCanStart(src, i):
			i = p.element(i, parent)
		default:
			i++
		}
	}
	return i
}

// str skips the quoted JS string at src[i]. A string still open at the end
// of the file is a problem; one that meets a line break ends there (a JS
// string cannot span lines, and the quote may have been inside a regular
// expression, which the scanner does not read).
func (p *jsxParser) str(i int) int {
	src := p.src
	start, q := i, src[i]
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case q:
			return i + 1
		case '\n':
			return i + 1
		}
		i++
	}
	return p.fail(start, "unterminated string "+string(q))
}

func (p *jsxParser) template(i int, parent *element) int {
	if p.depth >= MaxWebNesting {
		return p.fail(i, nestingProblem)
	}
	p.depth++
	defer func() { p.depth-- }()
	src := p.src
	start := i
	i++
	for i < len(src) {
		switch {
		case src[i] == '\\':
			i += 2
		case src[i] == '`':
			return i + 1
		case src[i] == '$' && i+1 < len(src) && src[i+1] == '{':
			i = p.code(i+2, parent, true)
			if i < len(src) {
				i++
			}
		default:
			i++
		}
	}
	return p.fail(start, "unterminated template literal `")
}

// jsxCanStart reports whether a '<' at i can start a JSX element: it must
// follow an operator or punctuation (or return/yield/...), not an
// identifier or a closing bracket (a comparison or a type argument).
func jsxCanStart(src string, i int) bool {
	j := i - 1
	for j >= 0 && isSpace(src[j]) {
		j--
	}
	if j < 0 {
		return true
	}
	c := src[j]
	if strings.IndexByte("(=,?:{}[>;&|!+-*%~^", c) >= 0 {
		return true
	}
	if c == '_' || c == '$' || isLetter(c) || c >= '0' && c <= '9' {
		k := j
		for k >= 0 && (src[k] == '_' || src[k] == '$' || isLetter(src[k]) || src[k] >= '0' && src[k] <= '9') {
			k--
		}
		switch src[k+1 : j+1] {
		case "return", "yield", "default", "case", "await", "in", "of", "typeof", "void", "do", "else":
			return true
		}
	}
	return false
}

// element reads a JSX element (or fragment) at src[i] == '<' and its
// children, attaching it to parent; on something that is not a tag it
// returns i+1.
func (p *jsxParser) element(i int, parent *element) int {
	if p.depth >= MaxWebNesting {
		return p.fail(i, nestingProblem)
	}
	p.depth++
	defer func() { p.depth-- }()
	src := p.src
	if i+1 < len(src) && src[i+1] == '>' {
		frag := &element{Name: "", Pos: i, Parent: parent}
		parent.Children = append(parent.Children, frag)
		return p.children(i+2, frag)
	}
	el, next, self, ok := readTagWith(src, i, true, p)
	if !ok {
		if next >= len(src) {
			return p.fail(i, "unterminated tag <"+el.Name)
		}
		// Not a tag after all (a comparison or a type argument): keep the
		// elements its "attributes" held and go on after what was read,
		// never reading the same bytes twice (nested failures would
		// otherwise cost exponential time).
		for _, c := range el.Children {
			c.Parent = parent
			parent.Children = append(parent.Children, c)
		}
		return max(next, i+1)
	}
	el.Parent = parent
	parent.Children = append(parent.Children, el)
	if self {
		return next
	}
	return p.children(next, el)
}

// children reads JSX children up to el's closing tag.
func (p *jsxParser) children(i int, el *element) int {
	src := p.src
	for i < len(src) {
		c := src[i]
		switch {
		case c == '{':
			i = p.code(i+1, el, true)
			if i < len(src) {
				i++
			}
		case c == '<' && i+1 < len(src) && src[i+1] == '/':
			k := i + 2
			for k < len(src) && isSpace(src[k]) {
				k++
			}
			for k < len(src) && isNameByte(src[k]) {
				k++
			}
			end := strings.IndexByte(src[k:], '>')
			if end < 0 {
				return p.fail(i, "unterminated end tag "+src[i:k])
			}
			return k + end + 1
		case c == '<' && i+1 < len(src) && (isLetter(src[i+1]) || src[i+1] == '>'):
			i = p.element(i, el)
		default:
			i++
		}
	}
	return i
}
