package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output embedded in testdata/script")

// TestMain lets the test binary stand in for the axiom command, so that
// scripts run it as a real process: exit statuses, stdout and stderr are
// the ones a user sees.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"axiom": main,
	})
}

// TestScripts runs testdata/script/*.txtar. Run with -update to rewrite
// the expected output embedded in the scripts after a deliberate change.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"pagebytes": pageBytes,
		},
		Setup: func(env *testscript.Env) error {
			// check prints roots with symlinks resolved (as the loader
			// sees them); $WORK may sit under a symlink (macOS /var).
			real, err := filepath.EvalSymlinks(env.WorkDir)
			if err != nil {
				return err
			}
			env.Setenv("REALWORK", real)
			return nil
		},
	})
}

// pageBytes (pagebytes DIST) checks that the last command's stdout gives
// as the page's size the bytes of DIST's HTML, scripts and stylesheets.
func pageBytes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pagebytes DIST")
	}
	dir := ts.MkAbs(args[0])
	ents, err := os.ReadDir(dir)
	ts.Check(err)
	size := 0
	for _, e := range ents {
		if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".html" || ext == ".js" || ext == ".css") {
			info, err := e.Info()
			ts.Check(err)
			size += int(info.Size())
		}
	}
	if want := fmt.Sprintf(", page %d bytes)", size); !strings.Contains(ts.ReadFile("stdout"), want) {
		ts.Fatalf("stdout does not say %q", want)
	}
}

// TestExitStatus pins the exit statuses scripts cannot see: testscript's
// "! exec" only says the status was not zero.
func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, exitUsage},
		{[]string{"frobnicate"}, exitUsage},
		{[]string{"check", "--frob"}, exitUsage},
		{[]string{"check", "a", "b"}, exitUsage},
		{[]string{"new"}, exitUsage},
		{[]string{"prepare", "a", "b"}, exitUsage},
		{[]string{"fmt", "--frob"}, exitUsage},
		{[]string{"version", "x"}, exitUsage},
		{[]string{"help", "frob"}, exitUsage},
		{[]string{"help"}, exitOK},
		{[]string{"-h"}, exitOK},
		{[]string{"check", "-h"}, exitOK},
		{[]string{"version"}, exitOK},
		{[]string{"check", filepath.Join(t.TempDir(), "missing")}, exitFail},
		{[]string{"prepare", filepath.Join(t.TempDir(), "missing")}, exitFail},
	} {
		if got := run(tc.args, io.Discard, io.Discard); got != tc.want {
			t.Errorf("axiom %s: exit status %d, want %d", strings.Join(tc.args, " "), got, tc.want)
		}
	}
}
