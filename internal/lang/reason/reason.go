// Package reason is the registry of error reasons, the open refinement of
// an error code (the reference's Errors section), as internal/lang/diag is the
// registry of diagnostic codes. Every error the service answers names its
// reason with one of these constants; Reason is not a string, so no
// literal can stand in for one. The edit engine's typed errors carry them
// too, which is why they live below internal/agent/protocol.
//
// Most reasons are the reference's own; the others refine a code where the
// reference names no reason (reason is an open string that "can gain
// values"), and the test beside this file lists why each one exists.
package reason

// Reason refines an error code. The zero value, None, is no reason: the
// code alone says what happened.
type Reason uint8

// The reasons, grouped by the code they refine.
const (
	// None is no reason.
	None Reason = iota

	// stale_snapshot

	// BaseNotHead: the base snapshot is not the current one and a file
	// the edit changes differs there.
	BaseNotHead
	// OverlayMismatch: a check.run overlay replaces a file whose SHA-256
	// is not the one in the snapshot.
	OverlayMismatch

	// precondition_failed

	// OldValueMismatch: an operation's old_value is not the current value.
	OldValueMismatch
	// OldTextMismatch: an operation's old_text is not the current text.
	OldTextMismatch
	// NodeVersionMismatch: expected_node_version is not the node's version.
	NodeVersionMismatch
	// OptionStale: the option fingerprint is not the current option's.
	OptionStale
	// ExternalWrite: a file the apply writes or reads was edited, deleted
	// or renamed since the base.
	ExternalWrite
	// CandidateVersionMismatch: the candidate is not at the expected
	// version.
	CandidateVersionMismatch
	// CandidateClosed: the candidate was discarded or expired.
	CandidateClosed
	// CandidateApplied: the candidate was applied; retryable none.
	CandidateApplied
	// IncompleteGraph: the graph the precondition needs is incomplete (not
	// returned by this build).
	IncompleteGraph
	// CheckRequired: a required check has not passed on the candidate's
	// current version.
	CheckRequired

	// compile_failed

	// NotValidated: the base or the snapshot read has no node graph, or is
	// not validated.
	NotValidated
	// CandidateErrors: the edited project does not compile.
	CandidateErrors
	// RepairRegression: an edit on a broken base does not leave fewer
	// errors, or adds errors outside the declarations it changes.
	RepairRegression

	// unsupported_operation

	// ProtocolUnsupported: the request's protocol is not
	// axiom-agent-semantic/v1.
	ProtocolUnsupported
	// UnknownOperation: the operation is not an operation of the protocol.
	UnknownOperation
	// NotImplemented: a planned operation or edit kind this build does not
	// implement.
	NotImplemented
	// EditNotOffered: the edit is not offered for its node.
	EditNotOffered
	// StillReferenced: a removal whose node is still referenced.
	StillReferenced
	// GroupUnresolvable: a group of edits cannot be resolved together (not
	// returned by this build).
	GroupUnresolvable
	// UnknownCheck: a check name that is not a check of this build.
	UnknownCheck
	// PurposeUnsupported: a context.build purpose the language profile
	// has no content for (change_schema).
	PurposeUnsupported

	// invalid_arguments

	// Schema: the request does not match the published schemas, or a
	// bound on a single argument stated there.
	Schema
	// NoOp: the batch, or one operation, changes nothing.
	NoOp
	// IncompatibleTarget: an operation's target is of the wrong kind for
	// it.
	IncompatibleTarget
	// MultipleRoots: workspace.open names more than one root.
	MultipleRoots
	// RegionAlone: replace_region is not the only operation of its batch.
	RegionAlone
	// IncompatibleValue: new_value does not fit the property's type.
	IncompatibleValue
	// UnknownHandle: a handle that no earlier operation of the batch
	// created.
	UnknownHandle
	// HandleReused: a handle an earlier operation of the batch already
	// used.
	HandleReused
	// BaseLatest: base_snapshot is latest, not a snapshot id.
	BaseLatest
	// BaseMismatch: base_snapshot is not the base of the candidate
	// extended.
	BaseMismatch
	// NotAnInput: a path that is not a project input (for check.run
	// overlays and candidates).
	NotAnInput
	// DuplicatePath: check.run names one path twice.
	DuplicatePath
	// PreconditionsIncomplete: change.apply's preconditions leave out a
	// file the candidate writes.
	PreconditionsIncomplete
	// CandidateWithSnapshot: check.run names a candidate and a snapshot
	// or files.
	CandidateWithSnapshot
	// CursorInvalid: params.cursor is not a cursor of the operation.
	CursorInvalid
	// CursorMismatch: params.cursor belongs to another snapshot or
	// request shape.
	CursorMismatch
	// RefInvalid: params.expand holds something that is not an expansion
	// ref.
	RefInvalid
	// RefSnapshotMismatch: an expansion ref made on another snapshot.
	RefSnapshotMismatch
	// InvalidName: a rename's new_name is not an identifier, or is
	// reserved.
	InvalidName
	// NotRenamable: a rename names a node whose name the project's
	// sources do not wholly own.
	NotRenamable
	// NameTaken: a rename's new_name is already taken in the node's
	// scope.
	NameTaken
	// RenameBreaks: a rename would change what another reference means,
	// or break the compile.
	RenameBreaks
	// RoutePageUnknown: a route names a page the project does not have.
	RoutePageUnknown
	// RouteDuplicate: a route's path is already another route's.
	RouteDuplicate
	// RouteParamsMismatch: a route's :segments and arguments do not give
	// its page exactly its parameters.
	RouteParamsMismatch

	// ambiguous_owner

	// ShadowedName: a name with more than one declaration in scope (not
	// returned by this build).
	ShadowedName
	// DuplicateProperty: an element sets the property more than once.
	DuplicateProperty

	// conflict

	// RequestIDReused: the request_id was used for a different input.
	RequestIDReused
	// RecoveryRequired: an interrupted apply left files that match neither
	// the base nor the candidate.
	RecoveryRequired
	// ConcurrentCandidate: another candidate on the same base wrote a file
	// this apply writes.
	ConcurrentCandidate

	// snapshot_expired

	// SnapshotEvicted: a snapshot this service issued is no longer held,
	// and the files on disk no longer have its content.
	SnapshotEvicted
	// CandidateUnreadable: the candidate was stored by another compiler
	// build.
	CandidateUnreadable

	// permission_denied

	// PathEscape: a path leaves the project root.
	PathEscape
	// RootNotAllowed: workspace.open names a root this service does not
	// serve.
	RootNotAllowed
	// NotOwner: the file's permissions do not allow the write.
	NotOwner
	// Policy: the operating system refuses the write (an immutable or
	// append-only file).
	Policy

	// not_found

	// SnapshotUnknown: a snapshot id this service never issued.
	SnapshotUnknown
	// CandidateExpired: an open candidate past its expiry.
	CandidateExpired
	// CandidateUnknown: no candidate of this workspace has the id.
	CandidateUnknown
	// NodeUnknown: a node id that is not a node of the snapshot.
	NodeUnknown
	// NodeRemoved: a node an earlier operation of the batch removed.
	NodeRemoved
	// PathUnknown: a path that is not a module of the project.
	PathUnknown
	// WorkspaceUnknown: a workspace id this service does not serve.
	WorkspaceUnknown
	// ProjectUnknown: a project id that is not the workspace's project.
	ProjectUnknown
	// RootNotFound: workspace.open names a root that does not exist.
	RootNotFound

	// resource_limit: one reason per service bound.

	// RequestTooLarge: the request is over request_max_bytes.
	RequestTooLarge
	// JSONDepthLimit: the request is nested deeper than json_depth_max.
	JSONDepthLimit
	// TooManyOperations: more than operations_max operations.
	TooManyOperations
	// ContentTooLarge: check.run file contents over
	// check_content_max_bytes.
	ContentTooLarge
	// TooManyFiles: check.run names more than check_files_max files.
	TooManyFiles
	// NestingLimit: brackets nested deeper than nesting_max in a source.
	NestingLimit
	// BracketLimit: more opening brackets than brackets_max in a source.
	BracketLimit
	// BracketsTotalLimit: more bracket tokens than brackets_total_max in
	// a source.
	BracketsTotalLimit
	// FileTooLarge: a source over source_file_bytes_max.
	FileTooLarge
	// SourcesTooLarge: the sources over sources_bytes_max.
	SourcesTooLarge
	// TooManyModules: more sources than source_files_max.
	TooManyModules
	// ImportDepthLimit: imports nested deeper than import_depth_max.
	ImportDepthLimit
	// SnapshotTooLarge: captured inputs over snapshot_bytes_max.
	SnapshotTooLarge
	// SnapshotUnavailable: check.run overlays on a snapshot that could
	// not be captured within the bounds.
	SnapshotUnavailable
	// BudgetExhausted: a batch's intermediate compiles past
	// group_compile_budget_ms.
	BudgetExhausted
	// MaxBytes: the smallest answer is over the request's
	// limits.max_bytes.
	MaxBytes
	// Timeout: the request ran past timeout_ms.
	Timeout
	// QueueFull: the service is answering as many requests as it takes.
	QueueFull

	// internal

	// Panic: a handler panicked.
	Panic
	// WriteFailed: writing an apply's files failed and was rolled back.
	WriteFailed
	// ApplyInterrupted: an apply's writing failed and could not be rolled
	// back, or its journal could not be settled.
	ApplyInterrupted
	// StateIO: reading, writing or decoding the service's state under
	// .axiom/state failed.
	StateIO
	// FileIO: reading or writing a project file failed other than by a
	// bound or a permission.
	FileIO
	// Invariant: the service broke one of its own rules; report it.
	Invariant

	count
)

