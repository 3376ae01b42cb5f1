package protocol

import (
	"fmt"

	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// ErrorCodes lists every code in the reference's order, as the manifest
// spells them.
var ErrorCodes = func() []string {
	var out []string
	for _, c := range reason.Codes() {
		out = append(out, c.String())
	}
	return out
}()

// Retry advice.
const (
	RetryNone         = "none"
	RetrySameRequest  = "same_request"
	RetryAfterRefresh = "after_refresh"
)

// Error is the error object of a response. Its code is its reason's, or
// the code alone for the cases the reference gives no reason.
type Error struct {
	Code           reason.Code    `json:"code"`
	Reason         reason.Reason  `json:"reason,omitempty"`
	Message        string         `json:"message"`
	OperationIndex *int           `json:"operation_index,omitempty"`
	Target         map[string]any `json:"target,omitempty"`
	Diagnostics    []Diagnostic   `json:"diagnostics"`
	Retryable      string         `json:"retryable"`
	NextActions    []NextAction   `json:"next_actions"`
	Details        map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string {
	if e.Reason != reason.None {
		return e.Code.String() + " (" + e.Reason.String() + "): " + e.Message
	}
	return e.Code.String() + ": " + e.Message
}

// NextAction suggests a request.
type NextAction struct {
	Operation string `json:"operation"`
	Reason    string `json:"reason"`
	// Params is omitted when the service cannot fill it; an empty object
	// means the operation takes no params.
	Params any `json:"params,omitempty"`
}

// Diagnostic is a compiler diagnostic on the wire.
type Diagnostic struct {
	Code     string `json:"code,omitempty"`
	Severity string `json:"severity"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Length   int    `json:"length,omitempty"`
	Message  string `json:"message"`
	// Suggestion is diag.Diagnostic's: the likely fix of a misspelled name.
	Suggestion string `json:"suggestion,omitempty"`
}

// Diagnostics are compiler diagnostics on the wire: the one converter.
func Diagnostics(ds []diag.Diagnostic) []Diagnostic {
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, Diagnostic{Code: d.Code, Severity: string(d.Severity), Path: d.Path, Line: d.Line, Column: d.Column, Length: d.Length, Message: d.Message, Suggestion: d.Suggestion})
	}
	return out
}

// defaultRetry is the reference's default retry advice of each code.
func defaultRetry(code reason.Code, r reason.Reason) string {
	switch code {
	case reason.CodeStaleSnapshot, reason.CodeSnapshotExpired:
		return RetryAfterRefresh
	case reason.CodePreconditionFailed:
		if r == reason.CandidateApplied {
			return RetryNone
		}
		return RetryAfterRefresh
	case reason.CodeConflict:
		if r == reason.ConcurrentCandidate {
			return RetryAfterRefresh
		}
	case reason.CodeResourceLimit:
		if r == reason.QueueFull || r == reason.Timeout {
			return RetrySameRequest
		}
	case reason.CodeInternal:
		return RetrySameRequest
	}
	return RetryNone
}

// Errorf builds the error of reason r, with r's code, the code's default
// retry advice and no next actions.
func Errorf(r reason.Reason, format string, args ...any) *Error {
	return newError(r.Code(), r, format, args...)
}

// CodeErrorf builds an error that names its code alone: the codes whose
// cases the reference gives no reason (read_only_origin,
// insufficient_context).
func CodeErrorf(c reason.Code, format string, args ...any) *Error {
	return newError(c, reason.None, format, args...)
}

func newError(c reason.Code, r reason.Reason, format string, args ...any) *Error {
	return &Error{Code: c, Reason: r, Message: fmt.Sprintf(format, args...), Diagnostics: []Diagnostic{},
		Retryable: defaultRetry(c, r), NextActions: []NextAction{}}
}

// WithTarget sets the error's target and returns it.
func (e *Error) WithTarget(k string, v any) *Error {
	if e.Target == nil {
		e.Target = map[string]any{}
	}
	e.Target[k] = v
	return e
}

// Next adds a suggested next request; why is its reason, a sentence for
// people (the reference's next actions give prose, not registry reasons).
func (e *Error) Next(op, why string, params map[string]any) *Error {
	na := NextAction{Operation: op, Reason: why}
	if params != nil {
		na.Params = params
	}
	e.NextActions = append(e.NextActions, na)
	return e
}

// Detail sets one entry of details.
func (e *Error) Detail(k string, v any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[k] = v
	return e
}

// CompileFailed is the one shape of every compile_failed: a reason, the
// compiler's diagnostics, and the next requests that reason calls for.
// repair, the refused repair's outcome (a repairOutcome with regressed),
// goes in details.repair; it is nil for the other reasons.
func CompileFailed(r reason.Reason, diags []Diagnostic, repair any, format string, args ...any) *Error {
	e := Errorf(r, format, args...)
	if diags != nil {
		e.Diagnostics = diags
	}
	overview := map[string]any{"include": []string{"diagnostics"}}
	switch r {
	case reason.CandidateErrors:
		e.Next("node.edits", "Read the edits the nodes accept, fix the operation at operation_index and propose again", nil)
	case reason.RepairRegression:
		e.Detail("repair", repair)
		e.Next("project.overview", "Read the base's diagnostics and repair only the declarations that have errors", overview)
	default:
		e.Next("project.overview", "Read the project's diagnostics", overview)
	}
	return e
}
