package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// overlay is a JavaScript expression for the text of axiom dev's error
// overlay (in its shadow root), or null when there is none.
const overlay = `(() => { const o = document.querySelector("axiom-dev-overlay");
	return o && o.shadowRoot ? o.shadowRoot.textContent : null; })()`

// TestDevLiveReload: an edit to a source of a running axiom dev reloads the
// open page into the new build; a compile error shows the overlay with the
// diagnostic while the last good build keeps working; the fix reloads the
// page into the fixed app.
func TestDevLiveReload(t *testing.T) {
	dir, _, p := openTaskApp(t)
	addTask(p, "Buy milk")
	waitItems(t, p, "Buy milk")
	mainPath := filepath.Join(dir, "main.acore")
	src, err := os.ReadFile(mainPath)
	if err != nil {
		t.Fatal(err)
	}
	const button = `Button(label: "Add", on_press: submit)`
	if !strings.Contains(string(src), button) {
		t.Fatalf("main.acore has no %s", button)
	}
	edit := func(replacement string) {
		t.Helper()
		p.Eval(`window.__beforeEdit = true`, nil)
		if err := os.WriteFile(mainPath, []byte(strings.Replace(string(src), button, replacement, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const reloaded = `window.__beforeEdit === undefined && [...document.querySelectorAll("button")].some(b => b.textContent.trim() === "Add task")`

	edit(`Button(label: "Add task", on_press: submit)`)
	p.WaitFor("the page to reload with the new label", reloaded)
	waitItems(t, p, "Buy milk")

	edit(`Button(label: "Add task", on_press: submitt)`)
	p.WaitFor("the overlay with the unknown name's diagnostic", `(`+overlay+` || "").includes("[AC201]")`)
	var text string
	if p.Eval(overlay, &text); !strings.Contains(text, "Build failed") || !strings.Contains(text, "main.acore:") {
		t.Errorf("the overlay says %q", text)
	}
	// The last good build still runs under the overlay: hide the overlay
	// with its close button and add a task.
	p.ClickJS("the overlay's close button", `document.querySelector("axiom-dev-overlay").shadowRoot.querySelector("button")`)
	p.Type(taskInput, "Walk the dog")
	p.ClickText("button", "Add task")
	waitItems(t, p, "Buy milk", "Walk the dog")

	edit(`Button(label: "Add task", on_press: submit)`)
	p.WaitFor("the page to reload into the fixed app", reloaded+` && `+overlay+` === null`)
	waitItems(t, p, "Buy milk", "Walk the dog")
	if e := p.Exceptions(); len(e) > 0 {
		t.Errorf("uncaught exceptions: %q", e)
	}
}
