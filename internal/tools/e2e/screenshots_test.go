package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/axiomcore/acore/internal/tools/browsertest"
)

// ScreenshotsEnv names the variable that makes TestScreenshots rewrite
// docs/screenshots; without it the test skips, so CI never rewrites them.
const ScreenshotsEnv = "ACORE_SCREENSHOTS"

// TestScreenshots writes docs/screenshots/task-app.png and
// docs/screenshots/reading-list.png: each example in axiom dev, with a few
// items, in an 800 by 600 viewport.
func TestScreenshots(t *testing.T) {
	if os.Getenv(ScreenshotsEnv) != "1" {
		t.Skipf("%s=1 rewrites docs/screenshots", ScreenshotsEnv)
	}
	shots := filepath.Join("..", "..", "..", "docs", "screenshots")
	t.Run("task-app", func(t *testing.T) {
		d := startDev(t, newTaskApp(t))
		p := browsertest.New(t)
		p.SetViewport(800, 600)
		p.Navigate(d.URL)
		for _, title := range []string{"Buy milk", "Call the plumber", "Book the train to Lyon"} {
			addTask(p, title)
		}
		waitItems(t, p, "Buy milk", "Call the plumber", "Book the train to Lyon")
		p.Type(taskInput, "Water the plants")
		p.Screenshot(filepath.Join(shots, "task-app.png"))
	})
	t.Run("reading-list", func(t *testing.T) {
		d := startDev(t, copyExample(t, "reading-list"))
		p := browsertest.New(t)
		p.SetViewport(800, 600)
		p.Navigate(d.URL)
		p.WaitText("No books yet.")
		addBook(t, p, "Middlemarch", "George Eliot")
		addBook(t, p, "Beloved", "Toni Morrison")
		addBook(t, p, "The Left Hand of Darkness", "Ursula K. Le Guin")
		waitItems(t, p, "Beloved", "Middlemarch", "The Left Hand of Darkness")
		p.Screenshot(filepath.Join(shots, "reading-list.png"))
	})
}
