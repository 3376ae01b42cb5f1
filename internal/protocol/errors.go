package protocol

import (
	"fmt"

	"github.com/axiomcore/acore/internal/diag"
	"github.com/axiomcore/acore/internal/reason"
)

// Error codes: the closed list of v1.
const (
	CodeUnsupportedOperation = "unsupported_operation"
	CodeInvalidArguments     = "invalid_arguments"
	CodeAmbiguousOwner       = "ambiguous_owner"
	CodeReadOnlyOrigin       = "read_only_origin"
	CodeStaleSnapshot        = "stale_snapshot"
	CodePreconditionFailed   = "precondition_failed"
	CodeCompileFailed        = "compile_failed"
	CodeConflict             = "conflict"
	CodeInsufficientContext  = "insufficient_context"
	CodeSnapshotExpired      = "snapshot_expired"
	CodePermissionDenied     = "permission_denied"
	CodeResourceLimit        = "resource_limit"
	CodeNotFound             = "not_found"
	CodeInternal             = "internal"
)

// ErrorCodes lists every code in the reference's order.
var ErrorCodes = []string{CodeUnsupportedOperation, CodeInvalidArguments, CodeAmbiguousOwner, CodeReadOnlyOrigin,
	CodeStaleSnapshot, CodePreconditionFailed, CodeCompileFailed, CodeConflict, CodeInsufficientContext,
	CodeSnapshotExpired, CodePermissionDenied, CodeResourceLimit, CodeNotFound, CodeInternal}

// Retry advice.
const (
	RetryNone         = "none"
	RetrySameRequest  = "same_request"
	RetryAfterRefresh = "after_refresh"
)

// Error is the error object of a response.
type Error struct {
	Code           string         `json:"code"`
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
		return e.Code + " (" + e.Reason.String() + "): " + e.Message
	}
	return e.Code + ": " + e.Message
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
}

// Diagnostics are compiler diagnostics on the wire: the one converter.
func Diagnostics(ds []diag.Diagnostic) []Diagnostic {
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, Diagnostic{Code: d.Code, Severity: string(d.Severity), Path: d.Path, Line: d.Line, Column: d.Column, Length: d.Length, Message: d.Message})
	}
	return out
}

// defaultRetry is the reference's default retry advice of each code.
func defaultRetry(code string, r reason.Reason) string {
	switch code {
	case CodeStaleSnapshot, CodeSnapshotExpired:
		return RetryAfterRefresh
	case CodePreconditionFailed:
		if r == reason.CandidateApplied {
			return RetryNone
		}
		return RetryAfterRefresh
	case CodeConflict:
		if r == reason.ConcurrentCandidate {
			return RetryAfterRefresh
		}
	case CodeResourceLimit:
		if r == reason.QueueFull || r == reason.Timeout {
			return RetrySameRequest
		}
	case CodeInternal:
		return RetrySameRequest
	}
	return RetryNone
}

// Errorf builds an error with the code's default retry advice and no
// next actions. r is one of the registry's reasons (internal/reason), or
// reason.None where the code says it all.
func Errorf(code string, r reason.Reason, format string, args ...any) *Error {
	return &Error{Code: code, Reason: r, Message: fmt.Sprintf(format, args...), Diagnostics: []Diagnostic{},
		Retryable: defaultRetry(code, r), NextActions: []NextAction{}}
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
	e := Errorf(CodeCompileFailed, r, format, args...)
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
