package edit

import (
	"strings"
	"testing"
)

// TestPersistProperty: a persisted state's node shows its storage key as
// the property persist; the key written in @persist("...") is offered to
// set_property and set by it, the default key is shown but not offered.
func TestPersistProperty(t *testing.T) {
	src := strings.Replace(taskMain(t), "  state draft: String = \"\"", "  @persist(\"tasks:draft\")\n  state draft: String = \"\"\n  @persist\n  state seen: Int = 0", 1)
	p := withMain(t, src)
	if p.Result.State != "validated" {
		t.Fatalf("state %s: %v", p.Result.State, p.Result.Diagnostics)
	}
	g := p.Result.Graph
	prop := func(id string) (string, bool) {
		i, ok := g.Lookup(id)
		if !ok {
			t.Fatalf("no node %s", id)
		}
		for _, pr := range g.At(i).Props {
			if pr.Name == "persist" {
				return pr.Value.(string), pr.Editable
			}
		}
		t.Fatalf("%s has no property persist", id)
		return "", false
	}
	if v, ed := prop("state:Home.draft"); v != "tasks:draft" || !ed {
		t.Errorf("state:Home.draft persist = %q, editable %v; want the written key, editable", v, ed)
	}
	if v, ed := prop("state:Home.seen"); v != "acore:TasksApp:Home.seen" || ed {
		t.Errorf("state:Home.seen persist = %q, editable %v; want the default key, not editable", v, ed)
	}
	offered := func(id string) bool {
		i, _ := g.Lookup(id)
		for _, o := range EditsOf("s", p, i, []string{"set_property"}, false, false).Options {
			if o.Property == "persist" {
				return true
			}
		}
		return false
	}
	if !offered("state:Home.draft") || offered("state:Home.seen") {
		t.Errorf("set_property on persist offered for draft %v and seen %v; want draft only", offered("state:Home.draft"), offered("state:Home.seen"))
	}
	res := mustApply(t, p, `{"kind":"set_property","node":"state:Home.draft","property":"persist","old_value":"tasks:draft","new_value":"tasks:v2:draft"}`)
	if got := string(res.Files["main.acore"]); !strings.Contains(got, `@persist("tasks:v2:draft")`) {
		t.Errorf("after set_property main.acore lacks the new key:\n%s", got)
	}
}
