package safefile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// openIn resolves name with openat2 and RESOLVE_BENEATH: the kernel
// refuses any step out of dir (EXDEV), absolute links included, and
// RESOLVE_NO_MAGICLINKS refuses /proc's links to open files. Kernels
// without openat2 (before 5.6, or filtered by seccomp) fall back to
// os.Root.
func openIn(dir, name string) (*os.File, error) {
	if !useOpenat2 {
		return rootOpen(dir, name)
	}
	dirfd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(dirfd)
	how := &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
	path := filepath.Join(dir, name)
	var fd int
	// EAGAIN: a rename elsewhere raced with the resolution; try again.
	for range 8 {
		if fd, err = unix.Openat2(dirfd, name, how); err != unix.EAGAIN {
			break
		}
	}
	switch err {
	case nil:
		return os.NewFile(uintptr(fd), path), nil
	case unix.ENOSYS:
		return rootOpen(dir, name)
	case unix.EXDEV:
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w %s", ErrEscapes, dir)}
	}
	return nil, &fs.PathError{Op: "open", Path: path, Err: err}
}
