package service

import (
	"strconv"
	"strings"

	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/protocol"
	"github.com/axiomcore/acore/internal/agent/snapshot"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// node.edits lists, per node, the edits it accepts now. The rules are
// implemented by internal/agent/edit (EditsOf), which applies edits and refuses
// what they do not offer. The rules, family by family (edit rules
// acore-edit-rules/1):
//
//   - set_property: one option per authored literal scalar property the
//     checker marks editable (element properties, a state's initial value,
//     a prop's default, a route's path, literal contract arguments).
//     accepts is the property's type.
//   - bind_property: elements only; one option per authored property of
//     type String, Int, Float or Bool for which the owner (page or
//     component) has at least one state of a fitting type (the same type,
//     not optional; a Float property also takes an Int state). states lists
//     them in document order, without the state the property already names.
//   - list_element: elements and conditionals, which are items of a view
//     children list; ops remove and insert; text is the node's exact
//     tight-span source, the old_text of both ops.
//   - declaration: states and actions get create (positions before and
//     after, anchored on them), update, and remove when nothing references
//     them (no reads, writes, triggers, calls, invokes or navigates_to
//     edge ends at them); text is the declaration's exact text. Pages and
//     components get create with position first; text is the owner's
//     header, its source from the keyword to the opening brace.
//   - set_reference: elements with an on_* handler property whose value is
//     an action name, when the owner has another zero-parameter action;
//     targets lists those actions.
//   - import: module nodes get add, and remove when the file has a use line
//     nothing refers to (symbols lists them); an unused use line's import
//     node gets remove with its text.
//   - replace_region: only on a syntax snapshot: one option per error of
//     code below AC300 (syntax and name errors) inside the node's span
//     (a module's span is its whole file), region = the smallest whole-line
//     region around the error: from the line of the last text before it
//     (a parser reports a missing `)` at the token after the gap) to the
//     line of its end, capped at 200 lines. Their option ids are
//     r1, r2, … per response; the other options are o1, o2, … per response,
//     in order.
//
// With include_unavailable, each family not offered is listed with code
// unsupported_operation and a reason saying why. replace_region is listed
// only on a syntax snapshot or when params.kinds names it, since it is a
// repair fallback rather than an edit of the node.
//
// Each option's fingerprint is the lowercase hex SHA-256 of its canonical
// input, OptionFingerprintInput: the fields below, each followed by one
// NUL byte, in this order: "acore-edit-option/v1", the snapshot id, the
// node id, the node version, EditRules, kind, property, accepts, states
// joined by ",", targets joined by ",", ops joined by ",", positions
// joined by ",", symbols joined by ",", text, region path, region
// start_line, region end_line (decimal, empty without a region) and
// region old_text. A replace_region option belongs to its file, not to a
// node: its node id and node version are empty. option_id is not part of
// the fingerprint, so the same option has the same fingerprint whatever
// the request that listed it.

type editsParams struct {
	Nodes              []string `json:"nodes"`
	Kinds              []string `json:"kinds,omitempty"`
	IncludeUnavailable bool     `json:"include_unavailable,omitempty"`
}

// The option types and rules live in internal/agent/edit, which applies edits
// and must refuse exactly what node.edits does not offer.
type (
	// EditOption is one option of node.edits.
	EditOption = edit.EditOption
	// Region is the whole-line region of a replace_region option.
	Region = edit.Region
	// UnavailableEdit is an edit family not offered for a node, and why.
	UnavailableEdit = edit.UnavailableEdit
	// NodeEdits is the node.edits entry of one node.
	NodeEdits = edit.NodeEdits
)

// OptionFingerprintInput is the canonical input of an option's
// fingerprint (see the package comment of node.edits above).
func OptionFingerprintInput(snapID, nodeID, nodeVersion string, o *EditOption) []byte {
	return edit.OptionFingerprintInput(snapID, nodeID, nodeVersion, o)
}

// OptionFingerprint is the lowercase hex SHA-256 of OptionFingerprintInput.
func OptionFingerprint(snapID, nodeID, nodeVersion string, o *EditOption) string {
	return edit.OptionFingerprint(snapID, nodeID, nodeVersion, o)
}

func opNodeEdits(c *call) (any, *protocol.Error) {
	var p editsParams
	if e := c.params(&p); e != nil {
		return nil, e
	}
	if len(p.Nodes) < 1 || len(p.Nodes) > 20 {
		return nil, protocol.Errorf(reason.Schema, "params.nodes: must have 1 to 20 node ids, not %d", len(p.Nodes))
	}
	families := EditKinds
	explicit := map[string]bool{}
	if p.Kinds != nil {
		known := stringSet(EditKinds)
		for _, k := range p.Kinds {
			if !known[k] {
				return nil, protocol.Errorf(reason.Schema, "params.kinds: %q is not an edit family; families: %s", k, strings.Join(EditKinds, ", "))
			}
			explicit[k] = true
		}
		families = nil
		for _, k := range EditKinds {
			if explicit[k] {
				families = append(families, k)
			}
		}
	}
	if e := c.readSnapshot(true); e != nil {
		return nil, e
	}
	idx, e := c.lookup(p.Nodes)
	if e != nil {
		return nil, e
	}
	out := make([]NodeEdits, 0, len(idx))
	nextO, nextR := 1, 1
	for _, i := range idx {
		ne := EditsOf(c.snap, i, families, explicit["replace_region"], p.IncludeUnavailable)
		for k := range ne.Options {
			if ne.Options[k].Kind == "replace_region" {
				ne.Options[k].OptionID = "r" + strconv.Itoa(nextR)
				nextR++
			} else {
				ne.Options[k].OptionID = "o" + strconv.Itoa(nextO)
				nextO++
			}
		}
		out = append(out, ne)
	}
	return c.fit(map[string]any{"nodes": out})
}

// EditsOf computes the options of node i of snap in the given families,
// with fingerprints and without option ids. listRegion lists
// replace_region as unavailable even on a snapshot that is not syntax.
func EditsOf(snap *snapshot.Snapshot, i int32, families []string, listRegion, unavailable bool) NodeEdits {
	return edit.EditsOf(snap.ID, snap.Project, i, families, listRegion, unavailable)
}
