package axag

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode"
)

// measure runs fn and returns how long it took and how many bytes it
// allocated.
func measure(fn func()) (time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	fn()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return d, after.TotalAlloc - before.TotalAlloc
}

// nested returns n elements nested in each other, each requiring a role of
// its own (so each leaves out all its ancestors'), around one action.
func nested(n int, open func(i int) string, inner, closing string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(open(i))
	}
	b.WriteString(inner)
	for range n {
		b.WriteString(closing)
	}
	return b.String()
}

// TestWebDeepNesting: 20,000 nested elements carrying axag-required-roles
// (0.9 MB) took 26 s and 7.6 GB when every level copied its ancestors'
// roles. Nesting past MaxWebNesting is a finding, and what is scanned up
// to it costs time and memory linear in the file.
func TestWebDeepNesting(t *testing.T) {
	button := `<button axag-intent="t.a" axag-action-type="read">x</button>`
	cases := []struct {
		name, src string
		depth     int // nesting the scanner must report, 0 for none
	}{
		{"deep.html", nested(20000, func(i int) string { return fmt.Sprintf(`<div axag-required-roles='["r%d"]'>`, i) }, button, "</div>"), MaxWebNesting + 1},
		{"deep.vue", "<template>" + nested(20000, func(i int) string { return fmt.Sprintf(`<div axag-required-roles='["r%d"]'>`, i) }, button, "</div>") + "</template>", MaxWebNesting + 1},
		{"deep.jsx", "x = " + nested(20000, func(i int) string { return fmt.Sprintf(`<div axag-required-roles='["r%d"]'>`, i) }, button, "</div>") + ";", MaxWebNesting + 1},
		{"fragments.tsx", "x = " + nested(100000, func(int) string { return "<>" }, button, "</>") + ";", MaxWebNesting + 1},
		{"templates.jsx", "x = " + nested(100000, func(int) string { return "`${" }, "1", "}`") + ";", MaxWebNesting + 1},
		{"attrs.jsx", "x = " + nested(100000, func(int) string { return "<a b={" }, "1", "} />") + ";", MaxWebNesting + 1},
		{"limit.html", nested(MaxWebNesting-1, func(i int) string { return fmt.Sprintf(`<div axag-required-roles='["r%d"]'>`, i) }, button, "</div>"), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var res *WebScan
			d, bytes := measure(func() { res = ScanWebSource(c.name, []byte(c.src)) })
			t.Logf("%d bytes of source: %v, %d MB allocated", len(c.src), d, bytes>>20)
			if d > 2*time.Second || bytes > 64*uint64(len(c.src))+(64<<20) {
				t.Errorf("%v and %d MB for %d bytes of source", d, bytes>>20, len(c.src))
			}
			var nest *Finding
			for i, f := range res.Findings {
				if f.Rule == RuleUnreadable && strings.Contains(f.Message, "nested deeper than") {
					nest = &res.Findings[i]
				}
			}
			switch {
			case c.depth == 0 && nest != nil:
				t.Errorf("nesting reported: %+v", nest)
			case c.depth == 0 && len(res.Actions) != 1:
				t.Errorf("actions %+v", res.Actions)
			case c.depth == 0 && len(res.Actions[0].RequiredRoles) != MaxWebNesting-1:
				t.Errorf("%d roles", len(res.Actions[0].RequiredRoles))
			case c.depth > 0 && (nest == nil || nest.Severity != SeverityError):
				t.Errorf("no nesting finding: %d findings, %+v", len(res.Findings), res.Findings[:min(3, len(res.Findings))])
			}
		})
	}
}

