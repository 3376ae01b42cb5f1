// Package diag defines compiler diagnostics and the registry of their
// stable codes. Codes never change meaning once published; docs/language.md
// lists them and a test proves each one is produced by some input.
package diag

import (
	"sort"
	"strconv"

	"github.com/axiomcore/acore/internal/lang/reason"
)

// Severity of a diagnostic.
type Severity string

// Severities, as the protocol spells them.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Diagnostic is one compiler message. Line and Column start at 1; Column
// and Length count Unicode scalar values.
type Diagnostic struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Length   int      `json:"length,omitempty"`
	Message  string   `json:"message"`
	// Suggestion is a close name for the misspelled one the span holds,
	// when the checker knows one: writing it in place of the span's text
	// is the likely fix ("did you mean" in Message says it to people).
	Suggestion string `json:"suggestion,omitempty"`
	// Pos and End are byte offsets, for tools that splice text.
	Pos int `json:"-"`
	End int `json:"-"`
	// Decl names the top-level declaration the diagnostic is in, as
	// "<kind> <name>", or "" outside any; bounded repair compares them.
	Decl string `json:"-"`
	// Related are other places the diagnostic is about (the first
	// declaration of a repeated name), for editors; the protocol's
	// diagnostics do not carry them.
	Related []Related `json:"-"`
}

// Related is a place a diagnostic refers to.
type Related struct {
	Path     string
	Pos, End int
	Message  string
}

// Info describes one code.
type Info struct {
	Code     string
	Severity Severity
	Title    string
	// Reason is the resource_limit reason of a bound code; reason.None
	// for the others.
	Reason reason.Reason
}

var registry = map[string]Info{}

func register(code string, sev Severity, title string) string {
	registry[code] = Info{Code: code, Severity: sev, Title: title}
	return code
}

func registerLimit(code string, r reason.Reason, title string) string {
	registry[code] = Info{Code: code, Severity: Error, Title: title, Reason: r}
	return code
}

// Lookup returns the description of code.
func Lookup(code string) (Info, bool) {
	i, ok := registry[code]
	return i, ok
}

// All returns every registered code in order.
func All() []Info {
	out := make([]Info, 0, len(registry))
	for _, i := range registry {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Code < out[b].Code })
	return out
}

// Sort orders diagnostics by path, line, column, then code.
func Sort(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Code < b.Code
	})
}

