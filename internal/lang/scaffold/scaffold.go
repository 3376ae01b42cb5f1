// Package scaffold creates new projects: the task-app of the protocol
// reference, prepared and ready to check.
package scaffold

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/axiomcore/acore/internal/lang/prepare"
	"github.com/axiomcore/acore/internal/platform/fsutil"
)

//go:embed taskapp
var taskApp embed.FS

// ErrNotEmpty is returned when the target directory has files in it.
var ErrNotEmpty = errors.New("directory is not empty")

// New writes the task-app into dir (created if missing; it must be empty)
// and prepares it. It returns the project-relative files written.
func New(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(entries) > 0 {
		return nil, fmt.Errorf("%s: %w; axiom new writes a new project into an empty or missing directory", dir, ErrNotEmpty)
	}
	var written []string
	err = fs.WalkDir(taskApp, "taskapp", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := taskApp.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, "taskapp/")
		if rel == "gitignore" {
			rel = ".gitignore" // embed skips dot files, so the template drops the dot
		}
		if err := fsutil.WriteFileAtomic(filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644); err != nil {
			return err
		}
		written = append(written, rel)
		return nil
	})
	if err != nil {
		return written, err
	}
	rep, err := prepare.Run(dir)
	if rep != nil {
		written = append(written, rep.Written...)
	}
	return written, err
}
