package web

import (
	"fmt"

	"github.com/axiomcore/acore/internal/lang/diag"
)

// StylesPath is the project's own stylesheet, linked after the theme.
const StylesPath = "web/styles.css"

// MaxStylesBytes bounds web/styles.css.
const MaxStylesBytes = 1 << 20

// readStyles reads web/styles.css when the project has one, with the
// confined reading of web/externs.js. A stylesheet that is there but
// cannot be used is AC506 (a warning: the app works with the theme
// alone); a missing one is no stylesheet.
func readStyles(root string) ([]byte, []diag.Diagnostic) {
	data, why, _, missing := readProjectFile(root, StylesPath, MaxStylesBytes)
	switch {
	case missing:
		return nil, nil
	case why != "":
		return nil, []diag.Diagnostic{{Code: diag.FileNotRead, Severity: diag.Warning, Path: StylesPath, Line: 1, Column: 1,
			Message: fmt.Sprintf("%q was not read: %s; the app is built without it", StylesPath, why)}}
	}
	return data, nil
}
