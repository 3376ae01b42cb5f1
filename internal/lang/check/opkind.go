package check

import "strings"

// OpKind is what a contract operation does to the rows of its model.
type OpKind uint8

// Operation kinds.
const (
	OpUnknown OpKind = iota
	OpRead
	OpCreate
	OpUpdate
	OpDelete
)

var opKindNames = [...]string{"unknown", "read", "create", "update", "delete"}

func (k OpKind) String() string {
	if int(k) < len(opKindNames) {
		return opKindNames[k]
	}
	return "unknown"
}

// opVerbs are the first words of operation names that say what they do.
var opVerbs = map[string]OpKind{"list": OpRead, "get": OpRead, "create": OpCreate, "update": OpUpdate, "delete": OpDelete, "remove": OpDelete}

// OperationKind says what the contract operation called name does, by the
// first word of its name followed by another: list_* and get_* read,
// create_* creates, update_* updates, delete_* and remove_* delete; any
// other name is unknown. Both the development backend (what it
// implements) and AXAG manifests (action_type delete) read this.
func OperationKind(name string) OpKind {
	verb, rest, ok := strings.Cut(name, "_")
	if !ok || rest == "" {
		return OpUnknown
	}
	return opVerbs[verb]
}

// OperationVerb is the first word of an operation name OperationKind
// reads, or "" for an unknown one.
func OperationVerb(name string) string {
	if OperationKind(name) == OpUnknown {
		return ""
	}
	verb, _, _ := strings.Cut(name, "_")
	return verb
}
