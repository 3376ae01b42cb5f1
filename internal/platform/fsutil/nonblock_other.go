//go:build !unix

package fsutil

// openNonblock is zero where there are no FIFOs to block on open.
const openNonblock = 0

// syncDirs is false on Windows, which cannot open directories for syncing
// and commits renames itself.
const syncDirs = false

// openDirectory is zero here: OpenDir checks the opened file instead.
const openDirectory = 0
