package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// copyTestdata copies testdata/<name> into a fresh directory.
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// checked reports the checked state of each todo's checkbox, in order.
func checked(p *browsertest.Page) []bool {
	var out []bool
	p.Eval(`[...document.querySelectorAll("li input[type=checkbox]")].map(c => c.checked)`, &out)
	return out
}

// TestActions11InChromium drives the actions and handlers of Acore 1.1
// (testdata/actions11, served by axiom dev with its development backend):
// a handler block runs each of its statements; a mutation declared
// without its arguments takes them at each run, from the item the handler
// belongs to; an action loops over a query's list and runs a mutation for
// each item; @persist states survive a reload, and a stored value that
// does not fit the state's type gives the initial value and a console
// warning.
func TestActions11InChromium(t *testing.T) {
	dir := copyTestdata(t, "actions11")
	axiom(t, 0, "prepare", dir)
	d := startDev(t, dir)
	p := browsertest.New(t)
	p.InitScript(warnRecorder)
	p.Navigate(d.URL)
	p.WaitText("presses: 0")

	// A handler block: create, clear the field, count.
	for i, title := range []string{"milk", "bread", "eggs"} {
		p.Type("input[type=text]", title+"\r")
		waitItems(t, p, []string{"milk", "bread", "eggs"}[:i+1]...)
	}
	p.WaitText("presses: 3")
	p.WaitFor("the field to be cleared", `document.querySelector("input[type=text]").value === ""`)

	// Persisted states: what is typed and the count survive a reload.
	p.Type("input[type=text]", "half typed")
	p.Reload()
	p.WaitText("presses: 3")
	waitItems(t, p, "milk", "bread", "eggs")
	if v := p.Value("input[type=text]"); v != "half typed" {
		t.Errorf("after a reload the field holds %q, want the persisted %q", v, "half typed")
	}
	var stored string
	p.Eval(`localStorage.getItem("acore:Todos11:Home.draft") + " " + localStorage.getItem("e2e:presses")`, &stored)
	if stored != `"half typed" 3` {
		t.Errorf("localStorage holds %s, want the default key's JSON string and the given key's number", stored)
	}

	// Arguments at the run: the checkbox of bread toggles bread only,
	// and the backend keeps it.
	p.ClickText("li label", "bread")
	p.WaitFor("bread to be checked", `(() => { const c = [...document.querySelectorAll("li input[type=checkbox]")].map(c => c.checked); return c.length === 3 && !c[0] && c[1] && !c[2]; })()`)
	p.Reload()
	p.WaitFor("bread to stay checked after a reload", `(() => { const c = [...document.querySelectorAll("li input[type=checkbox]")].map(c => c.checked); return c.length === 3 && !c[0] && c[1] && !c[2]; })()`)

	// AXAG, manifest and live page: a loop over a mutation is a bulk
	// action (clear_completed deletes: high, confirmed); a handler that may
	// delete or update shows the delete; one that runs an extern action
	// and refreshes a query is the extern's write, not the query's read.
	manifest := fetchManifest(t, d.URL+"/.well-known/axag-manifest.json")
	button := func(text string) string {
		return `[...document.querySelectorAll("button")].find(b => b.textContent.trim() === ` + browsertest.JSString(text) + `)`
	}
	clear := manifest["todo.clear_completed"]
	if clear.ActionType != "delete" || clear.RiskLevel != "high" || clear.ConfirmationRequired == nil || !*clear.ConfirmationRequired {
		t.Errorf("the bulk delete todo.clear_completed is %+v, want a delete of risk high with confirmation", clear)
	}
	if m := manifest["todo.mark_all"]; m.ActionType != "write" || m.RiskLevel != "medium" {
		t.Errorf("the bulk update todo.mark_all is %+v, want a write of risk medium", m)
	}
	if x := manifest["extension.purge"]; x.ActionType != "write" {
		t.Errorf("the extern action purge is %+v, want a write", x)
	}
	checkAXAGAttributes(t, p, "the Clear completed button", button("Clear completed"), clear)
	checkAXAGAttributes(t, p, "the Mark all button", button("Mark all"), manifest["todo.mark_all"])
	checkAXAGAttributes(t, p, "the Purge button", button("Purge"), manifest["extension.purge"])
	checkAXAGAttributes(t, p, "the Save button of milk", button("Save milk"), manifest["todo.delete"])
	checkAXAGAttributes(t, p, "the Delete button of milk", button("Delete milk"), manifest["todo.delete"])
	for _, intent := range []string{"todo.create", "todo.update", "todo.delete", "todo.list", "todo.clear_completed", "todo.mark_all", "extension.purge"} {
		if _, ok := manifest[intent]; !ok {
			t.Errorf("the manifest lacks %s; it has %v", intent, manifest)
		}
	}
	p.ClickText("button", "Purge")
	p.WaitFor("the extern action to run", `window.__purged === 1`)

	// A loop in an action: mark all runs update_todo for the two open
	// ones; clear completed, confirmed first, then deletes each.
	p.ClickText("button", "Mark all")
	p.WaitFor("every todo to be checked", `(() => { const c = [...document.querySelectorAll("li input[type=checkbox]")]; return c.length === 3 && c.every(c => c.checked); })()`)
	p.ClickText("button", "Clear completed")
	waitItems(t, p, []string{}...)
	if d := p.Dialogs(); len(d) != 1 || d[0] != "confirm: Clear completed: are you sure?" {
		t.Errorf("dialogs %q, want one confirmation of the bulk delete", d)
	}

	// A block handler in an item: delete one. The field still holds the
	// persisted "half typed", which the first Enter adds.
	p.Type("input[type=text]", "\r")
	p.Type("input[type=text]", "tea\r")
	p.Type("input[type=text]", "cake\r")
	waitItems(t, p, "half typed", "tea", "cake")
	p.ClickText("button", "Delete tea")
	waitItems(t, p, "half typed", "cake")
	// The field is empty: Save deletes.
	p.ClickText("button", "Save cake")
	waitItems(t, p, "half typed")
	if c := checked(p); len(c) != 1 || c[0] {
		t.Errorf("after deleting tea and cake the checkboxes are %v, want one unchecked", c)
	}

	// A stored value that does not fit: the initial value and a warning.
	p.Eval(`localStorage.setItem("e2e:presses", JSON.stringify("three")); localStorage.setItem("acore:Todos11:Home.draft", "{not json"); true`, new(bool))
	p.Reload()
	p.WaitText("presses: 0")
	if v := p.Value("input[type=text]"); v != "" {
		t.Errorf("with an unreadable stored draft the field holds %q, want the initial empty value", v)
	}
	var warns []string
	p.Eval(`window.__warn`, &warns)
	joined := strings.Join(warns, "\n")
	for _, want := range []string{"e2e:presses does not fit its type", "acore:Todos11:Home.draft cannot be read"} {
		if !strings.Contains(joined, want) {
			t.Errorf("console warnings %q lack %q", warns, want)
		}
	}
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}
