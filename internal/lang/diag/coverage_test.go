package diag_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/diag"
)

// TestEveryCodeIsTested fails when a registered diagnostic code appears in
// no test expectation: golden files and scripts under the repository's
// testdata folders (fuzz corpora excluded, since they assert nothing).
func TestEveryCodeIsTested(t *testing.T) {
	seen := map[string]bool{}
	code := regexp.MustCompile(`\bAC\d{3}\b`)
	err := filepath.WalkDir("../../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "fuzz" || d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.Contains(filepath.ToSlash(p), "/testdata/") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, c := range code.FindAllString(string(data), -1) {
			seen[c] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range diag.All() {
		if !seen[i.Code] {
			t.Errorf("%s (%s) is produced by no test input", i.Code, i.Title)
		}
	}
}
