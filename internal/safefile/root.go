package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// useOpenat2 lets Linux resolve names with openat2; tests turn it off to
// check the os.Root path there too.
var useOpenat2 = true

// rootOpen opens name inside dir through os.Root, which walks the name
// one component at a time with openat and O_NOFOLLOW, so that no link or
// rename can take it out of dir between the check and the open.
func rootOpen(dir, name string) (*os.File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(name, os.O_RDONLY|nonblock, 0)
	if err != nil {
		var pe *fs.PathError
		// os.Root words an escape "path escapes from parent" and exports
		// no sentinel for it.
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, name), Err: fmt.Errorf("%w %s", ErrEscapes, dir)}
		}
		return nil, err
	}
	return f, nil
}
