// Package protocol defines the wire format of axiom-agent-semantic/v1: the
// request and response envelopes, errors with their codes, reasons and
// retry advice, limits and truncation. The JSON Schemas under schemas/ are
// the definition; these types mirror them.
package protocol

import "encoding/json"

// Name is the protocol this service speaks.
const Name = "axiom-agent-semantic/v1"

// Request is the request envelope.
type Request struct {
	Protocol     string          `json:"protocol"`
	Operation    string          `json:"operation"`
	Workspace    *string         `json:"workspace,omitempty"`
	Snapshot     *string         `json:"snapshot,omitempty"`
	BaseSnapshot *string         `json:"base_snapshot,omitempty"`
	RequestID    *string         `json:"request_id,omitempty"`
	Limits       *Limits         `json:"limits,omitempty"`
	Params       json.RawMessage `json:"params"`
}

// Limits are request limits; nil fields take the defaults.
type Limits struct {
	MaxBytes *int `json:"max_bytes,omitempty"`
	MaxDepth *int `json:"max_depth,omitempty"`
	MaxItems *int `json:"max_items,omitempty"`
	MaxNodes *int `json:"max_nodes,omitempty"`
}

// Applied is the set of limits a response was computed under.
type Applied struct {
	MaxBytes int `json:"max_bytes"`
	MaxDepth int `json:"max_depth"`
	MaxItems int `json:"max_items"`
	MaxNodes int `json:"max_nodes"`
}

// Request limit defaults and maximums.
var (
	DefaultLimits = Applied{MaxBytes: 65536, MaxDepth: 2, MaxItems: 50, MaxNodes: 100}
	MaxLimits     = Applied{MaxBytes: 4194304, MaxDepth: 16, MaxItems: 200, MaxNodes: 1000}
)

// Apply fills defaults and lowers values over the maximum.
func (l *Limits) Apply() Applied {
	a := DefaultLimits
	if l == nil {
		return a
	}
	pick := func(v *int, def, max int) int {
		if v == nil {
			return def
		}
		if *v > max {
			return max
		}
		return *v
	}
	a.MaxBytes = pick(l.MaxBytes, a.MaxBytes, MaxLimits.MaxBytes)
	a.MaxDepth = pick(l.MaxDepth, a.MaxDepth, MaxLimits.MaxDepth)
	a.MaxItems = pick(l.MaxItems, a.MaxItems, MaxLimits.MaxItems)
	a.MaxNodes = pick(l.MaxNodes, a.MaxNodes, MaxLimits.MaxNodes)
	return a
}

// Service bounds.
const (
	RequestMaxBytes      = 4194304
	TimeoutMS            = 30000
	GroupCompileBudgetMS = 20000
	CheckContentMaxBytes = 2097152
	CheckFilesMax        = 64
	JSONDepthMax         = 64
	OperationsMax        = 50
)

// Response is the response envelope: exactly one of Result and Error.
type Response struct {
	Protocol   string     `json:"protocol"`
	Operation  string     `json:"operation"`
	RequestID  *string    `json:"request_id,omitempty"`
	Workspace  *string    `json:"workspace"`
	Snapshot   *Snapshot  `json:"snapshot"`
	Toolchain  Toolchain  `json:"toolchain"`
	Coverage   Coverage   `json:"coverage"`
	Truncation Truncation `json:"truncation"`
	Result     any        `json:"result,omitempty"`
	Error      *Error     `json:"error,omitempty"`
}

// Toolchain identifies the compiler that produced an answer.
type Toolchain struct {
	Compiler         string `json:"compiler"`
	CompilerVersion  string `json:"compiler_version"`
	CompilerIdentity string `json:"compiler_identity"`
	EditRules        string `json:"edit_rules"`
	LanguageProfile  string `json:"language_profile"`
	Target           string `json:"target"`
}

// Snapshot names the snapshot an answer describes.
type Snapshot struct {
	ID            string  `json:"id"`
	SemanticState string  `json:"semantic_state"`
	Overlay       *string `json:"overlay,omitempty"`
	CapturedAt    string  `json:"captured_at,omitempty"`
	Disk          *Disk   `json:"disk,omitempty"`
}

// Disk reports whether the files on disk still match a snapshot.
type Disk struct {
	State   string   `json:"state"` // unchanged or changed
	Changed []string `json:"changed,omitempty"`
}

// Coverage says how complete an answer is.
type Coverage struct {
	Completeness string `json:"completeness"`
	Exhaustive   bool   `json:"exhaustive"`
	Gaps         []Gap  `json:"gaps"`
}

// Gap is one reason an answer is not complete.
type Gap struct {
	Reason string   `json:"reason"`
	Detail string   `json:"detail,omitempty"`
	Nodes  []string `json:"nodes,omitempty"`
}

// Complete is the coverage of a complete, exhaustive answer.
func Complete() Coverage {
	return Coverage{Completeness: "complete", Exhaustive: true, Gaps: []Gap{}}
}

// Truncation says what limits cut from an answer.
type Truncation struct {
	Truncated    bool       `json:"truncated"`
	Limits       Applied    `json:"limits"`
	Used         Used       `json:"used"`
	Omissions    []Omission `json:"omissions"`
	Continuation *string    `json:"continuation"`
}

// Used is what the answer consumed.
type Used struct {
	Bytes int `json:"bytes"`
}

// Omission is one kind of content left out.
type Omission struct {
	Reason string         `json:"reason"`
	Count  int            `json:"count"`
	Nodes  []string       `json:"nodes,omitempty"`
	Expand []ExpansionRef `json:"expand,omitempty"`
}

// ExpansionRef is a handle to content left out, to pass back in a later
// request.
type ExpansionRef struct {
	Ref            string `json:"ref"`
	Kind           string `json:"kind"`
	Node           string `json:"node,omitempty"`
	EstimatedBytes int    `json:"estimated_bytes"`
	Reason         string `json:"reason"`
}

// JSONDepth returns the deepest nesting of arrays and objects in raw,
// without decoding it, so a deeply nested request is refused cheaply.
func JSONDepth(raw []byte) int {
	depth, max := 0, 0
	inStr, esc := false, false
	for _, c := range raw {
		switch {
		case esc:
			esc = false
		case inStr:
			if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
			if depth > max {
				max = depth
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return max
}
