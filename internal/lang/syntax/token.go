// Package syntax holds the Acore UI lexer, the lossless error-recovering
// parser and the syntax tree. Positions are byte offsets into the file's
// source; Pos converts them to 1-based lines and columns counted in Unicode
// scalar values, as the protocol reports them.
package syntax

// Kind is the kind of a token.
type Kind uint8

// Token kinds. Keywords are contextual: the lexer returns them as Ident and
// the parser looks at the text where a keyword may stand, so that model
// fields and properties may be called state, view or model.
const (
	EOF Kind = iota
	Illegal
	Name
	Int
	Float
	String
	LBrace   // {
	RBrace   // }
	LParen   // (
	RParen   // )
	LBrack   // [
	RBrack   // ]
	Comma    // ,
	Colon    // :
	Dot      // .
	Assign   // =
	Arrow    // =>
	Pipe     // |
	OrOr     // ||
	AndAnd   // &&
	Eq       // ==
	NotEq    // !=
	Less     // <
	LessEq   // <=
	Greater  // >
	GreatEq  // >=
	Plus     // +
	Minus    // -
	Star     // *
	Slash    // /
	Percent  // %
	Not      // !
	Question // ?
	At       // @
	Coalesce // ??
	Semi     // ; (Acore 1.1: a statement separator)
)

var kindNames = [...]string{
	EOF: "end of file", Illegal: "illegal character", Name: "identifier", Int: "integer", Float: "number", String: "string",
	LBrace: "{", RBrace: "}", LParen: "(", RParen: ")", LBrack: "[", RBrack: "]", Comma: ",", Colon: ":", Dot: ".",
	Assign: "=", Arrow: "=>", Pipe: "|", OrOr: "||", AndAnd: "&&", Eq: "==", NotEq: "!=", Less: "<", LessEq: "<=",
	Greater: ">", GreatEq: ">=", Plus: "+", Minus: "-", Star: "*", Slash: "/", Percent: "%", Not: "!", Question: "?", At: "@", Coalesce: "??", Semi: ";",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "token"
}

// Token is one lexeme. Trivia (spaces, newlines, comments) are not tokens:
// they are the gaps between tokens, so the source is the concatenation of
// the gaps and the tokens, which is what keeps the tree lossless.
type Token struct {
	// Pos and End are 32-bit: files are far smaller than 2 GiB, and a
	// token array is about six times its source's bytes.
	Pos  int32 // offset of the first byte
	End  int32 // offset after the last byte
	Kind Kind
	// NewlineBefore reports a line break in the trivia before the token;
	// calls and member access do not continue across one.
	NewlineBefore bool
}

// Comment is a // or /* */ comment; 32-bit like Token.
type Comment struct {
	Pos, End int32
}
