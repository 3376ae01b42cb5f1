// Command minify writes runtime.min.js from runtime.js (go generate in
// internal/webapp/web/assets).
package main

import (
	"fmt"
	"os"

	"github.com/axiomcore/acore/internal/webapp/web/assets"
)

func main() {
	src, err := os.ReadFile("runtime.js")
	if err == nil {
		var out string
		if out, err = assets.Minify(string(src)); err == nil {
			err = os.WriteFile("runtime.min.js", []byte(out), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "minify:", err)
		os.Exit(1)
	}
}
