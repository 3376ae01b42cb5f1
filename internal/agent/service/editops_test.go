package service_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/agent/edit"
	"github.com/axiomcore/acore/internal/agent/service"
	"github.com/axiomcore/acore/internal/lang/reason"
)

func sp(s string) *string { return &s }

// TestDecodeOperations: each shape of edits.json decodes to the engine's
// operation with every field it gives, values keep what decides their
// literal (2.0 is a number written 2.0), and a node id and a handle are
// told apart.
func TestDecodeOperations(t *testing.T) {
	btn := edit.NodeRef{ID: "element:Home/view/0/1"}
	handleP := "p"
	tests := []struct {
		raw  string
		want edit.Op
	}{
		{`{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":2.0,"handle":"h","expected_node_version":"v1","option":{"option_id":"o1","fingerprint":"f"}}`,
			&edit.SetProperty{Node: btn, Property: "label", OldValue: edit.Value{Kind: edit.ValueString, Text: "Add"}, NewValue: edit.Value{Kind: edit.ValueNumber, Text: "2.0"},
				Common: edit.Common{Handle: sp("h"), ExpectedNodeVersion: sp("v1"), Option: &edit.OptionRef{OptionID: "o1", Fingerprint: "f"}}}},
		{`{"kind":"set_property","node":{"handle":"x"},"property":"p","old_value":null,"new_value":{"b":[1, 2],"a":"<"}}`,
			&edit.SetProperty{Node: edit.NodeRef{Handle: "x", IsHandle: true}, Property: "p", OldValue: edit.Value{Kind: edit.ValueNull},
				NewValue: edit.Value{Kind: edit.ValueOther, Text: `{"a":"<","b":[1,2]}`}}},
		{`{"kind":"bind_property","node":"element:Home/view/0/1","property":"label","old_value":true,"target":"state:Home.draft"}`,
			&edit.BindProperty{Node: btn, Property: "label", OldValue: edit.Value{Kind: edit.ValueBool, Bool: true}, Target: edit.NodeRef{ID: "state:Home.draft"}}},
		{`{"kind":"set_reference","node":"element:Home/view/0/1","property":"on_press","old_value":"submit","target":{"handle":"c"}}`,
			&edit.SetReference{Node: btn, Property: "on_press", OldValue: "submit", Target: edit.NodeRef{Handle: "c", IsHandle: true}}},
		{`{"kind":"list_element","op":"remove","node":"element:Home/view/0/1","old_text":"Button"}`,
			&edit.ListRemove{Node: btn, OldText: "Button"}},
		{`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"B","element":"Text(\"a\")"}`,
			&edit.ListInsert{Anchor: btn, Position: "after", OldText: "B", Element: `Text("a")`}},
		{`{"kind":"declaration","op":"create","anchor":"page:Home","position":"first","old_text":"page Home {","declaration":"state n: Int = 0"}`,
			&edit.DeclCreate{Anchor: edit.NodeRef{ID: "page:Home"}, Position: "first", OldText: "page Home {", Declaration: "state n: Int = 0"}},
		{`{"kind":"declaration","op":"update","node":"state:Home.draft","old_text":"a","declaration":"b"}`,
			&edit.DeclUpdate{Node: edit.NodeRef{ID: "state:Home.draft"}, OldText: "a", Declaration: "b"}},
		{`{"kind":"declaration","op":"remove","node":"state:Home.draft","old_text":"a"}`,
			&edit.DeclRemove{Node: edit.NodeRef{ID: "state:Home.draft"}, OldText: "a"}},
		{`{"kind":"import","op":"add","path":"main.acore","import_kind":"model","symbol":"Note","from":"models"}`,
			&edit.ImportAdd{Path: "main.acore", ImportKind: "model", Symbol: "Note", From: "models"}},
		{`{"kind":"import","op":"remove","path":"main.acore","symbol":"Tile","old_text":"use component Tile from \"./row\""}`,
			&edit.ImportRemove{Path: "main.acore", Symbol: "Tile", OldText: `use component Tile from "./row"`}},
		{`{"kind":"replace_region","path":"main.acore","start_line":1,"end_line":2,"old_text":"a","new_text":"b","option":{"option_id":"r1","fingerprint":"f"}}`,
			&edit.ReplaceRegion{Path: "main.acore", StartLine: 1, EndLine: 2, OldText: "a", NewText: "b", Option: edit.OptionRef{OptionID: "r1", Fingerprint: "f"}}},
		{`{"kind":"rename","node":"prop:PageTitle.subtitle","old_name":"subtitle","new_name":"caption","handle":"p"}`,
			&edit.Rename{Node: edit.NodeRef{ID: "prop:PageTitle.subtitle"}, OldName: "subtitle", NewName: "caption", Common: edit.Common{Handle: &handleP}}},
	}
	for _, tt := range tests {
		ops, e := service.DecodeOperations([]json.RawMessage{json.RawMessage(tt.raw)})
		if e != nil {
			t.Errorf("%s: %v", tt.raw, e)
			continue
		}
		if !reflect.DeepEqual(ops[0], tt.want) {
			t.Errorf("%s:\ngot  %#v\nwant %#v", tt.raw, ops[0], tt.want)
		}
	}
}

