package edit

import (
	"fmt"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// Kind is what went wrong with a batch: the code its reason refines, so
// errorf takes the reason alone. Only ReadOnly is a kind without a reason.
type Kind = reason.Code

// The kinds of edit errors.
const (
	// Invalid: the operation is malformed or asks for nothing.
	Invalid = reason.CodeInvalidArguments
	// NotFound: a node, handle or module it names does not exist.
	NotFound = reason.CodeNotFound
	// Precondition: an expected version, value, text or option is not
	// the current one.
	Precondition = reason.CodePreconditionFailed
	// Unsupported: the edit is not offered for its node.
	Unsupported = reason.CodeUnsupportedOperation
	// Ambiguous: the node has no single authored value to edit.
	Ambiguous = reason.CodeAmbiguousOwner
	// ReadOnly: the node is declared in a file the project does not
	// author.
	ReadOnly = reason.CodeReadOnlyOrigin
	// Limit: the edited project is over a service bound.
	Limit = reason.CodeResourceLimit
	// Compile: the edited project (or the base) does not compile as the
	// batch requires; Reason says how.
	Compile = reason.CodeCompileFailed
)

// Next is the request an error calls for, named by what the agent should
// learn; the service turns it into a next action.
type Next int

// The next requests of edit errors. Each reads Error.NextNode.
const (
	NoNext Next = iota
	// Refind: find the node again on this snapshot.
	Refind
	// Reread: read the node again and rebuild the operation.
	Reread
	// ReadOptions: read the node's current edit options.
	ReadOptions
	// ReadText: read the node's current text.
	ReadText
	// ListEdits: list the edits the node accepts now, unavailable ones
	// too.
	ListEdits
	// ListReferences: list the references to the node.
	ListReferences
	// ReadRegions: read the module's current region options.
	ReadRegions
)

// Error is a refused batch: what went wrong, at which operation, on which
// node, with the compiler's diagnostics where a compile decided it.
type Error struct {
	Kind Kind
	// Reason is the registry's reason, which determines Kind (a Compile
	// error's is not_validated, candidate_errors or repair_regression);
	// None for ReadOnly.
	Reason  reason.Reason
	Message string
	// OperationIndex is the operation that failed; nil for the batch.
	OperationIndex *int
	// Node, Property, Option and Path are what the operation targeted
	// ("" when not known).
	Node, Property, Option, Path string
	// Diagnostics are the error diagnostics of the compile that decided
	// a Compile or Limit error (at most 200); nil otherwise.
	Diagnostics []diag.Diagnostic
	// Repair is the refused repair's outcome (reason.RepairRegression).
	Repair *Repair
	// Details are further facts, by name.
	Details map[string]any
	// Next is the request the error calls for, about NextNode.
	Next     Next
	NextNode string
}

func (e *Error) Error() string {
	if e.Reason != reason.None {
		return e.Reason.String() + ": " + e.Message
	}
	return e.Message
}

func errorf(r reason.Reason, format string, args ...any) *Error {
	return &Error{Kind: r.Code(), Reason: r, Message: fmt.Sprintf(format, args...)}
}

func readOnly(format string, args ...any) *Error {
	return &Error{Kind: ReadOnly, Message: fmt.Sprintf(format, args...)}
}

func compileFailed(r reason.Reason, diags []diag.Diagnostic, rep *Repair, format string, args ...any) *Error {
	e := errorf(r, format, args...)
	e.Diagnostics, e.Repair = diags, rep
	return e
}

func (e *Error) withNode(id string) *Error    { e.Node = id; return e }
func (e *Error) withProperty(p string) *Error { e.Property = p; return e }
func (e *Error) withOption(id string) *Error  { e.Option = id; return e }
func (e *Error) withPath(p string) *Error     { e.Path = p; return e }
func (e *Error) next(n Next, node string) *Error {
	e.Next, e.NextNode = n, node
	return e
}

func (e *Error) detail(k string, v any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[k] = v
	return e
}

// ErrorDiagnostics are the error diagnostics of r, at most 200.
func ErrorDiagnostics(r *check.Result) []diag.Diagnostic {
	out := []diag.Diagnostic{}
	for _, d := range r.Diagnostics {
		if d.Severity != diag.Error {
			continue
		}
		if len(out) == maxDiagnostics {
			break
		}
		out = append(out, d)
	}
	return out
}
