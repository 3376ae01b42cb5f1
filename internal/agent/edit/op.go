package edit

// Op is one edit operation: a *SetProperty, *BindProperty, *SetReference,
// *ListRemove, *ListInsert, *DeclCreate, *DeclUpdate, *DeclRemove,
// *ImportAdd, *ImportRemove, *ReplaceRegion, *Rename (rename.go), *RouteAdd,
// *RouteRemove (route.go), *FileCreate, *FileRemove or *FileWrite
// (file.go). The service decodes them
// from the protocol and applies its bounds; the engine takes them as they
// are.
type Op interface {
	// name is the operation's family and, for the families with more
	// than one op, its op, as outcomes report them.
	name() (kind, op string)
	// common is the operation's optional fields; nil for replace_region
	// and the file family, which have none.
	common() *Common
}

// NodeRef is a node id of the base snapshot, or a handle an earlier
// operation of the batch named.
type NodeRef struct {
	ID       string
	Handle   string
	IsHandle bool
}

// OptionRef cites a node.edits option.
type OptionRef struct {
	OptionID    string
	Fingerprint string
}

// Common are the optional fields of every operation but replace_region:
// the handle naming the node it creates, and its preconditions.
type Common struct {
	Handle              *string
	ExpectedNodeVersion *string
	Option              *OptionRef
}

func (c *Common) common() *Common { return c }

// ValueKind is what a Value holds.
type ValueKind uint8

// The kinds of values. ValueOther is a list or an object, which no
// property holds.
const (
	ValueNull ValueKind = iota
	ValueBool
	ValueNumber
	ValueString
	ValueOther
)

// Value is an old_value or a new_value.
type Value struct {
	Kind ValueKind
	Bool bool
	// Text is a string's text, a number's decimal digits as the request
	// wrote them (they decide between an Int and a Float literal), or a
	// list's or an object's compact text, which messages show.
	Text string
}

// SetProperty sets one authored literal scalar, or adds a literal
// property the element accepts and does not write yet.
type SetProperty struct {
	Node     NodeRef
	Property string
	OldValue Value
	// OldAbsent: the request left old_value out, which only a property
	// not written yet matches.
	OldAbsent bool
	NewValue  Value
	Common
}

// BindProperty binds one authored property to a state of the same owner.
type BindProperty struct {
	Node     NodeRef
	Property string
	OldValue Value
	Target   NodeRef
	Common
}

// SetReference points an action property at another action of the owner.
type SetReference struct {
	Node     NodeRef
	Property string
	OldValue string
	Target   NodeRef
	Common
}

// ListRemove removes one element or conditional from a view list.
type ListRemove struct {
	Node    NodeRef
	OldText string
	Common
}

// ListInsert inserts one view element before or after an anchor.
type ListInsert struct {
	Anchor   NodeRef
	Position string // before or after
	OldText  string
	Element  string
	Common
}

// DeclCreate creates a state or an action before or after an anchor
// member, or first in the anchor owner.
type DeclCreate struct {
	Anchor      NodeRef
	Position    string // before, after or first
	OldText     string
	Declaration string
	Common
}

// DeclUpdate replaces a state or an action, keeping its kind and name.
type DeclUpdate struct {
	Node        NodeRef
	OldText     string
	Declaration string
	Common
}

// DeclRemove removes a state or an action.
type DeclRemove struct {
	Node    NodeRef
	OldText string
	Common
}

// ImportAdd adds a use line to a module.
type ImportAdd struct {
	Path       string
	ImportKind string // component or model
	Symbol     string
	From       string
	Common
}

// ImportRemove removes a module's use line of a symbol.
type ImportRemove struct {
	Path    string
	Symbol  string
	OldText string
	Common
}

// ReplaceRegion replaces an offered region of lines of a module with a
// syntax error in it.
type ReplaceRegion struct {
	Path      string
	StartLine int
	EndLine   int
	OldText   string
	NewText   string
	Option    OptionRef
}

func (*SetProperty) name() (string, string)   { return "set_property", "" }
func (*BindProperty) name() (string, string)  { return "bind_property", "" }
func (*SetReference) name() (string, string)  { return "set_reference", "" }
func (*ListRemove) name() (string, string)    { return "list_element", "remove" }
func (*ListInsert) name() (string, string)    { return "list_element", "insert" }
func (*DeclCreate) name() (string, string)    { return "declaration", "create" }
func (*DeclUpdate) name() (string, string)    { return "declaration", "update" }
func (*DeclRemove) name() (string, string)    { return "declaration", "remove" }
func (*ImportAdd) name() (string, string)     { return "import", "add" }
func (*ImportRemove) name() (string, string)  { return "import", "remove" }
func (*ReplaceRegion) name() (string, string) { return "replace_region", "" }
func (*ReplaceRegion) common() *Common        { return nil }
