package edit

import (
	"encoding/json"
	"testing"

	"github.com/axiomcore/acore/internal/lang/check"
	"github.com/axiomcore/acore/internal/lang/project"
	"github.com/axiomcore/acore/internal/lang/reason"
)

// FuzzApply decodes arbitrary batches as the service does and applies
// them to the task-app: neither panics, and an accepted batch's final
// state compiles without errors, is the state its files compile to, and
// maps only base ids.
func FuzzApply(f *testing.F) {
	for _, seed := range []string{
		`[{"kind":"set_property","node":"element:Home/view/0/1","property":"label","old_value":"Add","new_value":"Add task"}]`,
		`[{"kind":"set_property","node":"element:Home/view/0/2/2/0","property":"span_count","old_value":1,"new_value":3}]`,
		`[{"kind":"bind_property","node":"element:Home/view/0/0","property":"placeholder","old_value":"Add a task","target":"state:Home.draft"}]`,
		`[{"kind":"list_element","op":"remove","node":"element:Home/view/0/0","old_text":"Input(value: draft, placeholder: \"Add a task\")"}]`,
		`[{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"before","old_text":"Button(label: \"Add\", on_press: submit)","element":"Text(\"hi\")","handle":"h"},` +
			`{"kind":"set_property","node":{"handle":"h"},"property":"text","old_value":"hi","new_value":"hello"}]`,
		`[{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/2/0/0","position":"after","old_text":"Text(\"Loading...\")","element":"Row {\n  Spinner\n}"}]`,
		`[{"kind":"declaration","op":"create","anchor":"page:Home","position":"first","old_text":"page Home {","declaration":"state n: Int = 0"}]`,
		`[{"kind":"declaration","op":"create","anchor":"action:Home.submit","position":"after","old_text":"action submit() {\n    create.run()\n    draft = \"\"\n  }","declaration":"action clear() {\n  draft = \"\"\n}","handle":"c"},` +
			`{"kind":"set_reference","node":"element:Home/view/0/1","property":"on_press","old_value":"submit","target":{"handle":"c"}}]`,
		`[{"kind":"declaration","op":"update","node":"state:Home.draft","old_text":"state draft: String = \"\"","declaration":"state draft: String = \"x\""}]`,
		`[{"kind":"declaration","op":"remove","node":"state:Home.draft","old_text":"state draft: String = \"\""}]`,
		`[{"kind":"import","op":"add","path":"main.acore","import_kind":"model","symbol":"Note","from":"models"}]`,
		`[{"kind":"set_property","node":"route:/","property":"path","old_value":"/","new_value":"/home"}]`,
		`[{"kind":"replace_region","path":"main.acore","start_line":1,"end_line":1,"old_text":"module tasks.app.ui","new_text":"","option":{"option_id":"r1","fingerprint":""}}]`,
		`[]`, `{}`, `[1]`, `[{"kind":"set_property"}]`,
	} {
		f.Add(seed)
	}
	base := taskApp(f)
	f.Fuzz(func(t *testing.T, batch string) {
		var raws []json.RawMessage
		if err := json.Unmarshal([]byte(batch), &raws); err != nil {
			return
		}
		ops, e := DecodeOps(raws)
		var r *Result
		if e == nil {
			r, e = Apply(base, ops, Options{SnapshotID: testSnap})
		}
		if e != nil {
			if _, err := json.Marshal(e); err != nil {
				t.Fatal(err)
			}
			if e.Kind == 0 {
				t.Fatalf("internal error: %v", e)
			}
			return
		}
		if r.Project == nil || r.Project.Result.State != check.StateValidated || len(r.Files) == 0 || len(r.Operations) != len(raws) {
			t.Fatalf("accepted a batch whose result is not validated: %+v", r)
		}
		in := *base.Inputs
		in.Sources = append(in.Sources[:0:0], in.Sources...)
		for i := range in.Sources {
			if d, ok := r.Files[in.Sources[i].Path]; ok {
				in.Sources[i].Data = d
			}
		}
		if p := project.Compile(&in); p.Result.State != check.StateValidated {
			t.Fatalf("the written files are %s", p.Result.State)
		}
		for _, m := range r.IDMap {
			if _, ok := base.Result.Graph.Node(*m.OldID); !ok {
				t.Fatalf("id_map names %s, not a base node", *m.OldID)
			}
			if m.NewID != nil {
				if _, ok := r.Project.Result.Graph.Node(*m.NewID); !ok {
					t.Fatalf("id_map names %s, not a final node", *m.NewID)
				}
			}
		}
	})
}

// FuzzFragment inserts any text as an element and as a declaration: it is
// accepted, or refused with a specific error; a text that does not parse
// has diagnostics inside the file it would land in and a position inside
// the text.
func FuzzFragment(f *testing.F) {
	for _, seed := range []string{`Text("a")`, `Button("Oops", on_press: submit`, "Row {\n  Text(\"a\"\n}", `Text("a") }`, `) (`, "state n: Int = ", "action a() {\n  draft = \n}", "\n\n  Text(\"é\" ,"} {
		f.Add(seed)
	}
	p := taskApp(f)
	f.Fuzz(func(t *testing.T, text string) {
		js, _ := json.Marshal(text)
		for _, op := range []string{
			`{"kind":"list_element","op":"insert","anchor":"element:Home/view/0/1","position":"after","old_text":"Button(label: \"Add\", on_press: submit)","element":` + string(js) + `}`,
			`{"kind":"declaration","op":"create","anchor":"state:Home.draft","position":"after","old_text":"state draft: String = \"\"","declaration":` + string(js) + `}`,
		} {
			_, e := run(t, p, op)
			if e == nil {
				continue
			}
			if e.Message == "" {
				t.Fatalf("%q: %s without a message", text, e.Kind)
			}
			if e.Reason != reason.CandidateErrors || e.Details["source"] == nil {
				continue
			}
			if len(e.Diagnostics) == 0 {
				t.Fatalf("%q: candidate_errors without diagnostics", text)
			}
			src := e.Details["source"].(map[string]any)
			if src["line"].(int) < 1 || src["column"].(int) < 1 {
				t.Fatalf("%q: source position %v", text, src)
			}
			for _, d := range e.Diagnostics {
				if d.Path != "main.acore" || d.Line < 1 || d.Column < 1 || d.Code == "" {
					t.Fatalf("%q: diagnostic %+v", text, d)
				}
			}
		}
	})
}