var names = [count]string{
	BaseNotHead: "base_not_head", OverlayMismatch: "overlay_mismatch",

	OldValueMismatch: "old_value_mismatch", OldTextMismatch: "old_text_mismatch", NodeVersionMismatch: "node_version_mismatch",
	OptionStale: "option_stale", ExternalWrite: "external_write", CandidateVersionMismatch: "candidate_version_mismatch",
	CandidateClosed: "candidate_closed", CandidateApplied: "candidate_applied", IncompleteGraph: "incomplete_graph",
	CheckRequired: "check_required",

	NotValidated: "not_validated", CandidateErrors: "candidate_errors", RepairRegression: "repair_regression",

	ProtocolUnsupported: "protocol_unsupported", UnknownOperation: "unknown_operation", NotImplemented: "not_implemented",
	EditNotOffered: "edit_not_offered", StillReferenced: "still_referenced", GroupUnresolvable: "group_unresolvable",
	UnknownCheck: "unknown_check", PurposeUnsupported: "purpose_unsupported",

	Schema: "schema", NoOp: "no_op", IncompatibleTarget: "incompatible_target", MultipleRoots: "multiple_roots",
	RegionAlone: "region_alone", IncompatibleValue: "incompatible_value", UnknownHandle: "unknown_handle",
	HandleReused: "handle_reused", BaseLatest: "base_latest", BaseMismatch: "base_mismatch", NotAnInput: "not_an_input",
	DuplicatePath: "duplicate_path", PreconditionsIncomplete: "preconditions_incomplete",
	CandidateWithSnapshot: "candidate_with_snapshot", CursorInvalid: "cursor_invalid", CursorMismatch: "cursor_mismatch",
	RefInvalid: "ref_invalid", RefSnapshotMismatch: "ref_snapshot_mismatch",
	InvalidName: "invalid_name", NotRenamable: "not_renamable", NameTaken: "name_taken", RenameBreaks: "rename_breaks",
	RoutePageUnknown: "route_page_unknown", RouteDuplicate: "route_duplicate", RouteParamsMismatch: "route_params_mismatch",

	ShadowedName: "shadowed_name", DuplicateProperty: "duplicate_property",

	RequestIDReused: "request_id_reused", RecoveryRequired: "recovery_required", ConcurrentCandidate: "concurrent_candidate",

	SnapshotEvicted: "snapshot_evicted", CandidateUnreadable: "candidate_unreadable",

	PathEscape: "path_escape", RootNotAllowed: "root_not_allowed", NotOwner: "not_owner", Policy: "policy",

	SnapshotUnknown: "snapshot_unknown", CandidateExpired: "candidate_expired", CandidateUnknown: "candidate_unknown",
	NodeUnknown: "node_unknown", NodeRemoved: "node_removed", PathUnknown: "path_unknown",
	WorkspaceUnknown: "workspace_unknown", ProjectUnknown: "project_unknown", RootNotFound: "root_not_found",

	RequestTooLarge: "request_too_large", JSONDepthLimit: "json_depth_limit", TooManyOperations: "too_many_operations",
	ContentTooLarge: "content_too_large", TooManyFiles: "too_many_files", NestingLimit: "nesting_limit",
	BracketLimit: "bracket_limit", BracketsTotalLimit: "brackets_total_limit", FileTooLarge: "file_too_large",
	SourcesTooLarge: "sources_too_large", TooManyModules: "too_many_modules", ImportDepthLimit: "import_depth_limit",
	SnapshotTooLarge: "snapshot_too_large", SnapshotUnavailable: "snapshot_unavailable",
	BudgetExhausted: "budget_exhausted", MaxBytes: "max_bytes", Timeout: "timeout", QueueFull: "queue_full",

	Panic: "panic", WriteFailed: "write_failed", ApplyInterrupted: "apply_interrupted", StateIO: "state_io",
	FileIO: "file_io", Invariant: "invariant",
}

