// Package editors_test holds the editor packages to what the language and
// the server say: the VS Code extension's manifest and grammar, and the
// Claude Code plugin.
package editors_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestVSCodeManifest(t *testing.T) {
	var pkg struct {
		Main        string
		Contributes struct {
			Languages []struct {
				ID            string
				Extensions    []string
				Configuration string
			}
			Grammars []struct{ Language, ScopeName, Path string }
		}
		Dependencies map[string]string
	}
	readJSON(t, "vscode/package.json", &pkg)
	exts := map[string]string{}
	for _, l := range pkg.Contributes.Languages {
		for _, e := range l.Extensions {
			exts[e] = l.ID
		}
		if _, err := os.Stat(filepath.Join("vscode", l.Configuration)); err != nil {
			t.Errorf("language %s: %v", l.ID, err)
		}
	}
	if exts[".acore"] != "acore" || exts[".axiom"] != "acore-contract" {
		t.Errorf("languages by extension: %v", exts)
	}
	for _, g := range pkg.Contributes.Grammars {
		if _, err := os.Stat(filepath.Join("vscode", g.Path)); err != nil {
			t.Errorf("grammar of %s: %v", g.Language, err)
		}
	}
	if _, err := os.Stat(filepath.Join("vscode", pkg.Main)); err != nil {
		t.Errorf("main: %v", err)
	}
	if pkg.Dependencies["vscode-languageclient"] == "" {
		t.Errorf("no vscode-languageclient dependency")
	}
	src, err := os.ReadFile(filepath.Join("vscode", pkg.Main))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `args: ["lsp"]`) {
		t.Errorf("%s does not run `axiom lsp`", pkg.Main)
	}
	// The server takes ui.lock as an open document (a rename's edit of it
	// is seen before it is saved) only when the client hands it over.
	if !strings.Contains(string(src), `pattern: "**/.axiom/ui.lock"`) {
		t.Errorf("%s does not hand .axiom/ui.lock to the server", pkg.Main)
	}
	if node, err := exec.LookPath("node"); err == nil {
		if out, err := exec.Command(node, "--check", filepath.Join("vscode", pkg.Main)).CombinedOutput(); err != nil {
			t.Errorf("node --check: %v\n%s", err, out)
		}
	}
}

// The grammar's patterns compile, and every keyword docs/language.md lists
// is highlighted as one.
func TestGrammar(t *testing.T) {
	var g struct {
		ScopeName  string
		Repository map[string]json.RawMessage
	}
	readJSON(t, "vscode/syntaxes/acore.tmLanguage.json", &g)
	if g.ScopeName != "source.acore" {
		t.Errorf("scope %q", g.ScopeName)
	}
	var keywordPatterns []*regexp.Regexp
	var visit func(name string, v any)
	visit = func(name string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && (k == "match" || k == "begin" || k == "end") {
					re, err := regexp.Compile(s)
					if err != nil {
						t.Errorf("%s: %s %q: %v", name, k, s, err)
						continue
					}
					if n, _ := v["name"].(string); k == "match" && (strings.HasPrefix(n, "keyword.declaration") || strings.HasPrefix(n, "keyword.control") || strings.HasPrefix(n, "keyword.other") || strings.HasPrefix(n, "constant.language")) {
						keywordPatterns = append(keywordPatterns, re)
					}
				}
				visit(name, x)
			}
		case []any:
			for _, x := range v {
				visit(name, x)
			}
		}
	}
	for name, raw := range g.Repository {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		visit(name, v)
	}
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(doc), "| Where | Keywords |")
	table, _, _ = strings.Cut(table, "\n\n")
	words := regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(table, -1)
	if len(words) < 15 {
		t.Fatalf("only %d keywords read from docs/language.md", len(words))
	}
	for _, w := range words {
		found := false
		for _, re := range keywordPatterns {
			if re.FindString(w[1]) == w[1] {
				found = true
			}
		}
		if !found {
			t.Errorf("keyword %s is not highlighted", w[1])
		}
	}
}

func TestClaudeCodePlugin(t *testing.T) {
	var p struct {
		Name       string
		LSPServers string `json:"lspServers"`
	}
	readJSON(t, "claude-code/.claude-plugin/plugin.json", &p)
	var servers map[string]struct {
		Command             string
		Args                []string
		ExtensionToLanguage map[string]string
	}
	readJSON(t, filepath.Join("claude-code", p.LSPServers), &servers)
	s, ok := servers["acore"]
	if p.Name != "acore" || !ok || s.Command != "axiom" || strings.Join(s.Args, " ") != "lsp" || s.ExtensionToLanguage[".acore"] != "acore" {
		t.Errorf("plugin %q, lspServers: %+v", p.Name, servers)
	}
}

// vscodeTools is the VS Code extension's directory once its npm packages
// are installed (npm ci in editors/vscode, as .ci/run does); without them
// the tests that need them skip, or fail under ACORE_EDITORS_REQUIRED=1.
func vscodeTools(t *testing.T) (node string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("vscode", "node_modules", "vscode-languageserver-protocol"))
	}
	if err != nil {
		if os.Getenv("ACORE_EDITORS_REQUIRED") == "1" {
			t.Fatalf("node and the extension's npm packages are required (npm ci in editors/vscode): %v", err)
		}
		t.Skipf("node or the extension's npm packages are missing (npm ci in editors/vscode): %v", err)
	}
	return node
}

// TestWireWithVSCodeClient runs test/wire.js: VS Code's own protocol
// client drives the built axiom lsp on a copy of the reading list
// (diagnostics as typed, UTF-16 positions, hover, definition, references,
// formatting, completion, the AXAG inlay hint, a rename applied to the
// files), and axiom check then finds the renamed project validated.
func TestWireWithVSCodeClient(t *testing.T) {
	node := vscodeTools(t)
	bin := filepath.Join(t.TempDir(), "axiom")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/axiomcore/acore/cmd/axiom").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := filepath.Join(t.TempDir(), "reading-list")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "examples", "reading-list"))); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "test/wire.js", bin, dir)
	cmd.Dir = "vscode"
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasSuffix(string(out), "ok\n") {
		t.Fatalf("node test/wire.js: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "check", dir).CombinedOutput(); err != nil {
		t.Fatalf("axiom check after the rename: %v\n%s", err, out)
	}
}

// TestGrammarAssertions runs vscode-tmgrammar-test on test/*.test.acore:
// each token's scopes as the files' assertions say.
func TestGrammarAssertions(t *testing.T) {
	node := vscodeTools(t)
	cmd := exec.Command(node, filepath.Join("node_modules", "vscode-tmgrammar-test", "dist", "unit.js"), "test/*.test.acore")
	cmd.Dir = "vscode"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vscode-tmgrammar-test: %v\n%s", err, out)
	}
}
