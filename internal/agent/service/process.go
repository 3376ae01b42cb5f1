package service

import (
	"github.com/axiomcore/acore/internal/agent/change"
	"github.com/axiomcore/acore/internal/agent/publish"
	"github.com/axiomcore/acore/internal/lang/project"
)

// ProcessConfig is the configuration of a process started to serve root
// (acore-semantic and acore-semantic-mcp): one set of candidates for the
// services of the process, the service's compile options, the first
// capture read as the process starts, failpoints armed from getenv's
// publish.FailpointEnv (for the kill tests), and the compile cache off
// when ACORE_COMPILE_CACHE is "off" (to measure a compile, or to rule the
// cache out). The environment is read through getenv, as the libraries
// read none of their own.
func ProcessConfig(root string, getenv func(string) string) Config {
	return Config{Root: root, Candidates: change.NewCandidates(),
		Failpoints:     publish.ParseFailpoints(getenv(publish.FailpointEnv)),
		Compile:        project.ServiceOptions(),
		NoCompileCache: getenv("ACORE_COMPILE_CACHE") == "off",
		Prime:          true}
}
