package format

import (
	"testing"

	"github.com/axiomcore/acore/internal/lang/syntax"
)

// TestLayout pins the canonical style rule by rule.
func TestLayout(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"one-line block stays",
			"page P {\n  view {\n    if a.pending { Text(\"Loading...\") }\n  }\n}\n",
			"page P {\n  view {\n    if a.pending { Text(\"Loading...\") }\n  }\n}\n"},
		{"multi-line block stays and is re-indented",
			"page P {\nview {\nif a {\nText(\"x\")\n}\n}\n}\n",
			"page P {\n  view {\n    if a {\n      Text(\"x\")\n    }\n  }\n}\n"},
		{"else on its own line stays",
			"page P {\n  view {\n    if a { A }\n    else if b { B }\n    else { C }\n  }\n}\n",
			"page P {\n  view {\n    if a { A }\n    else if b { B }\n    else { C }\n  }\n}\n"},
		{"joined else stays joined",
			"page P {\n  action f() {\n    if a {\n      x = 1\n    }   else   {\n      x = 2\n    }\n  }\n}\n",
			"page P {\n  action f() {\n    if a {\n      x = 1\n    } else {\n      x = 2\n    }\n  }\n}\n"},
		{"blank lines collapse, none after { or before }",
			"page P {\n\n\n  state a: Int = 1\n\n\n\n  state b: Int = 2\n\n}\n",
			"page P {\n  state a: Int = 1\n\n  state b: Int = 2\n}\n"},
		{"spaces around operators, after : and ,, none inside parens",
			"page P {\n  state a:Int=( 1+2 )*3\n  query q=C.op( x:1 ,y:[ 1,2 ] )\n}\n",
			"page P {\n  state a: Int = (1 + 2) * 3\n  query q = C.op(x: 1, y: [1, 2])\n}\n"},
		{"unary and lambdas",
			"page P {\n  state a: Bool = ! b&&- c>- - 1\n  state f: Fn = | x , y |x\n  state g: Fn = ||1\n}\n",
			"page P {\n  state a: Bool = !b && -c > - -1\n  state f: Fn = |x, y| x\n  state g: Fn = || 1\n}\n"},
		{"top-level layout",
			"module a.b\nuse contract C from \"c\"\n\n\nuse model M from \"m\"\npage P {}\npage Q {} page R {}\n",
			"module a.b\n\nuse contract C from \"c\"\nuse model M from \"m\"\n\npage P {}\n\npage Q {}\n\npage R {}\n"},
		{"comments kept in place",
			"// head\nmodule m   // trailing   \npage P {   /* b */\n      // own line\n  state a: Int = 1\n      // last\n}\n",
			"// head\nmodule m // trailing\n\npage P { /* b */\n  // own line\n  state a: Int = 1\n  // last\n}\n"},
		{"comment above a declaration stays with it",
			"page P {}\n// about Q\npage Q {}\n",
			"page P {}\n\n// about Q\npage Q {}\n"},
		{"CRLF, trailing white space and final newlines",
			"page P {  \r\n  state a: Int = 1\t\r\n}\r\n\r\n\r\n",
			"page P {\n  state a: Int = 1\n}\n"},
		{"missing final newline",
			"page P {}",
			"page P {}\n"},
		{"annotations",
			"@axag( intent:\"x\" )\npage P {\n  @axag(intent: \"y\")\n    state a: Int = 1\n  view {\n    @axag(intent: \"z\")   Button(label: \"b\")\n  }\n}\n",
			"@axag(intent: \"x\")\npage P {\n  @axag(intent: \"y\")\n  state a: Int = 1\n  view {\n    @axag(intent: \"z\") Button(label: \"b\")\n  }\n}\n"},
		{"item template",
			"page P {\n  view {\n    List(items: xs){x=>Text(x)}\n    List(items: xs) { x =>\n    Text(x)\n    }\n  }\n}\n",
			"page P {\n  view {\n    List(items: xs) { x => Text(x) }\n    List(items: xs) { x =>\n      Text(x)\n    }\n  }\n}\n"},
		{"types",
			"component C(a:[ Task ] ?, b: String? = null) {}\n",
			"component C(a: [Task]?, b: String? = null) {}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := syntax.Parse("t.acore", []byte(c.in))
			got, err := Source(f)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
			if err := checkFormat(f); err != nil {
				t.Error(err)
			}
		})
	}
}
