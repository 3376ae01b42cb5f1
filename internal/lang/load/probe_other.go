//go:build !linux

package load

import (
	"errors"
	"io/fs"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// stampUnnamed fails: only Linux creates files without a name (O_TMPFILE).
func stampUnnamed(*fsutil.Root) (fs.FileInfo, error) { return nil, errors.ErrUnsupported }
