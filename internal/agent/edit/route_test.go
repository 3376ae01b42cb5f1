package edit

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/reason"
)

// TestRoute adds and removes routes and holds the files and id_maps to
// goldens.
func TestRoute(t *testing.T) {
	for _, c := range []struct {
		name, example string
		edit          map[string]func(string) string
		op, created   string
	}{
		{"add after anchor", "reading-list", nil,
			`{"kind":"route","op":"add","path":"/colophon","page":"About","anchor":"route:/about","position":"after","old_text":"route \"/about\" => About"}`,
			"route:/colophon"},
		{"add before anchor", "reading-list", nil,
			`{"kind":"route","op":"add","path":"/start","page":"Home","anchor":"route:/","position":"before","old_text":"route \"/\" => Home"}`,
			"route:/start"},
		{"add last with segment", "reading-list", nil, `{"kind":"route","op":"add","path":"/book/:id","page":"BookPage"}`, "route:/book/:id"},
		{"add with args", "todomvc", nil, `{"kind":"route","op":"add","path":"/all","page":"Todos","args":{"filter":"all"}}`, "route:/all"},
		{"remove", "todomvc", withEverything,
			`{"kind":"route","op":"remove","node":"route:/everything","old_text":"route \"/everything\" => Todos(filter: \"all\")"}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := example(t, c.example, c.edit)
			r := mustApply(t, p, c.op)
			if r.Project == nil || r.Project.Result.State != "validated" {
				t.Fatalf("the project does not compile after it")
			}
			if got := r.Operations[0].Created; got != c.created {
				t.Errorf("created %q, want %q", got, c.created)
			}
			goldenFile(t, filepath.Join("testdata", "route", strings.ReplaceAll(c.name, " ", "_")+".golden"), renameGolden(r))
		})
	}
}

// withEverything gives TodoMVC a route nothing links to.
var withEverything = map[string]func(string) string{"main.acore": func(s string) string {
	return strings.Replace(s, `route "/" => Todos(filter: "all")`, `route "/" => Todos(filter: "all")
  route "/everything" => Todos(filter: "all")`, 1)
}}

// TestRouteRefused holds each refusal to its code, reason and message.
func TestRouteRefused(t *testing.T) {
	for _, c := range []struct {
		name, example, op string
		kind              Kind
		reason            reason.Reason
		msg               string
	}{
		{"unknown page", "reading-list", `{"kind":"route","op":"add","path":"/stats","page":"Stats"}`, Invalid, reason.RoutePageUnknown,
			"the project has no page Stats (its pages: Home, "},
		{"duplicate path", "reading-list", `{"kind":"route","op":"add","path":"/about","page":"Home"}`, Invalid, reason.RouteDuplicate,
			`the app already has a route "/about"`},
		{"segment not a parameter", "reading-list", `{"kind":"route","op":"add","path":"/x/:slug","page":"BookPage"}`, Invalid, reason.RouteParamsMismatch,
			"the path's segment :slug names no parameter of page BookPage (its parameters: id)"},
		{"parameter not given", "reading-list", `{"kind":"route","op":"add","path":"/book","page":"BookPage"}`, Invalid, reason.RouteParamsMismatch,
			"page BookPage's parameter id is given neither by a :id segment of the path nor by args"},
		{"arg not a parameter", "reading-list", `{"kind":"route","op":"add","path":"/home2","page":"Home","args":{"id":"1"}}`, Invalid, reason.RouteParamsMismatch,
			"args: id is not a parameter of page Home (it has no parameters)"},
		{"given twice", "reading-list", `{"kind":"route","op":"add","path":"/b/:id","page":"BookPage","args":{"id":"1"}}`, Invalid, reason.RouteParamsMismatch,
			"given by the path's :id segment and by args"},
		{"arg of the wrong type", "todomvc", `{"kind":"route","op":"add","path":"/x","page":"Todos","args":{"filter":3}}`, Invalid, reason.IncompatibleValue,
			"does not fit Todos's parameter filter of type String"},
		{"bad path", "reading-list", `{"kind":"route","op":"add","path":"stats","page":"Home"}`, Invalid, reason.Schema, "is not a route path"},
		{"stale anchor text", "reading-list",
			`{"kind":"route","op":"add","path":"/c","page":"About","anchor":"route:/about","position":"after","old_text":"route \"/about\" => Home"}`,
			Precondition, reason.OldTextMismatch, "old_text is not the current text of route:/about"},
		{"anchor not a route", "reading-list",
			`{"kind":"route","op":"add","path":"/c","page":"About","anchor":"page:About","position":"after","old_text":"x"}`,
			Unsupported, reason.EditNotOffered, "an anchor is a route"},
		{"remove stale text", "todomvc", `{"kind":"route","op":"remove","node":"route:/completed","old_text":"route \"/completed\" => Todos"}`,
			Precondition, reason.OldTextMismatch, "old_text is not the current text of route:/completed"},
		{"remove a page", "todomvc", `{"kind":"route","op":"remove","node":"page:Todos","old_text":"x"}`,
			Unsupported, reason.EditNotOffered, "this is a page"},
		{"remove a linked route", "todomvc", `{"kind":"route","op":"remove","node":"route:/completed","old_text":"route \"/completed\" => Todos(filter: \"completed\")"}`,
			Compile, reason.CandidateErrors, `no route "/completed" in app TodoMVC`},
		{"anchor without position", "reading-list", `{"kind":"route","op":"add","path":"/c","page":"About","anchor":"route:/about"}`,
			Invalid, reason.Schema, "anchor, position and old_text go together"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := example(t, c.example, nil)
			_, e := run(t, p, c.op)
			if e == nil {
				t.Fatal("accepted")
			}
			if e.Kind != c.kind || e.Reason != c.reason || !strings.Contains(e.Message, c.msg) {
				t.Errorf("got %s %v: %s\nwant %s %v containing %q", e.Kind, e.Reason, e.Message, c.kind, c.reason, c.msg)
			}
		})
	}
}
