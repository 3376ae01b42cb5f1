package check_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// describeContract writes a checked contract's models and operations, the
// facts a consumer of Info.Contracts reads.
func describeContract(k *check.Contract) string {
	var b strings.Builder
	fmt.Fprintf(&b, "contract %s (%s, %s)\n", k.Name, k.ID, k.Path)
	for _, m := range k.Models {
		fmt.Fprintf(&b, "model %s %s:", m.Name, m.NodeID)
		for _, f := range m.Fields {
			fmt.Fprintf(&b, " %s %s", f.Name, f.Type)
		}
		b.WriteString("\n")
	}
	for _, op := range k.Ops {
		fmt.Fprintf(&b, "%s %s %s:", op.Kind, op.Name, op.Does())
		for _, p := range op.Params {
			fmt.Fprintf(&b, " %s %s required=%v", p.Name, p.Type, p.Required)
			if p.Default != nil {
				v, _ := check.Constant(p.Default)
				fmt.Fprintf(&b, " = %v", v)
			}
		}
		fmt.Fprintf(&b, " -> %s\n", op.Result)
	}
	return b.String()
}

// TestCheckContractsAsCompile: the contract-only check gives the contracts
// that a whole compile records, without the sources, the lock or a graph.
func TestCheckContractsAsCompile(t *testing.T) {
	_, info, _ := compileInfo(t)
	in, _ := infoInput(nil)
	got, ds := check.CheckContracts(in.Contracts)
	if len(ds) != 0 {
		t.Fatalf("diagnostics %v", ds)
	}
	if !reflect.DeepEqual(keys(got), keys(info.Contracts)) {
		t.Fatalf("contracts %v, want %v", keys(got), keys(info.Contracts))
	}
	for id, k := range info.Contracts {
		if a, b := describeContract(got[id]), describeContract(k); a != b {
			t.Errorf("contract %s:\n%s\nwant (the compile's):\n%s", id, a, b)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestCheckContractsDiagnostics: what the contract-only check reports, by
// file and sorted, syntax errors included; a good artifact beside broken
// ones is still checked whole.
func TestCheckContractsDiagnostics(t *testing.T) {
	files := []*syntax.File{
		syntax.Parse(".axiom/dev/contracts/b.axiom", []byte("contract B {\n  query q(a: Int = \"x\"): Nope\n}\n")),
		syntax.Parse(".axiom/dev/contracts/a.axiom", []byte("contract A {\n  model M { x: }\n}\n")),
		syntax.Parse(".axiom/dev/contracts/ok.axiom", []byte("contract Ok {\n  model T { id: Int }\n  mutation remove_t(id: Int): Bool\n}\n")),
		syntax.Parse(".axiom/dev/contracts/none.axiom", []byte("// nothing\n")),
	}
	got, ds := check.CheckContracts(files)
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", d.Path, d.Line, d.Column, d.Severity, d.Message, d.Code)
	}
	want := ".axiom/dev/contracts/a.axiom:2:16: error: expected a type, found `}` [AC101]\n" +
		".axiom/dev/contracts/b.axiom:2:20: error: the default of parameter a of q must be Int, got a string [AC301]\n" +
		".axiom/dev/contracts/b.axiom:2:26: error: unknown type Nope in contract B; use String, Int, Float, Bool, a model of the contract or a list [T] [AC208]\n" +
		".axiom/dev/contracts/none.axiom:1:1: error: the artifact declares no contract; a contract artifact holds one contract declaration [AC505]\n"
	if b.String() != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", b.String(), want)
	}
	ok := got["ok"]
	if ok == nil || describeContract(ok) != "contract Ok (ok, .axiom/dev/contracts/ok.axiom)\nmodel T model:Ok.T: id Int\nmutation remove_t delete: id Int required=true -> Bool\n" {
		t.Errorf("contract ok: %+v", ok)
	}
	if got["none"] != nil {
		t.Errorf("an artifact without a contract gave %+v", got["none"])
	}
}