// codes are the code each reason refines, by the groups above.
var codes = [count]Code{
	BaseNotHead: CodeStaleSnapshot, OverlayMismatch: CodeStaleSnapshot,

	OldValueMismatch: CodePreconditionFailed, OldTextMismatch: CodePreconditionFailed,
	NodeVersionMismatch: CodePreconditionFailed, OptionStale: CodePreconditionFailed,
	ExternalWrite: CodePreconditionFailed, CandidateVersionMismatch: CodePreconditionFailed,
	CandidateClosed: CodePreconditionFailed, CandidateApplied: CodePreconditionFailed,
	IncompleteGraph: CodePreconditionFailed, CheckRequired: CodePreconditionFailed,

	NotValidated: CodeCompileFailed, CandidateErrors: CodeCompileFailed, RepairRegression: CodeCompileFailed,

	ProtocolUnsupported: CodeUnsupportedOperation, UnknownOperation: CodeUnsupportedOperation,
	NotImplemented: CodeUnsupportedOperation, EditNotOffered: CodeUnsupportedOperation,
	StillReferenced: CodeUnsupportedOperation, GroupUnresolvable: CodeUnsupportedOperation,
	UnknownCheck: CodeUnsupportedOperation, PurposeUnsupported: CodeUnsupportedOperation,

	Schema: CodeInvalidArguments, NoOp: CodeInvalidArguments, IncompatibleTarget: CodeInvalidArguments,
	MultipleRoots: CodeInvalidArguments, RegionAlone: CodeInvalidArguments, IncompatibleValue: CodeInvalidArguments,
	UnknownHandle: CodeInvalidArguments, HandleReused: CodeInvalidArguments, BaseLatest: CodeInvalidArguments,
	BaseMismatch: CodeInvalidArguments, NotAnInput: CodeInvalidArguments, DuplicatePath: CodeInvalidArguments,
	PreconditionsIncomplete: CodeInvalidArguments, CandidateWithSnapshot: CodeInvalidArguments,
	CursorInvalid: CodeInvalidArguments, CursorMismatch: CodeInvalidArguments, RefInvalid: CodeInvalidArguments,
	RefSnapshotMismatch: CodeInvalidArguments,
	InvalidName:         CodeInvalidArguments, NotRenamable: CodeInvalidArguments, NameTaken: CodeInvalidArguments,
	RenameBreaks: CodeInvalidArguments, RoutePageUnknown: CodeInvalidArguments, RouteDuplicate: CodeInvalidArguments,
	RouteParamsMismatch: CodeInvalidArguments,

	ShadowedName: CodeAmbiguousOwner, DuplicateProperty: CodeAmbiguousOwner,

	RequestIDReused: CodeConflict, RecoveryRequired: CodeConflict, ConcurrentCandidate: CodeConflict,

	SnapshotEvicted: CodeSnapshotExpired, CandidateUnreadable: CodeSnapshotExpired,

	PathEscape: CodePermissionDenied, RootNotAllowed: CodePermissionDenied, NotOwner: CodePermissionDenied,
	Policy: CodePermissionDenied,

	SnapshotUnknown: CodeNotFound, CandidateExpired: CodeNotFound, CandidateUnknown: CodeNotFound,
	NodeUnknown: CodeNotFound, NodeRemoved: CodeNotFound, PathUnknown: CodeNotFound, WorkspaceUnknown: CodeNotFound,
	ProjectUnknown: CodeNotFound, RootNotFound: CodeNotFound,

	RequestTooLarge: CodeResourceLimit, JSONDepthLimit: CodeResourceLimit, TooManyOperations: CodeResourceLimit,
	ContentTooLarge: CodeResourceLimit, TooManyFiles: CodeResourceLimit, NestingLimit: CodeResourceLimit,
	BracketLimit: CodeResourceLimit, BracketsTotalLimit: CodeResourceLimit, FileTooLarge: CodeResourceLimit,
	SourcesTooLarge: CodeResourceLimit, TooManyModules: CodeResourceLimit, ImportDepthLimit: CodeResourceLimit,
	SnapshotTooLarge: CodeResourceLimit, SnapshotUnavailable: CodeResourceLimit, BudgetExhausted: CodeResourceLimit,
	MaxBytes: CodeResourceLimit, Timeout: CodeResourceLimit, QueueFull: CodeResourceLimit,

	Panic: CodeInternal, WriteFailed: CodeInternal, ApplyInterrupted: CodeInternal, StateIO: CodeInternal,
	FileIO: CodeInternal, Invariant: CodeInternal,
}

// String is the reason as the wire spells it; "" for None.
func (r Reason) String() string {
	if r < count {
		return names[r]
	}
	return ""
}

// MarshalText writes the reason as the wire spells it.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// All returns every reason but None, in registry order.
func All() []Reason {
	out := make([]Reason, 0, count-1)
	for r := None + 1; r < count; r++ {
		out = append(out, r)
	}
	return out
}

// Code is the code r refines; NoCode for None.
func (r Reason) Code() Code {
	if r < count {
		return codes[r]
	}
	return NoCode
}
