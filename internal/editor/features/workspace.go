package features

import (
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// WorkspaceSymbols are the declarations of every view whose name matches
// query: a case-insensitive subsequence, as editors filter (an empty query
// matches every declaration).
func WorkspaceSymbols(views []*Files, query string) []protocol.SymbolInformation {
	var out []protocol.SymbolInformation
	for _, fs := range views {
		ix := fs.Snap.Index()
		if ix.Recorded == nil || ix.Recorded.Result == nil || ix.Recorded.Result.Graph == nil {
			continue
		}
		g := ix.Recorded.Result.Graph
		for i := 0; i < g.Len(); i++ {
			n := g.At(int32(i))
			kind, ok := symbolKinds[n.Kind]
			if !ok || n.Path == "" || !matches(n.Name, query) {
				continue
			}
			name := n.Name
			if name == "" {
				name = n.ID
			}
			si := protocol.SymbolInformation{Location: fs.location(n.Path, int(n.Pos), int(n.End))}
			si.Name, si.Kind = name, kind
			if o := ownerID(n); o != "" {
				_, c, _ := strings.Cut(o, ":")
				si.ContainerName = &c
			}
			out = append(out, si)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// matches reports whether the letters of query appear in name in order,
// ignoring case.
func matches(name, query string) bool {
	name, query = strings.ToLower(name), strings.ToLower(query)
	for _, r := range query {
		i := strings.IndexRune(name, r)
		if i < 0 {
			return false
		}
		name = name[i+1:]
	}
	return true
}

// FoldingRanges are the blocks of rel that span lines (declarations,
// views, bodies, children, argument lists) and its runs of comment lines
// and use lines.
func FoldingRanges(fs *Files, rel string) []protocol.FoldingRange {
	text, ok := fs.Snap.Text(rel)
	if !ok {
		return nil
	}
	f := syntax.Parse(rel, text)
	m := fs.Mapper(rel)
	line := func(off int32) int { return int(m.Position(int(off), fs.Enc).Line) }
	var out []protocol.FoldingRange
	add := func(start, end int, kind protocol.FoldingRangeKind) {
		if end > start {
			r := protocol.FoldingRange{StartLine: uint32(start), EndLine: uint32(end)}
			if kind != "" {
				r.Kind = kind
			}
			out = append(out, r)
		}
	}
	var open []syntax.Token
	for _, t := range f.Tokens {
		switch t.Kind {
		case syntax.LBrace, syntax.LParen, syntax.LBrack:
			open = append(open, t)
		case syntax.RBrace, syntax.RParen, syntax.RBrack:
			if len(open) == 0 {
				continue
			}
			o := open[len(open)-1]
			open = open[:len(open)-1]
			// The closing line stays visible, as editors show `}`.
			add(line(o.Pos), line(t.Pos)-1, "")
		}
	}
	runs := func(spans [][2]int32, kind protocol.FoldingRangeKind) {
		for i := 0; i < len(spans); {
			j := i
			for j+1 < len(spans) && line(spans[j+1][0]) == line(spans[j][1])+1 {
				j++
			}
			add(line(spans[i][0]), line(spans[j][1]), kind)
			i = j + 1
		}
	}
	var comments, uses [][2]int32
	for _, c := range f.Comments {
		comments = append(comments, [2]int32{c.Pos, c.End})
	}
	for _, u := range f.Uses {
		uses = append(uses, [2]int32{u.Pos, u.End})
	}
	runs(comments, protocol.FoldingRangeKindComment)
	runs(uses, protocol.FoldingRangeKindImports)
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartLine < out[j].StartLine })
	return out
}
