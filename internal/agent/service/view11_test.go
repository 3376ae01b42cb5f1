package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
)

// view11Source is a page of the 1.1 view: landmarks, runs, a component
// with children, class names, the new events and autofocus.
const view11Source = `module m

app A { route "/" => Home }

component Card(title: String) {
  view {
    Section(class: "card") { Heading(title, level: 2) Children }
  }
}

page Home {
  state draft: String = ""
  state tone: String = "calm"

  action save() {
    draft = ""
  }

  view {
    Input(value: draft, class: "new-todo", autofocus: true, on_cancel: save, on_blur: save)
    Card(title: "A card") { Text("inside", on_double_press: save) }
    Text(class: "todo-count") { Strong("2") Text(" items left") }
  }
}
`

// TestNodeView11: node.get shows the properties of 1.1 (class, autofocus,
// the handlers), node.edits offers set_property and bind_property on
// class and set_property on autofocus, edit.plan supports setting a
// class, and the instance's fills edge is on its node.
func TestNodeView11(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.acore"), []byte(view11Source), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	s, err := newForTest(t, Config{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Nodes []struct {
			Properties []Property `json:"properties"`
			Edges      []Edge     `json:"edges"`
		} `json:"nodes"`
	}
	r := opsDo(t, s, "node.get", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/0", "element:Home/view/1"}, "include": []string{"properties", "edges"}})
	opsOK(t, r, &got)
	if r.Snapshot.SemanticState != "validated" {
		t.Fatalf("state %s", r.Snapshot.SemanticState)
	}
	var props []string
	for _, p := range got.Nodes[0].Properties {
		props = append(props, fmt.Sprintf("%s=%v:%s:%v", p.Name, p.Value, p.Type, p.Editable))
	}
	if want := "value=draft:String:false,class=new-todo:String:true,autofocus=true:Bool:true,on_cancel=save:Action:false,on_blur=save:Action:false"; strings.Join(props, ",") != want {
		t.Errorf("Input properties:\n%s\nwant\n%s", strings.Join(props, ","), want)
	}
	var fills []string
	for _, e := range got.Nodes[1].Edges {
		if e.Kind == "fills" {
			fills = append(fills, e.Direction+" "+e.Node)
		}
	}
	if strings.Join(fills, ",") != "outgoing element:Card/view/0/1" {
		t.Errorf("the instance's fills edges: %v", fills)
	}

	var res editsResult
	opsOK(t, opsDo(t, s, "node.edits", "latest", nil, map[string]any{"nodes": []string{"element:Home/view/0"}}), &res)
	var kinds []string
	for _, o := range res.Nodes[0].Options {
		k := o.Kind + ":" + o.Property
		if o.Kind == "bind_property" {
			k += "(" + strings.Join(o.States, " ") + ")"
		}
		kinds = append(kinds, k)
	}
	if want := "set_property:class,set_property:autofocus,bind_property:value(state:Home.tone),bind_property:class(state:Home.draft state:Home.tone),list_element:," +
		"set_property:placeholder,set_property:label,set_property:input_type,set_property:max_length,set_property:disabled"; strings.Join(kinds, ",") != want {
		t.Errorf("Input options %v, want %s", kinds, want)
	}

	op := `{"kind":"set_property","node":"element:Home/view/0","property":"class","old_value":"new-todo","new_value":"new-todo wide"}`
	out := string(s.Handle(context.Background(), []byte(`{"protocol":"axiom-agent-semantic/v1","operation":"edit.plan","base_snapshot":"`+r.Snapshot.ID+`","params":{"operations":[`+op+`]}}`)))
	if !strings.Contains(out, `"outcome":"supported"`) {
		t.Errorf("edit.plan of a class:\n%s", out)
	}
}