// TestWebRolesLinear: within the nesting bound, every level requiring many
// roles of its own and leaving out its ancestors' costs memory linear in
// the source, and the findings name a few roles, not all of them.
func TestWebRolesLinear(t *testing.T) {
	depth := MaxWebNesting - 1
	src := nested(depth, func(i int) string {
		roles := make([]string, 200)
		for j := range roles {
			roles[j] = fmt.Sprintf(`"r%d_%d"`, i, j)
		}
		return "<div axag-required-roles='[" + strings.Join(roles, ",") + "]'>"
	}, `<b axag-intent="t.a" axag-action-type="read"></b>`, "</div>")
	var res *WebScan
	d, bytes := measure(func() { res = ScanWebSource("roles.html", []byte(src)) })
	t.Logf("%d bytes of source: %v, %d MB allocated", len(src), d, bytes>>20)
	if bytes > 64*uint64(len(src)) {
		t.Errorf("%d MB allocated for %d bytes of source", bytes>>20, len(src))
	}
	if len(res.Actions) != 1 || len(res.Actions[0].RequiredRoles) != 200*depth {
		t.Fatalf("%d actions", len(res.Actions))
	}
	if r := res.Actions[0].RequiredRoles; r[0] != fmt.Sprintf("r%d_0", depth-1) || r[200] != "r0_0" {
		t.Errorf("roles start %v, then %v", r[:2], r[200:202])
	}
	n := 0
	for _, f := range res.Findings {
		if f.Rule == RuleContextLessRestrictive {
			n++
			if len(f.Message) > 500 {
				t.Errorf("a message of %d bytes", len(f.Message))
			}
		}
	}
	if n != depth-1 {
		t.Errorf("%d AXAG102 findings", n)
	}
	_, fs := scanOne(t, "r.html", `<div axag-required-roles='["a","b"]'>`+"\n"+`<p axag-required-roles='["b","c"]'><i axag-intent="t.a" axag-action-type="read"></i></p></div>`)
	if f := findRule(fs, RuleContextLessRestrictive); f == nil || f.Message != "axag-required-roles leaves out a (required at r.html:1:1)" || f.Line != 2 {
		t.Errorf("%+v", fs)
	}
}

