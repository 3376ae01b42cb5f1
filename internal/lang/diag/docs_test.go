package diag_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/axiomcore/acore/internal/lang/catalog"
	"github.com/axiomcore/acore/internal/lang/diag"
	"github.com/axiomcore/acore/internal/lang/syntax"
)

// languageDoc is the language reference, relative to this package.
const languageDoc = "../../../docs/language.md"

func readLanguageDoc(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(languageDoc)
	if err != nil {
		t.Fatalf("the language reference must exist: %v", err)
	}
	return strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
}

// TestDocsListEveryCode fails when a registered diagnostic code has no row
// in the diagnostics table of docs/language.md, or when its row does not
// give the code's severity and title.
func TestDocsListEveryCode(t *testing.T) {
	lines := readLanguageDoc(t)
	for _, info := range diag.All() {
		row := ""
		for _, l := range lines {
			if strings.HasPrefix(l, "| "+info.Code+" |") {
				row = l
				break
			}
		}
		if row == "" {
			t.Errorf("%s (%s) has no row `| %s | ...` in %s", info.Code, info.Title, info.Code, languageDoc)
			continue
		}
		cells := strings.Split(row, " | ")
		if len(cells) < 3 || cells[1] != string(info.Severity) || cells[2] != info.Title {
			t.Errorf("%s: row %q must give severity %q and title %q", info.Code, row, info.Severity, info.Title)
		}
	}
}

// TestDocsListCatalog fails when a catalog element has no section in
// docs/language.md, or a property of it no row in that section with its
// type, whether it is required and its allowed values, minimum or
// maximum.
func TestDocsListCatalog(t *testing.T) {
	lines := readLanguageDoc(t)
	children := map[catalog.Children]string{
		catalog.NoChildren:   "Children: none",
		catalog.AnyChildren:  "Children: any",
		catalog.ItemTemplate: "Children: a required item template",
		catalog.Runs:         "Children: inline runs",
	}
	for _, e := range catalog.All() {
		section := elementSection(lines, e.Name)
		if section == nil {
			t.Errorf("element %s has no heading `### %s` in %s", e.Name, e.Name, languageDoc)
			continue
		}
		text := strings.Join(section, "\n")
		if !strings.Contains(text, children[e.Children]) {
			t.Errorf("element %s: its section must say %q", e.Name, children[e.Children])
		}
		primary := "Primary (positional) property: none"
		if e.Primary != "" {
			primary = "Primary (positional) property: `" + e.Primary + "`"
		}
		if !strings.Contains(text, primary) {
			t.Errorf("element %s: its section must say %q", e.Name, primary)
		}
		for _, p := range e.Props {
			required := "no"
			if p.Required {
				required = "yes"
			}
			prefix := fmt.Sprintf("| `%s` | `%s` | %s |", p.Name, p.Type, required)
			row := ""
			for _, l := range section {
				if strings.HasPrefix(l, "| `"+p.Name+"` |") {
					row = l
					break
				}
			}
			switch {
			case row == "":
				t.Errorf("element %s: property %s has no row in its section", e.Name, p.Name)
				continue
			case !strings.HasPrefix(row, prefix):
				t.Errorf("element %s: row %q must start %q", e.Name, row, prefix)
			}
			for _, v := range p.Values {
				if !strings.Contains(row, "`\""+v+"\"`") {
					t.Errorf("element %s: property %s must list the value %q", e.Name, p.Name, v)
				}
			}
			if p.HasMin && !strings.Contains(row, "≥ "+strconv.FormatInt(p.Min, 10)) {
				t.Errorf("element %s: property %s must give its minimum %d", e.Name, p.Name, p.Min)
			}
			if p.HasMax && !strings.Contains(row, "≤ "+strconv.FormatInt(p.Max, 10)) {
				t.Errorf("element %s: property %s must give its maximum %d", e.Name, p.Name, p.Max)
			}
		}
	}
}

// elementSection returns the lines under the heading `### name` up to the
// next heading, or nil.
func elementSection(lines []string, name string) []string {
	for i, l := range lines {
		if strings.TrimSpace(l) != "### "+name {
			continue
		}
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "#") {
			end++
		}
		return lines[i+1 : end]
	}
	return nil
}

// TestDocsExamplesParse parses every code block of docs/language.md whose
// fence says "acore file" or "axiom file": each is a complete file and
// must parse without a syntax error.
func TestDocsExamplesParse(t *testing.T) {
	lines := readLanguageDoc(t)
	type block struct {
		line int // of the opening fence
		info string
		src  string
	}
	var blocks []block
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		info := strings.TrimSpace(strings.TrimLeft(lines[i], "`"))
		start := i
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: code block is not closed", languageDoc, start+1)
		}
		if info == "acore file" || info == "axiom file" {
			blocks = append(blocks, block{start + 1, info, strings.Join(body, "\n") + "\n"})
		}
	}
	acore := 0
	for _, b := range blocks {
		if b.info == "acore file" {
			acore++
		}
		name := fmt.Sprintf("%s:%d", languageDoc, b.line)
		done := make(chan *syntax.File, 1)
		go func() { done <- syntax.Parse(name, []byte(b.src)) }()
		var f *syntax.File
		select {
		case f = <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: parsing the %q block does not finish", name, b.info)
		}
		for _, e := range f.Errors {
			p := f.Position(int(e.Pos))
			t.Errorf("%s: %q block, line %d column %d: %s %s", name, b.info, p.Line, p.Column, e.Code, e.Msg)
		}
	}
	if acore == 0 {
		t.Errorf("%s has no code block marked `acore file`", languageDoc)
	}
}
