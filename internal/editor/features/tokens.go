package features

import (
	"sort"

	"go.lsp.dev/protocol"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/refs"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// TokenTypes and TokenModifiers are the semantic token legend, in the
// order the encoded tokens index them.
var (
	TokenTypes     = []string{"namespace", "class", "struct", "parameter", "variable", "property", "function", "method", "keyword", "string", "number", "comment", "type"}
	TokenModifiers = []string{"declaration", "readonly", "defaultLibrary"}
)

const (
	tNamespace = iota
	tClass
	tStruct
	tParameter
	tVariable
	tProperty
	tFunction
	tMethod
	tKeyword
	tString
	tNumber
	tComment
	tType
)

const (
	mDeclaration = 1 << iota
	mReadonly
	mDefaultLibrary
)

// objTokens gives each kind of declaration its token type.
var objTokens = map[check.ObjKind]int{
	check.ObjState: tVariable, check.ObjLet: tVariable, check.ObjQuery: tVariable, check.ObjMutation: tVariable,
	check.ObjAction: tFunction, check.ObjExtern: tFunction, check.ObjProp: tProperty,
	check.ObjParam: tParameter, check.ObjLocal: tParameter, check.ObjPage: tClass,
	check.ObjComponent: tClass, check.ObjModel: tStruct, check.ObjContract: tNamespace,
	check.ObjOperation: tMethod,
}

// keywords are the names the grammar gives a meaning where they stand
// (docs/language.md §2); a name the checker resolved is never one.
var keywords = map[string]bool{
	"module": true, "use": true, "app": true, "page": true, "component": true, "model": true, "extern": true,
	"contract": true, "from": true, "audience": true, "route": true, "action": true, "query": true,
	"mutation": true, "state": true, "view": true, "if": true, "else": true, "true": true, "false": true,
	"null": true, "let": true, "then": true, "for": true, "in": true,
}

var builtinTypes = map[string]bool{"String": true, "Int": true, "Float": true, "Bool": true, "Action": true}

type semTok struct {
	pos, end int
	typ, mod int
}

// SemanticTokens classifies the names, literals and comments of rel with
// what the checker resolved them to: a state, a prop, an action, a page,
// an element of the catalog; keywords only where no declaration is named.
func SemanticTokens(fs *Files, rel string) *protocol.SemanticTokens {
	ix := fs.Snap.Index()
	f := ix.Trees[rel]
	if f == nil || f.Tokens == nil {
		// The record's trees keep no tokens (syntax.ParseTree).
		text, ok := fs.Snap.Text(rel)
		if !ok {
			return &protocol.SemanticTokens{Data: []uint32{}}
		}
		f = syntax.Parse(rel, text)
	}
	names := map[int32]int{} // identifier position: its index in Idents
	for i, id := range ix.Idents[rel] {
		names[id.Ident.Pos] = i
	}
	var toks []semTok
	for _, t := range f.Tokens {
		st := semTok{pos: int(t.Pos), end: int(t.End), typ: -1}
		switch t.Kind {
		case syntax.String:
			st.typ = tString
		case syntax.Int, syntax.Float:
			st.typ = tNumber
		case syntax.Name:
			word := string(f.Src[t.Pos:t.End])
			i, named := names[t.Pos]
			switch {
			case named && ix.Idents[rel][i].Obj != nil:
				id := ix.Idents[rel][i]
				st.typ = objTokens[id.Obj.Kind]
				if id.Obj.Kind == check.ObjLet {
					st.typ, st.mod = tVariable, mReadonly
				}
				if id.Def {
					st.mod |= mDeclaration
				}
			case named && isElementName(ix.Idents[rel][i]):
				st.typ, st.mod = tClass, mDefaultLibrary
			case named && isArgName(ix.Idents[rel][i]):
				st.typ = tProperty
			case builtinTypes[word]:
				st.typ, st.mod = tType, mDefaultLibrary
			case word == "navigate":
				st.typ, st.mod = tFunction, mDefaultLibrary
			case keywords[word]:
				st.typ = tKeyword
			}
		}
		if st.typ >= 0 {
			toks = append(toks, st)
		}
	}
	for _, c := range f.Comments {
		toks = append(toks, semTok{pos: int(c.Pos), end: int(c.End), typ: tComment})
	}
	sort.Slice(toks, func(i, j int) bool { return toks[i].pos < toks[j].pos })
	return &protocol.SemanticTokens{Data: encodeTokens(fs, rel, toks)}
}

// encodeTokens writes tokens as LSP's relative quintuples, each on one
// line (a token that spans lines is cut at its first line's end).
func encodeTokens(fs *Files, rel string, toks []semTok) []uint32 {
	m := fs.Mapper(rel)
	data := make([]uint32, 0, 5*len(toks))
	var line, char uint32
	for _, t := range toks {
		start, end := m.Position(t.pos, fs.Enc), m.Position(t.end, fs.Enc)
		if end.Line != start.Line {
			end = m.Position(m.LineEnd(int(start.Line)), fs.Enc)
		}
		if end.Character <= start.Character {
			continue
		}
		dl, dc := start.Line-line, start.Character
		if dl == 0 {
			dc = start.Character - char
		}
		data = append(data, dl, dc, end.Character-start.Character, uint32(t.typ), uint32(t.mod))
		line, char = start.Line, start.Character
	}
	return data
}

func isElementName(id refs.Ref) bool {
	if len(id.Stack) == 0 {
		return false
	}
	el, ok := id.Stack[len(id.Stack)-1].(*syntax.Element)
	return ok && el.Name == id.Ident
}

func isArgName(id refs.Ref) bool {
	if len(id.Stack) == 0 {
		return false
	}
	a, ok := id.Stack[len(id.Stack)-1].(*syntax.Arg)
	return ok && a.Name == id.Ident
}