// Count returns the number of errors and warnings.
func Count(ds []Diagnostic) (errors, warnings int) {
	for _, d := range ds {
		if d.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return
}

// Errors says n errors in English: "1 error", "2 errors".
func Errors(n int) string {
	if n == 1 {
		return "1 error"
	}
	return strconv.Itoa(n) + " errors"
}

// Syntax (AC1xx).
var (
	UnexpectedToken     = register("AC101", Error, "unexpected token")
	UnterminatedString  = register("AC102", Error, "unterminated string")
	UnterminatedComment = register("AC103", Error, "unterminated block comment")
	IllegalChar         = register("AC104", Error, "illegal character")
	BadEscape           = register("AC105", Error, "invalid escape in string")
	BadNumber           = register("AC106", Error, "malformed number")
	Unclosed            = register("AC107", Error, "unclosed bracket")
	Misplaced           = register("AC108", Error, "declaration out of place")
	StatementSeparator  = register("AC109", Error, "statements must be on separate lines")
	TooManySyntaxErrors = register("AC110", Error, "too many syntax errors")
	NestingLimit        = registerLimit("AC150", reason.NestingLimit, "brackets nested deeper than nesting_max (256)")
	BracketLimit        = registerLimit("AC151", reason.BracketLimit, "more opening brackets than brackets_max (8192) in one file")
	BracketsTotalLimit  = registerLimit("AC152", reason.BracketsTotalLimit, "more bracket tokens than brackets_total_max (16384) in one file")
	FileTooLarge        = registerLimit("AC153", reason.FileTooLarge, "source file larger than source_file_bytes_max (2 MiB)")
	SourcesTooLarge     = registerLimit("AC154", reason.SourcesTooLarge, "sources larger than sources_bytes_max (4 MiB)")
	TooManyModules      = registerLimit("AC155", reason.TooManyModules, "more source files than source_files_max (64)")
	ImportDepthLimit    = registerLimit("AC156", reason.ImportDepthLimit, "imports nested deeper than import_depth_max (16)")
	SnapshotTooLarge    = registerLimit("AC157", reason.SnapshotTooLarge, "inputs larger than snapshot_bytes_max (64 MiB)")
)

// Names and modules (AC2xx): a project with one of these errors is in the
// syntax state: parsed, but its names do not resolve.
var (
	UnknownName      = register("AC201", Error, "unknown name")
	Duplicate        = register("AC202", Error, "duplicate declaration")
	DuplicateOwner   = register("AC203", Error, "name declared in two modules")
	ImportCycle      = register("AC204", Error, "import cycle")
	ImportNotFound   = register("AC205", Error, "import not found")
	UnknownContract  = register("AC206", Error, "unknown contract")
	UnknownOperation = register("AC207", Error, "unknown contract operation")
	UnknownType      = register("AC208", Error, "unknown type")
	UnknownElement   = register("AC209", Error, "unknown element or component")
	UnknownRoute     = register("AC210", Error, "unknown route")
	ReservedName     = register("AC211", Error, "reserved name")
	DuplicateModule  = register("AC212", Error, "duplicate module name")
	AmbiguousName    = register("AC213", Error, "ambiguous name")
	UnusedImport     = register("AC215", Warning, "unused import")
	BadAudience      = register("AC216", Error, "audience not served by the contract")
	BadRoute         = register("AC217", Error, "malformed route path")
	NoApp            = register("AC218", Error, "no app declaration")
	LetCycle         = register("AC219", Error, "derived value reads itself")
	LetNotValue      = register("AC220", Error, "derived value is not a value")
)

// Types and the element catalog (AC3xx): a project with only these errors
// is in the resolved state.
var (
	TypeMismatch      = register("AC301", Error, "type mismatch")
	UnknownProperty   = register("AC302", Error, "unknown property")
	MissingProperty   = register("AC303", Error, "missing required property")
	DuplicateProperty = register("AC304", Error, "property given twice")
	BadValue          = register("AC305", Error, "value not allowed")
	OutOfRange        = register("AC306", Error, "value out of range")
	BadChildren       = register("AC307", Error, "children not allowed here")
	NotAssignable     = register("AC308", Error, "not assignable")
	BadCall           = register("AC309", Error, "invalid call")
	BadHandler        = register("AC310", Error, "invalid handler")
	BadData           = register("AC311", Error, "invalid query or mutation")
	BadArgument       = register("AC312", Error, "invalid contract argument")
	BadCondition      = register("AC313", Error, "condition is not a Bool")
	PositionalArg     = register("AC314", Error, "unnamed argument")
	NoEffect          = register("AC315", Error, "statement has no effect")
	UnknownMember     = register("AC316", Error, "unknown member")
	BranchMismatch    = register("AC317", Error, "branches of a conditional differ in type")
	NotOptional       = register("AC318", Error, "?? on a value that is never null")
	BadLambda         = register("AC319", Error, "invalid lambda")
	BadMethod         = register("AC320", Error, "invalid method call")
	BadRecord         = register("AC321", Error, "invalid record value")
	BadWith           = register("AC322", Error, "invalid copy with changes")
	BadSortKey        = register("AC323", Error, "sort key is not Int, Float or String")
	BadIndex          = register("AC324", Error, "invalid index")
	RunArgDeclared    = register("AC325", Error, "argument given in the declaration and at the run")
	LoopNotList       = register("AC326", Error, "loop over a value that is not a list")
	BlockNotValue     = register("AC327", Error, "a handler block where a value is expected")
	BadPersist        = register("AC328", Error, "invalid @persist")
)

// AXAG annotations (AC4xx): @axag metadata that cannot be read. A project
// with only these errors is resolved; AC404 is a warning.
var (
	AxagUnknownArg = register("AC401", Error, "unknown annotation argument")
	AxagBadType    = register("AC402", Error, "annotation argument of the wrong type")
	AxagBadValue   = register("AC403", Error, "annotation value not allowed")
	AxagPlacement  = register("AC404", Warning, "annotation has no effect here")
)

// Project, contracts and lock (AC5xx).
var (
	LockMissing      = register("AC501", Error, "no UI lock: the project needs preparation")
	LockOutdated     = register("AC502", Error, "UI lock out of date: the project needs preparation")
	UnsignedContract = register("AC503", Warning, "development contract is unsigned")
	NoEntry          = register("AC504", Error, "no main.acore")
	BadContract      = register("AC505", Error, "malformed contract artifact")
	FileNotRead      = register("AC506", Warning, "file not read")
	NeedsVersion     = register("AC507", Error, "construct needs a newer language version")
)

// Web build (AC6xx): errors of `axiom build` on a validated project.
var (
	ExternNotExported = register("AC601", Error, "extern action not implemented")
)
