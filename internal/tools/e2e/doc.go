// Package e2e holds end-to-end tests and nothing else: they build the axiom
// and axag commands, run `axiom dev` and `axiom build` as processes on the
// task-app and on examples/reading-list, and drive the pages in headless
// Chromium through internal/tools/browsertest (skipped without Chromium, unless
// ACORE_BROWSER_REQUIRED=1). They also keep README's "Run your app"
// commands true, check that the examples stay validated at the AXAG full
// level, and, with ACORE_SCREENSHOTS=1, rewrite docs/screenshots.
package e2e
