package axag

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/axiomcore/acore/internal/platform/fsutil"
)

// MaxManifestBytes bounds the manifest ReadManifest reads: far above what
// any application's actions take, far below what would exhaust memory.
var MaxManifestBytes int64 = 16 << 20

// ReadManifest reads a manifest file for axag validate and axag tools (see
// ReadRegular), at most MaxManifestBytes.
func ReadManifest(path string) ([]byte, error) {
	return ReadRegular(path, MaxManifestBytes, "a manifest")
}

// ReadRegular reads a regular file of at most max bytes. It opens without
// blocking and checks the opened file, so a FIFO (which would wait for a
// writer forever), a device such as /dev/zero (which never ends) or a
// directory is refused, even one swapped in after a check by name. what
// names the file's role in the error ("a manifest"). Errors do not repeat
// the path.
func ReadRegular(path string, max int64, what string) ([]byte, error) {
	f, st, err := fsutil.OpenRegularPath(path)
	if errors.Is(err, fsutil.ErrNotRegular) {
		return nil, fmt.Errorf("not a regular file (%s), so not %s", fsutil.FileType(st.Mode()), what)
	}
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			return nil, pe.Err
		}
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, fmt.Errorf("%d bytes, more than the %d %s may have", st.Size(), max, what)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("more than the %d bytes %s may have (it grew while read)", max, what)
	}
	return data, nil
}
