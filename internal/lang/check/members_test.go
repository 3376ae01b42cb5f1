package check_test

import (
	"testing"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// Members, which editors offer after a dot, lists every member the checker
// typed in a project that reads members of each kind of value, with the
// type the checker gave it.
func TestMembersAgreeWithTheChecker(t *testing.T) {
	_, info, _ := compileInfo(t)
	seen := 0
	for e, typ := range info.Types {
		m, ok := e.(*syntax.MemberExpr)
		if !ok || typ.Kind == check.Invalid {
			continue
		}
		recv := info.Types[m.X]
		if recv == nil || recv.Kind == check.TLambda {
			continue
		}
		var found *check.Member
		for _, mem := range check.Members(recv) {
			if mem.Name == m.Sel.Name {
				found = &mem
			}
		}
		if found == nil {
			t.Errorf("%s.%s is typed %s, and Members(%s) has no %s", recv, m.Sel.Name, typ, recv, m.Sel.Name)
			continue
		}
		seen++
		if found.Type == nil {
			// map: its result is its lambda's.
			continue
		}
		// A member read through an optional value is optional itself.
		want := found.Type.String()
		if got := typ.String(); got != want && got != want+"?" {
			t.Errorf("%s.%s is typed %s, Members says %s", recv, m.Sel.Name, got, want)
		}
	}
	if seen < 5 {
		t.Errorf("only %d member expressions checked", seen)
	}
}
