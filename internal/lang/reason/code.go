package reason

// Code is an error code: the closed list of v1. Every reason refines one
// (Reason.Code); an error without a reason names its code alone.
type Code uint8

// The codes, in the reference's order.
const (
	// NoCode is the code of None: no error is answered with it.
	NoCode Code = iota
	CodeUnsupportedOperation
	CodeInvalidArguments
	CodeAmbiguousOwner
	CodeReadOnlyOrigin
	CodeStaleSnapshot
	CodePreconditionFailed
	CodeCompileFailed
	CodeConflict
	CodeInsufficientContext
	CodeSnapshotExpired
	CodePermissionDenied
	CodeResourceLimit
	CodeNotFound
	CodeInternal

	codeCount
)

var codeNames = [codeCount]string{
	CodeUnsupportedOperation: "unsupported_operation", CodeInvalidArguments: "invalid_arguments",
	CodeAmbiguousOwner: "ambiguous_owner", CodeReadOnlyOrigin: "read_only_origin", CodeStaleSnapshot: "stale_snapshot",
	CodePreconditionFailed: "precondition_failed", CodeCompileFailed: "compile_failed", CodeConflict: "conflict",
	CodeInsufficientContext: "insufficient_context", CodeSnapshotExpired: "snapshot_expired",
	CodePermissionDenied: "permission_denied", CodeResourceLimit: "resource_limit", CodeNotFound: "not_found",
	CodeInternal: "internal",
}

// String is the code as the wire spells it; "" for NoCode.
func (c Code) String() string {
	if c < codeCount {
		return codeNames[c]
	}
	return ""
}

// MarshalText writes the code as the wire spells it.
func (c Code) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Codes returns every code but NoCode, in the reference's order.
func Codes() []Code {
	out := make([]Code, 0, codeCount-1)
	for c := NoCode + 1; c < codeCount; c++ {
		out = append(out, c)
	}
	return out
}
