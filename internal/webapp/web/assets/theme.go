package assets

import (
	"regexp"
	"strings"
	"sync"
)

// Theme returns the stylesheet with only the rules an app can match: a
// selector that needs a theme class (ac-…) or one of the elements of
// themeTags that used reports as unused is dropped, a rule left without
// selectors goes, an @media block left empty goes, and @keyframes stay
// only when a kept rule names them. Classes and elements under :not(…)
// do not count, as their absence still matches.
func Theme(used func(name string) bool) []byte {
	blocks := themeBlocks()
	parts := make([]string, len(blocks))
	var kept strings.Builder // what the kept rules say, for @keyframes
	for i, blk := range blocks {
		switch {
		case blk.at == "":
			parts[i], _ = pruneRule(blk, used)
		case strings.HasPrefix(blk.at, "@media"):
			var inner strings.Builder
			for _, r := range cssBlocks(blk.body) {
				s, _ := pruneRule(r, used)
				inner.WriteString(s)
			}
			if inner.Len() > 0 {
				parts[i] = blk.at + "{" + inner.String() + "}" + blk.end()
			}
		case strings.HasPrefix(blk.at, "@keyframes "):
			continue
		default:
			parts[i] = blk.text + blk.end()
		}
		kept.WriteString(parts[i])
	}
	for i, blk := range blocks {
		if name, ok := strings.CutPrefix(blk.at, "@keyframes "); ok && strings.Contains(kept.String(), strings.TrimSpace(name)) {
			parts[i] = blk.text + blk.end()
		}
	}
	return []byte(strings.Join(parts, ""))
}

// themeBlocks are the stylesheet's blocks, split once: every build of
// axiom dev prunes the same stylesheet.
var themeBlocks = sync.OnceValue(func() []cssBlock { return cssBlocks(string(AppCSS)) })

// cssBlock is one top-level statement of a stylesheet: a rule
// (selectors and body) or an at-rule (at is its prelude).
type cssBlock struct {
	at, selectors, body, text string
	lines                     bool // a newline followed it
}

func (b cssBlock) end() string {
	if b.lines {
		return "\n"
	}
	return ""
}

// cssBlocks splits css into its top-level blocks; comments are dropped.
func cssBlocks(css string) []cssBlock {
	var out []cssBlock
	i := 0
	for i < len(css) {
		for i < len(css) && (css[i] == ' ' || css[i] == '\n' || css[i] == '\t') {
			i++
		}
		if strings.HasPrefix(css[i:], "/*") {
			end := strings.Index(css[i+2:], "*/")
			if end < 0 {
				break
			}
			i += end + 4
			continue
		}
		if i >= len(css) {
			break
		}
		open := strings.IndexByte(css[i:], '{')
		if open < 0 {
			break
		}
		head := strings.TrimSpace(css[i : i+open])
		depth, j := 0, i+open
		for ; j < len(css); j++ {
			switch css[j] {
			case '{':
				depth++
			case '}':
				depth--
			case '"', '\'':
				if k := strings.IndexByte(css[j+1:], css[j]); k >= 0 {
					j += k + 1
				}
			}
			if depth == 0 {
				break
			}
		}
		if j >= len(css) {
			break // unclosed: not a block
		}
		blk := cssBlock{body: css[i+open+1 : j], text: head + css[i+open:j+1]}
		if strings.HasPrefix(head, "@") {
			blk.at = head
		} else {
			blk.selectors = head
		}
		i = j + 1
		blk.lines = i < len(css) && css[i] == '\n'
		out = append(out, blk)
	}
	return out
}

var (
	themeClass = regexp.MustCompile(`\.(ac-[A-Za-z0-9_-]+)`)
	typeName   = regexp.MustCompile(`(?:^|[\s>+~(])([a-z][a-z0-9]*)`)
	notGroup   = regexp.MustCompile(`:not\([^()]*(\([^()]*\)[^()]*)*\)`)
)

// themeTags are the elements whose rules go with them: the ones an app
// has only when it shows that kind of element.
var themeTags = map[string]bool{"input": true, "textarea": true, "select": true, "hr": true, "img": true, "a": true, "button": true, "label": true}

// pruneRule keeps the selectors of r whose theme classes and elements
// are all used.
func pruneRule(r cssBlock, used func(string) bool) (string, bool) {
	var keep []string
	for _, sel := range splitSelectors(r.selectors) {
		pos, ok := notGroup.ReplaceAllString(sel, ""), true
		for _, m := range themeClass.FindAllStringSubmatch(pos, -1) {
			ok = ok && used(m[1])
		}
		for _, m := range typeName.FindAllStringSubmatch(pos, -1) {
			ok = ok && (!themeTags[m[1]] || used(m[1]))
		}
		if ok {
			keep = append(keep, sel)
		}
	}
	if len(keep) == 0 {
		return "", false
	}
	return strings.Join(keep, ",") + "{" + r.body + "}" + r.end(), true
}

// splitSelectors splits a selector list at its top-level commas.
func splitSelectors(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