// TestDecodeOperationsRefusals: a malformed operation is invalid_arguments
// (schema) at its index, with the message the engine gave before it took
// typed operations; the protocol's bounds on fields are the decoder's.
func TestDecodeOperationsRefusals(t *testing.T) {
	ok := `{"kind":"set_property","node":"n","property":"p","old_value":1,"new_value":2}`
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		ops  []string
		want string
	}{
		{nil, "operations: the batch is empty"},
		{[]string{`[1]`}, "operations[0]: must be an object"},
		{[]string{ok, `{"node":"n"}`}, "operations[1].kind: is required"},
		{[]string{`{"kind":"move"}`}, "operations[0].kind: must be one of set_property, bind_property, list_element, declaration, set_reference, import, replace_region, file, rename, route"},
		{[]string{`{"kind":"list_element","node":"n","old_text":"x"}`}, "operations[0].op: is required"},
		{[]string{`{"kind":"import","op":"rename"}`}, "operations[0].op: must be one of add, remove"},
		{[]string{`{"kind":"set_property","node":"n","property":"p","old_value":1}`}, "operations[0].new_value: is required"},
		{[]string{`{"kind":"set_property","node":"n","property":"p","old_value":1,"new_value":2,"force":1,"apply":1}`}, "operations[0].apply: unknown field of set_property"},
		{[]string{`{"kind":"declaration","op":"remove","node":"n","old_text":"x","target":"t"}`}, "operations[0].target: unknown field of declaration, op remove"},
		{[]string{`{"kind":"set_property","node":"` + long(1025) + `","property":"p","old_value":1,"new_value":2}`}, "operations[0].node: is longer than 1024 characters"},
		{[]string{`{"kind":"set_property","node":{"id":"n"},"property":"p","old_value":1,"new_value":2}`}, `operations[0].node: must be a node id or {"handle": "<name>"}`},
		{[]string{`{"kind":"set_property","node":"n","property":3,"old_value":1,"new_value":2}`}, "operations[0].property: must be a string, not number"},
		{[]string{`{"kind":"set_property","node":"n","property":null,"old_value":1,"new_value":2}`}, "operations[0].property: must not be null"},
		{[]string{`{"kind":"set_property","node":"n","property":"` + long(257) + `","old_value":1,"new_value":2}`}, "operations[0].property: is longer than 256 characters"},
		{[]string{`{"kind":"set_property","node":"n","property":"p","old_value":1,"new_value":"` + long(4097) + `"}`}, "operations[0].new_value: is longer than 4096 characters"},
		{[]string{`{"kind":"set_reference","node":"n","property":"p","old_value":1,"target":"t"}`}, "operations[0].old_value: must be a string"},
		{[]string{`{"kind":"set_reference","node":"n","property":"p","old_value":"` + long(257) + `","target":"t"}`}, "operations[0].old_value: is longer than 256 characters"},
		{[]string{`{"kind":"list_element","op":"insert","anchor":"n","position":"first","old_text":"x","element":"e"}`}, "operations[0].position: must be one of before, after"},
		{[]string{`{"kind":"declaration","op":"create","anchor":"n","position":"last","old_text":"x","declaration":"d"}`}, "operations[0].position: must be one of before, after, first"},
		{[]string{`{"kind":"declaration","op":"update","node":"n","old_text":"` + long(20001) + `","declaration":"d"}`}, "operations[0].old_text: is longer than 20000 characters"},
		{[]string{`{"kind":"import","op":"add","path":"main.acore","import_kind":"page","symbol":"S","from":"f"}`}, "operations[0].import_kind: must be one of component, model"},
		{[]string{`{"kind":"import","op":"add","path":"../../x.acore","import_kind":"model","symbol":"S","from":"f"}`}, "operations[0].path: "},
		{[]string{`{"kind":"replace_region","path":"main.acore","start_line":0,"end_line":1,"old_text":"a","new_text":"b","option":{"option_id":"r","fingerprint":"f"}}`}, "operations[0].start_line: must be >= 1"},
		{[]string{`{"kind":"replace_region","path":"main.acore","start_line":1.5,"end_line":1,"old_text":"a","new_text":"b","option":{"option_id":"r","fingerprint":"f"}}`}, "operations[0].start_line: must be an integer, not number 1.5"},
		{[]string{`{"kind":"replace_region","path":"main.acore","start_line":1,"end_line":1,"old_text":"a","new_text":"b"}`}, "operations[0].option: is required"},
		{[]string{`{"kind":"replace_region","path":"main.acore","start_line":1,"end_line":1,"old_text":"a","new_text":"b","option":{"option_id":"r"}}`}, "operations[0].option: fingerprint is required"},
		{[]string{`{"kind":"replace_region","path":"main.acore","start_line":1,"end_line":1,"old_text":"a","new_text":"b","option":{"option_id":"r","fingerprint":"f","x":1}}`}, `operations[0].option: must be {"option_id", "fingerprint"}: unknown field "x"`},
	}
	for _, tt := range tests {
		raws := make([]json.RawMessage, len(tt.ops))
		for i, s := range tt.ops {
			raws[i] = json.RawMessage(s)
		}
		_, e := service.DecodeOperations(raws)
		if e == nil {
			t.Errorf("%v: accepted", tt.ops)
			continue
		}
		wantIndex := len(tt.ops) - 1
		gotIndex := -1
		if e.OperationIndex != nil {
			gotIndex = *e.OperationIndex
		}
		if e.Code != reason.CodeInvalidArguments || e.Reason != reason.Schema || gotIndex != wantIndex || !strings.HasPrefix(e.Message, tt.want) ||
			!strings.HasSuffix(tt.want, ": ") && e.Message != tt.want || e.Target != nil || len(e.NextActions) != 0 || e.Retryable != "none" {
			t.Errorf("%v:\ngot  %s (%s) at %d: %q %v\nwant %q at %d", tt.ops, e.Code, e.Reason, gotIndex, e.Message, e.Target, tt.want, wantIndex)
		}
	}
}