// TestWebUnterminated: what ends a file before its end is reported
// (AXAG109), as an unterminated tag is; what comes before it is scanned.
func TestWebUnterminated(t *testing.T) {
	before := `<b axag-intent="t.a" axag-action-type="read"></b>`
	after := `<i axag-intent="t.b" axag-action-type="read"></i>`
	jsBefore := "const a = " + before + ";\n"
	jsAfter := "\nconst b = " + after + ";\n"
	cases := []struct{ name, src, msg string }{
		{"script.html", before + "<script>var x = 1;\n" + after, "unterminated <script>"},
		{"style.html", before + "<STYLE>b{}\n" + after, "unterminated <style>"},
		{"textarea.html", before + "<textarea>\n" + after, "unterminated <textarea>"},
		{"doctype.html", before + "<!DOCTYPE html", "unterminated <!"},
		{"pi.html", before + "<?xml ", "unterminated <?"},
		{"endtag.html", before + "</div\n", "unterminated end tag </div"},
		{"comment.jsx", jsBefore + "/* open" + jsAfter, "unterminated comment /*"},
		{"tagcomment.jsx", jsBefore + "const c = <a /* open" + jsAfter, "unterminated comment /*"},
		{"childcomment.tsx", jsBefore + "const c = <a>{/* open" + jsAfter, "unterminated comment /*"},
		{"string.jsx", jsBefore + `const s = "open\`, "unterminated string \""},
		{"string2.jsx", jsBefore + `const s = 'open` + strings.ReplaceAll(jsAfter, "\n", " "), "unterminated string '"},
		{"template.jsx", jsBefore + "const s = `open" + jsAfter, "unterminated template literal"},
		{"endtag.jsx", jsBefore + "const c = <a></a", "unterminated end tag </a"},
	}
	for _, c := range cases {
		res, fs := scanOne(t, c.name, c.src)
		f := findRule(fs, RuleUnreadable)
		if f == nil || !strings.Contains(f.Message, c.msg) || f.Severity != SeverityError {
			t.Errorf("%s: %+v", c.name, fs)
			continue
		}
		if len(res.Actions) != 1 || res.Actions[0].Intent != "t.a" {
			t.Errorf("%s: actions %+v", c.name, res.Actions)
		}
	}
	// Closed, the same constructs are quiet.
	for name, src := range map[string]string{
		"script.html": before + "<script>if (a </b) x = '</SCRIPT' </script>" + after,
		"ok.jsx":      jsBefore + "/* closed */ const s = 'it''s'; // it's\nconst t = `a${`b`}c`;" + jsAfter,
		"line.jsx":    jsBefore + "const r = /'/g;" + jsAfter,
	} {
		res, fs := scanOne(t, name, src)
		if f := findRule(fs, RuleUnreadable); f != nil || len(res.Actions) != 2 {
			t.Errorf("%s: %+v %+v", name, f, res.Actions)
		}
	}
}

// TestWebMessagesArePrintable: source text in messages (intents, attribute
// names, values, file names) reaches no terminal as control characters.
func TestWebMessagesArePrintable(t *testing.T) {
	esc := "\x1b]0;owned\x07\x1b[2J\u202e\u009b31m\r\n"
	src := `<b axag-intent="t.` + esc + `" axag-action-type="read"></b>` +
		`<b axag-intent="t.a" axag-action-type="read"></b><i axag-intent="t.a" axag-action-type="read"></i>` +
		`<p axag-` + esc + `="1" axag-scope="` + esc + `"></p>` +
		`<div axag-required-roles='["` + strings.ReplaceAll(esc, "\x1b", `\u001b`) + `"]'><p axag-required-roles='[]'></p></div>`
	for _, name := range []string{"a" + esc + ".html", "a.jsx"} {
		src := src
		if strings.HasSuffix(name, ".jsx") {
			src = "x = <>" + src + `<b axag-intent={"` + strings.ReplaceAll(esc, "\x1b", `\u001b`) + `" + x} />` + "</>;"
		}
		res, fs := scanOne(t, name, src)
		if len(fs) < 4 {
			t.Fatalf("%s: %d findings", name, len(fs))
		}
		for _, f := range fs {
			for _, s := range []string{f.Message, f.Fix, Where(f.File, f.Line, f.Column)} {
				if i := strings.IndexFunc(s, func(r rune) bool { return unprintable(r) || unicode.IsControl(r) }); i >= 0 {
					t.Errorf("%s: %q", name, s)
				}
			}
		}
		for _, d := range res.Dynamic {
			if strings.ContainsFunc(d.Reason, unprintable) {
				t.Errorf("%s: dynamic %q", name, d.Reason)
			}
		}
	}
	if got := Printable("a\x1b[1mb\u202ec\xffd\té"); got != `a\x1b[1mb\u202ec\xffd\x09é` {
		t.Errorf("Printable: %s", got)
	}
}

// TestWebTemplateAndNoscript: a <template> is markup a page shows later or
// repeats, so its actions are extracted; a <noscript> is shown only to a
// browser that runs no scripts, so its actions are not, with a warning.
func TestWebTemplateAndNoscript(t *testing.T) {
	for _, name := range []string{"p.html", "p.vue", "p.jsx"} {
		src := `<div><template><b axag-intent="t.tpl" axag-action-type="read"></b></template>` +
			`<noscript><p><b axag-intent="t.nos" axag-action-type="read"></b><i axag-scope="user"></i></p></noscript></div>`
		switch name {
		case "p.vue":
			src = "<template>" + src + "</template>"
		case "p.jsx":
			src = "x = " + src + ";"
		}
		res, fs := scanOne(t, name, src)
		if len(res.Actions) != 1 || res.Actions[0].Intent != "t.tpl" {
			t.Errorf("%s: actions %+v", name, res.Actions)
		}
		if f := findRule(fs, RuleNoscript); f == nil || f.Severity != SeverityWarning || !strings.HasPrefix(f.Message, "2 annotated elements inside <noscript>") {
			t.Errorf("%s: %+v", name, fs)
		}
	}
	if _, fs := scanOne(t, "q.html", `<noscript><p>Enable JavaScript</p></noscript>`); len(fs) != 0 {
		t.Errorf("%+v", fs)
	}
}

// TestWebImpliedEndTags: list items, paragraphs, rows, cells and options
// whose end tags a page leaves out, as HTML allows, are siblings: a long
// list is not a deep one, and a paragraph's context does not reach the
// next.
func TestWebImpliedEndTags(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<ul axag-scope="tenant">`)
	for i := range 2000 {
		fmt.Fprintf(&b, `<li><b axag-intent="t.l%c%c" axag-action-type="read">x</b>`, 'a'+i/26%26, 'a'+i%26)
	}
	b.WriteString(`</ul><table><tr><td axag-scope="user">a<td><i axag-intent="t.cell" axag-action-type="read"></i>` +
		`<tr><td><i axag-intent="t.row" axag-action-type="read"></i></table>` +
		`<p axag-scope="user">a<p><i axag-intent="t.para" axag-action-type="read"></i>` +
		`<select><option axag-scope="user">a<option><i axag-intent="t.opt" axag-action-type="read"></i></select>`)
	res := ScanWebSource("list.html", []byte(b.String()))
	if f := findRule(res.Findings, RuleUnreadable); f != nil {
		t.Fatalf("%+v", f)
	}
	scopes := map[string]string{}
	for _, a := range res.Actions {
		scopes[a.Intent] = a.Scope
	}
	if len(res.Actions) != 2000+4 || scopes["t.laa"] != "tenant" || scopes["t.cell"] != "" || scopes["t.row"] != "" || scopes["t.para"] != "" || scopes["t.opt"] != "" {
		t.Errorf("%d actions, scopes %v %v %v %v %v", len(res.Actions), scopes["t.laa"], scopes["t.cell"], scopes["t.row"], scopes["t.para"], scopes["t.opt"])
	}
}
