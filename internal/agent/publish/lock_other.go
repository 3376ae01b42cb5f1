//go:build !unix

package publish

import "os"

// tryLock: without flock, applies are serialized within one process only.
func tryLock(*os.File) (bool, error) { return false, nil }

func unlock(*os.File) error { return nil }