// FuzzDecodeOperations: any batch decodes to one operation per element or
// is refused as invalid_arguments (schema) at an index of the batch, never
// a panic.
func FuzzDecodeOperations(f *testing.F) {
	for _, seed := range []string{
		`[{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"Add task"}]`,
		`[{"kind":"set_property","node":{"handle":"h"},"property":"p","old_value":[1,{"a":null}],"new_value":-1.5e3}]`,
		`[{"kind":"list_element","op":"insert","anchor":"a","position":"before","old_text":"x","element":"Text(\"hi\")","handle":"h"}]`,
		`[{"kind":"import","op":"add","path":"main.acore","import_kind":"model","symbol":"Note","from":"models"}]`,
		`[{"kind":"replace_region","path":"main.acore","start_line":1,"end_line":1,"old_text":"m","new_text":"","option":{"option_id":"r1","fingerprint":""}}]`,
		`[]`, `[{}]`, `[1]`, `[{"kind":"set_property"}]`, `[{"kind":"set_reference","node":"n","property":"p","old_value":1,"target":"t"}]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, batch string) {
		var raws []json.RawMessage
		if err := json.Unmarshal([]byte(batch), &raws); err != nil {
			return
		}
		ops, e := service.DecodeOperations(raws)
		if e != nil {
			if e.Code != reason.CodeInvalidArguments || e.Reason != reason.Schema || e.Message == "" {
				t.Fatalf("refused as %s (%s): %s", e.Code, e.Reason, e.Message)
			}
			if len(raws) > 0 && (e.OperationIndex == nil || *e.OperationIndex < 0 || *e.OperationIndex >= len(raws)) {
				t.Fatalf("refusal at index %v of %d operations", e.OperationIndex, len(raws))
			}
			return
		}
		if len(ops) != len(raws) {
			t.Fatalf("%d operations from %d", len(ops), len(raws))
		}
		for i, o := range ops {
			if o == nil {
				t.Fatalf("operation %d is nil", i)
			}
		}
	})
}
