package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// warnRecorder keeps the page's console warnings in window.__warn.
const warnRecorder = `(() => {
	const w = window.__warn = [], warn = console.warn;
	console.warn = (...a) => { w.push(a.join(" ")); warn(...a); };
})()`

// TestDataIsNoURL is issue 23's repro: tasks whose titles are a
// javascript: URL and a data:text/html URL, added through the page and
// stored by the development backend, shown through Link(task.title, to:
// task.title) and Image(task.title): their anchors carry no href and
// their images no src, with a console warning each, and a click on the
// link runs nothing. A task titled with a path of the app and a query and
// a fragment is a link that works and keeps them in the address bar.
func TestDataIsNoURL(t *testing.T) {
	dir := newTaskApp(t)
	main := filepath.Join(dir, "main.acore")
	src, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, r := range []struct{ old, new string }{
		{`app TasksApp { route "/" => Home }`, "app TasksApp {\n  route \"/\" => Home\n  route \"/about\" => About\n}"},
		{`{ task => Text(task.title) }`, `{ task => Row { Link(task.title, to: task.title) Image(task.title, alt: "cover of " + task.title) } }`},
	} {
		if !strings.Contains(s, r.old) {
			t.Fatalf("the task-app's main.acore has no %s", r.old)
		}
		s = strings.Replace(s, r.old, r.new, 1)
	}
	s += "\npage About {\n  view { Text(\"About this app\") }\n}\n"
	if err := os.WriteFile(main, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	d := startDev(t, dir)
	p := browsertest.New(t)
	p.InitScript(warnRecorder)
	p.Navigate(d.URL)
	p.WaitSelector(taskInput)

	const (
		script = `javascript:void(document.title='PWNED')`
		page   = `data:text/html,<script>document.title='PWNED'</script>`
		about  = `/about?from=list#top`
	)
	for _, title := range []string{script, page, about} {
		addTask(p, title)
	}
	waitItems(t, p, script, page, about)
	var title string
	p.Eval(`document.title`, &title)

	link := func(text string) string {
		return `[...document.querySelectorAll("a")].find(a => a.textContent === ` + browsertest.JSString(text) + `)`
	}
	for _, v := range []string{script, page} {
		var got struct {
			Href   *string `json:"href"`
			Src    *string `json:"src"`
			Warned int     `json:"warned"`
		}
		p.Eval(`(() => { const a = `+link(v)+`, img = document.querySelector(`+browsertest.JSString(`img[alt="cover of `+strings.ReplaceAll(v, `"`, `\"`)+`"]`)+`);
			return {href: a.getAttribute("href"), src: img.getAttribute("src"),
				warned: window.__warn.filter(w => w.includes(`+browsertest.JSString(v)+`)).length}; })()`, &got)
		if got.Href != nil {
			t.Errorf("the link of the task %q has href %q", v, *got.Href)
		}
		if got.Src != nil {
			t.Errorf("the image of the task %q has src %q", v, *got.Src)
		}
		if got.Warned != 2 {
			var warns []string
			p.Eval(`window.__warn`, &warns)
			t.Errorf("the task %q: %d console warnings name it, want 2 (href and src); warnings: %q", v, got.Warned, warns)
		}
	}

	// A mouse click on each refused link, then on the link to /about?…:
	// the page of /about shows, and by then the script of a javascript:
	// URL, which a click runs in a task of its own, would have run.
	p.ClickJS("the link "+script, link(script))
	p.ClickJS("the link "+page, link(page))
	p.ClickJS("the link "+about, link(about))
	p.WaitText("About this app")
	if u := p.URL(); u != d.URL+about {
		t.Errorf("the link to %s led to %s", about, u)
	}
	var after string
	if p.Eval(`document.title`, &after); after != title {
		t.Errorf("clicking the links changed document.title from %q to %q", title, after)
	}
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}
